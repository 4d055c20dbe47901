#!/usr/bin/env python3
"""Self-test of check_includes.py on tiny planted trees: it passes a clean layering and fails on a
sideways and an upward include on the ladder (in core/ and between ui views), a two-folder cycle,
a three-folder loop, a folder on no rung, a rung naming no folder, a core folder §1 does not list,
a core file including ui/ or app/, and a Qt Widgets header."""
import os
import shutil
import subprocess
import sys
import tempfile

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_includes.py")


def tree(files):
    root = tempfile.mkdtemp(prefix="sb-includes-")
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    return root


def check(files):
    root = tree(files)
    try:
        r = subprocess.run([sys.executable, SCRIPT, root], capture_output=True, text=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)  # a test run leaves nothing in /tmp
    return r.returncode, r.stdout + r.stderr


DOC = """# Architecture
## §1 Modules
`core/io`, `core/results`, `core/engine`, `core/metrics`
## §2 Dependency direction
```ladder
core, top to bottom
  engine                 | runs things
  results  metrics       | data; numbers
  io                     | files
ui, top to bottom
  mainwindow             | assembles
  compare  results       | views
  charts                 | charts
```
"""

BASE = {
    "docs/ARCHITECTURE.md": DOC,
    "core/io/File.h": "#pragma once\n#include <QString>\n",
    "core/metrics/Stats.h": '#pragma once\n#include "io/File.h"\n',
    "core/results/Results.h": '#pragma once\n#include "io/File.h"\n',
    "core/engine/Engine.cpp": '#include "results/Results.h"\n#include "io/File.h"\n#include "engine/Local.h"\n',
    "core/engine/Local.h": "#pragma once\n",
    "ui/results/View.h": '#pragma once\n#include "charts/Chart.h"\n#include "results/Results.h"\n',
    "ui/compare/Cmp.h": '#pragma once\n#include "charts/Chart.h"\n',
    "ui/charts/Chart.h": '#pragma once\n#include "metrics/Stats.h"\n',
    "ui/mainwindow/Win.cpp": '#include "results/View.h"\n#include "compare/Cmp.h"\n',
    "ui/GuiMain.cpp": '#include "mainwindow/Win.h"\n',
    "app/commands/Cli.h": "#pragma once\n",
}

failures = []
cases = [0]


def expect(name, files, code, *phrases):
    cases[0] += 1
    got, out = check(files)
    missing = [p for p in phrases if p not in out]
    if got != code or missing:
        failures.append("%s: exit %d (want %d), missing %s\n%s" % (name, got, code, missing, out))


expect("clean", BASE, 0, "no cycle")
expect("two-folder cycle", {**BASE, "core/io/Back.h": '#include "results/Results.h"\n'}, 1,
       "folder cycle io <-> results", "core/io/Back.h includes results/Results.h")
expect("three-folder loop", {**BASE, "core/io/Back.cpp": '#include "engine/Local.h"\n'}, 1,
       "folder cycle engine <-> io <-> results")
expect("core includes ui", {**BASE, "core/engine/Bad.cpp": '#include "results/View.h"\n'}, 1,
       "core/engine/Bad.cpp includes ui/results/View.h")
expect("core folder includes one beside it", {**BASE, "core/metrics/Side.cpp": '#include "results/Results.h"\n'}, 1,
       "core/metrics/Side.cpp includes results/Results.h: core/results is beside core/metrics on the ladder")
expect("core folder includes one above it", {**BASE, "core/metrics/Up.cpp": '#include "engine/Local.h"\n'}, 1,
       "core/metrics/Up.cpp includes engine/Local.h: core/engine is above core/metrics on the ladder")
expect("ui view includes another view", {**BASE, "ui/compare/Peek.cpp": '#include "results/View.h"\n'}, 1,
       "ui/compare/Peek.cpp includes results/View.h: ui/results is beside ui/compare on the ladder")
expect("ui charts include a view", {**BASE, "ui/charts/Up.cpp": '#include "compare/Cmp.h"\n'}, 1,
       "ui/compare is above ui/charts")
expect("core folder on no rung", {**BASE, "core/extra/New.h": "#pragma once\n"}, 1,
       "core/extra is on no rung of the ladder")
expect("rung names a missing folder", {k: v for k, v in BASE.items() if not k.startswith("core/metrics/")}, 1,
       "names core/metrics, which holds no sources")
expect("section 1 misses a core folder", {**BASE, "docs/ARCHITECTURE.md": DOC.replace(", `core/metrics`", "")}, 1,
       "§1 does not list `core/metrics`")
expect("no ladder", {**BASE, "docs/ARCHITECTURE.md": "# Architecture\n"}, 1, "no ```ladder block")
expect("core includes app", {**BASE, "core/engine/Cli.cpp": '#include "commands/Cli.h"\n'}, 1,
       "core/engine/Cli.cpp includes app/commands/Cli.h: only app/ includes app/")
expect("ui includes app", {**BASE, "ui/results/Cli.cpp": '#include "commands/Cli.h"\n'}, 1,
       "ui/results/Cli.cpp includes app/commands/Cli.h")
expect("core includes Qt Widgets", {**BASE, "core/engine/Gui.cpp": "#include <QtWidgets/QPushButton>\n"}, 1,
       "core/engine/Gui.cpp includes <QtWidgets/QPushButton>")

for f in failures:
    print("FAIL " + f)
print("test_check_includes: %d of %d cases passed" % (cases[0] - len(failures), cases[0]))
sys.exit(1 if failures else 0)
