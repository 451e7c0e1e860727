#!/usr/bin/env python3
"""An engine whose rules differ from the ones it is told: Fairy-Stockfish
that reads another variants.ini than the `VariantPath` it is sent (as an
engine author's build would, with a rule of theirs changed).
Usage: variant_path_swap.py FAIRY_STOCKFISH THEIR_INI"""
import subprocess
import sys

fsf, theirs = sys.argv[1], sys.argv[2]
engine = subprocess.Popen([fsf], stdin=subprocess.PIPE, stdout=sys.stdout, text=True, bufsize=1)
for line in sys.stdin:
    if line.startswith("setoption name VariantPath value "):
        line = "setoption name VariantPath value " + theirs + "\n"
    engine.stdin.write(line)
    engine.stdin.flush()
engine.stdin.close()
engine.wait()
