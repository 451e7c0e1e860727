#!/usr/bin/env python3
"""An independent, deliberately plain TicTacChess reference for chesstool's tests.

It shares nothing with the Rust code: no bitboards, no ghost column, no magics.
The board is a dict {(file, rank): (colour, piece)} with files and ranks 0..3,
and sliders walk their rays square by square.

Rules (issue 18, as the public implementation plays them): each side owns a
pawn, knight, bishop and rook, all in hand at the start, White first. A turn is
a drop (a piece from hand onto any empty square), a move, or a capture (the
captured piece goes back to its owner's hand). Pawns step one square forward
onto an empty square and capture one square diagonally forward; White's walk
towards rank 4; a pawn on its last rank is stuck. Whoever has just moved wins
with all four of its pieces on one rank, file or long diagonal; such a position
has no moves.

Usage:
  ttc_reference.py perft POS DEPTH        leaf count
  ttc_reference.py divide POS DEPTH       "move count" lines, sorted
  ttc_reference.py solve POS MAXPLIES     win/loss/draw and distance if the
                                          game ends within MAXPLIES plies with
                                          best play, else "unknown"
  ttc_reference.py table                  every count the tests use
"""

import sys

PIECES = "PNBR"
START = "4/4/4/4 PNBRpnbr w"
KNIGHT_JUMPS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
ROOK_RAYS = [(0, 1), (0, -1), (1, 0), (-1, 0)]
BISHOP_RAYS = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def on_board(f, r):
    return 0 <= f < 4 and 0 <= r < 4


def name(sq):
    return "abcd"[sq[0]] + str(sq[1] + 1)


def parse_square(text):
    return ("abcd".index(text[0]), int(text[1]) - 1)


def parse(text):
    """(board, side) from a position string; the hand is implied by the board."""
    board_text, hand, side = text.split()
    board = {}
    ranks = board_text.split("/")
    assert len(ranks) == 4
    for i, row in enumerate(ranks):
        rank = 3 - i
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                colour = "w" if ch.isupper() else "b"
                board[(f, rank)] = (colour, ch.upper())
                f += 1
        assert f == 4
    expected_hand = hand_text(board)
    assert hand == expected_hand, (hand, expected_hand)
    return board, side


def hand_text(board):
    on = set(board.values())
    s = "".join(p for p in PIECES if ("w", p) not in on)
    s += "".join(p.lower() for p in PIECES if ("b", p) not in on)
    return s or "-"


def other(side):
    return "b" if side == "w" else "w"


def lines():
    out = []
    for i in range(4):
        out.append([(f, i) for f in range(4)])
        out.append([(i, r) for r in range(4)])
    out.append([(i, i) for i in range(4)])
    out.append([(3 - i, i) for i in range(4)])
    return out


LINES = lines()


def has_line(board, side):
    for line in LINES:
        if all(board.get(sq, (None,))[0] == side for sq in line):
            return True
    return False


def moves(board, side):
    """Legal moves as (piece, from or None, to)."""
    if has_line(board, other(side)):
        return []
    result = []
    where = {piece: sq for sq, (c, piece) in board.items() if c == side}
    empty = [(f, r) for r in range(4) for f in range(4) if (f, r) not in board]
    for piece in PIECES:
        if piece not in where:
            result += [(piece, None, to) for to in empty]
            continue
        f, r = where[piece]
        targets = []
        if piece == "P":
            step = 1 if side == "w" else -1
            if on_board(f, r + step) and (f, r + step) not in board:
                targets.append((f, r + step))
            for df in (-1, 1):
                t = (f + df, r + step)
                if on_board(*t) and t in board and board[t][0] != side:
                    targets.append(t)
        elif piece == "N":
            for df, dr in KNIGHT_JUMPS:
                t = (f + df, r + dr)
                if on_board(*t) and board.get(t, (None,))[0] != side:
                    targets.append(t)
        else:
            for df, dr in ROOK_RAYS if piece == "R" else BISHOP_RAYS:
                t = (f + df, r + dr)
                while on_board(*t):
                    if t in board:
                        if board[t][0] != side:
                            targets.append(t)
                        break
                    targets.append(t)
                    t = (t[0] + df, t[1] + dr)
        result += [(piece, (f, r), to) for to in targets]
    return result


def play(board, side, move):
    piece, frm, to = move
    new = dict(board)
    if frm is not None:
        del new[frm]
    new[to] = (side, piece)  # a captured piece simply leaves the board: back in hand
    return new, other(side)


def move_text(move):
    piece, frm, to = move
    return piece + "@" + name(to) if frm is None else name(frm) + name(to)


def perft(board, side, depth):
    if depth == 0:
        return 1
    ms = moves(board, side)
    if depth == 1:
        return len(ms)
    return sum(perft(*play(board, side, m), depth - 1) for m in ms)


def solve(board, side, max_plies):
    """Exact (value, plies) for the side to move if the game ends within
    max_plies plies with best play (winner fastest, loser slowest), else None.

    Plain iterative deepening of a win/loss search: a win in d exists iff
    some move leads to a position lost in d - 1; a position is lost in d iff
    every move leads to a position won in at most d - 1 (and some in d - 1).
    """
    memo = {}

    def key(b, s):
        return (frozenset(b.items()), s)

    def lost_within(b, s, d):
        # True if the side to move loses within d plies whatever it does.
        if has_line(b, other(s)):
            return True
        if d < 2:
            return False
        k = (key(b, s), "L", d)
        if k not in memo:
            ms = moves(b, s)
            memo[k] = bool(ms) and all(wins_within(*play(b, s, m), d - 1) for m in ms)
        return memo[k]

    def wins_within(b, s, d):
        if has_line(b, other(s)) or d < 1:
            return False
        k = (key(b, s), "W", d)
        if k not in memo:
            memo[k] = any(lost_within(*play(b, s, m), d - 1) for m in moves(b, s))
        return memo[k]

    for d in range(0, max_plies + 1):
        if d % 2 == 0 and lost_within(board, side, d):
            return ("loss", d)
        if d % 2 == 1 and wins_within(board, side, d):
            return ("win", d)
    return None


# Positions the tests use, with the depths the reference derives.
POSITIONS = [
    (START, 4),
    ("4/4/4/4 PNBRpnbr b", 3),  # Black to move on an empty board
    ("4/4/1N2/4 PBRpnbr b", 3),  # after N@b2
    ("4/2b1/1N2/R3 PBpnr w", 4),  # drops on both sides
    ("P3/4/4/3p NBRnbr w", 3),  # both pawns stuck on their last ranks
    ("rb2/4/4/RBN1 Ppn w", 4),  # White one drop from a rank
    ("R2r/1B2/2b1/N3 Ppn w", 4),  # both sides two pieces short of a diagonal
    ("Rn2/1Bp1/2N1/P2b r w", 4),  # captures available everywhere
    ("1n2/1Nb1/1Br1/1Pp1 R w", 4),  # b-file nearly White's, contested
    ("RNB1/4/4/nbr1 Pp w", 4),  # both sides one piece from a rank
    ("RNBP/4/4/nbr1 p b", 2),  # White has just won on rank 4: terminal
    ("3R/2B1/1N2/rnbp P w", 3),  # Black has just won on rank 1 (pawn stuck on its last rank)
]


def table():
    for pos, top in POSITIONS:
        board, side = parse(pos)
        for d in range(1, top + 1):
            print(f"{pos};{d};{perft(board, side, d)}")


def main(argv):
    if len(argv) >= 2 and argv[1] == "table":
        table()
        return 0
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    cmd, pos, n = argv[1], argv[2], int(argv[3])
    board, side = parse(pos)
    if cmd == "perft":
        print(perft(board, side, n))
    elif cmd == "divide":
        rows = sorted((move_text(m), perft(*play(board, side, m), n - 1)) for m in moves(board, side))
        for text, count in rows:
            print(f"{text} {count}")
    elif cmd == "solve":
        result = solve(board, side, n)
        print("unknown" if result is None else f"{result[0]} {result[1]}")
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
