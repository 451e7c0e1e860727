#!/usr/bin/env python3
"""Our perft, another perft program and Stockfish's `go perft`, side by side.

Usage: python3 scripts/side_by_side.py CHESSTOOL OTHER_COMMAND [ROUNDS]

OTHER_COMMAND is a shell command with {fen} and {depth} in it, e.g.
'/tmp/gigantua/gigantua_perft "{fen}" {depth}'; the first integer it prints
is taken as its node count. For each of the five bench positions the three
programs run in turn, ROUNDS times (3 by default), one thread and no hash
each, timed as wall clock around the whole process; every count is checked
against the published one. Prints the medians and their ratios. Keep the
machine otherwise idle while it runs.
"""
import re, statistics, subprocess, sys, time

STOCKFISH = "/usr/games/stockfish"
POSITIONS = [
    ("startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 7, 3195901860),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 6, 8031647685),
    ("pos3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7, 178633661),
    ("pos4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 6, 706045033),
    ("pos5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5, 89941194),
]


def timed(args, stdin=None, shell=False):
    start = time.perf_counter()
    done = subprocess.run(args, input=stdin, capture_output=True, text=True, shell=shell)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {args}\n{done.stderr}")
    return elapsed, done.stdout


def ours(binary, fen, depth):
    t, out = timed([binary, "perft", "--depth", str(depth), "--fen", fen, "--threads", "1", "--hash", "0", "-q"])
    return t, int(re.search(r"Nodes:\s*(\d+)", out).group(1))


def other(template, fen, depth):
    t, out = timed(template.format(fen=fen, depth=depth), shell=True)
    return t, int(re.search(r"\d+", out).group(0))


def stockfish(fen, depth):
    t, out = timed([STOCKFISH], stdin=f"position fen {fen}\ngo perft {depth}\nquit\n")
    return t, int(re.search(r"Nodes searched:\s*(\d+)", out).group(1))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    binary, template = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    programs = {
        "ours": lambda f, d: ours(binary, f, d),
        "other": lambda f, d: other(template, f, d),
        "stockfish": stockfish,
    }
    print(f"{'position':9} {'d':>2} {'ours s':>8} {'other s':>8} {'sf s':>8} {'sf/ours':>8} {'sf/other':>8} {'ours/other':>10}")
    ratios = {"ours": [], "other": [], "time": []}
    for name, fen, depth, expected in POSITIONS:
        times = {p: [] for p in programs}
        for _ in range(rounds):
            for p, run in programs.items():
                t, nodes = run(fen, depth)
                if nodes != expected:
                    sys.exit(f"{p} {name} d{depth}: {nodes} nodes, published {expected}")
                times[p].append(t)
        m = {p: statistics.median(v) for p, v in times.items()}
        ratios["ours"].append(m["stockfish"] / m["ours"])
        ratios["other"].append(m["stockfish"] / m["other"])
        ratios["time"].append(m["ours"] / m["other"])
        print(f"{name:9} {depth:2} {m['ours']:8.3f} {m['other']:8.3f} {m['stockfish']:8.3f} "
              f"{ratios['ours'][-1]:7.2f}x {ratios['other'][-1]:7.2f}x {ratios['time'][-1]:10.2f}", flush=True)
    geo = {k: statistics.geometric_mean(v) for k, v in ratios.items()}
    print(f"{'geomean':9} {'':2} {'':8} {'':8} {'':8} {geo['ours']:7.2f}x {geo['other']:7.2f}x {geo['time']:10.2f}")


if __name__ == "__main__":
    main()
