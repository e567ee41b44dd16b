#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Calls go down (docs/style.md, "Layers: calls go down"): the include graph of engine/, selfplay/
# and tuner/ as the compiler resolves it, checked against the layer order that docs/style.md
# writes in its ```layers block. Fails on an include from a lower layer into a higher one, on an
# include between two rooms of one layer, and on any circle of modules (a .c file with the .h of
# the same name in its folder is one module, as a call between two .c files goes through a header;
# so is an X_internal.h, the private half of X.h).
#
# Which files each translation unit includes comes from the compiler's own dependency output:
# `CC -MM` with the unit's flags from the build's compile_commands.json. Which of those files
# includes which is read from their #include "..." lines, each resolved only to a file of that
# output (the one the compiler found), never guessed from the tree.
#
# Usage: tests/layers_check.py BUILD_DIR [REPO_ROOT] [--graph] [--pretend=FILE:HEADER]
#   --graph: print every module's layer and its includes (to write or review the layer order).
#   --pretend=FILE:HEADER: check as if FILE included HEADER (both repository paths): the check's
#     own test, which must fail on an arrow back up (ctest layers_check_catches).
import json
import os
import re
import shlex
import subprocess
import sys
from fnmatch import fnmatchcase

SCOPE = ("engine/", "selfplay/", "tuner/")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def read_layers(root):
    """The ```layers block of docs/style.md: one layer a line, bottom first; a line's rooms are
    parted by '|', each one or more patterns (a folder ending in '/', or a glob of paths).
    Returns [(line, [[patterns of a room], ...])]."""
    text = open(os.path.join(root, "docs", "style.md"), encoding="utf-8").read()
    m = re.search(r"^```layers\n(.*?)^```", text, re.M | re.S)
    if not m:
        sys.exit("layers_check: docs/style.md has no ```layers block")
    layers = []
    for line in m.group(1).splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            layers.append((line, [room.split() for room in line.split("|")]))
    return layers


def room_of(path, layers):
    """(layer index, room name, pattern) of path: by the longest pattern that matches it; None
    when none does. A room is named by its first pattern."""
    best = None
    for i, (_, rooms) in enumerate(layers):
        for room in rooms:
            for p in room:
                hit = path.startswith(p) if p.endswith("/") else fnmatchcase(path, p)
                if hit and (best is None or len(p) > len(best[2])):
                    best = (i, room[0], p)
    return best


def unit_deps(entry, root):
    """The repository files that translation unit entry includes, as CC -MM finds them."""
    args = entry.get("arguments") or shlex.split(entry["command"])
    keep, skip = [args[0]], False
    for a in args[1:]:
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
            continue
        if a in ("-c", "-MD", "-MMD") or a == entry["file"]:
            continue
        keep.append(a)
    out = subprocess.run(keep + ["-MM", entry["file"]], cwd=entry["directory"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"layers_check: {entry['file']}: {out.stderr.strip()}")
    words = out.stdout.replace("\\\n", " ").split(":", 1)[1].split()
    files = []
    for w in words:
        p = os.path.relpath(os.path.realpath(os.path.join(entry["directory"], w)), root)
        if p.startswith(SCOPE):
            files.append(p)
    return files


def module_of(path):
    """A .c file, the .h of its name in its folder and its X_internal.h are one module, named by
    its stem."""
    stem, ext = os.path.splitext(path)
    if ext not in (".c", ".h"):
        return path
    return stem[: -len("_internal")] if stem.endswith("_internal") else stem


def include_edges(root, entries):
    """(module, module) edges: each file's #include "..." resolved within its unit's deps."""
    edges = {}
    for entry in entries:
        src = os.path.relpath(os.path.realpath(entry["file"]), root)
        if not src.startswith(SCOPE):
            continue
        deps = unit_deps(entry, root)
        for f in set(deps):
            text = open(os.path.join(root, f), encoding="utf-8", errors="replace").read()
            for name in INCLUDE.findall(text):
                near = os.path.normpath(os.path.join(os.path.dirname(f), name))
                found = [d for d in deps if d == near or d.endswith("/" + name)]
                if near in deps:
                    found = [near]
                if len(set(found)) > 1:
                    sys.exit(f"layers_check: {f}: \"{name}\" is ambiguous: {sorted(set(found))}")
                if found and module_of(found[0]) != module_of(f):
                    edges.setdefault((module_of(f), module_of(found[0])), (f, found[0]))
    return edges


def cycles(nodes, edges):
    """The strongly connected components of more than one module (Tarjan)."""
    succ = {n: [] for n in nodes}
    for a, b in edges:
        succ[a].append(b)
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in succ[v]:
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
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main():
    pretend = [a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--pretend=")]
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if not args:
        sys.exit("usage: layers_check.py BUILD_DIR [REPO_ROOT] [--graph]")
    build = os.path.abspath(args[0])
    root = os.path.realpath(args[1] if len(args) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    entries = json.load(open(os.path.join(build, "compile_commands.json"), encoding="utf-8"))
    layers = read_layers(root)
    edges = include_edges(root, entries)
    for p in pretend:
        f, h = p.split(":", 1)
        edges.setdefault((module_of(f), module_of(h)), (f, h))
    nodes = {m for e in edges for m in e}
    problems = []
    for m in sorted(nodes):
        if room_of(m + ".c", layers) is None and room_of(m + ".h", layers) is None and \
                room_of(m, layers) is None:
            problems.append(f"{m}: in no layer of docs/style.md")

    def layer(m):
        return room_of(m + ".c", layers) or room_of(m + ".h", layers) or room_of(m, layers)

    for (a, b), (fa, fb) in sorted(edges.items()):
        la, lb = layer(a), layer(b)
        if la is None or lb is None:
            continue
        if lb[0] > la[0]:
            problems.append(f"arrow back up: {fa} includes {fb} ({la[1]} is below {lb[1]})")
        elif lb[0] == la[0] and lb[1] != la[1]:
            problems.append(f"arrow across: {fa} includes {fb} ({la[1]} and {lb[1]} are peers)")
    for comp in cycles(nodes, edges):
        ties = [f"{edges[(a, b)][0]} -> {edges[(a, b)][1]}" for a in comp for b in comp
                if (a, b) in edges]
        problems.append("circle: " + ", ".join(comp) + " (" + "; ".join(ties) + ")")
    if "--graph" in sys.argv:
        for m in sorted(nodes):
            outs = sorted(b for (a, b) in edges if a == m)
            print(f"{layer(m)[1] if layer(m) else '?'}\t{m}\t-> {' '.join(outs)}")
    for p in problems:
        print("layers_check:", p)
    print(f"layers_check: {len(nodes)} modules, {len(edges)} arrows, {len(layers)} layers, "
          f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
