//! Words for the hunt's hints: what a legal move is (a hop over a screen, a
//! lame leap, a locust capture, a pass) and why a printed move is not legal
//! (a hopper without a screen, a lame leaper's blocked leg, a blocked path,
//! the royal piece left attacked).
//!
//! Both walk the piece's path tree geometrically (ignoring the board), keep
//! the concrete paths that give the move in question, and test their
//! conditions on the board in path order.

use crate::variants::betza::compile::{flag, Leg};
use crate::variants::board::{cell_kind, cell_side, Position, EMPTY, OFF};
use crate::variants::moves::vocabulary::Move;
use crate::variants::variant::definition::Variant;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Need {
    /// Passed through: must be empty.
    Through,
    /// A lame leaper's intermediate step, or a bend on an empty square.
    Stop,
    /// A screen: must be occupied.
    Hop,
    /// A locust victim: an enemy (or, `destroy`, a friend).
    Take { enemy: bool, friend: bool },
    /// The destination, with the final leg's modes.
    Land(u16),
}

struct Shape {
    squares: Vec<(usize, Need, bool)>,
    victims: Vec<usize>,
    to: usize,
}

fn walk(
    variant: &Variant,
    leg: &Leg,
    cur: (i8, i8),
    trail: &mut Vec<(usize, Need, bool)>,
    victims: &mut Vec<usize>,
    out: &mut Vec<Shape>,
) {
    let g = &variant.geometry;
    let on = |p: (i8, i8)| p.0 >= 0 && p.1 >= 0 && p.0 < g.width as i8 && p.1 < g.height as i8;
    let mark = trail.len();
    let mut p = cur;
    let mut steps = 0u8;
    let lame = leg.range == 1 && !leg.is_final();
    if leg.skip_first {
        p = (p.0 + leg.step.0, p.1 + leg.step.1);
        steps = 1;
        if !on(p) {
            return;
        }
    }
    loop {
        p = (p.0 + leg.step.0, p.1 + leg.step.1);
        steps += 1;
        if !on(p) || out.len() > 100_000 {
            break;
        }
        let sq = g.cell(p.0 as u8, p.1 as u8);
        if leg.is_final() {
            trail.push((sq, Need::Land(leg.modes), false));
            out.push(Shape { squares: trail.clone(), victims: victims.clone(), to: sq });
            trail.pop();
        } else {
            let mut go = |need: Need, victim: bool, trail: &mut Vec<(usize, Need, bool)>, victims: &mut Vec<usize>| {
                trail.push((sq, need, lame));
                if victim {
                    victims.push(sq);
                }
                for child in &leg.children {
                    walk(variant, child, p, trail, victims, out);
                }
                if victim {
                    victims.pop();
                }
                trail.pop();
            };
            if leg.modes & flag::MOVE != 0 {
                go(Need::Stop, false, trail, victims);
            }
            if leg.modes & flag::HOP != 0 {
                go(Need::Hop, false, trail, victims);
            }
            if leg.modes & (flag::CAPTURE | flag::DESTROY) != 0 {
                let need = Need::Take { enemy: leg.modes & flag::CAPTURE != 0, friend: leg.modes & flag::DESTROY != 0 };
                go(need, true, trail, victims);
            }
        }
        if steps >= leg.range {
            break;
        }
        trail.push((sq, Need::Through, false));
    }
    trail.truncate(mark);
}

/// The concrete paths of the piece on `from` that end on `to` with these victims.
fn shapes(variant: &Variant, pos: &Position, from: usize, to: usize, victims: &[usize]) -> Vec<Shape> {
    let kind = cell_kind(pos.cells[from]);
    let side = cell_side(pos.cells[from]);
    let mut out = Vec::new();
    for root in &variant.pieces[kind].compiled.roots {
        let start = variant.geometry.coords(from);
        let mut trail = Vec::new();
        let mut v = Vec::new();
        let mut flip = root.clone();
        if side == 1 {
            turn(&mut flip);
        }
        walk(variant, &flip, (start.0 as i8, start.1 as i8), &mut trail, &mut v, &mut out);
    }
    out.retain(|s| {
        let mut v = s.victims.clone();
        v.sort_unstable();
        v.retain(|&x| x != s.to);
        s.to == to && v == victims
    });
    out
}

fn turn(leg: &mut Leg) {
    leg.step = (-leg.step.0, -leg.step.1);
    for c in &mut leg.children {
        turn(c);
    }
}

/// The first failing condition of a shape: (index, reason), or `None` if it holds.
fn first_failure(variant: &Variant, pos: &Position, from: usize, shape: &Shape) -> Option<(usize, String)> {
    let g = &variant.geometry;
    let side = cell_side(pos.cells[from]);
    for (i, &(sq, need, lame)) in shape.squares.iter().enumerate() {
        let cell = if sq == from { EMPTY } else { pos.cells[sq] };
        let name = g.name(sq);
        let occupied = cell != EMPTY && cell != OFF;
        let enemy = occupied && cell_side(cell) != side;
        let why = match need {
            Need::Through if occupied => Some(format!("the path is blocked on {name}")),
            Need::Stop if occupied && lame => Some(format!("a lame leaper's blocked leg ({name} is occupied)")),
            Need::Stop if occupied => Some(format!("the path is blocked on {name}")),
            Need::Hop if !occupied => Some(format!("a hopper without a screen (nothing on {name} to hop over)")),
            Need::Take { enemy: e, friend: f } if !((enemy && e) || (occupied && !enemy && f)) => {
                Some(format!("nothing it may capture on {name}"))
            }
            Need::Land(modes) => {
                if !occupied && modes & flag::MOVE == 0 {
                    Some(format!("it only captures, and {name} is empty"))
                } else if enemy && modes & flag::CAPTURE == 0 {
                    Some(format!("it cannot capture on {name}"))
                } else if occupied && !enemy && modes & flag::DESTROY == 0 {
                    Some(format!("its own piece stands on {name}"))
                } else {
                    None
                }
            }
            _ => None,
        };
        if let Some(why) = why {
            return Some((i, why));
        }
    }
    None
}

fn piece_label(variant: &Variant, pos: &Position, sq: usize) -> String {
    let p = &variant.pieces[cell_kind(pos.cells[sq])];
    format!("{} {} ({})", p.name, p.letter, p.betza)
}

/// What a legal move is, in a few words.
pub fn describe(variant: &Variant, pos: &Position, mv: Move) -> String {
    let g = &variant.geometry;
    let (from, to) = (mv.from as usize, mv.to as usize);
    let victims: Vec<usize> = mv.victims().iter().map(|&v| v as usize).collect();
    let mut words = Vec::new();
    if to == from {
        words.push(if victims.is_empty() { "a pass".to_string() } else { "an igui (captures and stays)".to_string() });
    }
    if !victims.is_empty() {
        let names: Vec<String> = victims.iter().map(|&v| g.name(v)).collect();
        words.push(format!("a locust capture on {}", names.join(" and ")));
    }
    let shapes = shapes(variant, pos, from, to, &victims);
    if let Some(shape) = shapes.iter().find(|s| first_failure(variant, pos, from, s).is_none()) {
        for &(sq, need, lame) in &shape.squares {
            match need {
                Need::Hop => words.push(format!("hops over {}", g.name(sq))),
                Need::Stop if lame => words.push(format!("a lame leap through {}", g.name(sq))),
                Need::Stop => words.push(format!("turns on {}", g.name(sq))),
                _ => {}
            }
        }
    }
    if words.is_empty() {
        words.push(if pos.cells[to] != EMPTY && to != from { "a capture".into() } else { "a move".into() });
    }
    format!("{} of the {}", words.join(", "), piece_label(variant, pos, from))
}

/// Why the move through `points` (origin, victims, destination) is not legal.
pub fn why_not(variant: &Variant, pos: &Position, points: &[usize]) -> Option<String> {
    let g = &variant.geometry;
    let (from, to) = (points[0], *points.last()?);
    let cell = pos.cells[from];
    if cell == EMPTY || cell == OFF {
        return Some(format!("no piece on {}", g.name(from)));
    }
    if cell_side(cell) != pos.side {
        return Some(format!("the piece on {} is not the side to move's", g.name(from)));
    }
    let mut victims: Vec<usize> = points[1..points.len() - 1].to_vec();
    victims.sort_unstable();
    let shapes = shapes(variant, pos, from, to, &victims);
    let label = piece_label(variant, pos, from);
    if shapes.is_empty() {
        return Some(format!("the {label} has no such move from {} to {}", g.name(from), g.name(to)));
    }
    let mut best: Option<(usize, String)> = None;
    for s in &shapes {
        match first_failure(variant, pos, from, s) {
            None => return Some(format!("leaves its royal piece attacked ({label})")),
            Some((i, why)) => {
                if best.as_ref().is_none_or(|(j, _)| i > *j) {
                    best = Some((i, why));
                }
            }
        }
    }
    best.map(|(_, why)| format!("{why} ({label})"))
}
