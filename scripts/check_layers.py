#!/usr/bin/env python3
"""Checks that every arrow in src/ points down the layers (issue 24).

Layers, top to bottom (a file may include or call only its own layer and
those below):
  api       entry points of a single cull, status, version
  passes    the one-view runner, groups, views, prefilter, queries
  occlusion the depth pyramid and the occlusion test's passes (beside passes)
  raster    the occluder rasterizer's setup and drivers (beside passes)
  volumes   frusta; forms: box helpers and conversions (one level)
  dispatch  picks a path's kernel table
  isa       sse, neon, wasm, scalar: vector layers and the reference
  kernels   the generic kernels, instantiated by the vector layers
  core      shared types, argument checks
Arrows are #include "..." lines and calls of non-static functions,
resolved to the file that defines them. Prints every upward arrow and
ends with 'N passed, N failed'. Usage: check_layers.py [SRC_DIR]
"""
import os
import re
import sys

RANK = {'api': 7, 'passes': 6, 'occlusion': 6, 'raster': 6, 'volumes': 5, 'forms': 5, 'dispatch': 4,
        'sse': 3, 'neon': 3, 'wasm': 3, 'scalar': 3, 'kernels': 2, 'core': 1}


def layer(path, src):
    top = os.path.relpath(path, src).split(os.sep)[0]
    return top if top in RANK else None


def strip(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', text)


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', 'src')
    src = os.path.abspath(src)
    files = []
    for root, _, names in os.walk(src):
        files += [os.path.join(root, n) for n in names if n.endswith(('.c', '.h'))]
    passed = failed = 0
    unknown = [f for f in files if layer(f, src) is None]
    for f in unknown:
        print('FAIL %s is in no layer' % os.path.relpath(f, src))
        failed += 1
    files = [f for f in files if layer(f, src)]
    defs = {}
    raw = {f: open(f, encoding='utf-8').read() for f in files}
    for f in files:
        if not f.endswith('.c'):
            continue
        for m in re.finditer(r'^(?!static)(?:const )?[A-Za-z_][\w \*]*?\b(satc_\w+)\s*\([^;{]*\)\s*\{',
                             strip(raw[f]), re.M):
            defs.setdefault(m.group(1), f)
    for f in files:
        lf = layer(f, src)
        for m in re.finditer(r'^\s*#\s*include\s+"([^"]+)"', raw[f], re.M):
            target = os.path.normpath(os.path.join(os.path.dirname(f), m.group(1)))
            if not os.path.exists(target) or not target.startswith(src + os.sep):
                continue
            lt = layer(target, src)
            if RANK[lt] > RANK[lf]:
                print('FAIL %s (%s) includes %s (%s)' % (os.path.relpath(f, src), lf,
                                                        os.path.relpath(target, src), lt))
                failed += 1
            else:
                passed += 1
        # prototypes declare, they do not call
        body = re.sub(r'^[A-Za-z_][\w \*]*\bsatc_\w+\s*\([^;{]*\)\s*;', ' ', strip(raw[f]), flags=re.M)
        for name in sorted(set(re.findall(r'\b(satc_\w+)\s*\(', body))):
            g = defs.get(name)
            if not g or g == f:
                continue
            lg = layer(g, src)
            if RANK[lg] > RANK[lf]:
                print('FAIL %s (%s) calls %s of %s (%s)' % (os.path.relpath(f, src), lf, name,
                                                           os.path.relpath(g, src), lg))
                failed += 1
            else:
                passed += 1
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
