"""An independent reading of a Polyglot book with python-chess.

Usage: python3 polyglot_bfs.py BOOK.bin MAX_PLY MIN_WEIGHT

Follows the book breadth first from the start position and prints, for
every position fewer than MAX_PLY plies away (by the shortest way) that has
book moves, one line: its Polyglot key in hex, `|`, and its moves as
`uci:weight` in python-chess's order (file order) sorted by weight, highest
first (stable); duplicate moves are dropped, illegal ones skipped.
"""
import sys
from collections import deque

import chess
import chess.polyglot

path, max_ply, min_weight = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
reader = chess.polyglot.open_reader(path)
start = chess.Board()
seen = {chess.polyglot.zobrist_hash(start)}
queue = deque([(start, 0)])
while queue:
    board, ply = queue.popleft()
    if ply >= max_ply:
        continue
    moves = []
    for entry in reader.find_all(board, minimum_weight=min_weight):
        if all(m != entry.move for m, _ in moves):
            moves.append((entry.move, entry.weight))
    moves.sort(key=lambda mw: -mw[1])
    if moves:
        key = chess.polyglot.zobrist_hash(board)
        print("%016x|%s" % (key, " ".join("%s:%d" % (m.uci(), w) for m, w in moves)))
    for move, _ in moves:
        child = board.copy(stack=False)
        child.push(move)
        key = chess.polyglot.zobrist_hash(child)
        if key not in seen:
            seen.add(key)
            queue.append((child, ply + 1))
