//! Notes on a pasted divide that does not match: the usual mistakes are a
//! paste made for another position or at another depth, and they give
//! dozens of differences that say nothing by themselves.

use super::diff::DivideDiff;
use crate::engines::Divide;
use crate::rules::Rules;

/// Our perft of deeper depths is only tried while it stays about this small.
const MAX_NODES_TRIED: u64 = 2_000_000_000;

/// Sentences on why `pasted` may not fit `pos` at `depth`: most of its moves
/// are not legal here, or its total is our perft at another depth.
pub fn paste_notes<R: Rules>(
    rules: &R,
    pos: &R::Position,
    depth: u32,
    pasted: &Divide,
    diff: &DivideDiff<R::Move>,
) -> Vec<String> {
    let mut notes = Vec::new();
    let printed = pasted.moves.len();
    let illegal = diff.extra.iter().filter(|x| !x.legal).count();
    if printed >= 2 && illegal * 2 >= printed {
        notes.push(format!(
            "{illegal} of the {printed} pasted moves are not legal in this position: was the paste made for another position (--fen, --moves)?"
        ));
    }
    let total = pasted.nodes();
    if let Some(d) = depth_of_total(rules, pos, total, depth) {
        notes.push(format!(
            "the pasted total {total} is our perft {d} of this position, not perft {depth}: was the paste made at depth {d} (--depth)?"
        ));
    }
    notes
}

/// The depth other than `depth` whose perft of `pos` is `total`, trying
/// depths while their perft stays affordable.
fn depth_of_total<R: Rules>(rules: &R, pos: &R::Position, total: u64, depth: u32) -> Option<u32> {
    let mut counts: Vec<u64> = Vec::new();
    for d in 0..=rules.max_depth() {
        // The branching so far predicts the next count; stop before it is costly.
        if let [.., before, last] = counts[..] {
            let branching = (last / before.max(1)).max(1);
            if last.saturating_mul(branching) > MAX_NODES_TRIED {
                return None;
            }
        }
        let nodes = rules.perft(pos, d);
        if nodes == total && d != depth {
            return Some(d);
        }
        if nodes > total || nodes == 0 {
            return None;
        }
        counts.push(nodes);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Chess;
    use crate::verify::diff::diff_divides;
    use crate::Position;

    fn paste(moves: &[(&str, u64)], total: u64) -> Divide {
        Divide {
            moves: moves.iter().map(|(m, n)| (m.to_string(), *n)).collect(),
            total: Some(total),
            repeated: Vec::new(),
        }
    }

    #[test]
    fn a_paste_of_another_depth_is_named() {
        let chess = Chess::new();
        let pos = Position::startpos();
        // perft 4 pasted (a truncated list whose total is 197281), asked at 3.
        let pasted = paste(&[("e2e4", 13160)], 197_281);
        let ours =
            crate::engines::Divide { moves: vec![("e2e4".into(), 600)], total: Some(8902), repeated: Vec::new() };
        let diff = diff_divides(&chess, &pos, &pasted, &ours).unwrap();
        let notes = paste_notes(&chess, &pos, 3, &pasted, &diff);
        assert!(notes.iter().any(|n| n.contains("perft 4 of this position, not perft 3")), "{notes:?}");
    }

    #[test]
    fn a_paste_of_another_position_is_named() {
        let chess = Chess::new();
        let pos = Position::startpos();
        // Kiwipete moves: well formed, mostly illegal here.
        let pasted = paste(&[("e5f7", 1), ("e5g6", 1), ("d5e6", 1), ("a2a3", 1)], 4);
        let ours = Divide { moves: vec![("a2a3".into(), 1)], total: Some(1), repeated: Vec::new() };
        let diff = diff_divides(&chess, &pos, &pasted, &ours).unwrap();
        let notes = paste_notes(&chess, &pos, 1, &pasted, &diff);
        assert!(notes.iter().any(|n| n.contains("3 of the 4 pasted moves are not legal")), "{notes:?}");
    }
}
