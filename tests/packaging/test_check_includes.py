#!/usr/bin/env python3
"""Self-test of check_includes.py on tiny planted trees: it passes a clean layering and fails on a
two-folder cycle, a three-folder loop, a core file including ui/, and a Qt Widgets header."""
import os
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
    r = subprocess.run([sys.executable, SCRIPT, tree(files)], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


BASE = {
    "core/io/File.h": "#pragma once\n#include <QString>\n",
    "core/results/Results.h": '#pragma once\n#include "io/File.h"\n',
    "core/engine/Engine.cpp": '#include "results/Results.h"\n#include "io/File.h"\n#include "engine/Local.h"\n',
    "core/engine/Local.h": "#pragma once\n",
    "ui/results/View.h": "#pragma once\n",
}

failures = []


def expect(name, files, code, *phrases):
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
expect("core includes Qt Widgets", {**BASE, "core/engine/Gui.cpp": "#include <QtWidgets/QPushButton>\n"}, 1,
       "core/engine/Gui.cpp includes <QtWidgets/QPushButton>")

for f in failures:
    print("FAIL " + f)
print("test_check_includes: %d of 5 cases passed" % (5 - len(failures)))
sys.exit(1 if failures else 0)
