#!/usr/bin/env python3
"""Checks that every arrow in src/, bench/, python/ and js/ points down the
layers: a file may include, call or import only its own layer and those
below. Arrows into another folder follow the folders' order (below).

Folders, top to bottom: bench (it reuses the tests' scenes and oracles);
python, js; tests; src; include. src may reach only src/ and include/
(the library knows none of its users); tests never reach bench/.

src/, by first folder:
  api       entry points of a single cull, status, version
  passes    the one-view runner, groups, views, prefilter, queries
  occlusion the depth pyramid and the occlusion test's passes (beside passes)
  raster    the occluder rasterizer's setup and drivers (beside passes)
  volumes   frusta; forms: box helpers and conversions (one level)
  dispatch  picks a path's kernel table
  isa       sse, neon, wasm, scalar: vector layers and the reference
  kernels   the generic kernels, instantiated by the vector layers
  core      shared types, argument checks

bench/, by file:
  program   a benchmark's main and the parts only it uses (bench.c,
            views*.c, dispatch.c, ...; bench.h, satc_bench's hub header)
  suites    rows, runs and reports shared by programs (forms, scalar,
            threads, dispatch_rows, view_cams, occ_bench, report, json, svg)
  peers     the other libraries' culls and the stream drivers (baseline_*,
            peers, stream*, splat_viewers)
  base      timing and goal lines

python/, by file:
  tests     the test oracles' C (python/tests/*.c)
  package   satc/__init__.py, the public names
  helpers   satc/_frusta.py: frustum builders over the module
  module    module.c: the module table (satc._satc as Python imports it)
  methods   the module's functions: cull, queries, groups, occlusion,
            pyramid, trs, batch
  args      argument parsing, arrays and outputs (args, arrays, outs)
  types     the Batch type and the shared header (batch_type.c, _satc.h)

js/, by folder, then within js/src by module:
  test, bench        the tests and benchmarks (above all else)
  demo, examples     programs built on the package
  src                the package:
    entry    index.js, three.js, trs.js: what users import
    three    three/: scene, batched, instances > occlusion, object-occlusion
             > occluder-mesh > views, drawn
    core     core.js, the cull calls over the module
    objects  batch, frustum, output, pyramid, memory
    leaves   check, clip, block, errors, loader
  scripts            build helpers (version.mjs)

Arrows: C #include "..." lines and calls of non-static functions,
resolved to the one file of the folder that defines them; Python
relative imports; JavaScript relative imports and re-exports.
Prints every upward arrow and ends with 'N passed, N failed'.
Usage: check_layers.py [ROOT]    (ROOT holds src/; a path ending in src
                                  checks only that folder, as before)
       check_layers.py --self-test
"""
import os
import re
import shutil
import sys
import tempfile

SRC_RANK = {'api': 7, 'passes': 6, 'occlusion': 6, 'raster': 6, 'volumes': 5, 'forms': 5, 'dispatch': 4,
            'sse': 3, 'neon': 3, 'wasm': 3, 'scalar': 3, 'kernels': 2, 'core': 1}

BENCH_RANK = {'program': 4, 'suites': 3, 'peers': 2, 'base': 1}
BENCH_FILES = {
    'suites': {'forms', 'forms_report', 'json', 'summary', 'svg', 'scalar', 'threads', 'dispatch_rows',
               'view_cams', 'occ_bench', 'report', 'results'},
    'peers': {'baselines', 'peers', 'stream', 'stream_avx2', 'splat_viewers'},
    'base': {'timing', 'goals'},
}

PY_RANK = {'tests': 7, 'package': 6, 'helpers': 5, 'module': 4, 'methods': 3, 'args': 2, 'types': 1}
PY_FILES = {'__init__': 'package', '_frusta': 'helpers', 'module': 'module', '_satc': 'module',
            'cull': 'methods', 'queries': 'methods', 'groups': 'methods', 'occlusion': 'methods',
            'pyramid': 'methods', 'pyramid_fill': 'methods', 'trs': 'methods', 'batch': 'methods', 'occluders': 'args',
            '_ply': 'helpers',
            'args': 'args', 'arrays': 'args', 'outs': 'args', '_arrays': 'args',
            'batch_type': 'types', '_satc.h': 'types'}

JS_RANK = {'test': 30, 'bench': 30, 'demo': 20, 'examples': 20,
           'entry': 15, 'three-top': 14, 'three-occl': 13, 'three-mesh': 12, 'three-base': 11,
           'core': 10, 'objects': 9, 'leaves': 8, 'scripts': 1}
JS_SRC = {'index': 'entry', 'three': 'entry', 'trs': 'entry', 'core': 'core', 'sorter': 'core',
          'trs-core': 'objects', 'ply': 'leaves',
          'batch': 'objects', 'frustum': 'objects', 'output': 'objects', 'pyramid': 'objects',
          'memory': 'objects', 'check': 'leaves', 'clip': 'leaves', 'block': 'leaves',
          'errors': 'leaves', 'loader': 'leaves',
          'three/scene': 'three-top', 'three/batched': 'three-top', 'three/instances': 'three-top',
          'three/occlusion': 'three-occl', 'three/object-occlusion': 'three-occl',
          'three/occluder-mesh': 'three-mesh', 'three/views': 'three-base', 'three/drawn': 'three-base'}

# Folder order for arrows that leave a folder.
FOLDER_RANK = {'bench': 5, 'python': 4, 'js': 4, 'tests': 3, 'src': 1, 'include': 0}
SKIP = {'node_modules', 'subprojects', 'dist', '.git'}


def stem(path):
    return os.path.splitext(os.path.basename(path))[0]


def src_layer(rel):
    top = rel.split('/')[0]
    return top if top in SRC_RANK else None


def bench_layer(rel):
    s = stem(rel)
    for name, members in BENCH_FILES.items():
        if s in members or (name == 'peers' and s.startswith('baseline_')):
            return name
    return 'program'


def py_layer(rel):
    parts = rel.split('/')
    if parts[0] == 'tests':
        return 'tests'
    if parts[0] != 'satc':
        return None
    base = os.path.basename(rel)
    return PY_FILES.get(base, PY_FILES.get(stem(rel)))


def js_layer(rel):
    parts = rel.split('/')
    if parts[0] != 'src':
        return parts[0] if parts[0] in JS_RANK else None
    return JS_SRC.get(os.path.splitext('/'.join(parts[1:]))[0])


def walk(root, exts):
    for base, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP and not d.startswith('.'))
        for n in sorted(names):
            if n.endswith(exts):
                yield os.path.normpath(os.path.join(base, n))


def strip_c(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', text)


DEF = re.compile(r'^(?!static\b)(?!typedef\b)(?:const\s+)?[A-Za-z_][\w \*]*?\b([A-Za-z_]\w*)\s*\([^;{()]*\)\s*\{',
                 re.M)
PROTO = re.compile(r'^[A-Za-z_][\w \*]*\b\w+\s*\([^;{]*\)\s*(?:__attribute__\s*\(\(.*?\)\)\s*)?;', re.M)
CALL = re.compile(r'\b([A-Za-z_]\w*)\s*\(')
KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'defined', 'main'}


class Checker:
    def __init__(self, root):
        self.root = root
        self.passed = self.failed = 0

    def rel(self, path):
        return os.path.relpath(path, self.root).replace(os.sep, '/')

    def folder(self, path):
        return self.rel(path).split('/')[0]

    def arrow(self, f, lf, rank_f, t, lt, rank_t, how):
        if rank_t > rank_f:
            print('FAIL %s (%s) %s %s (%s)' % (self.rel(f), lf, how, self.rel(t), lt))
            self.failed += 1
        else:
            self.passed += 1

    def c_folder(self, name, layer, rank, search, call_prefix):
        """C files below ROOT/name; search: folders that #include "..." looks in."""
        base = os.path.join(self.root, name)
        files = list(walk(base, ('.c', '.h')))
        lay = {}
        for f in files:
            lay[f] = layer(os.path.relpath(f, base).replace(os.sep, '/'))
            if lay[f] is None:
                print('FAIL %s is in no layer' % self.rel(f))
                self.failed += 1
        files = [f for f in files if lay[f]]
        raw = {f: open(f, encoding='utf-8', errors='replace').read() for f in files}
        defs = {}
        for f in files:
            if f.endswith('.c'):
                for m in DEF.finditer(strip_c(raw[f])):
                    if m.group(1) not in KEYWORDS and m.group(1).startswith(call_prefix):
                        defs.setdefault(m.group(1), set()).add(f)
        dirs = [os.path.join(self.root, d) for d in search]
        for f in files:
            for m in re.finditer(r'^\s*#\s*include\s+"([^"]+)"', raw[f], re.M):
                for d in [os.path.dirname(f)] + dirs:
                    t = os.path.normpath(os.path.join(d, m.group(1)))
                    if os.path.isfile(t):
                        break
                else:
                    continue
                if not t.startswith(self.root + os.sep):
                    continue
                tf = self.folder(t)
                if tf != name:
                    self.arrow(f, name, FOLDER_RANK[name], t, tf, FOLDER_RANK.get(tf, 9), 'includes')
                elif t in lay and lay[t]:
                    self.arrow(f, lay[f], rank[lay[f]], t, lay[t], rank[lay[t]], 'includes')
            # prototypes declare, they do not call
            body = PROTO.sub(' ', strip_c(raw[f]))
            for fn in sorted(set(CALL.findall(body)) - KEYWORDS):
                owners = defs.get(fn, set())
                if len(owners) != 1:  # a name defined in several programs is no arrow
                    continue
                (g,) = owners
                if g != f:
                    self.arrow(f, lay[f], rank[lay[f]], g, lay[g], rank[lay[g]], 'calls %s of' % fn)

    def py_imports(self, base):
        pat = re.compile(r'^\s*from\s+(\.+)([\w.]*)\s+import\s+([\w, ()]+)', re.M)
        for f in walk(os.path.join(base, 'satc'), ('.py',)):
            lf = py_layer(self.rel(f)[len('python/'):])
            if lf is None:
                print('FAIL %s is in no layer' % self.rel(f))
                self.failed += 1
                continue
            for m in pat.finditer(open(f, encoding='utf-8').read()):
                names = [m.group(2)] if m.group(2) else [n.strip(' ()') for n in m.group(3).split(',')]
                for n in names:
                    t = os.path.join(os.path.dirname(f), n.split('.')[0])
                    lt = py_layer(self.rel(t)[len('python/'):])
                    if lt:
                        self.arrow(f, lf, PY_RANK[lf], t, lt, PY_RANK[lt], 'imports')

    def js(self):
        base = os.path.join(self.root, 'js')
        pat = re.compile(r'''(?:^|\s)(?:import|export)\b[^'"`;]*?from\s*['"](\.[^'"]+)['"]|'''
                         r'''import\s*\(\s*['"](\.[^'"]+)['"]\s*\)|^\s*import\s+['"](\.[^'"]+)['"]''', re.M)
        for f in walk(base, ('.js', '.mjs')):
            rel = os.path.relpath(f, base).replace(os.sep, '/')
            if rel.split('/')[0] not in JS_RANK and rel.split('/')[0] != 'src':
                continue  # web/ and native/ builds import nothing relative
            lf = js_layer(rel)
            if lf is None:
                print('FAIL %s is in no layer' % self.rel(f))
                self.failed += 1
                continue
            text = re.sub(r'/\*.*?\*/', ' ', open(f, encoding='utf-8').read(), flags=re.S)
            text = re.sub(r'(^|[^:])//[^\n]*', r'\1', text)
            for m in pat.finditer(text):
                t = os.path.normpath(os.path.join(os.path.dirname(f), next(g for g in m.groups() if g)))
                if not os.path.isfile(t):
                    continue
                if not t.startswith(base + os.sep):
                    print('FAIL %s imports %s, outside js/' % (self.rel(f), self.rel(t)))
                    self.failed += 1
                    continue
                lt = js_layer(os.path.relpath(t, base).replace(os.sep, '/'))
                if lt is None:
                    continue
                self.arrow(f, lf, JS_RANK[lf], t, lt, JS_RANK[lt], 'imports')


def check(root, only_src=False):
    c = Checker(os.path.abspath(root))
    have = lambda d: os.path.isdir(os.path.join(c.root, d))
    c.c_folder('src', src_layer, SRC_RANK, ['src', 'include'], 'satc_')
    if not only_src:
        if have('bench'):
            c.c_folder('bench', bench_layer, BENCH_RANK,
                       ['bench', 'include', 'src', 'tests/common', 'tests/occlusion'], '')
        if have('python'):
            c.c_folder('python', py_layer, PY_RANK, ['python/satc', 'include', 'src', 'tests/common'], 'satc_')
            c.py_imports(os.path.join(c.root, 'python'))
        if have('js'):
            c.js()
    print('%d passed, %d failed' % (c.passed, c.failed))
    return 1 if c.failed else 0


def self_test():
    """A tiny tree with one upward arrow in each folder must fail once per
    arrow; the same tree without them must pass."""
    tmp = tempfile.mkdtemp()
    try:
        def put(rel, text):
            p = os.path.join(tmp, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, 'w', encoding='utf-8') as fh:
                fh.write(text)
        put('src/api/api.c', '#include "../core/core.h"\nint satc_top(void) { return satc_low(); }\n')
        put('src/core/core.h', 'int satc_low(void);\n')
        put('src/core/core.c', '#include "core.h"\nint satc_low(void) { return 1; }\n')
        put('bench/bench.c', '#include "timing.h"\nint main(void) { return tick(); }\n')
        put('bench/timing.h', 'int tick(void);\n')
        put('bench/timing.c', 'int tick(void) { return 0; }\n')
        put('python/satc/cull.c', '#include "_satc.h"\n')
        put('python/satc/_satc.h', '\n')
        put('js/src/index.js', "import { a } from './core.js';\nexport { a };\n")
        put('js/src/core.js', "import { e } from './errors.js';\nexport const a = e;\n")
        put('js/src/errors.js', 'export const e = 1;\n')
        if check(tmp) != 0:
            print('FAIL self-test: the clean tree fails')
            return 1
        put('src/core/core.c', '#include "core.h"\n#include "../api/api.h"\nint satc_low(void) { return 1; }\n')
        put('src/api/api.h', 'int satc_top(void);\n')
        put('bench/timing.c', 'int helper(void);\nint tick(void) { return helper(); }\n')
        put('bench/bench.c', '#include "timing.h"\nint helper(void) { return 0; }\nint main(void) { return tick(); }\n')
        put('python/satc/_satc.h', '#include "_arrays.h"\n')
        put('python/satc/_arrays.h', '\n')
        put('js/src/errors.js', "import { a } from './core.js';\nexport const e = 1;\n")
        out = sys.stdout
        sys.stdout = buf = __import__('io').StringIO()
        try:
            rc = check(tmp)
        finally:
            sys.stdout = out
        fails = [l for l in buf.getvalue().splitlines() if l.startswith('FAIL')]
        print(buf.getvalue(), end='')
        want = ['src/core/core.c (core) includes src/api/api.h (api)',
                'bench/timing.c (base) calls helper of bench/bench.c (program)',
                'python/satc/_satc.h (types) includes python/satc/_arrays.h (args)',
                'js/src/errors.js (leaves) imports js/src/core.js (core)']
        missing = [w for w in want if 'FAIL ' + w not in fails]
        if rc == 0 or len(fails) != len(want) or missing:
            print('FAIL self-test: expected exactly %s, missing %s' % (want, missing))
            return 1
        print('self-test: %d upward arrows found, as planted' % len(fails))
        return 0
    finally:
        shutil.rmtree(tmp)


def main():
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    arg = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..')
    arg = os.path.abspath(arg)
    if os.path.basename(arg) == 'src' and not os.path.isdir(os.path.join(arg, 'src')):
        return check(os.path.dirname(arg), only_src=True)
    return check(arg)


if __name__ == '__main__':
    sys.exit(main())
