//! Hints for the hunt: what kind of move an engine left out, and which rule
//! a move it printed breaks (`castles through d8, attacked by the knight on
//! c6`, `leaves the king in check (the piece is pinned by the bishop on
//! b4)`), so that a witness names the bug. Every hint names the squares and
//! pieces it is about and marks them for the picture.

use super::notation::uci_form;
use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
};
use crate::board::{Bitboard, Color, Rank, Role, Square};
use crate::position::is_kingside;
use crate::rules::{Hint, SquareMark};
use crate::{Move, Position};

/// What kind of move a missing move is, with the pieces it takes along or
/// captures, and why it is legal where engines often think it is not (a
/// pinned piece that stays on the line of its pin).
pub fn describe_move(pos: &Position, m: Move) -> Hint {
    let hint = move_kind(pos, m);
    match pinner(pos, m.from()) {
        Some(p) if !m.is_castling() && between(pos.king(pos.turn()), p).with(p).contains(m.to()) => {
            let piece = role_name(pos.role_at(m.from()).unwrap_or(Role::Pawn));
            let text = format!("{}; the {piece} stays on the line of its pin by {}", hint.text, piece_on(pos, p));
            Hint { text, ..hint }.mark(m.from().index(), SquareMark::Pinned).mark(p.index(), SquareMark::Pinner)
        }
        _ => hint,
    }
}

/// The enemy slider that pins our piece on `sq` to our king, if any.
pub(crate) fn pinner(pos: &Position, sq: Square) -> Option<Square> {
    let us = pos.turn();
    let king = pos.king(us);
    let without = pos.occupied().without(sq);
    let them = |r: Role| pos.pieces(!us, r);
    let rooks = (them(Role::Rook) | them(Role::Queen)) & rook_attacks(king, without);
    let bishops = (them(Role::Bishop) | them(Role::Queen)) & bishop_attacks(king, without);
    (rooks | bishops).into_iter().find(|&p| between(king, p).contains(sq))
}

fn move_kind(pos: &Position, m: Move) -> Hint {
    let role = pos.piece_at(m.from()).map(|p| p.role);
    if m.is_castling() {
        let side = if is_kingside(m.from(), m.to()) { "kingside" } else { "queenside" };
        let rook = m.to();
        return Hint::new(format!("castling {side} with the rook on {rook}"))
            .mark(rook.index(), SquareMark::CastlingRook);
    }
    if m.is_en_passant() {
        let captured = en_passant_victim(m.from(), m.to());
        return Hint::new(format!("en passant capture of the pawn on {captured}"))
            .mark(captured.index(), SquareMark::Captured);
    }
    if let Some(r) = m.promotion_role() {
        return Hint::new(format!("promotion piece missing ({})", role_name(r)));
    }
    let check_note = if pos.is_check() { " out of check" } else { "" };
    let what = match role {
        Some(Role::Pawn) if m.from().index().abs_diff(m.to().index()) == 16 => "double pawn push".to_string(),
        Some(Role::King) => "king move".to_string(),
        Some(r) => format!("{} move", role_name(r)),
        None => "move".to_string(),
    };
    match pos.role_at(m.to()) {
        Some(taken) => Hint::new(format!("{what}{check_note}, capturing the {} on {}", role_name(taken), m.to()))
            .mark(m.to().index(), SquareMark::Captured),
        None => Hint::new(format!("{what}{check_note}")),
    }
}

/// A piece kind's name in English (also the motif cases' names).
pub(crate) fn role_name(r: Role) -> &'static str {
    match r {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// `the knight on c6`.
fn piece_on(pos: &Position, sq: Square) -> String {
    format!("the {} on {sq}", role_name(pos.role_at(sq).unwrap_or(Role::Pawn)))
}

/// The pawn an e.p. capture from `from` to `to` removes.
fn en_passant_victim(from: Square, to: Square) -> Square {
    Square::new(((to as u8) & 7) | ((from as u8) & !7))
}

/// `path is blocked on d4 by a pawn`, with the square marked.
fn blocked(pos: &Position, what: &str, sq: Square) -> Hint {
    let role = role_name(pos.role_at(sq).unwrap_or(Role::Pawn));
    Hint::new(format!("{what} is blocked on {sq} by a {role}")).mark(sq.index(), SquareMark::InTheWay)
}

/// `castles through d8, attacked by the knight on c6` (or `leaves the king
/// in check (castles into check on c8, attacked by ...)`), with both marked.
fn attacked_square(pos: &Position, words: impl FnOnce(String) -> String, sq: Square, occ: Bitboard) -> Hint {
    let attacker = (pos.attackers_to(sq, occ) & pos.by_color(!pos.turn())).into_iter().next();
    let by = attacker.map_or_else(String::new, |a| format!(", attacked by {}", piece_on(pos, a)));
    let hint = Hint::new(words(format!("{sq}{by}"))).mark(sq.index(), SquareMark::Attacked);
    match attacker {
        Some(a) => hint.mark(a.index(), SquareMark::Attacker),
        None => hint,
    }
}

/// Which rule an illegal move (given in UCI form) breaks, where that is easy
/// to tell, naming the squares and pieces concerned.
pub fn explain_illegal(pos: &Position, uci: &str) -> Option<Hint> {
    let uci = uci_form(uci)?;
    let from = Square::parse(&uci[0..2])?;
    let to = Square::parse(&uci[2..4])?;
    let promotion = uci[4..].chars().next();
    let us = pos.turn();
    let them = !us;
    let occ = pos.occupied();
    let piece = match pos.piece_at(from) {
        Some(p) if p.color == us => p,
        // A promotion names the pawn it needs: say which is not there.
        other if promotion.is_some() => {
            let why = other
                .map_or_else(|| format!("{from} is empty"), |_| format!("{} is the other side's", piece_on(pos, from)));
            return Some(Hint::new(format!("no pawn on {from} can promote: {why}")));
        }
        _ => return Some(Hint::new(format!("no piece of the side to move on {from}"))),
    };
    let own_target = pos.by_color(us).contains(to);
    if pos.pieces(them, Role::King).contains(to) {
        return Some(Hint::new(format!("captures the king on {to}")).mark(to.index(), SquareMark::Captured));
    }
    let last_rank = if us == Color::White { Rank::Eighth } else { Rank::First };
    if promotion.is_some() && piece.role != Role::Pawn {
        return Some(Hint::new(format!("no pawn on {from} can promote: {} is not a pawn", piece_on(pos, from))));
    }
    if promotion.is_some() && to.rank() != last_rank {
        return Some(Hint::new(format!("promotes where no promotion is possible ({to} is not on the last rank)")));
    }
    let own_piece = || {
        Some(
            Hint::new(format!("captures its own {} on {to}", role_name(pos.role_at(to).unwrap_or(Role::Pawn))))
                .mark(to.index(), SquareMark::InTheWay),
        )
    };
    match piece.role {
        Role::King => {
            let castling_shape = (own_target && pos.pieces(us, Role::Rook).contains(to) && to.rank() == from.rank())
                || (to.rank() == from.rank() && (to.file() as i32 - from.file() as i32).abs() == 2);
            if castling_shape {
                return Some(explain_castling(pos, from, to));
            }
            if own_target {
                return own_piece();
            }
            if !king_attacks(from).contains(to) {
                return Some(Hint::new("the king cannot move like that"));
            }
            if pos.attacked_by(them, occ.without(from)).contains(to) {
                let words = |sq: String| format!("leaves the king in check (the king moves onto {sq})");
                return Some(attacked_square(pos, words, to, occ.without(from)));
            }
            None
        }
        Role::Pawn => explain_pawn(pos, from, to, promotion, last_rank),
        role => {
            if own_target {
                return own_piece();
            }
            let reach = |o: Bitboard| match role {
                Role::Knight => knight_attacks(from),
                Role::Bishop => bishop_attacks(from, o),
                Role::Rook => rook_attacks(from, o),
                _ => queen_attacks(from, o),
            };
            if !reach(occ).contains(to) {
                if !reach(Bitboard::EMPTY).contains(to) {
                    return Some(Hint::new(format!("a {} cannot move like that", role_name(role))));
                }
                // The first piece on the way from `from`.
                let on_the_way = between(from, to) & occ;
                let first = on_the_way.into_iter().min_by_key(|s| s.index().abs_diff(from.index()))?;
                return Some(blocked(pos, &format!("the {}'s path", role_name(role)), first));
            }
            king_safety(pos, Move::normal(from, to))
        }
    }
}

fn explain_pawn(pos: &Position, from: Square, to: Square, promotion: Option<char>, last_rank: Rank) -> Option<Hint> {
    let us = pos.turn();
    let occ = pos.occupied();
    let step: i32 = if us == Color::White { 8 } else { -8 };
    let delta = to.index() as i32 - from.index() as i32;
    let start_rank = if us == Color::White { Rank::Second } else { Rank::Seventh };
    if to.rank() == last_rank && promotion.is_none() {
        return Some(Hint::new(format!(
            "promotion piece missing (a pawn reaching {to} on the last rank must promote)"
        )));
    }
    let promo_role = promotion.and_then(|c| Role::from_char(c.to_ascii_lowercase()));
    let mv = |m: Move| king_safety(pos, m);
    if delta == step {
        if occ.contains(to) {
            return Some(blocked(pos, "the pawn's push", to));
        }
        return mv(promo_role.map_or(Move::normal(from, to), |r| Move::promotion(from, to, r)));
    }
    if delta == 2 * step {
        if from.rank() != start_rank {
            return Some(Hint::new(format!(
                "double pawn push from the wrong rank ({from} is not on the pawns' starting rank)"
            )));
        }
        let mid = Square::new((from as u8 + to as u8) / 2);
        if occ.contains(mid) || occ.contains(to) {
            let first = if occ.contains(mid) { mid } else { to };
            return Some(blocked(pos, "the double pawn push", first));
        }
        return mv(Move::normal(from, to));
    }
    if pawn_attacks(us, from).contains(to) {
        if pos.by_color(us).contains(to) {
            return Some(
                Hint::new(format!("captures its own {} on {to}", role_name(pos.role_at(to).unwrap_or(Role::Pawn))))
                    .mark(to.index(), SquareMark::InTheWay),
            );
        }
        if pos.by_color(!us).contains(to) {
            return mv(promo_role.map_or(Move::normal(from, to), |r| Move::promotion(from, to, r)));
        }
        if pos.ep_square() == Some(to) {
            return king_safety(pos, Move::en_passant(from, to));
        }
        return Some(
            Hint::new(format!(
                "en passant capture onto {to} without an en passant square (the last move was not a double push past it)"
            ))
            .mark(to.index(), SquareMark::Empty),
        );
    }
    Some(Hint::new("a pawn cannot move like that"))
}

fn explain_castling(pos: &Position, king: Square, to: Square) -> Hint {
    let us = pos.turn();
    let kingside = to.file() > king.file();
    let side = if kingside { "kingside" } else { "queenside" };
    let rights = pos.castling_rooks() & pos.by_color(us) & Bitboard::rank(king.rank());
    let rook = rights.into_iter().find(|&r| is_kingside(king, r) == kingside);
    let Some(rook) = rook else {
        return Hint::new(format!(
            "castles {side} without the castling right (the king or that rook has moved, or the rook was captured)"
        ));
    };
    let with_rook = |h: Hint| h.mark(rook.index(), SquareMark::CastlingRook);
    if pos.is_check() {
        let checker =
            pos.checkers().into_iter().next().map_or_else(String::new, |c| format!(" from {}", piece_on(pos, c)));
        let hint = Hint::new(format!("castles out of check{checker}"));
        return pos.checkers().into_iter().fold(hint, |h, c| h.mark(c.index(), SquareMark::Checker));
    }
    let m = Move::castling(king, rook);
    let (kt, rt) = (m.castling_king_target(), m.castling_rook_target());
    let span = |a: Square, b: Square| {
        let (lo, hi) = (a.min(b) as u8, a.max(b) as u8);
        (lo..=hi).map(Square::new).fold(Bitboard::EMPTY, |bb, s| bb.with(s))
    };
    let must_be_empty = (span(king, kt) | span(rook, rt)).without(king).without(rook);
    if let Some(sq) = (must_be_empty & pos.occupied()).into_iter().min_by_key(|s| s.index().abs_diff(king.index())) {
        let role = role_name(pos.role_at(sq).unwrap_or(Role::Pawn));
        return with_rook(
            Hint::new(format!("castles through {sq}, occupied by a {role}")).mark(sq.index(), SquareMark::InTheWay),
        );
    }
    let bare = pos.occupied().without(king).without(rook);
    let attacked = pos.attacked_by(!us, bare);
    if attacked.contains(kt) {
        let words = |sq: String| format!("leaves the king in check (castles into check on {sq})");
        return with_rook(attacked_square(pos, words, kt, bare));
    }
    if let Some(sq) = (span(king, kt) & attacked).into_iter().min_by_key(|s| s.index().abs_diff(king.index())) {
        return with_rook(attacked_square(pos, |sq| format!("castles through {sq}"), sq, bare));
    }
    with_rook(Hint::new(format!("castling {side} is not legal here")))
}

/// Plays a pseudo-legal move of a piece other than the king and tells why
/// it leaves our king attacked, if it does: a check that was there and still
/// is (the move does not answer it), or a line the move opened (a pin, the
/// pawns an e.p. capture removes).
fn king_safety(pos: &Position, m: Move) -> Option<Hint> {
    let us = pos.turn();
    let king = pos.king(us);
    let next = pos.play_unchecked(m);
    let after = next.attackers_to(king, next.occupied()) & next.by_color(!us);
    let attacker = after.into_iter().next()?;
    let checkers = pos.checkers();
    if let Some(checker) = (after & checkers).into_iter().next() {
        let double = if checkers.count() > 1 { ": a double check, only a king move answers it" } else { "" };
        let hint = Hint::new(format!(
            "leaves the king in check (does not answer the check from {}{double})",
            piece_on(pos, checker)
        ));
        return Some(checkers.into_iter().fold(hint, |h, c| h.mark(c.index(), SquareMark::Checker)));
    }
    let by = piece_on(pos, attacker);
    if m.is_en_passant() {
        let captured = en_passant_victim(m.from(), m.to());
        let line = between(attacker, king);
        let (opened, hint) = match (line.contains(m.from()), line.contains(captured)) {
            (true, true) => ("removing both pawns opens a line to the king", None),
            (false, true) => ("removing the captured pawn opens a line to the king", None),
            _ => ("the capturing pawn is pinned", Some(SquareMark::Pinner)),
        };
        let words = format!("leaves the king in check (en passant capture: {opened}, from {by})");
        let hint = match hint {
            Some(pinner) => Hint::new(words).mark(m.from().index(), SquareMark::Pinned).mark(attacker.index(), pinner),
            None => Hint::new(words)
                .mark(attacker.index(), SquareMark::Attacker)
                .mark(king.index(), SquareMark::Attacked)
                .mark(captured.index(), SquareMark::Captured),
        };
        return Some(hint);
    }
    Some(
        Hint::new(format!("leaves the king in check (the piece is pinned by {by})"))
            .mark(m.from().index(), SquareMark::Pinned)
            .mark(attacker.index(), SquareMark::Pinner),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_for_classic_bugs() {
        let hint =
            |fen: &str, uci: &str| explain_illegal(&Position::from_fen(fen).unwrap(), uci).unwrap_or_default().text;
        // Castling through f1, attacked by the bishop on c4.
        assert_eq!(
            hint("4k3/8/8/8/2b5/8/8/4K2R w K - 0 1", "e1g1"),
            "castles through f1, attacked by the bishop on c4"
        );
        assert_eq!(hint("4k3/8/8/8/8/8/8/4K2R w - - 0 1", "e1g1").split(' ').next(), Some("castles"));
        assert!(hint("4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1", "d2d3").starts_with("leaves the king in check"));
        assert!(hint("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1e2").is_empty());
        assert!(hint("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "e1f2").starts_with("leaves the king in check"));
        // E.p. that exposes the king along the fifth rank.
        assert!(hint("8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 1", "e5d6").starts_with("leaves the king in check"));
        assert!(hint("4k3/8/8/8/8/P7/8/4K3 w - - 0 1", "a3a5").contains("wrong rank"));
        assert!(hint("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8").starts_with("promotion piece missing"));
        // A promotion with no pawn of the side to move on its square.
        assert_eq!(
            hint(crate::position::STARTPOS_FEN, "d7d8q"),
            "no pawn on d7 can promote: the pawn on d7 is the other side's"
        );
        assert_eq!(hint(crate::position::STARTPOS_FEN, "d5d6q"), "no pawn on d5 can promote: d5 is empty");
        assert_eq!(
            hint(crate::position::STARTPOS_FEN, "b1b2q"),
            "no pawn on b1 can promote: the knight on b1 is not a pawn"
        );
        // A buggy engine may print a move onto the enemy king: named, not played.
        assert_eq!(hint("k7/8/8/8/P7/8/8/R3K3 w - - 0 1", "a1a8"), "captures the king on a8");
    }

    #[test]
    fn a_missing_move_along_a_pin_says_why_it_is_legal() {
        let pos = Position::from_fen("5b1k/8/8/2Pp4/8/K7/8/8 w - d6 0 1").unwrap();
        let hint = describe_move(&pos, pos.parse_uci("c5d6").unwrap());
        assert_eq!(
            hint.text,
            "en passant capture of the pawn on d5; the pawn stays on the line of its pin by the bishop on f8"
        );
        assert!(hint.marks.contains(&(Square::F8.index(), SquareMark::Pinner)), "{:?}", hint.marks);
        let free = Position::from_fen("7k/8/8/2Pp4/8/K7/8/8 w - d6 0 1").unwrap();
        assert_eq!(describe_move(&free, free.parse_uci("c5d6").unwrap()).text, "en passant capture of the pawn on d5");
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
        if hint.starts_with("leaves the king in check (the king moves onto ") {
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
        // The square a castling hint names first (`castles through d8, ...`).
        let first_square = |prefix: &str| hint.strip_prefix(prefix).and_then(|rest| Square::parse(rest.get(..2)?));
        match hint {
            _ if hint.starts_with("castles out of check") => check(checkers_before.any(), "not in check"),
            _ if hint.contains(", attacked by ") && hint.starts_with("castles through ") => {
                let sq = first_square("castles through ").ok_or("no square named")?;
                check(span(from, kt).contains(&sq), "the square is not on the king's way")?;
                check(
                    attackers(&pieces, them, sq, bare).contains(named_square(hint)),
                    "the named piece does not attack it",
                )
            }
            _ if hint.starts_with("leaves the king in check (castles into check on ") => {
                let sq = first_square("leaves the king in check (castles into check on ").ok_or("no square named")?;
                check(sq == kt, "not the king's target")?;
                check(attackers(&pieces, them, kt, bare).any(), "the target is not attacked")
            }
            _ if hint.contains(", occupied by ") && hint.starts_with("castles through ") => {
                let r = rook.ok_or("no castling rook")?;
                let sq = first_square("castles through ").ok_or("no square named")?;
                let mut path = span(from, kt);
                path.extend(span(r, rt));
                check(path.contains(&sq) && sq != from && sq != r && occ.contains(sq), "the way is free there")
            }
            _ if hint.starts_with("captures its own ") => check(pos.by_color(us).contains(to), "not its own piece"),
            _ if hint.starts_with("captures the king") => {
                check(pos.pieces(them, Role::King).contains(to), "no king there")
            }
            _ if hint.contains("without the castling right") => check(
                !(pos.castling_rooks() & pos.by_color(us)).into_iter().any(|r| (r.file() > from.file()) == kingside),
                "it has the right",
            ),
            _ if hint.ends_with("cannot move like that") && role != Some(Role::Pawn) => {
                let r = role.unwrap();
                check(!reference_attacks(r, us, from, Bitboard::EMPTY).contains(to), "it can move like that")
            }
            _ if hint.contains("'s path is blocked on ") && role != Some(Role::Pawn) => {
                let r = role.unwrap();
                let sq = named_square(hint);
                check(
                    reference_attacks(r, us, from, Bitboard::EMPTY).contains(to)
                        && !reference_attacks(r, us, from, occ).contains(to),
                    "the way is free",
                )?;
                check(occ.contains(sq) && between(from, to).contains(sq), "the named square is not in the way")
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
                        let hint =
                            explain_illegal(&pos, &uci).unwrap_or_else(|| panic!("no hint for {uci} in {fen}")).text;
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
    fn castling_through_an_attacked_square_names_and_marks_the_square_and_the_attacker() {
        let pos = Position::from_fen("r3k2r/p1ppqpb1/bnN1pnp1/3P4/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 1 1").unwrap();
        let hint = explain_illegal(&pos, "e8c8").unwrap();
        assert_eq!(hint.text, "castles through d8, attacked by the knight on c6");
        assert!(hint.marks.contains(&(Square::D8.index(), SquareMark::Attacked)), "{hint:?}");
        assert!(hint.marks.contains(&(Square::C6.index(), SquareMark::Attacker)), "{hint:?}");
    }

    #[test]
    fn a_discovered_check_by_en_passant_marks_the_attacker_it_names() {
        let pos = Position::from_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1").unwrap();
        let pos = pos.play(pos.parse_uci("e2e4").unwrap());
        let hint = explain_illegal(&pos, "f4e3").unwrap();
        assert!(hint.text.ends_with("removing both pawns opens a line to the king, from the rook on b4)"), "{hint:?}");
        assert!(hint.marks.contains(&(Square::B4.index(), SquareMark::Attacker)), "{hint:?}");
    }

    #[test]
    fn every_hint_kind_names_a_square() {
        // (position, move, words): one of each kind that has a square to name.
        let cases = [
            ("k7/8/8/8/8/8/P7/R3K3 w - - 0 1", "a1a8", "captures the king on a8"),
            ("4k3/8/8/8/8/8/8/RN2K3 w Q - 0 1", "e1c1", "castles through b1, occupied by a knight"),
            ("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "e1g1", "castles kingside without the castling right"),
            ("4k3/8/8/8/1b6/8/8/R3K3 w Q - 0 1", "e1c1", "castles out of check from the bishop on b4"),
            ("4k3/8/8/8/8/1n6/8/R3K3 w Q - 0 1", "e1c1", "leaves the king in check (castles into check on c1"),
            ("4k3/8/8/8/8/8/8/R2NK3 w - - 0 1", "a1e1", "captures its own king"),
            ("4k3/8/8/8/8/8/8/R2NK3 w - - 0 1", "a1d1", "captures its own knight on d1"),
            ("4k3/8/8/8/8/8/P7/R3K3 w - - 0 1", "a1a4", "the rook's path is blocked on a2 by a pawn"),
            ("4k3/8/8/8/8/n7/P7/4K3 w - - 0 1", "a2a3", "the pawn's push is blocked on a3 by a knight"),
            ("4k3/8/8/8/8/n7/P7/4K3 w - - 0 1", "a2a4", "the double pawn push is blocked on a3 by a knight"),
            ("4k3/8/8/8/8/8/4r3/3K4 w - - 0 1", "d1e1", "the king moves onto e1, attacked by the rook on e2"),
            ("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1", "e5d6", "en passant capture onto d6 without an en passant square"),
        ];
        for (fen, uci, words) in cases {
            let hint = explain_illegal(&Position::from_fen(fen).unwrap(), uci).unwrap_or_default();
            assert!(hint.text.contains(words), "{uci} in {fen}: {:?}, expected {words:?}", hint.text);
        }
        let missing = |fen: &str, uci: &str| {
            let pos = Position::from_fen(fen).unwrap();
            describe_move(&pos, pos.parse_uci(uci).unwrap())
        };
        let ep = missing("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6");
        assert_eq!(ep.text, "en passant capture of the pawn on d5");
        assert_eq!(ep.marks, [(Square::D5.index(), SquareMark::Captured)]);
        let castle = missing("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1");
        assert_eq!(castle.text, "castling kingside with the rook on h1");
        assert_eq!(castle.marks, [(Square::H1.index(), SquareMark::CastlingRook)]);
        let take = missing("4k3/8/8/8/8/8/8/R3K2n w - - 0 1", "e1f1");
        assert_eq!(take.text, "king move");
        let take = missing("4k3/8/8/8/8/8/4K3/n6R w - - 0 1", "h1a1");
        assert_eq!(take.text, "rook move, capturing the knight on a1");
    }

    #[test]
    fn an_en_passant_capture_that_leaves_a_check_is_named_as_such() {
        // Black is in check from the rook on h1, through neither pawn.
        let pos = Position::from_fen("7k/8/8/8/3pP3/8/8/K6R b - e3 0 1").unwrap();
        assert_eq!(
            explain_illegal(&pos, "d4e3").unwrap().text,
            "leaves the king in check (does not answer the check from the rook on h1)"
        );
    }
}
