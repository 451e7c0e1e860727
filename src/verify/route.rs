//! A position reached by moves from another FEN, for telling a FEN reader's
//! fault from the move generator's when no line from the game's start
//! leads to the position (a motif case, a FEN the user gave). The other FEN
//! holds what a FEN reader may read wrong in a form that does not depend on
//! it: every castling right the pieces allow (the moves then give up the
//! rights the position lacks: a rook, or the king, out and back), or no
//! e.p. square (the move is the double push that makes it). Chess FENs
//! only (six fields, castling in `KQkq`); other texts have no route.

use crate::engines::Line;
use crate::rules::Rules;

/// A line from another FEN to `pos` by moves, or `None` if this module
/// knows none.
pub fn by_moves<R: Rules>(rules: &R, pos: &R::Position) -> Option<Line<R>> {
    let text = rules.position_text(pos);
    let fields: Vec<&str> = text.split(' ').collect();
    if fields.len() != 6 || !fields[2].chars().all(|c| "KQkq-".contains(c)) {
        return None;
    }
    let line = if fields[3] != "-" { before_double_push(rules, &fields)? } else { with_all_rights(rules, &fields)? };
    (same_position(rules, &line.position(rules), &text)).then_some(line)
}

/// For a position with some castling rights but no route: a probe with the
/// same side to move and castling field, the kings and rooks at home and
/// nothing else, and its route (every right, then rooks out and back).
pub fn probe<R: Rules>(rules: &R, pos: &R::Position) -> Option<(R::Position, Line<R>)> {
    let text = rules.position_text(pos);
    let fields: Vec<&str> = text.split(' ').collect();
    if fields.len() != 6 || fields[2] == "-" || fields[2] == "KQkq" || !fields[2].chars().all(|c| "KQkq".contains(c)) {
        return None;
    }
    let probe = rules.parse_position(&format!("r3k2r/8/8/8/8/8/8/R3K2R {} {} - 0 1", fields[1], fields[2])).ok()?;
    let route = by_moves(rules, &probe)?;
    Some((probe, route))
}

/// Board, side, castling and e.p. fields equal.
fn same_position<R: Rules>(rules: &R, pos: &R::Position, text: &str) -> bool {
    let reached = rules.position_text(pos);
    reached.split(' ').take(4).eq(text.split(' ').take(4))
}

/// The position before the double push that made the e.p. square, and the push.
fn before_double_push<R: Rules>(rules: &R, fields: &[&str]) -> Option<Line<R>> {
    let ep = fields[3].as_bytes();
    let (file, rank) = (ep[0], ep[1]);
    // White pushed to rank 4 over rank 3, or Black to rank 5 over rank 6.
    let (from, to, pawn, mover) = match rank {
        b'3' => (b'2', b'4', 'P', "w"),
        b'6' => (b'7', b'5', 'p', "b"),
        _ => return None,
    };
    let mut board = squares(fields[0])?;
    let at = |f: u8, r: u8| ((b'8' - r) as usize, (f - b'a') as usize);
    let (tr, tf) = at(file, to);
    let (fr, ff) = at(file, from);
    if board[tr][tf] != Some(pawn) || board[fr][ff].is_some() {
        return None;
    }
    board[tr][tf] = None;
    board[fr][ff] = Some(pawn);
    let fullmove: u32 = fields[5].parse().ok()?;
    let fullmove = if mover == "b" { fullmove.saturating_sub(1).max(1) } else { fullmove };
    let before = format!("{} {mover} {} - 0 {fullmove}", board_text(&board), fields[2]);
    let root = rules.parse_position(&before).ok()?;
    let push = format!("{}{}{}{}", file as char, from as char, file as char, to as char);
    let m = rules.read_move(&root, &push).ok()?;
    Some(Line { root, moves: vec![m] })
}

/// The position with every castling right its kings and rooks allow, and
/// four moves (each side's piece out and back) that give up the rights
/// the position lacks; `None` if it lacks none or no such moves exist.
fn with_all_rights<R: Rules>(rules: &R, fields: &[&str]) -> Option<Line<R>> {
    let board = squares(fields[0])?;
    let piece = |sq: &str| {
        let (f, r) = (sq.as_bytes()[0], sq.as_bytes()[1]);
        board[(b'8' - r) as usize][(f - b'a') as usize]
    };
    let allowed = [('K', "e1", "h1"), ('Q', "e1", "a1"), ('k', "e8", "h8"), ('q', "e8", "a8")];
    let mut rights = String::new();
    for (right, king, rook) in allowed {
        let (k, r) = if right.is_ascii_uppercase() { ('K', 'R') } else { ('k', 'r') };
        if fields[2].contains(right) || (piece(king) == Some(k) && piece(rook) == Some(r)) {
            rights.push(right);
        }
    }
    let current: String = fields[2].chars().filter(|&c| c != '-').collect();
    if rights == current {
        return None;
    }
    let root = rules.parse_position(&format!("{} {} {rights} - 0 {}", fields[0], fields[1], fields[5])).ok()?;
    let target = fields[..4].join(" ");
    // Each side's move out and back: the mover's first, then the other's.
    for first in rules.legal_moves(&root) {
        let after_first = rules.play(&root, first);
        let Some(back_first) = reverse(rules, &root, first, &after_first) else { continue };
        for second in rules.legal_moves(&after_first) {
            let after_second = rules.play(&after_first, second);
            let Ok(m3) = rules.read_move(&after_second, &back_first) else { continue };
            let after_third = rules.play(&after_second, m3);
            let Some(back_second) = reverse(rules, &after_first, second, &after_second) else { continue };
            let Ok(m4) = rules.read_move(&after_third, &back_second) else { continue };
            let end = rules.play(&after_third, m4);
            if same_position(rules, &end, &target) {
                return Some(Line { root, moves: vec![first, second, m3, m4] });
            }
        }
    }
    None
}

/// The move back of `m` (played from `pos`, reaching `after`) as text: its
/// squares swapped, for a plain move of four characters that captured nothing.
fn reverse<R: Rules>(rules: &R, pos: &R::Position, m: R::Move, after: &R::Position) -> Option<String> {
    let text = rules.move_text(pos, m);
    let pieces = |p: &R::Position| {
        rules.position_text(p).split(' ').next().map(|b| b.chars().filter(char::is_ascii_alphabetic).count())
    };
    if text.len() != 4 || pieces(pos) != pieces(after) {
        return None;
    }
    Some(format!("{}{}", &text[2..], &text[..2]))
}

/// The board field as ranks 8 to 1, files a to h.
fn squares(board: &str) -> Option<[[Option<char>; 8]; 8]> {
    let mut out = [[None; 8]; 8];
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return None;
    }
    for (r, rank) in ranks.iter().enumerate() {
        let mut f = 0;
        for c in rank.chars() {
            match c.to_digit(10) {
                Some(n) => f += n as usize,
                None => {
                    *out[r].get_mut(f)? = Some(c);
                    f += 1;
                }
            }
        }
        if f != 8 {
            return None;
        }
    }
    Some(out)
}

fn board_text(board: &[[Option<char>; 8]; 8]) -> String {
    let rank = |row: &[Option<char>; 8]| {
        let mut text = String::new();
        let mut empty = 0;
        for sq in row {
            match sq {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(*c);
                }
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        text
    };
    board.iter().map(rank).collect::<Vec<_>>().join("/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Chess;
    use crate::Position;

    fn route(fen: &str) -> Option<(String, Vec<String>)> {
        let rules = Chess::new();
        let line = by_moves(&rules, &Position::from_fen(fen).unwrap())?;
        Some((rules.position_text(&line.root), line.move_texts(&rules)))
    }

    #[test]
    fn missing_castling_rights_are_given_up_by_moves() {
        let (root, moves) = route("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1").unwrap();
        assert!(root.starts_with("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - "), "{root}");
        assert_eq!(moves.len(), 4, "{moves:?}");
        // Every right the pieces allow: nothing to give up.
        assert_eq!(route("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"), None);
        assert_eq!(route("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), None);
    }

    #[test]
    fn a_castling_field_with_no_route_has_a_probe() {
        let rules = Chess::new();
        let pos = Position::from_fen("8/8/8/6k1/8/8/7r/4K2R w K - 0 1").unwrap();
        assert!(by_moves(&rules, &pos).is_none());
        let (probe, route) = probe(&rules, &pos).unwrap();
        assert_eq!(rules.position_text(&probe), "r3k2r/8/8/8/8/8/8/R3K2R w K - 0 1");
        assert_eq!(route.moves.len(), 4);
        assert_eq!(
            rules.position_text(&route.position(&rules)).split(' ').take(4).collect::<Vec<_>>().join(" "),
            "r3k2r/8/8/8/8/8/8/R3K2R w K -"
        );
    }

    #[test]
    fn an_en_passant_square_is_made_by_the_double_push() {
        let (root, moves) = route("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1").unwrap();
        assert_eq!(root, "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
        assert_eq!(moves, ["e2e4"]);
    }
}
