//! Hints for the hunt: what kind of move an engine left out, and which rule
//! a move it printed breaks (`castles through an attacked square`, `leaves
//! the king in check (the piece is pinned)`), so that a witness names the bug.

use super::notation::uci_form;
use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};
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
            return king_safety(pos, Move::en_passant(from, to));
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

/// Plays a pseudo-legal move of a piece other than the king and tells why
/// it leaves our king attacked, if it does: a check that was there and still
/// is (the move does not answer it), or a line the move opened (a pin, the
/// pawns an e.p. capture removes).
fn king_safety(pos: &Position, m: Move) -> Option<String> {
    let us = pos.turn();
    let king = pos.king(us);
    let next = pos.play_unchecked(m);
    let after = next.attackers_to(king, next.occupied()) & next.by_color(!us);
    let attacker = after.into_iter().next()?;
    let checkers = pos.checkers();
    if let Some(checker) = (after & checkers).into_iter().next() {
        let double = if checkers.count() > 1 { ": a double check, only a king move answers it" } else { "" };
        return Some(format!(
            "leaves the king in check (does not answer the check from the {} on {checker}{double})",
            role_name(pos.role_at(checker).unwrap_or(Role::Pawn))
        ));
    }
    let by = format!("the {} on {attacker}", role_name(pos.role_at(attacker).unwrap_or(Role::Pawn)));
    if m.is_en_passant() {
        let captured = Square::new(((m.to() as u8) & 7) | ((m.from() as u8) & !7));
        let line = between(attacker, king);
        let opened = match (line.contains(m.from()), line.contains(captured)) {
            (true, true) => "removing both pawns opens a line to the king",
            (false, true) => "removing the captured pawn opens a line to the king",
            _ => "the capturing pawn is pinned",
        };
        return Some(format!("leaves the king in check (en passant capture: {opened}, from {by})"));
    }
    Some(format!("leaves the king in check (the piece is pinned by {by})"))
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

    /// Attacks of the piece on `sq` with the slow ray walker and hand-made
    /// steps, apart from the lookups the hints use.
    fn reference_attacks(role: Role, color: Color, sq: Square, occ: Bitboard) -> Bitboard {
        use crate::attacks::reference;
        let steps: &[(i8, i8)] = match role {
            Role::Knight => &[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)],
            Role::King => &[(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)],
            Role::Pawn if color == Color::White => &[(1, 1), (-1, 1)],
            Role::Pawn => &[(1, -1), (-1, -1)],
            Role::Bishop => return reference::bishop_attacks(sq, occ),
            Role::Rook => return reference::rook_attacks(sq, occ),
            Role::Queen => return reference::queen_attacks(sq, occ),
        };
        Bitboard(reference::leaper_attacks(sq, steps))
    }

    /// Pieces of `color` among `pieces` (square -> piece) attacking `target`.
    fn attackers(pieces: &[(Square, Role, Color)], color: Color, target: Square, occ: Bitboard) -> Bitboard {
        pieces
            .iter()
            .filter(|&&(sq, role, c)| {
                c == color && sq != target && reference_attacks(role, c, sq, occ).contains(target)
            })
            .fold(Bitboard::EMPTY, |bb, &(sq, _, _)| bb.with(sq))
    }

    fn pieces_of(pos: &Position) -> Vec<(Square, Role, Color)> {
        pos.occupied().into_iter().map(|sq| pos.piece_at(sq).map(|p| (sq, p.role, p.color)).unwrap()).collect()
    }

    /// The square named last in a hint (`... from the rook on h5`).
    fn named_square(hint: &str) -> Square {
        let at = hint.rfind(" on ").unwrap_or_else(|| panic!("no square in {hint:?}"));
        Square::parse(&hint[at + 4..at + 6]).unwrap()
    }

    /// Checks that the hint for the illegal `from`-`to` move says something
    /// true of the board; `Err` names what does not hold.
    fn claim_holds(pos: &Position, from: Square, to: Square, hint: &str) -> Result<(), String> {
        let us = pos.turn();
        let them = !us;
        let occ = pos.occupied();
        let pieces = pieces_of(pos);
        let king = pos.king(us);
        let role = pos.piece_at(from).map(|p| p.role);
        let ep = role == Some(Role::Pawn) && pos.ep_square() == Some(to) && from.file() != to.file();
        let captured = if ep { Square::new((to as u8 & 7) | (from as u8 & !7)) } else { to };
        // The board after the move, by hand.
        let occ_after = occ.without(from).without(captured).with(to);
        let after: Vec<(Square, Role, Color)> = pieces
            .iter()
            .filter(|(sq, _, _)| *sq != from && *sq != captured)
            .copied()
            .chain(std::iter::once((to, role.unwrap_or(Role::Pawn), us)))
            .collect();
        let check = |ok: bool, what: &str| if ok { Ok(()) } else { Err(what.to_string()) };
        let checkers_before = attackers(&pieces, them, king, occ);
        if hint.starts_with("leaves the king in check (does not answer the check") {
            let x = named_square(hint);
            check(checkers_before.contains(x), "the named piece did not give check")?;
            return check(attackers(&after, them, king, occ_after).contains(x), "the check is answered");
        }
        if hint.starts_with("leaves the king in check (the piece is pinned")
            || hint.starts_with("leaves the king in check (en passant")
        {
            let x = named_square(hint);
            check(!checkers_before.contains(x), "the named piece gave check already")?;
            check(attackers(&after, them, king, occ_after).contains(x), "no line opened")?;
            if hint.contains("both pawns") {
                check(between(x, king).contains(from) && between(x, king).contains(captured), "not both pawns")?;
            }
            return Ok(());
        }
        if hint.starts_with("leaves the king in check (the king moves onto an attacked square") {
            return check(attackers(&after, them, to, occ_after).any(), "the square is not attacked");
        }
        let kingside = to.file() > from.file();
        let rank = from as u8 / 8 * 8;
        let (kt, rt) = if kingside {
            (Square::new(rank + 6), Square::new(rank + 5))
        } else {
            (Square::new(rank + 2), Square::new(rank + 3))
        };
        let rook = (pos.castling_rooks() & pos.by_color(us)).into_iter().find(|r| (r.file() > from.file()) == kingside);
        let span = |a: Square, b: Square| (a.min(b) as u8..=a.max(b) as u8).map(Square::new).collect::<Vec<_>>();
        let bare = occ.without(from).without(rook.unwrap_or(from));
        match hint {
            "castles out of check" => check(checkers_before.any(), "not in check"),
            "castles through an attacked square" => check(
                span(from, kt).iter().any(|&sq| attackers(&pieces, them, sq, bare).any()),
                "no attacked square on the way",
            ),
            "leaves the king in check (castles into check)" => {
                check(attackers(&pieces, them, kt, bare).any(), "the target is not attacked")
            }
            "castles through an occupied square" => {
                let r = rook.ok_or("no castling rook")?;
                let mut path = span(from, kt);
                path.extend(span(r, rt));
                check(path.iter().any(|&sq| sq != from && sq != r && occ.contains(sq)), "the way is free")
            }
            "captures its own piece" => check(pos.by_color(us).contains(to), "not its own piece"),
            "captures the king" => check(pos.pieces(them, Role::King).contains(to), "no king there"),
            _ if hint.starts_with("castles without the castling right") => check(
                !(pos.castling_rooks() & pos.by_color(us)).into_iter().any(|r| (r.file() > from.file()) == kingside),
                "it has the right",
            ),
            _ if hint.ends_with("cannot move like that") && role != Some(Role::Pawn) => {
                let r = role.unwrap();
                check(!reference_attacks(r, us, from, Bitboard::EMPTY).contains(to), "it can move like that")
            }
            _ if hint.ends_with("moves through an occupied square") => {
                let r = role.unwrap();
                check(
                    reference_attacks(r, us, from, Bitboard::EMPTY).contains(to)
                        && !reference_attacks(r, us, from, occ).contains(to),
                    "the way is free",
                )
            }
            _ => Ok(()),
        }
    }

    #[test]
    fn every_illegal_move_gets_a_hint_that_holds_on_the_board() {
        let starts = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 1",
            "4k3/8/8/2KpP2r/8/8/8/8 w - d6 0 1",
        ];
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut rand = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let (mut positions, mut checked) = (0, 0);
        for fen in starts {
            for _ in 0..12 {
                let mut pos = Position::from_fen(fen).unwrap();
                for _ in 0..(rand(24)) {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos = pos.play(moves[rand(moves.len())]);
                }
                positions += 1;
                let fen = pos.to_fen();
                for from in pos.by_color(pos.turn()) {
                    for to in (0..64).map(Square::new).filter(|&t| t != from) {
                        let promo =
                            pos.role_at(from) == Some(Role::Pawn) && matches!(to.rank(), Rank::First | Rank::Eighth);
                        let uci = format!("{from}{to}{}", if promo { "q" } else { "" });
                        if pos.parse_uci(&uci).is_ok() {
                            continue;
                        }
                        let hint = explain_illegal(&pos, &uci).unwrap_or_else(|| panic!("no hint for {uci} in {fen}"));
                        if let Err(what) = claim_holds(&pos, from, to, &hint) {
                            panic!("{uci} in {fen}: {hint:?} is wrong: {what}");
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert!(positions >= 80 && checked > 10_000, "{positions} positions, {checked} moves");
    }

    #[test]
    fn an_en_passant_capture_that_leaves_a_check_is_named_as_such() {
        // Black is in check from the rook on h1, through neither pawn.
        let pos = Position::from_fen("7k/8/8/8/3pP3/8/8/K6R b - e3 0 1").unwrap();
        assert_eq!(
            explain_illegal(&pos, "d4e3").unwrap(),
            "leaves the king in check (does not answer the check from the rook on h1)"
        );
    }
}
