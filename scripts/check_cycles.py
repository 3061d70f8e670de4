#!/usr/bin/env python3
"""Checks that no two files of a folder depend on each other, directly
or through others (no circles), in the C folders (src, bench, python)
and the JavaScript one (js/src, js/test, js/bench, js/scripts).

A C file depends on the files it includes with #include "..." and a .c
file on the .c file that defines a non-static function it calls. A JavaScript
file depends on what it imports or re-exports from a relative path.
Prints every circle and ends with 'N passed, N failed'.
Usage: check_cycles.py [ROOT]
"""
import os
import re
import sys

C_DIRS = ['src', 'bench', 'python']
JS_DIRS = ['js/src', 'js/test', 'js/bench', 'js/scripts', 'js/demo', 'js/examples']
SKIP = {'node_modules', 'subprojects', 'dist'}


def walk(root, exts):
    for base, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIP and not d.startswith('.')]
        for n in names:
            if n.endswith(exts):
                yield os.path.normpath(os.path.join(base, n))


def strip_c(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', text)


DEF = re.compile(r'^(?!static\b)(?!typedef\b)(?:const\s+)?[A-Za-z_][\w \*]*?\b([A-Za-z_]\w*)\s*\([^;{()]*\)\s*\{', re.M)
CALL = re.compile(r'\b([A-Za-z_]\w*)\s*\(')
KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'defined', 'main'}


def c_graph(root):
    files = list(walk(root, ('.c', '.h')))
    raw = {f: open(f, encoding='utf-8', errors='replace').read() for f in files}
    defs = {}
    for f in files:
        if f.endswith('.c'):
            for m in DEF.finditer(strip_c(raw[f])):
                if m.group(1) not in KEYWORDS:
                    defs.setdefault(m.group(1), set()).add(f)
    edges = {f: set() for f in files}
    for f in files:
        for m in re.finditer(r'^\s*#\s*include\s+"([^"]+)"', raw[f], re.M):
            t = os.path.normpath(os.path.join(os.path.dirname(f), m.group(1)))
            if t in edges and t != f:
                edges[f].add(t)
        if f.endswith('.h'):  # a header's macros and inlines run where they expand
            continue
        # prototypes declare, they do not call
        body = re.sub(r'^[A-Za-z_][\w \*]*\b\w+\s*\([^;{]*\)\s*(?:__attribute__\s*\(\(.*?\)\)\s*)?;', ' ',
                      strip_c(raw[f]), flags=re.M)
        for name in set(CALL.findall(body)) - KEYWORDS:
            owners = defs.get(name, set())
            if len(owners) == 1:  # a name defined in several programs is no edge
                (g,) = owners
                if g != f and os.path.dirname(g) == os.path.dirname(f):
                    edges[f].add(g)
    return edges


def js_graph(root):
    files = list(walk(root, ('.js', '.mjs')))
    edges = {f: set() for f in files}
    pat = re.compile(r'''(?:^|\s)(?:import|export)\b[^'"`;]*?from\s*['"](\.[^'"]+)['"]|import\s*\(\s*['"](\.[^'"]+)['"]\s*\)|^\s*import\s+['"](\.[^'"]+)['"]''', re.M)
    for f in files:
        text = re.sub(r'/\*.*?\*/', ' ', open(f, encoding='utf-8').read(), flags=re.S)
        text = re.sub(r'(^|[^:])//[^\n]*', r'\1', text)
        for m in pat.finditer(text):
            rel = next(g for g in m.groups() if g)
            t = os.path.normpath(os.path.join(os.path.dirname(f), rel))
            if t in edges and t != f:
                edges[f].add(t)
    return edges


def circles(edges):
    """Strongly connected components of more than one file (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..'))
    passed = failed = 0
    for d, graph in [(d, c_graph) for d in C_DIRS] + [(d, js_graph) for d in JS_DIRS]:
        path = os.path.join(root, d)
        if not os.path.isdir(path):
            continue
        edges = graph(path)
        found = circles(edges)
        for comp in found:
            print('FAIL circle in %s: %s' % (d, ' <-> '.join(os.path.relpath(f, root) for f in comp)))
            failed += 1
        n = sum(len(e) for e in edges.values())
        print('%s: %d files, %d arrows, %d circles' % (d, len(edges), n, len(found)))
        passed += 1 if not found else 0
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
