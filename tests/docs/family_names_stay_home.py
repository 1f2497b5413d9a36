#!/usr/bin/env python3
"""Fails when a family's name appears in the code of a shared file that core/table/README.md does
not list.

A family's own files are its folders (core/<family>/, tests/core/<family>/) and the files named
after it in shared folders (app/families/<family>_hooks.cpp, app/ui/family_views/<family>_ui.cpp,
visualizers/views/<family>_view.cpp, core/bench/suite_<family>.cpp). Every other source or build
file of app/, core/, visualizers/ and the top CMake files is shared: its code (comments and string
literals left out, includes kept) may name a family only if the README's table "What a new family
edits outside its folders" lists it. A listed file that names no family any more fails too, so the
list stays what it says.

usage: family_names_stay_home.py SOURCE_ROOT
"""
import pathlib
import re
import subprocess
import sys

SECTION = "## What a new family edits outside its folders"
LISTED = re.compile(r"^\|\s*`([^`]+)`\s*\|", re.M)
SOURCE = re.compile(r"\.(cpp|hpp|h|cu|cuh)$")
BUILD = re.compile(r"(CMakeLists\.txt|\.cmake)$")


def families(root):
    return sorted(p.parent.name for p in (root / "core").glob("*/family.cmake"))


def listed_files(root):
    text = (root / "core/table/README.md").read_text(encoding="utf-8")
    if SECTION not in text:
        sys.exit(f"core/table/README.md: no section '{SECTION}'")
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    return set(LISTED.findall(section))


def own(path, family):
    name = pathlib.PurePosixPath(path).name
    return f"/{family}/" in "/" + path or re.search(rf"(^|_){family}(_|\.)", name) is not None


def code_of(path, text):
    includes = re.findall(r'#\s*include\s+"([^"]+)"', text)
    if BUILD.search(path):
        text = re.sub(r"#[^\n]*", "", text)
    else:
        text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
        text = re.sub(r"//[^\n]*", "", text)
        text = re.sub(r'R"\((.*?)\)"', '""', text, flags=re.S)
        text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
        text = re.sub(r"'(\\.|[^'\\\n])'", "''", text)
    return text + "\n" + "\n".join(includes)


def main(root):
    root = pathlib.Path(root)
    names = families(root)
    listed = listed_files(root)
    tracked = subprocess.run(["git", "-C", str(root), "ls-files", "app", "core", "visualizers",
                              "CMakeLists.txt", "cmake"], capture_output=True, text=True,
                             check=True).stdout.split()
    wrong, naming = [], set()
    for path in tracked:
        if not (SOURCE.search(path) or BUILD.search(path)) or not (root / path).exists():
            continue
        words = code_of(path, (root / path).read_text(encoding="utf-8")).replace("_", " ")
        found = [f for f in names if not own(path, f) and re.search(rf"\b{f}\b", words)]
        if not found:
            continue
        naming.add(path)
        if path not in listed:
            wrong.append(f"{path}: names {', '.join(found)}, and core/table/README.md does not "
                         "list it: reach the family through the registry, or list the file with "
                         "why it must name families")
    for path in sorted(listed - naming):
        wrong.append(f"core/table/README.md lists {path}, which names no family any more")
    if wrong:
        sys.exit("\n".join(wrong))
    print(f"{len(names)} families; {len(naming)} shared files name them, all listed")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
