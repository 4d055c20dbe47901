#!/usr/bin/env python3
"""Checks the layering of core/ and ui/ against the ladder in docs/ARCHITECTURE.md §2.

The ladder is written once, in the ```ladder block of docs/ARCHITECTURE.md §2: for core/ and for
ui/, rungs from top to bottom, each naming one or more folders. This script reads it from there
(so the document and the check cannot disagree) and fails when
  * a folder includes a folder on its own rung (beside it) or on a higher rung (above it),
  * two or more folders include each other, directly or around a loop (a folder cycle),
  * a folder of core/ or ui/ is on no rung, or the ladder names a folder that does not exist,
    or the §1 table does not list a core/ folder as `core/NAME`,
  * a core file includes anything from ui/ or app/, or a Qt Widgets / Qt Gui header (core must
    build and run on a box without a display), or a ui file includes anything from app/,
  * a ui include names a header that exists in both ui/ and core/ (which one is meant?).
Files at ui/'s root (GuiMain.cpp) stand above every ui rung; app/ may include anything.
Usage: check_includes.py [ROOT]   (ROOT holds core/, ui/, app/ and docs/; default: this checkout)
       check_includes.py --graph [ROOT]   prints the folder graph with each folder's rung and exits 0.
Exit 0 when clean, 1 with one line per problem, 2 on a usage error.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
# Qt modules core must not use: it links QtCore, QtNetwork and QtConcurrent only.
FORBIDDEN_QT = ("QtWidgets", "QtGui", "QtCharts", "QtSvg", "QtOpenGL")
DOC = os.path.join("docs", "ARCHITECTURE.md")
SOURCES = (".h", ".cpp")


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


def read_ladder(root, problems):
    """{"core": {folder: rung}, "ui": {...}} from the ```ladder block; rung 0 is the bottom."""
    path = os.path.join(root, DOC)
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except OSError as e:
        problems.append("%s: cannot read the ladder: %s" % (DOC, e.strerror))
        return {}, ""
    text = "\n".join(lines)
    try:
        start = next(i for i, l in enumerate(lines) if l.strip() == "```ladder")
    except StopIteration:
        problems.append("%s: no ```ladder block (the folder ladder of §2)" % DOC)
        return {}, text
    sections, current = {}, None
    for n, line in enumerate(lines[start + 1:], start + 2):
        if line.strip() == "```":
            break
        if not line.strip():
            continue
        if not line[0].isspace():
            current = line.split()[0].rstrip(",:")
            if current not in ("core", "ui"):
                problems.append("%s:%d: a ladder section starts with core or ui, not %r" % (DOC, n, current))
                current = None
                continue
            sections[current] = []
        elif current is None:
            problems.append("%s:%d: a rung before the first section (core or ui)" % (DOC, n))
        else:
            names = line.split("|")[0].split()
            if not names:
                problems.append("%s:%d: a rung without a folder" % (DOC, n))
            sections[current].append((n, names))
    ladder = {}
    for tree, rungs in sections.items():
        rank = {}
        for i, (n, names) in enumerate(rungs):
            for name in names:
                if name in rank:
                    problems.append("%s:%d: %s/%s is on two rungs of the ladder" % (DOC, n, tree, name))
                rank[name] = len(rungs) - 1 - i  # written top first
        ladder[tree] = rank
    for tree in ("core", "ui"):
        if tree not in ladder:
            problems.append("%s: the ladder has no %s section" % (DOC, tree))
    return ladder, text


def source_folders(base):
    """Folders right under base that hold C++ sources (ui/icons holds none)."""
    if not os.path.isdir(base):
        return []
    out = []
    for d in sorted(os.listdir(base)):
        full = os.path.join(base, d)
        if os.path.isdir(full) and any(n.endswith(SOURCES) for _, _, fs in os.walk(full) for n in fs):
            out.append(d)
    return out


def source_files(base):
    for dirpath, _, files in os.walk(base):
        for name in sorted(files):
            if name.endswith(SOURCES):
                yield os.path.join(dirpath, name)


def scan(root):
    core = os.path.join(root, "core")
    ui = os.path.join(root, "ui")
    app = os.path.join(root, "app")
    if not os.path.isdir(core):
        raise SystemExit("check_includes: no core/ folder under %s" % root)
    problems = []
    ladder, doc = read_ladder(root, problems)
    folders = {"core": source_folders(core), "ui": source_folders(ui)}
    for tree in ("core", "ui"):
        rank = ladder.get(tree)
        if rank is None:
            continue
        for f in folders[tree]:
            if f not in rank:
                problems.append("%s/%s is on no rung of the ladder (%s §2)" % (tree, f, DOC))
        for f in sorted(rank):
            if f not in folders[tree]:
                problems.append("the ladder (%s §2) names %s/%s, which holds no sources" % (DOC, tree, f))
    for f in folders["core"]:
        if doc and "`core/%s`" % f not in doc:
            problems.append("%s §1 does not list `core/%s`" % (DOC, f))

    qt_forbidden = qt_module_headers()
    edges = {"core": {}, "ui": {}}  # tree -> (from, to) -> first "file includes header" seen
    for tree, base in (("core", core), ("ui", ui)):
        for path in source_files(base):
            rel = os.path.relpath(path, root)
            parts = os.path.relpath(path, base).split(os.sep)
            folder = parts[0] if len(parts) > 1 else None  # None: a file at ui/'s root
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for kind, target in INCLUDE.findall(text):
                if kind == "<":
                    if tree == "core":
                        head = target.split("/")[0]
                        module = head if head in FORBIDDEN_QT else qt_forbidden.get(head if "/" not in target else "")
                        if module:
                            problems.append("%s includes <%s> (%s): core never uses %s" % (rel, target, module, module))
                    continue
                if "/" not in target:
                    continue  # same-folder include
                top = target.split("/")[0]
                in_core = os.path.isfile(os.path.join(core, target))
                in_ui = os.path.isfile(os.path.join(ui, target))
                if os.path.isfile(os.path.join(app, target)):
                    problems.append("%s includes app/%s: only app/ includes app/" % (rel, target))
                elif tree == "core" and in_ui and not in_core:
                    problems.append("%s includes ui/%s: core never includes ui" % (rel, target))
                elif tree == "ui" and in_ui and in_core:
                    problems.append("%s includes %s, which exists in both ui/ and core/" % (rel, target))
                elif (in_core if tree == "core" else in_ui) and folder is not None and top != folder:
                    edges[tree].setdefault((folder, top), "%s includes %s" % (rel, target))
    for tree in ("core", "ui"):
        rank = ladder.get(tree, {})
        for (a, b), why in sorted(edges[tree].items()):
            if a in rank and b in rank and rank[b] >= rank[a]:
                where = "beside" if rank[b] == rank[a] else "above"
                problems.append("%s: %s/%s is %s %s/%s on the ladder (%s §2)" % (why, tree, b, where, tree, a, DOC))
    return folders, edges, ladder, problems


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
    folders, edges, ladder, problems = scan(root)
    if graph_only:
        for tree in ("core", "ui"):
            rank = ladder.get(tree, {})
            for (a, b), why in sorted(edges[tree].items()):
                print("%s: %s (rung %s) -> %s (rung %s)   (%s)" % (tree, a, rank.get(a, "?"), b, rank.get(b, "?"), why))
        return 0
    for tree in ("core", "ui"):
        for comp in cycles(folders[tree], edges[tree]):
            inside = sorted((a, b) for (a, b) in edges[tree] if a in comp and b in comp)
            problems.append("folder cycle %s: %s" % (" <-> ".join(comp), "; ".join(edges[tree][e] for e in inside)))
    for p in problems:
        print("check_includes: " + p)
    if not problems:
        print("check_includes: %d core and %d ui folders on the ladder, %d edges, each one down the ladder; "
              "no cycle, nothing from app/, ui/ or Qt Widgets/Gui in core"
              % (len(folders["core"]), len(folders["ui"]), len(edges["core"]) + len(edges["ui"])))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
