#!/usr/bin/env python3
"""A/B two chesstool binaries on perft, one thread, alternating runs.

Usage: python3 scripts/ab_perft.py OLD_BINARY NEW_BINARY [ROUNDS]

Prints, per position, the minimum and the median wall time of each binary
and their ratio (above 1: the new one is faster), then geometric means.
On a shared machine compare the minima: interference only ever adds time.
Wall time is used because this machine's CPU-time accounting is tick-based
(10 ms), too coarse for runs of a tenth of a second. Keep the other CPU idle
while it runs; `taskset` pins our runs to CPU 1.
"""
import shutil, statistics, subprocess, sys, time

POSITIONS = {
    "start6": ["--depth", "6"],
    "kiwi5": ["--fen", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "--depth", "5"],
    "pos3_7": ["--fen", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", "--depth", "7"],
    "pos4_6": ["--fen", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", "--depth", "6"],
    "pos5_5": ["--fen", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", "--depth", "5"],
}


def run(binary, args):
    pin = ["taskset", "-c", "1"] if shutil.which("taskset") else []
    start = time.perf_counter()
    subprocess.run([*pin, binary, "perft", "--threads", "1", "-q", *args], check=True, capture_output=True)
    return time.perf_counter() - start


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    old, new = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 9
    times = {old: {}, new: {}}
    for r in range(rounds):
        for name, args in POSITIONS.items():
            for binary in ([old, new] if r % 2 == 0 else [new, old]):
                times[binary].setdefault(name, []).append(run(binary, args))
    gmin = gmed = 1.0
    for name in POSITIONS:
        a, b = times[old][name], times[new][name]
        rmin, rmed = min(a) / min(b), statistics.median(a) / statistics.median(b)
        gmin *= rmin
        gmed *= rmed
        print(f"{name:8s} min {min(a):.3f} -> {min(b):.3f} ({rmin:.3f}x)   "
              f"median {statistics.median(a):.3f} -> {statistics.median(b):.3f} ({rmed:.3f}x)")
    n = len(POSITIONS)
    print(f"geometric mean: min {gmin ** (1 / n):.3f}x, median {gmed ** (1 / n):.3f}x (above 1: new is faster)")


if __name__ == "__main__":
    main()
