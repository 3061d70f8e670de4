#!/usr/bin/env python3
"""Every file path and every satc_/SATC_ name the manual (README.md,
docs/*.md, CHANGELOG.md, bench/README.md, js/README.md, python/README.md,
src/wasm/README.md) and the public header (include/satc.h) mention must
exist: a path as a file or directory of the repository (or of the build,
for build outputs), a name in the sources. Also no tracker references
(issue numbers, seeds, SPEC sections) anywhere a user reads, no
lab-notebook words (goals, MISS, issues, seeds, "tried") in the prose of
README.md and docs/*.md, and in every manual page but the changelog no
experiment or history ("tried", "not kept", "aimed at" a size, before ->
after figures). Prints each problem; exit status 1 if any.

    check_docs.py REPO_ROOT
"""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else '.')

DOCS = ['README.md', 'CHANGELOG.md', 'bench/README.md', 'js/README.md', 'python/README.md',
        'src/wasm/README.md']
DOCS += sorted('docs/' + f for f in os.listdir(os.path.join(ROOT, 'docs')) if f.endswith('.md'))
HEADER = 'include/satc.h'

EXT = r'(?:c|h|md|mjs|js|ts|py|ini|txt|svg|png|json|cmake|build|in|sh|wasm|pc)'
PATH_RE = re.compile(r'(?<![\w./-])((?:\.\./)?[\w.-]+(?:/[\w.*-]+)+/?|[\w-]+\.' + EXT + r')(?![\w/])')
NAME_RE = re.compile(r'\b((?:satc|SATC)_\w+)')
TRACKER = re.compile(r'(?<![-\w])(?:[Ii]ssues? \d+|[Ss]eeds? \d{3}\b|SPEC\b)')
# The manual's pages are for users: no project goals, PASS/MISS verdicts,
# tracker issues, random seeds or experiments ("tried") in their prose.
# Code spans and blocks may name options such as `--seed`.
LAB = re.compile(r'\b(?:[Gg]oals?|[Ii]ssues?|[Ss]eeds?|[Ss]eeded|[Tt]ried)\b|\bMISS(?:ED|ES)?\b')
LAB_DOCS = ['README.md'] + [d for d in DOCS if d.startswith('docs/')]
# Every manual page but the changelog (bench/README.md and js/README.md
# document the --goals switch, so goal words are allowed there): no
# experiments, nothing dropped, no size or speed one aimed at, no figures
# as before -> after pairs (give the current figure).
HISTORY = re.compile(r'\b(?:[Tt]ried|[Nn]ot kept|[Ii]ssue\'s)\b|\baimed at\b(?! (?:a|the) (?:point|target))'
                     r'|\d\s*(?:->|→)\s*[\d.]')
HISTORY_DOCS = [d for d in DOCS if d != 'CHANGELOG.md']


def tracked_files():
    out = subprocess.run(['git', '-C', ROOT, 'ls-files'], capture_output=True, text=True)
    if out.returncode != 0:  # not a git checkout: walk the tree
        files = []
        for d, _, fs in os.walk(ROOT):
            if '/build' in d or 'node_modules' in d or '/.git' in d:
                continue
            files += [os.path.relpath(os.path.join(d, f), ROOT) for f in fs]
        return files
    return out.stdout.split()


FILES = tracked_files()
SOURCES = [f for f in FILES if re.search(r'\.(c|h|in|build|txt|py|mjs|js|ts|sh|cmake|ini)$', f) or f.startswith('.ci/')]
NAMES = set()
for f in SOURCES:
    try:
        with open(os.path.join(ROOT, f), encoding='utf-8', errors='replace') as fh:
            NAMES.update(NAME_RE.findall(fh.read()))
    except OSError:
        pass
TOP = {f.split('/')[0] for f in FILES if '/' in f} - {'build'}
DIRS = {os.path.dirname(f) for f in FILES}
for d in list(DIRS):
    while d:
        d = os.path.dirname(d)
        DIRS.add(d)


def ignored(p):
    """Outputs the tree ignores (.gitignore), e.g. a benchmark's last run."""
    r = subprocess.run(['git', '-C', ROOT, 'check-ignore', '-q', p], capture_output=True)
    return r.returncode == 0


def path_exists(p, doc_dir):
    p = p.rstrip('/').rstrip('.')
    if '*' in p:
        pat = re.compile('^' + re.escape(p).replace(r'\*', '[^/]*') + '$')
        return any(pat.match(f) for f in FILES)
    for base in ('', doc_dir):
        q = os.path.normpath(os.path.join(base, p))
        if q in FILES or q in DIRS:
            return True
    return False


problems = []


def check_text(name, text, code_only):
    doc_dir = os.path.dirname(name)
    # Markdown links: [text](target), relative to the file.
    for m in re.finditer(r'\]\(([^)#\s]+)(?:#[^)]*)?\)', text):
        t = m.group(1)
        if re.match(r'^[a-z]+:', t):
            continue
        if not path_exists(t, doc_dir):
            problems.append(f'{name}: link to a missing file: {t}')
    # Paths in code spans (docs) or anywhere (the header): those under one
    # of the repository's top directories, and *.md files.
    spans = re.findall(r'`([^`\n]+)`', text) if code_only else [text]
    for span in spans:
        for p in PATH_RE.findall(span):
            p = p.rstrip('.,:;')
            head = p.split('/')[0]
            if head not in TOP and not (head == '..' and len(p.split('/')) > 1 and p.split('/')[1] in TOP) \
                    and not ('/' not in p and p.endswith('.md')):
                continue
            if not path_exists(p, doc_dir) and not ignored(p) and not any(f.startswith(p + '.') for f in FILES):
                problems.append(f'{name}: names a path that does not exist: {p}')
        for n in NAME_RE.findall(span):
            if n not in NAMES and n.rstrip('_') not in NAMES and not any(x.startswith(n) for x in NAMES):
                problems.append(f'{name}: names {n}, which no source defines')
    prose = re.sub(r'```.*?```', lambda m: '\n' * m.group(0).count('\n'), text, flags=re.S)
    prose = re.sub(r'`[^`\n]*`', '``', prose)
    found = []
    if name in LAB_DOCS:
        found += list(LAB.finditer(prose))
    if name in HISTORY_DOCS:
        found += list(HISTORY.finditer(prose))
    for m in sorted({m.start(): m for m in found}.values(), key=lambda m: m.start()):
        line = prose.count('\n', 0, m.start()) + 1
        word = m.group(0).replace('\n', ' ')
        problems.append(f'{name}:{line}: reads as a lab notebook ("{word}"): write what users can rely on')
    for m in TRACKER.finditer(text):
        line = text.count('\n', 0, m.start()) + 1
        problems.append(f'{name}:{line}: cites a tracker or source document ("{m.group(0)}")')


for d in DOCS:
    path = os.path.join(ROOT, d)
    if not os.path.exists(path):
        if d == 'CHANGELOG.md':
            problems.append('CHANGELOG.md is missing')
        continue
    with open(path, encoding='utf-8') as fh:
        check_text(d, fh.read(), True)
with open(os.path.join(ROOT, HEADER), encoding='utf-8') as fh:
    check_text(HEADER, fh.read(), False)

# docs/build-systems.md's CMake snippet compiles the library from its
# sources: it must name exactly the files meson.build compiles.
SRC_RE = re.compile(r'src/[a-z_/0-9]+\.c')
with open(os.path.join(ROOT, 'meson.build'), encoding='utf-8') as fh:
    m = re.search(r'^satc_sources = files\((.*?)^\)', fh.read(), re.M | re.S)
with open(os.path.join(ROOT, 'tests/consumers/cmake-vendored/satc.cmake'), encoding='utf-8') as fh:
    c = re.search(r'^add_library\(satc STATIC(.*?)\)$', fh.read(), re.M | re.S)
if not m or not c:
    problems.append('meson.build or the vendored CMake file lost its source list')
else:
    want, have = set(SRC_RE.findall(m.group(1))), set(SRC_RE.findall(c.group(1)))
    for f in sorted(want - have):
        problems.append(f'tests/consumers/cmake-vendored/satc.cmake: misses {f} (meson.build compiles it)')
    for f in sorted(have - want):
        problems.append(f'tests/consumers/cmake-vendored/satc.cmake: names {f}, which meson.build does not compile')

for p in problems:
    print(p)
print(f'{len(DOCS) + 1} files checked, {len(problems)} problems')
sys.exit(1 if problems else 0)
