#!/usr/bin/env python3
"""Checks that no source file of src/, bench/, js/ or python/ is longer than
700 lines and no test file (below tests/, js/test/ or python/tests/) longer
than 1000. Sources are C, Python and JavaScript files (.c .h .py .js .mjs
.ts); node_modules, subprojects and dist are not read.

--pending FILE names a file being split elsewhere: it is reported, not
failed, while it is too long, and fails once it fits (so the name is
dropped from the list when the split lands).
Prints every file over its limit and ends with 'N passed, N failed'.
Usage: check_sizes.py [ROOT] [--pending FILE]...
       check_sizes.py --self-test
"""
import os
import shutil
import sys
import tempfile

FOLDERS = ['src', 'bench', 'js', 'python', 'tests']
TEST_DIRS = ['tests', 'js/test', 'python/tests']
EXTS = ('.c', '.h', '.py', '.js', '.mjs', '.ts')
SKIP = {'node_modules', 'subprojects', 'dist', '.git'}
SOURCE_MAX, TEST_MAX = 700, 1000


def limit(rel):
    return TEST_MAX if any(rel == d or rel.startswith(d + '/') for d in TEST_DIRS) else SOURCE_MAX


def check(root, pending=()):
    passed = failed = 0
    for top in FOLDERS:
        for base, dirs, names in os.walk(os.path.join(root, top)):
            dirs[:] = sorted(d for d in dirs if d not in SKIP and not d.startswith(('.', 'build')))
            for n in sorted(names):
                if not n.endswith(EXTS):
                    continue
                path = os.path.join(base, n)
                rel = os.path.relpath(path, root).replace(os.sep, '/')
                with open(path, encoding='utf-8', errors='replace') as fh:
                    lines = sum(1 for _ in fh)
                cap = limit(rel)
                if rel in pending:
                    if lines > cap:
                        print('PENDING %s: %d lines (limit %d), being split' % (rel, lines, cap))
                        passed += 1
                    else:
                        print('FAIL %s fits now (%d lines): drop it from --pending' % (rel, lines))
                        failed += 1
                elif lines > cap:
                    print('FAIL %s: %d lines (limit %d)' % (rel, lines, cap))
                    failed += 1
                else:
                    passed += 1
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


def self_test():
    """A source one line over 700 and a test one over 1000 must fail; at
    the limits they pass."""
    tmp = tempfile.mkdtemp()
    try:
        def put(rel, n):
            p = os.path.join(tmp, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, 'w') as fh:
                fh.write('x\n' * n)
        put('src/a.c', SOURCE_MAX)
        put('tests/t.c', TEST_MAX)
        put('js/test/t.js', TEST_MAX)
        put('js/src/m.js', SOURCE_MAX)
        ok = check(tmp) == 0
        put('src/a.c', SOURCE_MAX + 1)
        ok = ok and check(tmp) == 1
        put('src/a.c', SOURCE_MAX)
        put('js/test/t.js', TEST_MAX + 1)
        ok = ok and check(tmp) == 1
        ok = ok and check(tmp, pending={'js/test/t.js'}) == 0
        put('js/test/t.js', TEST_MAX)
        ok = ok and check(tmp, pending={'js/test/t.js'}) == 1
        print('self-test: %s' % ('limits found' if ok else 'FAIL'))
        return 0 if ok else 1
    finally:
        shutil.rmtree(tmp)


def main():
    args = sys.argv[1:]
    if args == ['--self-test']:
        return self_test()
    pending = set()
    while '--pending' in args:
        k = args.index('--pending')
        pending.add(args[k + 1])
        del args[k:k + 2]
    root = args[0] if args else os.path.join(os.path.dirname(__file__), '..')
    return check(os.path.abspath(root), pending)


if __name__ == '__main__':
    sys.exit(main())
