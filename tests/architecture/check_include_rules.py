#!/usr/bin/env python3
"""The layers' include rules, checked from the READMEs that state them.

- engine/ has no Qt and never includes ui/; ui/ has no LibTorch (torch/,
  ATen/, c10/ headers).
- engine/README.md's table says, per library, whether LibTorch may appear:
  a library marked "no" includes no LibTorch header in any file.
- ui/README.md's table says, per room, which rooms it may include; shell/
  includes all. A room's files include only their own room and those.
- Each room is a library (ui/CMakeLists.txt: exportlens_ui_room) linked to
  exactly the rooms its row names, and every room has one.
- The engine suites (tests/*/CMakeLists.txt: exportlens_add_unit_test) and
  every test header they include, and tests/support/unit, include no Qt: the
  headless build builds them without it.

Prints each breach as FILE:LINE: what, and exits 1 when there is one.
usage: check_include_rules.py [REPO]
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
TORCH = ("torch/", "ATen/", "c10/", "caffe2/")
SOURCE = (".h", ".hpp", ".cpp", ".cc")


def includes(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield number, m.group(1), m.group(2)


def files_under(root):
    for folder, _, names in os.walk(root):
        for name in sorted(names):
            if name.endswith(SOURCE):
                yield os.path.join(folder, name)


def table_rows(readme, first_header):
    """The rows of the first Markdown table whose header starts with `first_header`."""
    rows, inside = [], False
    with open(readme, encoding="utf-8") as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else None
            if cells and cells[0].lower() == first_header:
                inside = True
                continue
            if inside and cells is None:
                break
            if inside and not set(cells[0]) <= set("-: "):
                rows.append(cells)
    return rows


def folder_of(cell):
    m = re.search(r"`([a-z_]+)/`", cell)
    return m.group(1) if m else None


def main():
    repo = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
    breaches = []

    def breach(path, line, what):
        breaches.append(f"{os.path.relpath(path, repo)}:{line}: {what}")

    # engine/: no Qt, no ui/; the libraries marked "no" have no LibTorch.
    no_torch = set()
    for cells in table_rows(os.path.join(repo, "engine", "README.md"), "folder"):
        folder = folder_of(cells[0])
        if folder and cells[-1].lower().startswith("no"):
            no_torch.add(folder)
    if not no_torch:
        breach(os.path.join(repo, "engine", "README.md"), 1, "no library table with a LibTorch column found")
    for path in files_under(os.path.join(repo, "engine")):
        room = os.path.relpath(path, os.path.join(repo, "engine")).split(os.sep)[0]
        for line, kind, name in includes(path):
            if kind == "<" and (re.match(r"Q[A-Za-z]", name) or name.startswith("Qt")):
                breach(path, line, f"engine/ includes Qt ({name})")
            if name.startswith("ui/"):
                breach(path, line, f"engine/ includes the GUI ({name})")
            if room in no_torch and name.startswith(TORCH):
                breach(path, line, f"engine/{room} is marked LibTorch-free in engine/README.md but includes {name}")

    # ui/: no LibTorch; each room includes only the rooms its row names.
    allowed = {}
    for cells in table_rows(os.path.join(repo, "ui", "README.md"), "folder"):
        folder = folder_of(cells[0])
        if folder:
            allowed[folder] = {r.strip(" `/") for r in cells[-1].split(",") if r.strip() not in ("—", "-", "")}
    if not allowed:
        breach(os.path.join(repo, "ui", "README.md"), 1, "no room table found")
    for path in files_under(os.path.join(repo, "ui")):
        parts = os.path.relpath(path, os.path.join(repo, "ui")).split(os.sep)
        room = parts[0] if len(parts) > 1 else None
        if room and room not in allowed:
            breach(path, 1, f"ui/{room} is not in ui/README.md's table of rooms")
        for line, kind, name in includes(path):
            if name.startswith(TORCH):
                breach(path, line, f"ui/ includes LibTorch ({name})")
            m = re.match(r"ui/([a-z_]+)/", name)
            if m and room and room != "shell" and room in allowed:
                other = m.group(1)
                if other != room and other not in allowed[room]:
                    breach(path, line, f"ui/{room} may include {', '.join(sorted(allowed[room])) or 'no other room'}, not ui/{other}")

    # ui/CMakeLists.txt: each room's library links exactly the rooms its row names.
    cmake = os.path.join(repo, "ui", "CMakeLists.txt")
    with open(cmake, encoding="utf-8") as f:
        text = f.read()
    linked = {}
    for m in re.finditer(r"^exportlens_ui_room\((\w+)(.*?)\)", text, re.S | re.M):
        rooms = re.search(r"\bROOMS\b([^)]*)", m.group(2))
        linked[m.group(1)] = set(rooms.group(1).split()) if rooms else set()
    for room, may in sorted(allowed.items()):
        if room == "shell":
            continue
        if room not in linked:
            breach(cmake, 1, f"ui/{room} has no exportlens_ui_room() library")
        elif linked[room] != may:
            breach(cmake, 1, f"el_ui_{room} links {', '.join(sorted(linked[room])) or 'no room'}; "
                             f"ui/README.md lets it include {', '.join(sorted(may)) or 'no room'}")

    # tests/: the engine suites and what they include from tests/ have no Qt.
    tests = os.path.join(repo, "tests")
    keywords = {"SOURCES", "LIBS", "DEPENDS", "DEFINES", "TIMEOUT", "TORCH", "CLI", "TRACER"}
    todo = list(files_under(os.path.join(tests, "support", "unit")))
    suites = 0
    for folder, _, names in os.walk(tests):
        if "CMakeLists.txt" not in names:
            continue
        with open(os.path.join(folder, "CMakeLists.txt"), encoding="utf-8") as f:
            text = f.read()
        for m in re.finditer(r"exportlens_add_unit_test\((.*?)\)", text, re.S):
            words = m.group(1).split()
            if "SOURCES" not in words:
                continue
            suites += 1
            for w in words[words.index("SOURCES") + 1:]:
                if w in keywords:
                    break
                todo.append(os.path.join(folder, w))
    if not suites:
        breach(os.path.join(tests, "CMakeLists.txt"), 1, "no exportlens_add_unit_test() suite found")
    seen = set()
    while todo:
        path = os.path.normpath(todo.pop())
        if path in seen or not os.path.exists(path):
            continue
        seen.add(path)
        for line, kind, name in includes(path):
            if kind == "<" and (re.match(r"Q[A-Za-z]", name) or name.startswith("Qt")):
                breach(path, line, f"an engine suite's file includes Qt ({name}): the headless build has none")
            if kind == '"':
                for base in (os.path.dirname(path), tests):
                    candidate = os.path.join(base, name)
                    if os.path.exists(candidate) and os.path.realpath(candidate).startswith(os.path.realpath(tests)):
                        todo.append(candidate)

    for b in breaches:
        print(b)
    print(f"include rules: {len(breaches)} breaches" if breaches else "include rules: all hold")
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())
