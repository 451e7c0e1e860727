//! What chess gives `chesstool fuzz`: the bias of its random walks toward
//! the rare rules, and the reading of an engine's FEN by meaning.
//!
//! The bias is the shared table of `rules::RareMove` (a plain move weighs 1,
//! each rare property adds its weight): rare moves are chosen far more often
//! than their share of the legal moves, without ever ruling out a quiet one.

use crate::attacks::{king_attacks, pawn_attacks};
use crate::board::{Role, Square};
use crate::position::back_rank;
use crate::rules::{field_differences, RareMove};
use crate::{Move, Position};

/// What makes `m` rare (the bias of a random walk: `RareMove::weight`).
pub fn rare_move(pos: &Position, m: Move) -> RareMove {
    let us = pos.turn();
    let them = !us;
    let role = pos.role_at(m.from());
    let rights = pos.castling_rooks();
    let takes = !m.is_castling() && pos.by_color(them).contains(m.to());
    let double_push = role == Some(Role::Pawn) && (m.from() as u8).abs_diff(m.to() as u8) == 16;
    let skipped = Square::new((m.from() as u8 + m.to() as u8) / 2);
    let king = role == Some(Role::King);
    RareMove {
        capture: m.is_en_passant() || takes,
        en_passant: m.is_en_passant(),
        allows_en_passant: double_push && (pawn_attacks(us, skipped) & pos.pieces(them, Role::Pawn)).any(),
        promotion: m.promotion_role() == Some(Role::Queen),
        underpromotion: m.promotion_role().is_some_and(|r| r != Role::Queen),
        castling: m.is_castling(),
        loses_castling: !m.is_castling()
            && (rights.contains(m.from()) || rights.contains(m.to()) || (king && (rights & back_rank(us)).any())),
        takes_castling_rook: takes && rights.contains(m.to()),
        check: pos.play(m).is_check(),
        king_near_check: king
            && (pos.is_check() || (pos.attacked_by(them, pos.occupied()) & king_attacks(m.from())).any()),
        ends_game: false,
        drop: false,
        captures_promoted: false,
    }
}

/// The weight of `m` in a random walk (docs/fuzz.md has the table).
pub fn walk_weight(pos: &Position, m: Move) -> u32 {
    rare_move(pos, m).weight()
}

/// `pos` with the other side to move and no e.p. square, if that is a
/// valid position (the side that moved is not in check).
pub fn other_side_to_move(pos: &Position) -> Option<Position> {
    let fen = pos.to_fen();
    let mut fields: Vec<&str> = fen.split(' ').collect();
    fields[1] = if fields[1] == "w" { "b" } else { "w" };
    fields[3] = "-";
    let mut other = Position::from_fen(&fields.join(" ")).ok()?;
    other.set_chess960(pos.is_chess960());
    Some(other)
}

const FIELDS: [&str; 6] = ["board", "side to move", "castling", "en passant", "halfmove clock", "fullmove number"];

/// Where the engine's FEN `printed` of `pos` differs from ours, by meaning:
/// castling in any notation that names the same rooks (KQkq, Shredder,
/// X-FEN); the e.p. square as we write it (an enemy pawn attacks it), as the
/// last double push left it, or `-` when no e.p. capture is legal.
pub fn fen_differences(before: Option<(&Position, Move)>, pos: &Position, printed: &str) -> Vec<String> {
    let ours = pos.to_fen();
    let mut fields: Vec<String> = printed.split_whitespace().map(str::to_string).collect();
    if let Some(castling) = fields.get(2) {
        if same_castling(pos, &ours, castling) {
            fields[2] = ours.split_whitespace().nth(2).unwrap_or("-").to_string();
        }
    }
    if let Some(ep) = fields.get(3) {
        if acceptable_ep(before, pos).iter().any(|a| a == ep) {
            fields[3] = ours.split_whitespace().nth(3).unwrap_or("-").to_string();
        }
    }
    field_differences(&ours, &fields.join(" "), &FIELDS)
}

/// True if `castling` names the same castling rooks as ours on our board.
fn same_castling(pos: &Position, ours: &str, castling: &str) -> bool {
    let mut f: Vec<&str> = ours.split_whitespace().collect();
    if f.len() < 3 {
        return false;
    }
    f[2] = castling;
    match Position::from_fen(&f.join(" ")) {
        Ok(mut p) => {
            p.set_chess960(pos.is_chess960());
            p.castling_rooks() == pos.castling_rooks()
        }
        Err(_) => false,
    }
}

/// The e.p. fields a correct engine may print here.
fn acceptable_ep(before: Option<(&Position, Move)>, pos: &Position) -> Vec<String> {
    let mut out = vec![pos.ep_square().map_or("-".to_string(), |s| s.to_string())];
    if let Some((b, m)) = before {
        let pawn = b.role_at(m.from()) == Some(Role::Pawn);
        if pawn && (m.from() as u8).abs_diff(m.to() as u8) == 16 {
            out.push(Square::new((m.from() as u8 + m.to() as u8) / 2).to_string());
        }
    }
    if !pos.legal_moves().iter().any(|m| m.is_en_passant()) {
        out.push("-".to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rare_moves_are_told_apart() {
        let pos = Position::from_fen("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1").unwrap();
        let rare = |uci: &str| rare_move(&pos, pos.parse_uci(uci).unwrap());
        let plain = RareMove::default();
        assert_eq!(rare("a1a2"), RareMove { loses_castling: true, ..plain });
        assert_eq!(rare("e5d6"), RareMove { capture: true, en_passant: true, ..plain });
        assert_eq!(rare("e1g1"), RareMove { castling: true, ..plain });
        assert_eq!(rare("b7b8n"), RareMove { underpromotion: true, ..plain });
        let b7a8q = RareMove {
            capture: true,
            promotion: true,
            loses_castling: true,
            takes_castling_rook: true,
            check: true,
            ..plain
        };
        assert_eq!(rare("b7a8q"), b7a8q);
        assert_eq!(rare("e5e6"), plain);
        assert_eq!(walk_weight(&pos, pos.parse_uci("e5e6").unwrap()), 1);
        let push = Position::from_fen("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1").unwrap();
        let e2e4 = push.parse_uci("e2e4").unwrap();
        assert_eq!(rare_move(&push, e2e4), RareMove { allows_en_passant: true, ..plain });
        let e1d1 = push.parse_uci("e1d1").unwrap();
        assert_eq!(rare_move(&push, e1d1), plain);
    }

    #[test]
    fn fen_fields_compared_by_meaning() {
        let before = Position::from_fen("4k3/8/8/8/4p3/8/3P4/4K2R w K - 0 1").unwrap();
        let m = before.parse_uci("d2d4").unwrap();
        let pos = before.play(m);
        assert_eq!(pos.to_fen(), "4k3/8/8/8/3Pp3/8/8/4K2R b K d3 0 1");
        // Shredder castling and the e.p. square are fine; a kept right is not.
        assert!(fen_differences(Some((&before, m)), &pos, "4k3/8/8/8/3Pp3/8/8/4K2R b H d3 0 1").is_empty());
        let d = fen_differences(Some((&before, m)), &pos, "4k3/8/8/8/3Pp3/8/8/4K2R b KQ - 0 2");
        assert_eq!(
            d,
            ["castling: engine KQ, ours K", "en passant: engine -, ours d3", "fullmove number: engine 2, ours 1"]
        );
        // After a double push that allows no capture, `-` and the square are both right.
        let start = Position::startpos();
        let e4 = start.parse_uci("e2e4").unwrap();
        let after = start.play(e4);
        for ep in ["-", "e3"] {
            let fen = format!("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq {ep} 0 1");
            assert!(fen_differences(Some((&start, e4)), &after, &fen).is_empty(), "{ep}");
        }
    }
}
