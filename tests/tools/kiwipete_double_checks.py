#!/usr/bin/env python3
# Independent (python-chess) count of Kiwipete double checks at depths 1-5, with
# the breakdown by moving piece quoted in tests/perft_stats.rs.
# Usage: pip install chess && python3 tests/tools/kiwipete_double_checks.py 4 5
# Depth 5 takes about 40 minutes on one core.
# Independent count (python-chess) of double checks at Kiwipete depth 5, and
# at depth 4, with a breakdown by move kind. Only candidate moves are pushed:
# a double check needs a discovered checker, so the move must vacate the only
# blocker between one of our sliders and their king (from-square in D), or be
# en passant or castling (which vacate two squares).
import chess, sys, time, collections
KIWI = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

def discoverers(b):
    us = b.turn
    k = b.king(not us)
    occ = b.occupied
    d = 0
    for s in chess.scan_forward(b.occupied_co[us] & (b.rooks | b.bishops | b.queens)):
        p = b.piece_type_at(s)
        rank_file = chess.square_rank(s) == chess.square_rank(k) or chess.square_file(s) == chess.square_file(k)
        diag = abs(chess.square_rank(s) - chess.square_rank(k)) == abs(chess.square_file(s) - chess.square_file(k))
        if not ((rank_file and p in (chess.ROOK, chess.QUEEN)) or (diag and p in (chess.BISHOP, chess.QUEEN))):
            continue
        btw = chess.between(s, k) & occ
        if btw and (btw & (btw - 1)) == 0 and (btw & b.occupied_co[us]):
            d |= btw
    return d

def kind(b, m):
    if b.is_en_passant(m): return "ep"
    if b.is_castling(m): return "castle"
    if m.promotion: return "promo"
    return chess.piece_name(b.piece_type_at(m.from_square))

def double_checks_here(b, counter, examples):
    n = 0
    mask = discoverers(b) | b.kings
    if b.ep_square is not None:
        mask |= b.pawns
    for m in b.generate_legal_moves(from_mask=mask):
        k = kind(b, m)
        fen = b.fen()
        b.push(m)
        if chess.popcount(b.checkers_mask()) >= 2:
            n += 1
            counter[k] += 1
            if k in ("ep", "promo", "castle") and len(examples) < 20:
                examples.append((fen, m.uci()))
        b.pop()
    return n

def walk(b, depth, counter, examples):
    # depth = plies left before the ply whose double checks we count
    if depth == 0:
        return double_checks_here(b, counter, examples)
    n = 0
    for m in b.legal_moves:
        b.push(m)
        n += walk(b, depth - 1, counter, examples)
        b.pop()
    return n

for d in [int(x) for x in sys.argv[1:]]:
    t = time.time()
    c = collections.Counter(); ex = []
    n = walk(chess.Board(KIWI), d - 1, c, ex)
    print(f"depth {d}: double checks {n}  by kind {dict(c)}  ({time.time()-t:.0f}s)", flush=True)
    for e in ex: print("   ", e, flush=True)
