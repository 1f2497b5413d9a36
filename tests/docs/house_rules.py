#!/usr/bin/env python3
"""The house rules a newcomer relies on, counted over the tree (issue 53):

- READMEs: the top one at most 150 lines, every other at most 250; no README line over 300
  characters (tables hold one figure a cell, prose wraps);
- no tracked file names a path into the folder beside the repository that a clone lacks;
- no source file over 600 lines, but those still listed in TOO_LONG below, each waiting to be
  split: a listed file that has come under the limit must leave the list, so it stays true;
- with LIZARD given (the build's pinned lizard), no C++ or CUDA function over 80 lines, signature
  to closing brace, but the data tables listed in DATA_TABLES.

usage: house_rules.py SOURCE_ROOT [LIZARD]
"""
import pathlib
import re
import subprocess
import sys

TOP_README_LINES = 150
README_LINES = 250
README_LINE_CHARS = 300
SOURCE_LINES = 600
SOURCE_SUFFIXES = {".cpp", ".hpp", ".cu", ".cuh", ".py", ".sh", ".cmake"}
# Files allowed over the limit while they wait to be split: none now. A listed file under the
# limit fails, so the list cannot go stale.
TOO_LONG = set()
FUNCTION_LINES = 80
CXX_SUFFIXES = (".cpp", ".hpp", ".cu", ".cuh")
# Functions that are a table of data, one entry a few lines: "file: function" as lizard names it.
DATA_TABLES = {
    "app/plot/plot_figures.cpp: hs::app::recipes",
}
SHARED = "../" + "shared"  # spelled apart so that this file does not name it


def tracked_files(root):
    try:
        out = subprocess.run(["git", "-C", str(root), "ls-files"], check=True,
                             capture_output=True, text=True).stdout
        return [p for p in out.splitlines() if (root / p).is_file()]
    except (OSError, subprocess.CalledProcessError):  # a tree without git: walk it
        skip = {".git", "build", ".gpu-stage", ".gpu-bin"}
        return [str(p.relative_to(root)) for p in root.rglob("*")
                if p.is_file() and not skip & set(p.relative_to(root).parts)]


def long_functions(root, lizard, names):
    """Functions over FUNCTION_LINES, as lizard measures them (its length: signature to brace)."""
    sources = [n for n in names if n.endswith(CXX_SUFFIXES)]
    # Only the length may warn: every other threshold out of reach.
    out = subprocess.run([lizard, "-l", "cpp", "-w", "-L", str(FUNCTION_LINES), "-C", "1000000",
                          "-a", "1000", "-T", "nloc=1000000", "-T", "token_count=100000000",
                          *sources], cwd=root, capture_output=True, text=True)
    if out.returncode not in (0, 1):  # 1: there were warnings
        return [f"lizard failed ({out.returncode}): {out.stderr.strip()[:300]}"]
    wrong, seen = [], set()
    for line in out.stdout.splitlines():
        m = re.match(r"^(?:\./)?(.+?):(\d+): warning: (.+?) has .*?(\d+) length", line)
        if not m:
            continue
        name, at, function, length = m.group(1), m.group(2), m.group(3), int(m.group(4))
        key = f"{name}: {function}"
        if key in DATA_TABLES:
            seen.add(key)
            continue
        wrong.append(f"{name}:{at}: {function} is {length} lines, over the {FUNCTION_LINES} a "
                     "function may have")
    wrong += [f"{k}: listed in DATA_TABLES but not over the limit: take it off the list"
              for k in sorted(DATA_TABLES - seen)]
    return wrong


def main(argv):
    root = pathlib.Path(argv[1]).resolve()
    wrong = []
    for name in tracked_files(root):
        path = root / name
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # images, archives
        lines = text.splitlines()
        if SHARED in text:
            at = next(i for i, l in enumerate(lines, 1) if SHARED in l)
            wrong.append(f"{name}:{at}: names a path outside the repository ({SHARED}/...)")
        if path.name == "README.md":
            limit = TOP_README_LINES if name == "README.md" else README_LINES
            if len(lines) > limit:
                wrong.append(f"{name}: {len(lines)} lines, over the {limit} a README may have")
            for i, l in enumerate(lines, 1):
                if len(l) > README_LINE_CHARS:
                    wrong.append(f"{name}:{i}: a line of {len(l)} characters (at most "
                                 f"{README_LINE_CHARS}: one figure a cell, prose wrapped)")
        elif path.suffix in SOURCE_SUFFIXES or path.name == "CMakeLists.txt":
            over = len(lines) > SOURCE_LINES
            if over and name not in TOO_LONG:
                wrong.append(f"{name}: {len(lines)} lines, over the {SOURCE_LINES} a source may have")
            if not over and name in TOO_LONG:
                wrong.append(f"{name}: {len(lines)} lines now: take it off house_rules.py's "
                             "TOO_LONG list")
    if len(argv) > 2:
        wrong += long_functions(root, argv[2], tracked_files(root))
    missing = [n for n in TOO_LONG if not (root / n).is_file()]
    wrong += [f"{n}: listed in TOO_LONG but gone: take it off the list" for n in missing]
    for w in wrong:
        print(w)
    print(f"house rules: {len(wrong)} broken" if wrong else "house rules: all kept")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
