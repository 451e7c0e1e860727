#!/usr/bin/env python3
"""A UCCI-style xiangqi engine for the tests: Fairy-Stockfish behind a
filter that speaks ICCS (ranks 0-9, as Pikafish writes them) on both sides.
Moves in `position ... moves` are shifted up a rank before Fairy-Stockfish
reads them; the squares of its divide lines are shifted down before they are
printed. Usage: iccs_engine.py FAIRY_STOCKFISH [HIDDEN_MOVE]: with a
move, its divide line is left out wherever it appears (an injected bug)."""
import re
import subprocess
import sys
import threading

SQUARE = re.compile(r"([a-i])(10|[1-9])")
ICCS_SQUARE = re.compile(r"([a-i])([0-9])")


def to_fairy(line):
    if not line.startswith("position") or " moves " not in line:
        return line
    head, moves = line.split(" moves ", 1)
    return head + " moves " + ICCS_SQUARE.sub(lambda m: m.group(1) + str(int(m.group(2)) + 1), moves)


def to_iccs(line):
    move, sep, count = line.partition(":")
    if sep and count.strip().isdigit():
        return SQUARE.sub(lambda m: m.group(1) + str(int(m.group(2)) - 1), move) + sep + count
    return line


engine = subprocess.Popen([sys.argv[1]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


hidden = sys.argv[2] + ":" if len(sys.argv) > 2 else None


def pump():
    missing = 0  # the nodes of the hidden line, left out of the total too
    for line in engine.stdout:
        line = to_iccs(line.rstrip("\n"))
        if hidden and line.startswith(hidden):
            missing = int(line.split(":")[1])
            continue
        if line.startswith("Nodes searched: "):
            line = "Nodes searched: %d" % (int(line.split(":")[1]) - missing)
            missing = 0
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


threading.Thread(target=pump, daemon=True).start()
for line in sys.stdin:
    engine.stdin.write(to_fairy(line.rstrip("\n")) + "\n")
    engine.stdin.flush()
    if line.strip() == "quit":
        break
engine.stdin.close()
engine.wait()
