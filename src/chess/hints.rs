//! Hints for the hunt: what kind of move an engine left out, and which rule
//! a move it printed breaks (`castles through an attacked square`, `leaves
//! the king in check (the piece is pinned)`), so that a witness names the bug.

use super::notation::uci_form;
use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks};
use crate::board::{Bitboard, Color, Rank, Role, Square};
use crate::position::is_kingside;
use crate::{Move, Position};

/// What kind of move a missing move is.
pub fn describe_move(pos: &Position, m: Move) -> String {
    let role = pos.piece_at(m.from()).map(|p| p.role);
    if m.is_castling() {
        let side = if is_kingside(m.from(), m.to()) { "kingside" } else { "queenside" };
        return format!("castling {side}");
    }
    if m.is_en_passant() {
        return "en passant capture".to_string();
    }
    if let Some(r) = m.promotion_role() {
        return format!("promotion piece missing ({})", role_name(r));
    }
    let capture = pos.occupied().contains(m.to());
    let check_note = if pos.is_check() { " out of check" } else { "" };
    let what = match role {
        Some(Role::Pawn) if m.from().index().abs_diff(m.to().index()) == 16 => "double pawn push".to_string(),
        Some(Role::King) => "king move".to_string(),
        Some(r) => format!("{} move", role_name(r)),
        None => "move".to_string(),
    };
    format!("{what}{}{check_note}", if capture { " (capture)" } else { "" })
}

fn role_name(r: Role) -> &'static str {
    match r {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// Which rule an illegal move (given in UCI form) breaks, where that is easy to tell.
pub fn explain_illegal(pos: &Position, uci: &str) -> Option<String> {
    let uci = uci_form(uci)?;
    let from = Square::parse(&uci[0..2])?;
    let to = Square::parse(&uci[2..4])?;
    let promotion = uci[4..].chars().next();
    let us = pos.turn();
    let them = !us;
    let occ = pos.occupied();
    let piece = match pos.piece_at(from) {
        Some(p) if p.color == us => p,
        _ => return Some(format!("no piece of the side to move on {from}")),
    };
    let own_target = pos.by_color(us).contains(to);
    if pos.pieces(them, Role::King).contains(to) {
        return Some("captures the king".to_string());
    }
    let last_rank = if us == Color::White { Rank::Eighth } else { Rank::First };
    if promotion.is_some() && (piece.role != Role::Pawn || to.rank() != last_rank) {
        return Some("promotes where no promotion is possible".to_string());
    }
    match piece.role {
        Role::King => {
            let castling_shape = (own_target && pos.pieces(us, Role::Rook).contains(to) && to.rank() == from.rank())
                || (to.rank() == from.rank() && (to.file() as i32 - from.file() as i32).abs() == 2);
            if castling_shape {
                return Some(explain_castling(pos, from, to));
            }
            if own_target {
                return Some("captures its own piece".to_string());
            }
            if !king_attacks(from).contains(to) {
                return Some("the king cannot move like that".to_string());
            }
            if pos.attacked_by(them, occ.without(from)).contains(to) {
                return Some("leaves the king in check (the king moves onto an attacked square)".to_string());
            }
            None
        }
        Role::Pawn => explain_pawn(pos, from, to, promotion, last_rank),
        role => {
            if own_target {
                return Some("captures its own piece".to_string());
            }
            let reach = |o: Bitboard| match role {
                Role::Knight => knight_attacks(from),
                Role::Bishop => bishop_attacks(from, o),
                Role::Rook => rook_attacks(from, o),
                _ => queen_attacks(from, o),
            };
            if !reach(occ).contains(to) {
                return Some(if reach(Bitboard::EMPTY).contains(to) {
                    format!("the {} moves through an occupied square", role_name(role))
                } else {
                    format!("a {} cannot move like that", role_name(role))
                });
            }
            king_safety(pos, Move::normal(from, to))
        }
    }
}

fn explain_pawn(pos: &Position, from: Square, to: Square, promotion: Option<char>, last_rank: Rank) -> Option<String> {
    let us = pos.turn();
    let occ = pos.occupied();
    let step: i32 = if us == Color::White { 8 } else { -8 };
    let delta = to.index() as i32 - from.index() as i32;
    let start_rank = if us == Color::White { Rank::Second } else { Rank::Seventh };
    if to.rank() == last_rank && promotion.is_none() {
        return Some("promotion piece missing (a pawn reaching the last rank must promote)".to_string());
    }
    let promo_role = promotion.and_then(|c| Role::from_char(c.to_ascii_lowercase()));
    let mv = |m: Move| king_safety(pos, m);
    if delta == step {
        if occ.contains(to) {
            return Some("the pawn pushes onto an occupied square".to_string());
        }
        return mv(promo_role.map_or(Move::normal(from, to), |r| Move::promotion(from, to, r)));
    }
    if delta == 2 * step {
        if from.rank() != start_rank {
            return Some(format!("double pawn push from the wrong rank ({from} is not on the pawns' starting rank)"));
        }
        let mid = Square::new((from as u8 + to as u8) / 2);
        if occ.contains(mid) || occ.contains(to) {
            return Some("double pawn push through an occupied square".to_string());
        }
        return mv(Move::normal(from, to));
    }
    if pawn_attacks(us, from).contains(to) {
        if pos.by_color(us).contains(to) {
            return Some("captures its own piece".to_string());
        }
        if pos.by_color(!us).contains(to) {
            return mv(promo_role.map_or(Move::normal(from, to), |r| Move::promotion(from, to, r)));
        }
        if pos.ep_square() == Some(to) {
            return king_safety(pos, Move::en_passant(from, to)).map(|_| {
                "leaves the king in check (en passant capture: removing both pawns opens a line to the king)"
                    .to_string()
            });
        }
        return Some(
            "en passant capture without an en passant square (the last move was not a double push past it)".to_string(),
        );
    }
    Some("a pawn cannot move like that".to_string())
}

fn explain_castling(pos: &Position, king: Square, to: Square) -> String {
    let us = pos.turn();
    let kingside = to.file() > king.file();
    let rights = pos.castling_rooks() & pos.by_color(us) & Bitboard::rank(king.rank());
    let rook = rights.into_iter().find(|&r| is_kingside(king, r) == kingside);
    let Some(rook) = rook else {
        return "castles without the castling right (the king or that rook has moved, or the rook was captured)"
            .to_string();
    };
    if pos.is_check() {
        return "castles out of check".to_string();
    }
    let m = Move::castling(king, rook);
    let (kt, rt) = (m.castling_king_target(), m.castling_rook_target());
    let span = |a: Square, b: Square| {
        let (lo, hi) = (a.min(b) as u8, a.max(b) as u8);
        (lo..=hi).map(Square::new).fold(Bitboard::EMPTY, |bb, s| bb.with(s))
    };
    let must_be_empty = (span(king, kt) | span(rook, rt)).without(king).without(rook);
    if (must_be_empty & pos.occupied()).any() {
        return "castles through an occupied square".to_string();
    }
    let attacked = pos.attacked_by(!us, pos.occupied().without(king).without(rook));
    if attacked.contains(kt) {
        return "leaves the king in check (castles into check)".to_string();
    }
    if (span(king, kt) & attacked).any() {
        return "castles through an attacked square".to_string();
    }
    "castling is not legal here".to_string()
}

/// Plays a pseudo-legal move and tells if it leaves our king attacked.
fn king_safety(pos: &Position, m: Move) -> Option<String> {
    let us = pos.turn();
    let next = pos.play_unchecked(m);
    let attacked = (next.attackers_to(next.king(us), next.occupied()) & next.by_color(!us)).any();
    if !attacked {
        return None;
    }
    Some(if pos.is_check() {
        "leaves the king in check (does not answer the check)".to_string()
    } else {
        "leaves the king in check (the piece is pinned)".to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_for_classic_bugs() {
        let hint = |fen: &str, uci: &str| explain_illegal(&Position::from_fen(fen).unwrap(), uci).unwrap_or_default();
        // Castling through f1, attacked by the bishop on c4.
        assert_eq!(hint("4k3/8/8/8/2b5/8/8/4K2R w K - 0 1", "e1g1"), "castles through an attacked square");
        assert_eq!(hint("4k3/8/8/8/8/8/8/4K2R w - - 0 1", "e1g1").split(' ').next(), Some("castles"));
        assert!(hint("4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1", "d2d3").starts_with("leaves the king in check"));
        assert!(hint("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1e2").is_empty());
        assert!(hint("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "e1f2").starts_with("leaves the king in check"));
        // E.p. that exposes the king along the fifth rank.
        assert!(hint("8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 1", "e5d6").starts_with("leaves the king in check"));
        assert!(hint("4k3/8/8/8/8/P7/8/4K3 w - - 0 1", "a3a5").contains("wrong rank"));
        assert!(hint("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8").starts_with("promotion piece missing"));
        // A buggy engine may print a move onto the enemy king: named, not played.
        assert_eq!(hint("k7/8/8/8/P7/8/8/R3K3 w - - 0 1", "a1a8"), "captures the king");
    }
}
