#!/usr/bin/env python3
"""Dump every `--help` of chesstool, and list each option's wordings side by side.

Usage: python3 scripts/help_dump.py [BINARY]      (default target/release/chesstool)

Walks the `Commands:` section of every help page, so new subcommands are found
without editing this script. Prints each page, then, for every option that
appears in more than one subcommand, the distinct (metavariable, help line)
pairs it has in the short help (`-h`, the first paragraph of each option's
help; `--help` adds the details of one subcommand): more than one pair is a wording to reconcile (or a real
difference in meaning, which the help line should then say).
"""
import re, subprocess, sys
from collections import defaultdict

BINARY = sys.argv[1] if len(sys.argv) > 1 else "target/release/chesstool"
OPTION = re.compile(r"^\s+(?:-(\w), )?--([\w-]+)(?: <([^>]+)>(?:\.\.\.)?)?\s*(.*)$")


def help_of(path, flag="--help"):
    result = subprocess.run([BINARY, *path, flag], capture_output=True, text=True, check=True)
    return result.stdout


def subcommands(text):
    names, inside = [], False
    for line in text.splitlines():
        if line.startswith("Commands:"):
            inside = True
        elif inside and line.strip() and line.startswith("  "):
            name = line.split()[0]
            if name != "help":
                names.append(name)
        elif inside:
            inside = False
    return names


def walk(path, pages):
    text = help_of(path)
    pages.append((path, text))
    for name in subcommands(text):
        walk([*path, name], pages)


def options(text):
    """(option, metavariable, summary) for every option of one page."""
    found, lines = [], text.splitlines()
    for i, line in enumerate(lines):
        m = OPTION.match(line)
        if not m:
            continue
        _, name, meta, rest = m.groups()
        first = rest.strip() or (lines[i + 1].strip() if i + 1 < len(lines) else "")
        found.append((name, meta or "", re.sub(r"( \[[^\]]*\])+$", "", first)))
    return found


def main():
    pages = []
    walk([], pages)
    for path, text in pages:
        print(f"===== chesstool {' '.join(path)} --help".rstrip())
        print(text)
    wordings = defaultdict(lambda: defaultdict(list))
    for path, _ in pages:
        for name, meta, first in options(help_of(path, "-h")):
            if name in ("help", "version"):
                continue
            wordings[name][(meta, first)].append(" ".join(path) or "(top)")
    print("===== options in more than one subcommand, by (metavariable, first help line)")
    for name in sorted(wordings):
        pairs = wordings[name]
        users = sum(len(v) for v in pairs.values())
        if users < 2:
            continue
        mark = "" if len(pairs) == 1 else f"   <- {len(pairs)} wordings"
        print(f"--{name}{mark}")
        for (meta, first), where in pairs.items():
            print(f"    <{meta}> {first}\n        in: {', '.join(where)}")


if __name__ == "__main__":
    main()
