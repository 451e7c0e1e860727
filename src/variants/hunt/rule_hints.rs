//! Hints naming the variant rule that makes a printed move illegal: "no
//! promotion on this rank", "a capture is compulsory", "the explosion would
//! take the own king", "castling through an attacked square".

use super::board_view::{attackers, view_square};
use crate::rules::{Hint, SquareMark};
use crate::variants::board::{cell_kind, cell_side, Position, EMPTY, NO_SQUARE, OFF};
use crate::variants::moves::vocabulary::{Move, Special};
use crate::variants::rules::Mandatory;
use crate::variants::variant::definition::Variant;

/// Splits `e7e8q` into from, to and the promotion letter.
fn parse(variant: &Variant, text: &str) -> Option<(usize, usize, Option<char>)> {
    let g = &variant.geometry;
    let t = text.trim().to_ascii_lowercase();
    let (body, promo) = match t.chars().last() {
        Some(c) if c.is_ascii_alphabetic() && t.len() > 4 => (&t[..t.len() - 1], Some(c)),
        _ => (t.as_str(), None),
    };
    let split = body.char_indices().skip(1).find(|(_, c)| c.is_ascii_alphabetic())?.0;
    Some((g.parse_square(&body[..split])?, g.parse_square(&body[split..])?, promo))
}

/// The rule of the variant that forbids the move `text`, if one does, with
/// the squares it names.
pub fn why_not(variant: &Variant, pos: &Position, text: &str) -> Option<Hint> {
    why_not_text(variant, pos, text).map(|(text, marks)| Hint { text, marks })
}

fn why_not_text(variant: &Variant, pos: &Position, text: &str) -> Option<(String, Vec<(usize, SquareMark)>)> {
    if let Some(words) = flip_hint(variant, pos, text) {
        return Some((words, vec![]));
    }
    let (from, to, promo) = parse(variant, text)?;
    let name = |sq: usize| variant.geometry.name(sq);
    let laws = &variant.tables.laws;
    let cell = pos.cells[from];
    if cell == EMPTY || cell == OFF || cell_side(cell) != pos.side {
        return None;
    }
    let us = pos.side;
    let kind = cell_kind(cell);
    // Or a kind that promotes as the pawn for this side (wolf's sergeant, spartan's hoplite).
    let is_pawn = laws.pawn.as_ref().is_some_and(|p| p.kind == kind)
        || laws.promotion.as_ref().is_some_and(|p| p.other_pawn_kinds[us] >> kind & 1 == 1);
    if let (Some(letter), Some(promotion)) = (promo, &laws.promotion) {
        if !is_pawn {
            return Some((format!("only pawns promote (the piece on {} is not a pawn)", name(from)), vec![]));
        }
        if !promotion.region[us].has(to) {
            return Some((format!("no promotion on {}", name(to)), vec![]));
        }
        match variant.kind_of(letter).filter(|k| promotion.kinds[us].contains(k)) {
            None => return Some((format!("'{letter}' is not a piece a pawn may promote to here"), vec![])),
            Some(k) => {
                let limit = promotion.limit.get(k).copied().unwrap_or(0) as usize;
                if limit > 0 && variant.tables.count(pos, us, k) >= limit {
                    let words =
                        format!("no promotion to {}: its limit of {limit} is on the board", variant.pieces[k].name);
                    return Some((words, vec![]));
                }
            }
        }
    }
    if promo.is_none() && is_pawn {
        if let Some(promotion) = &laws.promotion {
            if promotion.region[us].has(to) && promotion.mandatory == Mandatory::Always {
                return Some((format!("a pawn reaching {} must promote", name(to)), vec![]));
            }
        }
    }
    let mut probe = pos.clone();
    let mut pseudo = Vec::new();
    variant.tables.pseudo_legal(&mut probe, &mut pseudo);
    let castle = pseudo.iter().find(|m| {
        m.special == Special::Castle && m.from as usize == from && {
            let (kto, _) = variant.tables.castling_targets(us, from, m.to as usize);
            kto == to || m.to as usize == to
        }
    });
    if let Some(&mv) = castle {
        let by = |sq: usize| attackers(variant, pos, sq, us ^ 1);
        let marked = |sq: usize, a: usize, mark: SquareMark| {
            vec![(view_square(variant, sq), mark), (view_square(variant, a), SquareMark::Attacker)]
        };
        if variant.tables.attacked(&mut probe, from, us ^ 1) {
            return Some(match by(from).first() {
                Some(&a) => (
                    format!("castling out of check from the {}", piece_at(variant, pos, a)),
                    marked(from, a, SquareMark::Check),
                ),
                None => ("castling out of check".into(), vec![]),
            });
        }
        if !variant.tables.is_legal_slow(&mut probe, mv) {
            // The first square of the king's way (its target included) that an enemy attacks.
            let (kto, _) = variant.tables.castling_targets(us, from, mv.to as usize);
            let (f0, r0) = variant.geometry.coords(from);
            let (f1, _) = variant.geometry.coords(kto);
            let files: Vec<u8> = if f1 >= f0 { (f0..=f1).collect() } else { (f1..=f0).rev().collect() };
            for f in files.into_iter().skip(1) {
                let sq = variant.geometry.cell(f, r0);
                if let Some(&a) = by(sq).first() {
                    let words = format!("castling through {}, attacked by the {}", name(sq), piece_at(variant, pos, a));
                    return Some((words, marked(sq, a, SquareMark::Attacked)));
                }
            }
            return Some(("castling through an attacked square".into(), vec![]));
        }
    }
    let same: Vec<Move> = pseudo.iter().copied().filter(|m| m.from as usize == from && m.to as usize == to).collect();
    let legal = variant.tables.legal_moves(&mut probe);
    if let Some(&mv) = same.first() {
        let captures = |m: &Move| m.nvictims > 0 || (m.special != Special::Castle && pos.cells[m.to as usize] != EMPTY);
        if laws.must_capture && !captures(&mv) {
            if let Some(c) = legal.iter().find(|m| captures(m)) {
                let (cf, ct) = (c.from as usize, c.to as usize);
                let words =
                    format!("a capture is compulsory (the {} can take on {})", piece_at(variant, pos, cf), name(ct));
                return Some((words, vec![(view_square(variant, cf), SquareMark::Attacker)]));
            }
        }
        if laws.blast && captures(&mv) {
            let played = variant.tables.play(&mut probe, mv);
            let own_gone = probe.royal[us] == NO_SQUARE && pos.royal[us] != NO_SQUARE;
            variant.tables.unplay(&mut probe, mv, &played);
            if own_gone {
                let king = pos.royal[us] as usize;
                let words = format!("the explosion on {} would take its own king on {}", name(to), name(king));
                return Some((words, vec![(view_square(variant, king), SquareMark::Captured)]));
            }
        }
        if laws.no_checks && !legal.contains(&mv) {
            let them = pos.royal[us ^ 1];
            if them != NO_SQUARE {
                let king = them as usize;
                let words = format!("giving check (to the king on {}) is not allowed in this variant", name(king));
                return Some((words, vec![(view_square(variant, king), SquareMark::Attacked)]));
            }
            return Some(("giving check is not allowed in this variant".into(), vec![]));
        }
    }
    None
}

/// Shogi's flips: a plain move where the piece had to promote or turn back
/// (`mandatoryPiecePromotion`, `pieceDemotion`), or a `+`/`-` the piece
/// cannot make there (`piecePromotionOnCapture`: only when it captures).
fn flip_hint(variant: &Variant, pos: &Position, text: &str) -> Option<String> {
    let shogi = variant.tables.laws.shogi.as_ref()?;
    let t = text.trim();
    let (body, mark) = match t.char_indices().last() {
        Some((i, c @ ('+' | '-'))) => (&t[..i], Some(c)),
        _ => (t, None),
    };
    let (from, to, None) = parse(variant, body)? else { return None };
    let cell = pos.cells[from];
    if cell == EMPTY || cell == OFF || cell_side(cell) != pos.side {
        return None;
    }
    let kind = cell_kind(cell);
    let sign = if shogi.promotes_to[kind].is_some() {
        '+'
    } else if shogi.demotion && shogi.demotes_to[kind].is_some() {
        '-'
    } else {
        return mark.map(|_| format!("the {} cannot promote or turn back", piece_at(variant, pos, from)));
    };
    let region = &shogi.region[pos.side];
    let zone = region.has(from) || region.has(to);
    let takes = pos.cells[to] != EMPTY && pos.cells[to] != OFF;
    match mark {
        None if shogi.mandatory && zone && (takes || !shogi.on_capture) => {
            Some(format!("the {} must flip on this move ({body}{sign})", piece_at(variant, pos, from)))
        }
        Some(m) if m != sign => Some(format!("the {} can only {body}{sign}", piece_at(variant, pos, from))),
        Some(_) if zone && shogi.on_capture && !takes => {
            Some(format!("pieces flip only when they capture (nothing to take on {})", variant.geometry.name(to)))
        }
        _ => None,
    }
}

/// `rook on a8`.
fn piece_at(variant: &Variant, pos: &Position, sq: usize) -> String {
    format!("{} on {}", variant.pieces[cell_kind(pos.cells[sq])].name, variant.geometry.name(sq))
}

/// A few words on what a special move is, with the piece it takes along or captures.
pub fn describe_special(variant: &Variant, mv: Move) -> Option<Hint> {
    let g = &variant.geometry;
    let promo = mv.promotion().map(|k| format!(", promoting to {}", variant.pieces[k].name)).unwrap_or_default();
    let (to, victim) = (mv.to as usize, mv.victims[0] as usize);
    match mv.special {
        Special::Castle => Some(
            Hint::new(format!("castling with the rook on {}", g.name(to)))
                .mark(view_square(variant, to), SquareMark::CastlingRook),
        ),
        Special::EnPassant => Some(
            Hint::new(format!("an en-passant capture of the pawn on {}", g.name(victim)))
                .mark(view_square(variant, victim), SquareMark::Captured),
        ),
        Special::PawnRush => Some(Hint::new(format!("a pawn's double step{promo}"))),
        Special::Drop => Some(Hint::new(format!(
            "a drop of a {} from the hand onto {}",
            variant.pieces[mv.promo as usize - 1].name,
            g.name(to)
        ))),
        Special::Pass if variant.tables.laws.stones.is_some() => {
            Some(Hint::new("a pass: the side has no other move".to_string()))
        }
        Special::Pass => Some(Hint::new(format!("a pass (the king stays on {})", g.name(to)))),
        Special::None if !promo.is_empty() => Some(Hint::new(format!("a pawn move{promo}"))),
        Special::None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kyoto_and_micro_flips_are_named() {
        let kyoto = crate::variants::variant::builtin::load("kyotoshogi").unwrap();
        let pos = kyoto.parse_fen(&kyoto.start_fen).unwrap();
        let hint = |v: &Variant, p: &Position, t: &str| why_not(v, p, t).map(|h| h.text).unwrap_or_default();
        assert!(
            hint(&kyoto, &pos, "a1a2").contains("must flip on this move (a1a2-)"),
            "{}",
            hint(&kyoto, &pos, "a1a2")
        );
        assert!(hint(&kyoto, &pos, "a1a2+").contains("can only a1a2-"));
        let micro = crate::variants::variant::builtin::load("micro").unwrap();
        let pos = micro.parse_fen(&micro.start_fen).unwrap();
        assert!(hint(&micro, &pos, "d2d3+").contains("only when they capture"), "{}", hint(&micro, &pos, "d2d3+"));
    }

    #[test]
    fn a_kind_that_promotes_as_the_pawn_is_told_its_limit() {
        // Spartan: the hoplite promotes; a third king is over the limit.
        let v = crate::variants::variant::builtin::load("spartan").unwrap();
        let pos = v.parse_fen("4k2k/8/8/8/8/8/3h4/K7 b - - 0 1").unwrap();
        let why = why_not(&v, &pos, "d2c1k").unwrap_or_default().text;
        assert!(why.contains("limit of 2"), "{why}");
        assert_eq!(why_not(&v, &pos, "d2c1g"), None);
    }
}
