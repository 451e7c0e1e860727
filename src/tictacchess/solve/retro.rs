//! Moves taken back: the positions (Black to move) from which a legal move
//! of Black leads to a given position (White to move). Each predecessor is
//! found once per move that leads here, and a move that would come from a
//! finished game (White already in a line) is left out, so predecessors and
//! successors are exact inverses (tested both ways).

use super::index::{Config, Indexer, HAND};
use crate::tictacchess::board::{has_line, pawn_captures, squares, Kind, BOARD, KNIGHT};
use crate::tictacchess::magics::{bishop_attacks, rook_attacks};
use crate::tictacchess::position::{Position, HAND as POS_HAND};

/// The index of a position with Black to move (colours swapped, ranks mirrored).
#[inline(always)]
pub fn index_black_to_move(ix: &Indexer, pos: &Position) -> u64 {
    let (mover, other) = state_black_to_move(pos);
    ix.index(mover, other)
}

/// The state (mover, other) of a position with Black to move.
#[inline(always)]
pub fn state_black_to_move(pos: &Position) -> (Config, Config) {
    let side = |s: usize| -> Config { pos.at[s].map(|b| if b == POS_HAND { HAND } else { flipped_dense(b) }) };
    (side(1), side(0))
}

#[inline(always)]
fn flipped_dense(bit: u8) -> u8 {
    (3 - bit / 5) * 4 + bit % 5
}

/// Calls `f` with every predecessor of `pos` (White to move, Black has just
/// moved), each a position with Black to move.
#[inline(always)]
pub fn for_each_predecessor(pos: &Position, mut f: impl FnMut(&Position)) {
    let all = pos.occupied();
    let empty = !all & BOARD;
    for kind in Kind::ALL {
        let k = kind as usize;
        let t = pos.at[1][k];
        if t == POS_HAND {
            continue;
        }
        let to = 1u32 << t;
        let mut back = *pos;
        back.turn = crate::tictacchess::Color::Black;
        back.occ[1] ^= to;
        // Taken back as a drop.
        let mut p = back;
        p.at[1][k] = POS_HAND;
        if !has_line(p.occ[0]) {
            f(&p);
        }
        // Taken back as a move from an empty square, maybe with a capture.
        let sq = crate::tictacchess::Square::from_bit(u32::from(t)).expect("a board square");
        let (quiet, capture) = match kind {
            // Black's pawn steps down and captures diagonally down.
            Kind::Pawn => ((to << 5) & empty, pawn_captures(crate::tictacchess::Color::White, to) & empty),
            Kind::Knight => (KNIGHT[t as usize] & empty, KNIGHT[t as usize] & empty),
            Kind::Bishop => {
                let a = bishop_attacks(sq, all) & empty;
                (a, a)
            }
            Kind::Rook => {
                let a = rook_attacks(sq, all) & empty;
                (a, a)
            }
        };
        for from in squares(quiet) {
            let mut p = back;
            p.at[1][k] = from.bit() as u8;
            p.occ[1] |= from.bb();
            if !has_line(p.occ[0]) {
                f(&p);
            }
        }
        for from in squares(capture) {
            for q in (0..4).filter(|&q| pos.at[0][q] == POS_HAND) {
                let mut p = back;
                p.at[1][k] = from.bit() as u8;
                p.occ[1] |= from.bb();
                p.at[0][q] = t;
                p.occ[0] |= to;
                if !has_line(p.occ[0]) {
                    f(&p);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tictacchess::solve::index::{position_of, STATES};

    fn random_states(n: usize) -> Vec<Position> {
        let ix = Indexer::new();
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let (m, o) = ix.state(x % STATES);
                position_of(m, o)
            })
            .collect()
    }

    #[test]
    fn predecessors_lead_back_by_one_move() {
        for pos in random_states(3000) {
            let mut seen = Vec::new();
            for_each_predecessor(&pos, |p| {
                let hits = p.legal_moves().iter().filter(|&&m| p.play(m) == pos).count();
                assert_eq!(hits, 1, "{p} -> {pos}");
                seen.push(*p);
            });
            let n = seen.len();
            seen.sort_by_key(|p| p.to_string());
            seen.dedup();
            assert_eq!(seen.len(), n, "a predecessor of {pos} listed twice");
        }
    }

    #[test]
    fn every_move_can_be_taken_back() {
        for pos in random_states(3000) {
            // As Black to move: mirror into a Black-to-move position by playing from it.
            let mut black = pos;
            black.turn = crate::tictacchess::Color::Black;
            if black.winner().is_some() || has_line(black.occ[1]) {
                continue;
            }
            for m in black.legal_moves().iter() {
                let child = black.play(*m);
                let mut found = 0;
                for_each_predecessor(&child, |p| found += usize::from(*p == black));
                assert_eq!(found, 1, "{black} {m} -> {child}");
            }
        }
    }
}
