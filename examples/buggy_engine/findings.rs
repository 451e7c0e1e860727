//! The buggy engine's bugs that a hunt reports as findings rather than
//! failures: `illegal-promo` (prints `d7d8q`, or `d2d1q` for Black, where no
//! pawn of the side to move stands), `zero-count` (prints the king's
//! pseudo-legal moves into check with the count 0: its totals stay right),
//! `promo-rank` (the promotion rank off by one: pawns promote on reaching
//! the seventh rank, not the eighth), `fen-castling-swap` (the FEN reader
//! swaps the kingside and queenside castling rights; moves from the start
//! keep them right), `moves-before-position` (the UCI driver plays the moves
//! of `position fen ... moves ...` before it sets up the FEN, so they are
//! lost).

use chesstool::attacks::king_attacks;
use chesstool::board::{Color, Rank, Role, Square};
use chesstool::{Move, Position};

/// A move printed by `promo-rank` in place of a real one: its UCI text and
/// the position it leads to, where that is a valid position.
pub struct Misprint {
    pub uci: String,
    pub next: Option<Position>,
}

/// The `promo-rank` move list for `m`: a promotion on the last rank comes
/// out as a plain pawn move (once, for the four pieces), a pawn move onto
/// the rank before it as the four promotions; other moves are unchanged
/// (`None`).
pub fn promo_rank(pos: &Position, m: Move) -> Option<Vec<Misprint>> {
    let us = pos.turn();
    if pos.role_at(m.from()) != Some(Role::Pawn) || m.is_en_passant() {
        return None;
    }
    let seventh = if us == Color::White { Rank::Seventh } else { Rank::Second };
    match m.promotion_role() {
        // The queen's line stands for all four: one plain move.
        Some(Role::Queen) => Some(vec![Misprint { uci: format!("{}{}", m.from(), m.to()), next: None }]),
        Some(_) => Some(Vec::new()),
        None if m.to().rank() == seventh => Some(
            [Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
                .into_iter()
                .map(|r| Misprint { uci: format!("{}{}{}", m.from(), m.to(), r.char()), next: promoted(pos, m, r) })
                .collect(),
        ),
        None => None,
    }
}

/// The position after the pawn move `m` with the pawn turned into `role`.
fn promoted(pos: &Position, m: Move, role: Role) -> Option<Position> {
    let fen = pos.play(m).to_fen();
    let (board, rest) = fen.split_once(' ')?;
    let mut squares = expand(board);
    let c = role.char();
    squares[m.to() as usize] = Some(if pos.turn() == Color::White { c.to_ascii_uppercase() } else { c });
    Position::from_fen(&format!("{} {rest}", compress(&squares))).ok()
}

/// The squares of a FEN board field, a1 first.
fn expand(board: &str) -> [Option<char>; 64] {
    let mut out = [None; 64];
    for (r, row) in board.split('/').enumerate() {
        let mut file = 0;
        for c in row.chars() {
            match c.to_digit(10) {
                Some(n) => file += n as usize,
                None => {
                    if file < 8 && r < 8 {
                        out[(7 - r) * 8 + file] = Some(c);
                    }
                    file += 1;
                }
            }
        }
    }
    out
}

fn compress(squares: &[Option<char>; 64]) -> String {
    let rows: Vec<String> = (0..8)
        .rev()
        .map(|rank| {
            let mut row = String::new();
            let mut empty = 0;
            for file in 0..8 {
                match squares[rank * 8 + file] {
                    Some(c) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            row
        })
        .collect();
    rows.join("/")
}

/// The `illegal-promo` line: a queen promotion from d7 (d2 for Black)
/// where no pawn of the side to move stands, if there is none.
pub fn illegal_promotion(pos: &Position) -> Option<String> {
    let (from, to) = if pos.turn() == Color::White { ("d7", "d8") } else { ("d2", "d1") };
    let sq = Square::parse(from)?;
    let ours = pos.piece_at(sq).is_some_and(|p| p.color == pos.turn() && p.role == Role::Pawn);
    (!ours).then(|| format!("{from}{to}q"))
}

/// The `zero-count` lines: king moves a pseudo-legal generator lists that
/// leave the king in check, each with the count 0.
pub fn zero_count_moves(pos: &Position) -> Vec<String> {
    let us = pos.turn();
    let king = pos.king(us);
    let legal = pos.legal_moves();
    (king_attacks(king) & !pos.by_color(us))
        .into_iter()
        .map(|to| Move::normal(king, to))
        .filter(|m| !legal.contains(*m))
        .map(|m| m.to_uci(false))
        .collect()
}

/// The position a FEN reader that swaps the castling wings reads: `K` and
/// `Q` (and `k` and `q`) exchanged, keeping only the rights the board can
/// hold (a right with no rook to castle with is dropped).
pub fn read_fen_swapped(fen: &str) -> Result<Position, String> {
    let mut fields: Vec<String> = fen.split_whitespace().map(String::from).collect();
    if fields.len() < 3 || fields[2] == "-" {
        return Position::from_fen(fen).map_err(|e| e.to_string());
    }
    let swapped: Vec<char> = fields[2]
        .chars()
        .map(|c| match c {
            'K' => 'Q',
            'Q' => 'K',
            'k' => 'q',
            'q' => 'k',
            c => c,
        })
        .collect();
    // The largest subset of the swapped rights that makes a valid position.
    let n = swapped.len();
    let mut subsets: Vec<u32> = (0..1u32 << n).collect();
    subsets.sort_by_key(|s| std::cmp::Reverse(s.count_ones()));
    for s in subsets {
        let rights: String = (0..n).filter(|i| s & (1 << i) != 0).map(|i| swapped[i]).collect();
        fields[2] = if rights.is_empty() { "-".to_string() } else { rights };
        if let Ok(p) = Position::from_fen(&fields.join(" ")) {
            return Ok(p);
        }
    }
    Position::from_fen(fen).map_err(|e| e.to_string())
}
