#!/usr/bin/env python3
"""Generate (and verify) the chesstool perft suites in ``suites/``.

Usage
-----
    pip install chess                     # python-chess: FEN handling, random play
    python3 scripts/gen_suites.py         # regenerate all four suites (a few minutes)
    python3 scripts/gen_suites.py --only tricky,random
    python3 scripts/gen_suites.py --check suites/tricky.epd   # re-verify a file

Every node count written by this script comes from Stockfish's ``go perft N``
(Debian package ``stockfish``, 15.1, found at /usr/games/stockfish or on PATH;
override with ``--stockfish PATH``).  python-chess is only a helper: it builds
and validates FENs, plays the seeded random moves and produces Chess960 start
positions.  As an independent cross-check, the depth-1 and depth-2 counts of
every position are also recomputed with python-chess's legal move generator;
any disagreement aborts the run (``--no-pycheck`` skips this).

Files written (one position per line, ``#`` lines are comments)::

    FEN ;D1 <nodes> ;D2 <nodes> ...

* ``suites/standard.epd`` -- the six positions of the Chess Programming Wiki
  "Perft Results" page (plus the mirrored position 4) with the *published*
  counts.  Each published count up to ``--budget`` nodes (default 200M) is
  re-computed with Stockfish and any disagreement is fatal.
* ``suites/tricky.epd`` -- hand-written positions (see TRICKY below, each with
  a comment saying what it tests) and their colour-mirrored twins; depths go
  as deep as keeps the largest count <= 5M nodes.
* ``suites/chess960.epd`` -- Chess960 positions in Shredder-FEN (castling
  field as rook files, e.g. ``HAha``): fixed start positions, positions reached
  by seeded random play from them, and hand-written castling corner cases.
  Counted with ``setoption name UCI_Chess960 value true``; <= 5M nodes.
* ``suites/random.epd`` -- positions reached by seeded random play from the
  standard start position (4..80 plies); <= 2M nodes per position.

The script is deterministic: fixed seeds, moves chosen from the legal moves
sorted by UCI string, and depths chosen only from the (deterministic) counts.
No timestamps are written, so re-running it reproduces the files byte for
byte (given the same Stockfish and python-chess versions).

``--check FILE`` re-runs Stockfish on every line of an existing suite (every
depth whose expected count is <= ``--cap``, default 200M) plus the python-chess
depth-1/2 cross-check, reports mismatches and exits 1 if there are any.
Chess960 mode is used for a file if any castling field is not plain KQkq.
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

try:
    import chess
except ImportError:  # pragma: no cover
    sys.exit("gen_suites.py needs python-chess: pip install chess")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUTDIR = os.path.join(ROOT, "suites")

TRICKY_LIMIT = 5_000_000
CHESS960_LIMIT = 5_000_000
RANDOM_LIMIT = 2_000_000
MAX_DEPTH = 10

RANDOM_SEED = 20240601
RANDOM_COUNT = 220
RANDOM_PLIES = (4, 80)

C960_SEED = 960
C960_START_IDS = [0, 1, 17, 103, 191, 226, 281, 333, 359, 412, 445, 518,
                  566, 600, 647, 719, 768, 806, 850, 905, 927, 959]
C960_WALKS_PARTIAL = 12   # random walks that end with partially lost rights
C960_WALKS_CASTLE = 10    # random walks that end where castling is legal now
C960_PLIES = (4, 24)

# ---------------------------------------------------------------------------
# Standard suite: published values from the Chess Programming Wiki
# "Perft Results" page (https://www.chessprogramming.org/Perft_Results).
# ---------------------------------------------------------------------------
STANDARD = [
    ("initial position",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     [20, 400, 8902, 197281, 4865609, 119060324, 3195901860]),
    ("position 2 (Kiwipete)",
     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
     [48, 2039, 97862, 4085603, 193690690, 8031647685]),
    ("position 3",
     "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
     [14, 191, 2812, 43238, 674624, 11030083, 178633661, 3009794393]),
    ("position 4",
     "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
     [6, 264, 9467, 422333, 15833292, 706045033]),
    ("position 4 mirrored",
     "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
     [6, 264, 9467, 422333, 15833292, 706045033]),
    ("position 5",
     "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
     [44, 1486, 62379, 2103487, 89941194]),
    # NB: the position-6 FEN is ".../2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1"
    # (Nc3, Qe2, a3).  A variant ".../3P1N2/PPP1NPPP/..." that circulates
    # does NOT match the published counts (Stockfish: 41, 1851, 71714, ...).
    ("position 6",
     "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
     [46, 2079, 89890, 3894594, 164075551, 6923051137]),
]

# ---------------------------------------------------------------------------
# Tricky suite: hand-written positions.  Every one is also emitted
# colour-mirrored (board.mirror()), which must give identical counts.
# ---------------------------------------------------------------------------
TRICKY = [
    # --- en passant --------------------------------------------------------
    ("e.p. horizontal pin: bxc6 e.p. removes both pawns from rank 5 and "
     "exposes Ka5 to Rh5, so it is illegal",
     "8/8/8/KPp4r/8/8/8/7k w - c6 0 2"),
    ("e.p. horizontal pin, capturer right of the captured pawn: dxc6 e.p. "
     "exposes Kh5 to Ra5 (illegal)",
     "8/8/8/r1pP3K/8/8/8/k7 w - c6 0 2"),
    ("e.p. horizontal pin for black: exd3 e.p. exposes Ka4 to Qh4 (illegal)",
     "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1"),
    ("e.p. on a rank with king and rook but a third piece (Ne5) in between: "
     "bxc6 e.p. is legal",
     "8/8/8/KPp1n2r/8/8/8/7k w - c6 0 2"),
    ("e.p. with the capturing pawn pinned diagonally (Kb2-Bh8): exd6 leaves "
     "the pin line (illegal)",
     "7b/8/8/3pP3/8/8/1K6/7k w - d6 0 2"),
    ("e.p. with the capturing pawn pinned diagonally: exf6 stays on the pin "
     "line towards Bh8 (legal)",
     "7b/8/8/4Pp2/8/8/1K6/7k w - f6 0 2"),
    ("black e.p. with capturing pawn pinned diagonally (Ba1-Kg7): dxe3 "
     "illegal",
     "8/6k1/8/8/3pP3/8/8/B3K3 b - e3 0 1"),
    ("black e.p. along the diagonal pin line (Ba1-Kg7): dxc3 legal",
     "8/6k1/8/8/2Pp4/8/8/B3K3 b - c3 0 1"),
    ("e.p. resolves check: d7-d5 checked Ke4; cxd6 and exd6 e.p. capture the "
     "checking pawn",
     "8/8/8/2PpP3/4K3/8/8/7k w - d6 0 2"),
    ("black e.p. resolves check by the pawn that just double-pushed (d2-d4+): "
     "exd3 e.p.",
     "8/8/8/4k3/3Pp3/8/8/K7 b - d3 0 1"),
    ("f7-f5 discovered check from Bg8; exf6 e.p. does not resolve it "
     "(illegal), only king moves",
     "6b1/8/8/4Pp2/2K5/8/8/7k w - f6 0 2"),
    ("e.p. illegal because the capturing pawn is pinned on the e-file "
     "(Ke1, Re8): exd6 would expose the king, e6 is fine",
     "4r3/8/8/3pP3/8/8/8/4K2k w - d6 0 2"),
    ("e.p. square set after 1.e4 e5 although no pawn can capture "
     "(FEN parsing, no e.p. move)",
     "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"),
    ("two pawns can capture e.p. on the same square",
     "4k3/8/8/2PpP3/8/8/8/4K3 w - d6 0 2"),
    ("e.p. capture gives discovered check: bxc6 opens Ra5 onto Kh5",
     "8/8/8/RPp4k/8/8/8/4K3 w - c6 0 2"),
    ("e.p. capture gives direct check: exd6+ attacks Ke7",
     "8/4k3/8/3pP3/8/8/8/4K3 w - d6 0 2"),
    ("e.p. horizontal pin arises one ply deep: after c7-c5 bxc6 e.p. is "
     "illegal",
     "8/2p5/8/KP5r/8/8/8/7k b - - 0 1"),
    # --- castling ----------------------------------------------------------
    ("all four castling rights, empty back ranks",
     "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
    ("O-O gives check: the rook lands on f1 facing Kf8",
     "5k2/8/8/8/8/8/8/R3K2R w KQ - 0 1"),
    ("O-O-O gives check: the rook lands on d1 facing Kd8",
     "3k4/8/8/8/8/8/8/R3K2R w KQ - 0 1"),
    ("castling through check: f1 attacked by Rf8, so O-O is illegal, "
     "O-O-O legal",
     "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1"),
    ("castling into check: g1 attacked by Rg8, so O-O is illegal",
     "4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1"),
    ("queenside castling through check: d1 attacked by Rd8",
     "3rk3/8/8/8/8/8/8/R3K2R w KQ - 0 1"),
    ("queenside castling into check: c1 attacked by Rc8",
     "2r1k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"),
    ("only b1 attacked (Rb8): O-O-O is still legal, the king never "
     "crosses b1",
     "1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"),
    ("castling out of check (Re8 checks Ke1): no castling",
     "4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1"),
    ("Nf2 attacks d1 (O-O-O illegal) and the castling rook on h1 (O-O "
     "legal: an attacked rook does not matter)",
     "4k3/8/8/8/8/8/5n2/R3K2R w KQ - 0 1"),
    ("castling rights but own knights in the way on b1 and g1",
     "r3k2r/8/8/8/8/8/8/RN2K1NR w KQkq - 0 1"),
    ("only a knight on b1 blocks: O-O-O illegal although the king does not "
     "pass b1",
     "r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1"),
    ("enemy bishop on d1 blocks O-O-O",
     "r3k2r/8/8/8/8/8/8/R2bK2R w KQkq - 0 1"),
    ("rooks in the corners but no castling rights at all",
     "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1"),
    ("partial castling rights Kq",
     "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1"),
    ("only black may castle (white to move, rights kq)",
     "r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1"),
    ("Bxa8 captures a rook in its corner: black must lose the q right",
     "r3k2r/8/8/8/8/8/6B1/R3K2R w KQkq - 0 1"),
    ("black Nxa1 removes white's Q right; Nb3 also covers c1, so white's "
     "O-O-O is illegal anyway",
     "r3k2r/8/8/8/8/1n6/8/R3K2R b KQkq - 0 1"),
    ("promotion captures on a8 / h1 remove castling rights (g2 also "
     "attacks f1, so O-O is illegal at the root)",
     "r3k2r/1P6/8/8/8/8/6p1/R3K2R w KQkq - 0 1"),
    # --- promotions --------------------------------------------------------
    ("promotion by push and by capture on both sides, all four pieces",
     "1n1qk3/2P5/8/8/8/8/8/4K3 w - - 0 1"),
    ("black promotions by push and by capture (Nf1, Rh1), all four pieces",
     "4k3/8/8/8/8/8/6p1/4KN1R b - - 0 1"),
    ("underpromotion to a knight gives check (f8=N+ attacks Kh7)",
     "8/5P1k/8/8/8/8/8/K7 w - - 0 1"),
    ("f8=Q+ and f8=R+ check along the rank, N and B do not",
     "7k/5P2/8/8/8/8/8/K7 w - - 0 1"),
    ("f8=B+ and f8=Q+ check on the diagonal",
     "8/5P2/7k/8/8/8/8/K7 w - - 0 1"),
    ("promotion gives discovered check from Ra7",
     "8/R2P3k/8/8/8/8/8/K7 w - - 0 1"),
    ("24 promotions incl. captures of the castling rooks on h1/h8 (rights "
     "K and k must be dropped)",
     "1r2k2r/P1P3P1/8/8/8/8/p1p3p1/1R2K2R w Kk - 0 1"),
    ("promotion race: both sides have three pawns on the 7th and knights "
     "to capture",
     "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1"),
    # --- checks and pins ---------------------------------------------------
    ("double check (Re8 + Nd3): only king moves",
     "4r2k/8/8/8/8/3n4/8/4K3 w - - 0 1"),
    ("double check: Qxd3 or a block on the e-file would be illegal",
     "4r2k/8/8/8/8/3n4/3Q4/4K3 w - - 0 1"),
    ("knight check: capture with gxf3 or move the king, no castling",
     "4k3/8/8/8/8/5n2/6P1/R3K2R w KQ - 0 1"),
    ("rook check along the first rank: Kf1 stays on the ray (illegal); "
     "block Rc1 / Nc1 or capture Nxa1",
     "4k3/2R5/8/8/8/1N6/8/r3K3 w - - 0 1"),
    ("pins on all four kinds of line: pinned knight, bishop, pawn; rook and "
     "queen may move along their pins",
     "b3r2k/7b/2N1R3/5Q2/r1P1KB1q/8/8/8 w - - 0 1"),
    ("pawn pinned diagonally may only capture its pinner (fxg3)",
     "4k3/8/8/8/8/6b1/5P2/4K3 w - - 0 1"),
    ("kings in opposition: squares next to the other king are forbidden",
     "8/8/8/3k4/8/3K4/8/8 w - - 0 1"),
    # --- mate, stalemate -------------------------------------------------------
    ("checkmate: fool's mate, white to move has 0 moves",
     "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"),
    ("checkmate: back-rank mate",
     "3R2k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"),
    ("checkmate: smothered mate by Nf7",
     "6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1"),
    ("stalemate: queen and king",
     "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
    ("stalemate with a pinned knight (Be4 pins Nb7)",
     "k7/1n1N4/1K6/8/4B3/8/8/8 b - - 0 1"),
    ("stalemate: king and pawn, Kf1 vs Kf3 + f2",
     "8/8/8/8/8/5k2/5p2/5K2 w - - 0 1"),
    # --- misc --------------------------------------------------------------
    ("218 legal moves (the maximum known)",
     "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1"),
    ("bare kings",
     "8/8/8/4k3/8/8/8/4K3 w - - 0 1"),
    ("pawn pushes blocked: Ne3 blocks e2, pawn c4 blocks c2-c4 but not "
     "c2-c3",
     "4k3/8/8/8/2p5/4n3/PPPPPPPP/4K3 w - - 0 1"),
    ("knights in the corners (board-edge wrap-around bugs)",
     "N3k2N/8/8/8/8/8/8/N3K2N w - - 0 1"),
    ("rooks on the edges facing each other (wrap-around bugs)",
     "R6r/8/8/2K5/5k2/8/8/r6R w - - 0 1"),
    ("halfmove clock 99 and a large move number: perft ignores the "
     "fifty-move rule",
     "8/8/3k4/8/8/3K4/3R4/8 w - - 99 150"),
]

# ---------------------------------------------------------------------------
# Chess960 hand-written castling cases (Shredder-FEN castling fields).
# ---------------------------------------------------------------------------
C960_HAND = [
    ("king on g1/g8 castles kingside without moving (only the h-rook moves "
     "to f); O-O-O with the b-rook",
     "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1"),
    ("king on b-file: O-O moves the king from b to g past the f-rook, which "
     "stays on f; O-O-O swaps a-rook to d",
     "rk3r2/pppppppp/8/8/8/8/PPPPPPPP/RK3R2 w FAfa - 0 1"),
    ("queenside rook on d1/d8 does not move when castling; king f->c "
     "passes over it",
     "3r1k1r/pppppppp/8/8/8/8/PPPPPPPP/3R1K1R w HDhd - 0 1"),
    ("king on c1/c8 castles queenside without moving; O-O lands the king on "
     "the castling rook's square g",
     "1rk3r1/pppppppp/8/8/8/8/PPPPPPPP/1RK3R1 w GBgb - 0 1"),
    ("king f, rook g: O-O swaps king and rook",
     "r4kr1/pppppppp/8/8/8/8/PPPPPPPP/R4KR1 w GAga - 0 1"),
    ("king d1: O-O-O rook lands on the king's start square",
     "r2k3r/8/8/8/8/8/8/R2K3R w HAha - 0 1"),
    ("castling rooks attacked by Rb8, Rg8 and Na3: O-O-O is legal (the king "
     "stays on c1), O-O is illegal because Rg8 attacks g1 through the rook",
     "1rk3r1/8/8/8/8/n7/8/1RK3R1 w GBgb - 0 1"),
    ("Qa1 is shielded by the castling rook b1: after O-O-O (Ke1->c1, "
     "Rb1->d1) the king is in check, so it is illegal; O-O legal",
     "4k3/8/8/8/8/8/8/qR2K2R w HB - 0 1"),
    ("same shield with the king already on c1 (it does not move): O-O-O "
     "illegal",
     "4k3/8/8/8/8/8/8/qRK4R w HB - 0 1"),
    ("rook a1 shielded by castling rook b1, king d1: O-O-O illegal",
     "4k3/8/8/8/8/8/8/rR1K3R w HB - 0 1"),
    ("two rooks on the queenside, the inner c-rook has the right "
     "(Shredder letter C): O-O-O puts the king on c1 and the rook on d1",
     "r1r1k2r/pppppppp/8/8/8/8/PPPPPPPP/R1R1K2R w HChc - 0 1"),
    ("two rooks on the queenside, the outer a-rook has the right: the "
     "c-rook blocks the king's destination, so O-O-O is illegal",
     "r1r1k2r/pppppppp/8/8/8/8/PPPPPPPP/R1R1K2R w HAha - 0 1"),
    ("Ne3 attacks d1 and f1: O-O (Kb1->g1 crosses d1) is illegal, O-O-O "
     "(Kb1->c1, Ra1->d1) is legal although the rook lands on attacked d1",
     "rk3r2/8/8/8/8/4n3/8/RK3R2 w FAfa - 0 1"),
    ("enemy bishop on d1 (the rook's destination, on the king's path) "
     "blocks O-O-O",
     "4k3/8/8/8/8/8/8/1R1bK2R w HB - 0 1"),
]


# ---------------------------------------------------------------------------
# Stockfish driver
# ---------------------------------------------------------------------------
class Stockfish:
    """One long-lived Stockfish process driven over pipes."""

    def __init__(self, path, chess960=False):
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.name = None
        self._send("uci")
        for line in self._lines_until("uciok"):
            if line.startswith("id name "):
                self.name = line[len("id name "):].strip()
        if chess960:
            self._send("setoption name UCI_Chess960 value true")
        self._send("isready")
        list(self._lines_until("readyok"))

    def _send(self, cmd):
        self.proc.stdin.write(cmd + "\n")
        self.proc.stdin.flush()

    def _lines_until(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("Stockfish exited unexpectedly")
            yield line
            if line.startswith(prefix):
                return

    def perft(self, fen, depth):
        self._send("position fen " + fen)
        self._send("go perft %d" % depth)
        for line in self._lines_until("Nodes searched:"):
            pass
        return int(line.split(":")[1])

    def close(self):
        try:
            self._send("quit")
            self.proc.wait(timeout=10)
        except Exception:  # pragma: no cover
            self.proc.kill()


class EnginePool:
    """Thread-local Stockfish processes (one per worker thread and mode)."""

    def __init__(self, path):
        self.path = path
        self.local = threading.local()
        self.all = []
        self.lock = threading.Lock()

    def get(self, chess960):
        engines = getattr(self.local, "engines", None)
        if engines is None:
            engines = self.local.engines = {}
        if chess960 not in engines:
            eng = Stockfish(self.path, chess960)
            engines[chess960] = eng
            with self.lock:
                self.all.append(eng)
        return engines[chess960]

    def close(self):
        for eng in self.all:
            eng.close()
        self.all = []


def find_stockfish(explicit):
    for cand in [explicit, "/usr/games/stockfish", shutil.which("stockfish")]:
        if cand and os.path.exists(cand):
            return cand
    sys.exit("Stockfish not found: apt-get install stockfish, or --stockfish PATH")


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------
def make_board(fen, chess960):
    board = chess.Board(fen, chess960=chess960)
    if not board.is_valid():
        raise ValueError("invalid position (%s): %s" % (board.status(), fen))
    return board


def fen_of(board):
    """FEN with the e.p. square whenever a double push just happened."""
    return board.fen(shredder=board.chess960, en_passant="fen")


def check_roundtrip(fen, chess960):
    board = make_board(fen, chess960)
    if fen_of(board) != fen:
        raise ValueError("FEN does not round-trip: %s -> %s" % (fen, fen_of(board)))
    return board


def py_perft(board, depth):
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += py_perft(board, depth - 1)
        board.pop()
    return total


def adaptive_perft(engine, fen, limit, max_depth=MAX_DEPTH):
    """Counts for depth 1, 2, ... while the count stays <= limit."""
    counts = [1]
    result = []
    for depth in range(1, max_depth + 1):
        cur = counts[-1]
        if cur == 0:
            break
        if depth >= 2:
            branching = cur / counts[-2]
            if cur * branching > 20 * limit:   # clearly too big: don't run it
                break
        nodes = engine.perft(fen, depth)
        if nodes > limit and result:
            break
        counts.append(nodes)
        result.append((depth, nodes))
    return result


def epd_line(fen, counts):
    return fen + "".join(" ;D%d %d" % (d, n) for d, n in counts)


def parse_epd_line(line):
    parts = [p.strip() for p in line.split(";")]
    fen = parts[0]
    counts = []
    for p in parts[1:]:
        if not p:
            continue
        key, val = p.split()
        if not key.startswith("D"):
            raise ValueError("bad field %r" % p)
        counts.append((int(key[1:]), int(val)))
    return fen, counts


def header(title, extra=(), sf_name="Stockfish"):
    lines = [
        "# chesstool perft suite: %s" % title,
        "# Generated by scripts/gen_suites.py; node counts from %s `go perft N`." % sf_name,
        "# Regenerate: pip install chess && python3 scripts/gen_suites.py",
        "# Verify:     python3 scripts/gen_suites.py --check <this file>",
        "# Format: FEN (6 fields) then ' ;D<depth> <nodes>' per depth; '#' lines are comments.",
    ]
    lines += ["# " + e for e in extra]
    return lines


def write_file(path, lines):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, path)


class Ctx:
    def __init__(self, args, pool, sf_name):
        self.args = args
        self.pool = pool
        self.sf_name = sf_name
        self.report = []

    def log(self, msg):
        print(msg, file=sys.stderr, flush=True)

    def map(self, fn, items):
        with ThreadPoolExecutor(max_workers=self.args.jobs) as ex:
            return list(ex.map(fn, items))


def pycheck(ctx, entries, chess960):
    """Cross-check depth 1 and 2 with python-chess. entries: (fen, counts)."""
    if ctx.args.no_pycheck:
        return 0
    bad = 0
    for fen, counts in entries:
        board = chess.Board(fen, chess960=chess960)
        for d, n in counts:
            if d > 2:
                continue
            mine = py_perft(board, d)
            if mine != n:
                bad += 1
                ctx.log("PYTHON-CHESS DISAGREES: %s D%d stockfish/file=%d "
                        "python-chess=%d" % (fen, d, n, mine))
    return bad


# ---------------------------------------------------------------------------
# suite builders
# ---------------------------------------------------------------------------
def gen_standard(ctx):
    budget = ctx.args.budget

    def verify(item):
        name, fen, published = item
        eng = ctx.pool.get(False)
        out = []
        for depth, expected in enumerate(published, 1):
            if expected > budget:
                break
            got = eng.perft(fen, depth)
            out.append((depth, expected, got))
        return out

    for name, fen, _ in STANDARD:
        check_roundtrip(fen, False)
    results = ctx.map(verify, STANDARD)
    bad = []
    lines = header("standard positions (Chess Programming Wiki 'Perft Results')", [
        "Counts are the published values; every depth whose count is <= the",
        "--budget (default 200,000,000 nodes) is re-computed with Stockfish on each",
        "run and any disagreement is fatal.  Larger values were verified once with",
        "--budget 10000000000.",
    ], ctx.sf_name)
    for (name, fen, published), res in zip(STANDARD, results):
        for depth, expected, got in res:
            if expected != got:
                bad.append("%s D%d published=%d stockfish=%d" % (name, depth, expected, got))
        lines.append("# " + name)
        lines.append(epd_line(fen, list(enumerate(published, 1))))
    if bad:
        for b in bad:
            ctx.log("MISMATCH: " + b)
        sys.exit("standard suite: published counts disagree with Stockfish")
    nbad = pycheck(ctx, [(fen, list(enumerate(p, 1))) for _, fen, p in STANDARD], False)
    if nbad:
        sys.exit("standard suite: python-chess disagrees")
    verified = sum(len(r) for r in results)
    ctx.report.append("standard: %d positions, %d depth values verified by Stockfish "
                      "(budget %d)" % (len(STANDARD), verified, budget))
    return lines


def gen_tricky(ctx):
    items = []      # (comment, fen, index of the original for mirrors)
    seen = set()
    for comment, fen in TRICKY:
        board = check_roundtrip(fen, False)
        if fen in seen:
            raise ValueError("duplicate hand-written position: " + fen)
        seen.add(fen)
        orig = len(items)
        items.append((comment, fen, None))
        mirror = board.mirror()
        if not mirror.is_valid():
            raise ValueError("mirror invalid: " + fen)
        mfen = fen_of(mirror)
        if mfen in seen:
            raise ValueError("mirror of %s duplicates another entry" % fen)
        seen.add(mfen)
        items.append(("mirror of: " + comment, mfen, orig))

    def run(item):
        return adaptive_perft(ctx.pool.get(False), item[1], TRICKY_LIMIT)

    results = ctx.map(run, items)
    for i, (_, fen, orig) in enumerate(items):
        if orig is not None and results[i] != results[orig]:
            sys.exit("mirror mismatch: %s %s vs %s" % (fen, results[i], results[orig]))
    lines = header("tricky hand-written positions", [
        "Each position is followed by its colour-mirrored twin (identical counts).",
        "Depths go as deep as keeps the count <= %d nodes." % TRICKY_LIMIT,
    ], ctx.sf_name)
    for (comment, fen, _), res in zip(items, results):
        lines.append("# " + comment)
        lines.append(epd_line(fen, res))
    if pycheck(ctx, [(it[1], r) for it, r in zip(items, results)], False):
        sys.exit("tricky suite: python-chess disagrees with Stockfish")
    ctx.report.append("tricky: %d positions (%d hand-written + %d mirrors), max depth %d"
                      % (len(items), len(TRICKY), len(items) - len(TRICKY),
                         max(r[-1][0] for r in results)))
    return lines


def random_walk(rng, board, plies):
    for _ in range(plies):
        moves = sorted(board.legal_moves, key=lambda m: m.uci())
        if not moves:
            return False
        board.push(rng.choice(moves))
    return not board.is_game_over()


def gen_chess960(ctx):
    items = []
    seen = set()

    def add(comment, board):
        fen = fen_of(board)
        if fen in seen:
            return False
        if not board.is_valid():
            raise ValueError("invalid 960 position: " + fen)
        seen.add(fen)
        items.append((comment, fen))
        return True

    for n in C960_START_IDS:
        add("start position #%d" % n, chess.Board.from_chess960_pos(n))

    rng = random.Random(C960_SEED)
    partial = castle_now = 0
    attempts = 0
    while partial < C960_WALKS_PARTIAL or castle_now < C960_WALKS_CASTLE:
        attempts += 1
        if attempts > 100000:
            raise RuntimeError("could not find enough Chess960 walk positions")
        n = rng.randrange(960)
        plies = rng.randint(*C960_PLIES)
        board = chess.Board.from_chess960_pos(n)
        if not random_walk(rng, board, plies):
            continue
        rights = bin(board.castling_rights).count("1")
        can_castle = any(board.is_castling(m) for m in board.legal_moves)
        if can_castle and castle_now < C960_WALKS_CASTLE:
            if add("start #%d + %d random plies, castling legal now" % (n, plies), board):
                castle_now += 1
        elif 1 <= rights <= 3 and partial < C960_WALKS_PARTIAL:
            if add("start #%d + %d random plies, %d castling rights left"
                   % (n, plies, rights), board):
                partial += 1

    for comment, fen in C960_HAND:
        board = check_roundtrip(fen, True)
        add(comment, board)
        add("mirror of: " + comment, board.mirror())

    def run(item):
        return adaptive_perft(ctx.pool.get(True), item[1], CHESS960_LIMIT)

    results = ctx.map(run, items)
    lines = header("Chess960 positions (Shredder-FEN castling fields)", [
        "Counted with `setoption name UCI_Chess960 value true`.",
        "Depths go as deep as keeps the count <= %d nodes." % CHESS960_LIMIT,
    ], ctx.sf_name)
    for (comment, fen), res in zip(items, results):
        lines.append("# " + comment)
        lines.append(epd_line(fen, res))
    if pycheck(ctx, [(it[1], r) for it, r in zip(items, results)], True):
        sys.exit("chess960 suite: python-chess disagrees with Stockfish")
    ctx.report.append("chess960: %d positions (%d starts, %d walks, %d hand-written incl. "
                      "mirrors)" % (len(items), len(C960_START_IDS),
                                    C960_WALKS_PARTIAL + C960_WALKS_CASTLE,
                                    len(items) - len(C960_START_IDS)
                                    - C960_WALKS_PARTIAL - C960_WALKS_CASTLE))
    return lines


def gen_random(ctx):
    rng = random.Random(RANDOM_SEED)
    fens = []
    seen = set()
    while len(fens) < RANDOM_COUNT:
        board = chess.Board()
        plies = rng.randint(*RANDOM_PLIES)
        if not random_walk(rng, board, plies):
            continue
        fen = fen_of(board)
        if fen in seen:
            continue
        assert board.is_valid()
        seen.add(fen)
        fens.append(fen)

    def run(fen):
        return adaptive_perft(ctx.pool.get(False), fen, RANDOM_LIMIT)

    results = ctx.map(run, fens)
    lines = header("random positions from seeded random play", [
        "Seed %d, %d positions, %d..%d random plies from the start position "
        "(game-over positions skipped)." % (RANDOM_SEED, RANDOM_COUNT, *RANDOM_PLIES),
        "Depths go as deep as keeps the count <= %d nodes." % RANDOM_LIMIT,
    ], ctx.sf_name)
    for fen, res in zip(fens, results):
        lines.append(epd_line(fen, res))
    if pycheck(ctx, list(zip(fens, results)), False):
        sys.exit("random suite: python-chess disagrees with Stockfish")
    ctx.report.append("random: %d positions" % len(fens))
    return lines


GENERATORS = {
    "standard": gen_standard,
    "tricky": gen_tricky,
    "chess960": gen_chess960,
    "random": gen_random,
}


# ---------------------------------------------------------------------------
# --check
# ---------------------------------------------------------------------------
def check_file(ctx, path):
    entries = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fen, counts = parse_epd_line(line)
            entries.append((lineno, fen, counts))
    chess960 = ctx.args.chess960 or any(
        set(fen.split()[2]) - set("KQkq-") for _, fen, _ in entries)
    cap = ctx.args.cap

    def run(entry):
        lineno, fen, counts = entry
        eng = ctx.pool.get(chess960)
        problems, done = [], 0
        try:
            make_board(fen, chess960)
        except ValueError as e:
            problems.append("line %d: %s" % (lineno, e))
        for d, n in counts:
            if n > cap:
                continue
            got = eng.perft(fen, d)
            done += 1
            if got != n:
                problems.append("line %d: %s D%d file=%d stockfish=%d"
                                % (lineno, fen, d, n, got))
        return problems, done

    results = ctx.map(run, entries)
    problems = [p for r in results for p in r[0]]
    done = sum(r[1] for r in results)
    nbad = pycheck(ctx, [(fen, counts) for _, fen, counts in entries], chess960)
    for p in problems:
        print("MISMATCH " + p)
    print("%s: %d positions, %d depth values checked with Stockfish (cap %d)%s, "
          "%d mismatches, %d python-chess disagreements"
          % (path, len(entries), done, cap, " [Chess960]" if chess960 else "",
             len(problems), nbad))
    return not problems and not nbad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stockfish", help="path of the Stockfish binary")
    ap.add_argument("--outdir", default=DEFAULT_OUTDIR)
    ap.add_argument("--only", default=",".join(GENERATORS),
                    help="comma-separated subset of: " + ",".join(GENERATORS))
    ap.add_argument("--jobs", type=int, default=2, help="Stockfish processes (default 2)")
    ap.add_argument("--budget", type=int, default=200_000_000,
                    help="standard suite: verify published counts up to this many nodes")
    ap.add_argument("--check", metavar="FILE", nargs="+",
                    help="verify existing suite file(s) instead of generating")
    ap.add_argument("--cap", type=int, default=200_000_000,
                    help="--check: skip depths whose expected count exceeds this")
    ap.add_argument("--chess960", action="store_true",
                    help="--check: force Chess960 mode")
    ap.add_argument("--no-pycheck", action="store_true",
                    help="skip the python-chess depth 1-2 cross-check")
    args = ap.parse_args()

    path = find_stockfish(args.stockfish)
    probe = Stockfish(path)
    sf_name = probe.name or "Stockfish"
    probe.close()
    if not sf_name.startswith("Stockfish 15.1"):
        print("warning: expected Stockfish 15.1, found %s" % sf_name, file=sys.stderr)

    pool = EnginePool(path)
    ctx = Ctx(args, pool, sf_name)
    t0 = time.time()
    try:
        if args.check:
            ok = True
            for p in args.check:
                ok = check_file(ctx, p) and ok
                pool.close()
            sys.exit(0 if ok else 1)
        os.makedirs(args.outdir, exist_ok=True)
        for name in args.only.split(","):
            name = name.strip()
            if name not in GENERATORS:
                sys.exit("unknown suite %r" % name)
            t = time.time()
            ctx.log("generating %s ..." % name)
            lines = GENERATORS[name](ctx)
            pool.close()        # fresh Stockfish processes for each file
            out = os.path.join(args.outdir, name + ".epd")
            write_file(out, lines)
            ctx.log("  wrote %s (%d lines) in %.1fs" % (out, len(lines), time.time() - t))
    finally:
        pool.close()
    for r in ctx.report:
        print(r)
    print("total time %.1fs" % (time.time() - t0))


if __name__ == "__main__":
    main()
