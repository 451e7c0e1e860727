#!/usr/bin/env python3
"""Cross-check on positions the suites do not contain: seeded random play (40% Chess960,
moves biased towards promotions, castling and e.p.), every depth up to 3M nodes counted by
Stockfish at /usr/games/stockfish. Writes EPD to stdout for `chesstool suite`.

Usage: pip install chess && python3 scripts/xcheck_random.py SEED COUNT > x.epd && chesstool suite x.epd
"""
import chess, random, subprocess, sys
rng = random.Random(int(sys.argv[1]))
n = int(sys.argv[2])
sf = subprocess.Popen(['/usr/games/stockfish'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def send(c): sf.stdin.write(c+"\n"); sf.stdin.flush()
def perft(fen, d, c960):
    send(f"setoption name UCI_Chess960 value {'true' if c960 else 'false'}")
    send(f"position fen {fen}"); send(f"go perft {d}")
    while True:
        l = sf.stdout.readline()
        if l.startswith("Nodes searched"): return int(l.split(':')[1])
send("uci")
out = []
for i in range(n):
    c960 = rng.random() < 0.4
    b = chess.Board.from_chess960_pos(rng.randrange(960)) if c960 else chess.Board()
    b.chess960 = c960
    for _ in range(rng.randrange(0, 120)):
        ms = list(b.legal_moves)
        if not ms: break
        # bias toward promotions, captures, castling, ep
        special = [m for m in ms if m.promotion or b.is_castling(m) or b.is_en_passant(m)]
        b.push(rng.choice(special) if special and rng.random() < 0.5 else rng.choice(ms))
    if b.is_game_over(): continue
    fen = b.fen(shredder=c960, en_passant='fen')
    counts = []
    d = 1
    while d <= 8:
        c = perft(fen, d, c960)
        if c > 3_000_000: break
        counts.append((d, c)); d += 1
    out.append(fen + "".join(f" ;D{d} {c}" for d, c in counts))
print("\n".join(out))
