#!/usr/bin/env python3
"""Checks the layering of core/ (docs/ARCHITECTURE.md §2).

Builds the graph of #include "folder/File.h" edges between the folders of core/ and fails when
  * two or more core folders include each other, directly or around a loop (a folder cycle), or
  * a core file includes anything from ui/ or a Qt Widgets / Qt Gui header (core must build and
    run on a box without a display).
Usage: check_includes.py [ROOT]   (ROOT holds core/ and ui/; default: the checkout of this file)
       check_includes.py --graph [ROOT]   prints the folder graph and exits 0.
Exit 0 when clean, 1 with one line per problem, 2 on a usage error.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
# Qt modules core must not use: it links QtCore, QtNetwork and QtConcurrent only.
FORBIDDEN_QT = ("QtWidgets", "QtGui", "QtCharts", "QtSvg", "QtOpenGL")


def qt_module_headers():
    """Header names of the forbidden Qt modules found on this machine ("QWidget", "QColor", ...)."""
    names = {}
    for base in ("/usr/include/x86_64-linux-gnu/qt6", "/usr/include/aarch64-linux-gnu/qt6", "/usr/include/qt6"):
        for module in FORBIDDEN_QT:
            d = os.path.join(base, module)
            if os.path.isdir(d):
                for n in os.listdir(d):
                    if n.startswith("Q") and "." not in n:
                        names.setdefault(n, module)
    return names


def scan(root):
    core = os.path.join(root, "core")
    ui = os.path.join(root, "ui")
    if not os.path.isdir(core):
        raise SystemExit("check_includes: no core/ folder under %s" % root)
    folders = sorted(d for d in os.listdir(core) if os.path.isdir(os.path.join(core, d)))
    qt_forbidden = qt_module_headers()
    edges = {}  # (from, to) -> first "file includes header" seen
    problems = []
    for folder in folders:
        for dirpath, _, files in os.walk(os.path.join(core, folder)):
            for name in sorted(files):
                if not name.endswith((".h", ".cpp")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                for kind, target in INCLUDE.findall(text):
                    if kind == "<":
                        head = target.split("/")[0]
                        module = head if head in FORBIDDEN_QT else qt_forbidden.get(head if "/" not in target else "")
                        if module:
                            problems.append("%s includes <%s> (%s): core never uses %s" % (rel, target, module, module))
                        continue
                    if "/" not in target:
                        continue  # same-folder include
                    top = target.split("/")[0]
                    if os.path.isfile(os.path.join(core, target)):
                        if top != folder:
                            edges.setdefault((folder, top), "%s includes %s" % (rel, target))
                    elif os.path.isfile(os.path.join(ui, target)):
                        problems.append("%s includes ui/%s: core never includes ui" % (rel, target))
    return folders, edges, problems


def cycles(folders, edges):
    """Strongly connected components with more than one folder (Tarjan)."""
    graph = {f: sorted({b for (a, b) in edges if a == f}) for f in folders}
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, []):
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

    for f in folders:
        if f not in index:
            visit(f)
    return out


def main(argv):
    graph_only = "--graph" in argv
    args = [a for a in argv if a != "--graph"]
    if len(args) > 1 or any(a.startswith("-") for a in args):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root = args[0] if args else os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    folders, edges, problems = scan(root)
    if graph_only:
        for (a, b), why in sorted(edges.items()):
            print("%s -> %s   (%s)" % (a, b, why))
        return 0
    for comp in cycles(folders, edges):
        inside = sorted((a, b) for (a, b) in edges if a in comp and b in comp)
        problems.append("folder cycle %s: %s" % (" <-> ".join(comp), "; ".join(edges[e] for e in inside)))
    for p in problems:
        print("check_includes: " + p)
    if not problems:
        print("check_includes: %d core folders, %d edges, no cycle, nothing from ui/ or Qt Widgets/Gui" % (len(folders), len(edges)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
