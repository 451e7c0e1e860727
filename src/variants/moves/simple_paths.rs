//! The common one- and two-leg paths (leaps, slides, hoppers, lame
//! leapers), generated straight off the mailbox without the leg-code
//! interpreter, and the built-in pawn's three steps among them.

use super::vocabulary::Move;
use crate::variants::betza::compile::{flag, Leg};
use crate::variants::board::{cell_side, Geometry, Side, EMPTY, OFF};

/// The common one- and two-leg paths, generated without the interpreter.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Simple {
    /// A leap or slide (`limit` squares) landing by `modes`.
    Ray { delta: isize, limit: u8, modes: u16, initial: bool },
    /// A hopper: slide to the first piece (within `limit1`), then on in the
    /// same direction (within `limit2`), landing by `modes`.
    Hop { delta: isize, limit1: u8, limit2: u8, modes: u16, initial: bool },
    /// Two single steps; the first square must be empty (`via_empty`) or
    /// occupied (else): lame leapers and their `j` twins.
    Bent { first: isize, second: isize, via_empty: bool, modes: u16, initial: bool },
}

/// The simple forms of a kind's paths, `None` if some path has none.
pub(crate) fn simple_forms(roots: &[Leg], geometry: &Geometry, side: Side) -> Option<Vec<Simple>> {
    let turn = |step: (i8, i8)| geometry.delta(if side == 0 { step } else { (-step.0, -step.1) });
    let landing = flag::MOVE | flag::CAPTURE | flag::DESTROY;
    roots
        .iter()
        .map(|leg| {
            if leg.skip_first {
                return None;
            }
            match leg.children.as_slice() {
                [] => Some(Simple::Ray {
                    delta: turn(leg.step),
                    limit: leg.range,
                    modes: leg.modes & landing,
                    initial: leg.initial,
                }),
                [next] if next.is_final() && !next.skip_first => {
                    if leg.modes == flag::HOP && next.step == leg.step {
                        Some(Simple::Hop {
                            delta: turn(leg.step),
                            limit1: leg.range,
                            limit2: next.range,
                            modes: next.modes & landing,
                            initial: leg.initial,
                        })
                    } else if leg.range == 1
                        && next.range == 1
                        && (leg.modes == flag::MOVE || leg.modes == flag::HOP)
                        && (leg.step.0 + next.step.0, leg.step.1 + next.step.1) != (0, 0)
                    {
                        Some(Simple::Bent {
                            first: turn(leg.step),
                            second: turn(next.step),
                            via_empty: leg.modes == flag::MOVE,
                            modes: next.modes & landing,
                            initial: leg.initial,
                        })
                    } else {
                        None
                    }
                }
                _ => None,
            }
        })
        .collect()
}

#[inline(always)]
fn lands(cell: u8, side: Side, modes: u16) -> bool {
    if cell == EMPTY {
        modes & flag::MOVE != 0
    } else if cell == OFF {
        false
    } else if cell_side(cell) != side {
        modes & flag::CAPTURE != 0
    } else {
        modes & flag::DESTROY != 0
    }
}

/// Each square `delta` after `start` where the mover may land, up to
/// `limit` steps, stopping at the first square that is not empty.
#[inline(always)]
fn slide(cells: &[u8], start: usize, delta: isize, limit: u8, side: Side, modes: u16, land: &mut impl FnMut(usize)) {
    let mut sq = start;
    for _ in 0..limit {
        sq = (sq as isize + delta) as usize;
        let c = cells[sq];
        if lands(c, side, modes) {
            // Called as the closure itself, not through `&mut F`'s `call_mut`,
            // which the compiler left out of line (14% of wide12's perft).
            (*land)(sq);
        }
        if c != EMPTY {
            break;
        }
    }
}

/// Moves of the simple forms (the mover stays on `from`: no simple path
/// passes its own square).
pub(crate) fn run_simple(
    forms: &[Simple],
    cells: &[u8],
    from: usize,
    side: Side,
    initial_ok: bool,
    out: &mut Vec<Move>,
) {
    simple_landings(forms, cells, from, side, initial_ok, |to| out.push(Move::plain(from, to)));
}

/// `land(to)` for each destination of the simple forms.
#[inline(always)]
pub(crate) fn simple_landings(
    forms: &[Simple],
    cells: &[u8],
    from: usize,
    side: Side,
    initial_ok: bool,
    mut land: impl FnMut(usize),
) {
    for form in forms {
        match *form {
            Simple::Ray { delta, limit, modes, initial } => {
                if initial && !initial_ok {
                    continue;
                }
                slide(cells, from, delta, limit, side, modes, &mut land);
            }
            Simple::Hop { delta, limit1, limit2, modes, initial } => {
                if initial && !initial_ok {
                    continue;
                }
                let mut sq = from;
                let mut n = 0;
                let screen = loop {
                    sq = (sq as isize + delta) as usize;
                    n += 1;
                    let c = cells[sq];
                    if c != EMPTY {
                        break (c != OFF).then_some(sq);
                    }
                    if n >= limit1 {
                        break None;
                    }
                };
                let Some(screen) = screen else { continue };
                slide(cells, screen, delta, limit2, side, modes, &mut land);
            }
            Simple::Bent { first, second, via_empty, modes, initial } => {
                if initial && !initial_ok {
                    continue;
                }
                let mid = (from as isize + first) as usize;
                let c = cells[mid];
                if c == OFF || (c == EMPTY) != via_empty {
                    continue;
                }
                let to = (mid as isize + second) as usize;
                if lands(cells[to], side, modes) {
                    land(to);
                }
            }
        }
    }
}

/// The built-in pawn's three steps (cell offset, captures only) when
/// `forms` are exactly three single steps, each moving only or capturing
/// only, none of them initial.
pub(crate) fn pawn_steps(forms: &Option<Vec<Simple>>) -> Option<[(isize, bool); 3]> {
    let forms = forms.as_ref()?;
    let mut steps = [(0, false); 3];
    if forms.len() != 3 {
        return None;
    }
    for (slot, form) in steps.iter_mut().zip(forms) {
        match *form {
            Simple::Ray { delta, limit: 1, modes, initial: false } if modes == flag::MOVE || modes == flag::CAPTURE => {
                *slot = (delta, modes == flag::CAPTURE);
            }
            _ => return None,
        }
    }
    Some(steps)
}
