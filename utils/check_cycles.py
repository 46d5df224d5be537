#!/usr/bin/env python3
"""Fails when the files under the given folders form a dependency cycle.

Two graphs, each must be acyclic:
  includes  file -> file it #includes "..." (quoted includes found in the folders);
  calls     X.c -> Y.c when a function defined in X.c names one defined in Y.c
            (a call, or a function pointer handed over, e.g. to atexit).
A call cycle through the back door (A registers B's handler while B walks A's
state) shows up in the second graph even though no header includes the other.

  utils/check_cycles.py DIR...
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
DEFINITION = re.compile(r"^[A-Za-z_][\w \t\*]*\b([A-Za-z_]\w*)\s*\([^;]*$", re.M)
IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
COMMENT_OR_STRING = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'', re.S)


def strip(text):
    return COMMENT_OR_STRING.sub(lambda m: " " if m.group(0)[0] == "/" else '""', text)


def include_graph(files):
    by_name = {}
    for f in files:
        by_name.setdefault(f.name, []).append(f)
    graph = {}
    for f in files:
        targets = set()
        for name in INCLUDE.findall(f.read_text(errors="replace")):
            base = pathlib.Path(name).name
            for t in by_name.get(base, []):
                if t != f and (t.name == name or str(t).endswith("/" + name)):
                    targets.add(t)
        graph[f] = targets
    return graph


def defined_functions(text):
    """Top-level function definitions: a signature line followed by '{' in column 0."""
    names = set()
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if not line.startswith("{"):
            continue
        for j in range(i - 1, max(i - 6, -1), -1):
            m = DEFINITION.match(lines[j])
            if m and "=" not in lines[j].split("(")[0]:
                names.add(m.group(1))
                break
    return names


def call_graph(c_files):
    texts = {f: strip(f.read_text(errors="replace")) for f in c_files}
    owner = {}
    for f, text in texts.items():
        for name in defined_functions(text):
            if not re.search(r"\bstatic\b[^;{]*\b" + name + r"\s*\(", text):
                owner[name] = f
    graph = {}
    for f, text in texts.items():
        graph[f] = {owner[i] for i in set(IDENTIFIER.findall(text))
                    if i in owner and owner[i] != f}
    return graph


def cycles(graph):
    """Strongly connected components with more than one node (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def main():
    dirs = [pathlib.Path(d) for d in sys.argv[1:]]
    if not dirs:
        print(__doc__, file=sys.stderr)
        return 2
    files = sorted({f for d in dirs for f in d.rglob("*.[ch]")})
    c_files = [f for f in files if f.suffix == ".c"]
    failed = 0
    for label, graph in (("include", include_graph(files)), ("call", call_graph(c_files))):
        edges = sum(len(t) for t in graph.values())
        found = cycles(graph)
        print(f"{label} graph: {len(graph)} files, {edges} edges, {len(found)} cycles")
        for component in found:
            failed = 1
            print(f"error: {label} cycle among: " + ", ".join(str(f) for f in component),
                  file=sys.stderr)
            for f in component:
                inside = sorted(str(t) for t in graph[f] if t in component)
                print(f"  {f} -> {', '.join(inside)}", file=sys.stderr)
    return failed


if __name__ == "__main__":
    sys.exit(main())
