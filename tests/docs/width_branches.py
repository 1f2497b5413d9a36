#!/usr/bin/env python3
"""The key width is chosen once (issue 53): outside the tests, code that needs a width's types
reaches them through with_key_width, and code that must treat the widths apart compares the
width itself. Each such place is a run-time branch on the width; this counts them and requires

- at most MAX_BRANCHES in the whole tree (app, core, visualizers);
- each file that has them named, with its count, in the table of core/table/README.md's
  "Width branches" section (| `file` | count | why |), and no row for a file without them;
- no `key_bits` left in code: the width is a key_width, never a number of bits carried about.

usage: width_branches.py SOURCE_ROOT
"""
import pathlib
import re
import subprocess
import sys

MAX_BRANCHES = 8
FOLDERS = ("app/", "core/", "visualizers/")
SUFFIXES = (".cpp", ".hpp", ".cu", ".cuh")
DEFINED_IN = "core/common/key_width.hpp"  # where with_key_width itself branches, once
BRANCH = re.compile(
    r"with_key_width\("                              # a dispatch to a width's types
    r"|[=!]=\s*(?:hs::)?key_width::|key_width::\w+\s*[=!]="  # a width compared with one
    r"|bits_of\([^()]*\)\s*(?:[<>]=?|[=!]=)"         # its bits compared
    r"|\bnarrower\(")                                # two widths compared
OLD_NAME = re.compile(r"\bkey_bits\b")
ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|\s*(\d+)\s*\|")


def code_of(line):
    """The line without its // comment and string literals (a comment may name a call)."""
    line = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)
    return line.split("//", 1)[0]


def counted(root):
    files = subprocess.run(["git", "-C", str(root), "ls-files", *FOLDERS], check=True,
                           capture_output=True, text=True).stdout.split()
    branches, old = {}, []
    for name in files:
        if not name.endswith(SUFFIXES) or not (root / name).is_file():
            continue
        for no, line in enumerate((root / name).read_text(encoding="utf-8").splitlines(), 1):
            code = code_of(line)
            if OLD_NAME.search(code):
                old.append(f"{name}:{no}: key_bits (carry a key_width)")
            n = len(BRANCH.findall(code))
            if n and name != DEFINED_IN:
                branches[name] = branches.get(name, 0) + n
    return branches, old


def listed(readme):
    text = readme.read_text(encoding="utf-8")
    at = text.find("## Width branches")
    if at < 0:
        return None
    rows = {}
    for line in text[at:].splitlines()[1:]:
        if line.startswith("## "):
            break
        m = ROW.match(line)
        if m:
            rows[m.group(1)] = int(m.group(2))
    return rows


def main(argv):
    root = pathlib.Path(argv[1]).resolve()
    branches, wrong = counted(root)
    rows = listed(root / "core/table/README.md")
    if rows is None:
        wrong.append("core/table/README.md has no '## Width branches' section")
        rows = {}
    total = sum(branches.values())
    if total > MAX_BRANCHES:
        wrong.append(f"{total} run-time branches on the key width, over the {MAX_BRANCHES} allowed")
    for name, n in sorted(branches.items()):
        if rows.get(name) != n:
            wrong.append(f"{name}: {n} width branch(es), core/table/README.md lists "
                         f"{rows.get(name, 'none')}")
    for name in sorted(set(rows) - set(branches)):
        wrong.append(f"core/table/README.md lists {name}, which has no width branch")
    for w in wrong:
        print(w)
    print(f"{total} width branches in {len(branches)} files" + ("" if wrong else ": as listed"))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
