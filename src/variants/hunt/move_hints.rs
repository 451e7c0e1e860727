//! Words for the hunt's hints: what a legal move is (a hop over a screen, a
//! lame leap, a locust capture, a pass) and why a printed move is not legal
//! (a hopper without a screen, a lame leaper's blocked leg, a blocked path,
//! the royal piece left attacked).
//!
//! Both walk the piece's path tree geometrically (ignoring the board), keep
//! the concrete paths that give the move in question, and test their
//! conditions on the board in path order.

use super::board_view::{attackers, view_square};
use crate::rules::{Hint, SquareMark};
use crate::variants::betza::compile::{flag, Leg};
use crate::variants::board::{cell_kind, cell_side, Position, EMPTY, NO_SQUARE, OFF};
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

/// `a rook`, `an archbishop`.
fn a_piece(variant: &Variant, cell: u8) -> String {
    let name = &variant.pieces[cell_kind(cell)].name;
    let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    format!("{article} {name}")
}

/// The first failing condition of a shape: (index, reason with the square
/// it names), or `None` if it holds.
fn first_failure(variant: &Variant, pos: &Position, from: usize, shape: &Shape) -> Option<(usize, Hint)> {
    let g = &variant.geometry;
    let side = cell_side(pos.cells[from]);
    for (i, &(sq, need, lame)) in shape.squares.iter().enumerate() {
        let cell = if sq == from { EMPTY } else { pos.cells[sq] };
        let name = g.name(sq);
        let occupied = cell != EMPTY && cell != OFF;
        let enemy = occupied && cell_side(cell) != side;
        let here = |text: String, mark: SquareMark| Some(Hint::new(text).mark(view_square(variant, sq), mark));
        let why = match need {
            Need::Through if occupied => {
                here(format!("the path is blocked on {name} by {}", a_piece(variant, cell)), SquareMark::InTheWay)
            }
            Need::Stop if occupied && lame => {
                here(format!("a lame leap is blocked on {name} by {}", a_piece(variant, cell)), SquareMark::InTheWay)
            }
            Need::Stop if occupied => {
                here(format!("the path is blocked on {name} by {}", a_piece(variant, cell)), SquareMark::InTheWay)
            }
            Need::Hop if !occupied => {
                here(format!("a hopper without a screen: nothing on {name} to hop over"), SquareMark::Empty)
            }
            Need::Take { enemy: e, friend: f } if !((enemy && e) || (occupied && !enemy && f)) => {
                if occupied {
                    here(
                        format!("it may not capture its own {} on {name}", piece_name(variant, cell)),
                        SquareMark::InTheWay,
                    )
                } else {
                    here(format!("nothing it may capture on {name}"), SquareMark::Empty)
                }
            }
            Need::Land(modes) => {
                if !occupied && modes & flag::MOVE == 0 {
                    here(format!("it only captures, and {name} is empty"), SquareMark::Empty)
                } else if enemy && modes & flag::CAPTURE == 0 {
                    here(format!("it cannot capture the {} on {name}", piece_name(variant, cell)), SquareMark::InTheWay)
                } else if occupied && !enemy && modes & flag::DESTROY == 0 {
                    here(format!("its own {} stands on {name}", piece_name(variant, cell)), SquareMark::InTheWay)
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

fn piece_name(variant: &Variant, cell: u8) -> &str {
    &variant.pieces[cell_kind(cell)].name
}

/// `the rook on a1`; a piece whose name does not say how it moves
/// (`customPiece1`) with its Betza: `the customPiece1 (mafsW) on c1`.
fn piece_label(variant: &Variant, pos: &Position, sq: usize) -> String {
    let p = &variant.pieces[cell_kind(pos.cells[sq])];
    let betza = if p.name.starts_with("customPiece") { format!(" ({})", p.betza) } else { String::new() };
    format!("the {}{betza} on {}", p.name, variant.geometry.name(sq))
}

/// What a legal move is, as a sentence: `the cannon on b3 hops over b5`.
pub fn describe(variant: &Variant, pos: &Position, mv: Move) -> Hint {
    let g = &variant.geometry;
    let (from, to) = (mv.from as usize, mv.to as usize);
    let victims: Vec<usize> = mv.victims().iter().map(|&v| v as usize).collect();
    let mut words = Vec::new();
    let mut marks = Vec::new();
    if to == from {
        words.push(if victims.is_empty() { "passes".to_string() } else { "captures and stays (igui)".to_string() });
    }
    if !victims.is_empty() {
        let names: Vec<String> = victims.iter().map(|&v| g.name(v)).collect();
        words.push(format!("captures on {} in passing (locust)", names.join(" and ")));
        marks.extend(victims.iter().map(|&v| (view_square(variant, v), SquareMark::Captured)));
    }
    let shapes = shapes(variant, pos, from, to, &victims);
    if let Some(shape) = shapes.iter().find(|s| first_failure(variant, pos, from, s).is_none()) {
        for &(sq, need, lame) in &shape.squares {
            match need {
                Need::Hop => {
                    words.push(format!("hops over {}", g.name(sq)));
                    marks.push((view_square(variant, sq), SquareMark::InTheWay));
                }
                Need::Stop if lame => words.push(format!("makes a lame leap through {}", g.name(sq))),
                Need::Stop => words.push(format!("turns on {}", g.name(sq))),
                _ => {}
            }
        }
    }
    let target = pos.cells[to];
    if to != from && target != EMPTY && target != OFF {
        words.push(format!("captures the {} on {}", piece_name(variant, target), g.name(to)));
        marks.push((view_square(variant, to), SquareMark::Captured));
    }
    if words.is_empty() {
        words.push(format!("moves to {}", g.name(to)));
    }
    let text = match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => words.join(""),
    };
    Hint { text: format!("{} {text}", piece_label(variant, pos, from)), marks }
}

/// Why the move through `points` (origin, victims, destination) is not legal.
pub fn why_not(variant: &Variant, pos: &Position, points: &[usize]) -> Option<Hint> {
    let g = &variant.geometry;
    let (from, to) = (points[0], *points.last()?);
    let cell = pos.cells[from];
    if cell == EMPTY || cell == OFF {
        return Some(Hint::new(format!("no piece on {}", g.name(from))));
    }
    let label = piece_label(variant, pos, from);
    if cell_side(cell) != pos.side {
        return Some(Hint::new(format!("{label} is not the side to move's")));
    }
    let mut victims: Vec<usize> = points[1..points.len() - 1].to_vec();
    victims.sort_unstable();
    let shapes = shapes(variant, pos, from, to, &victims);
    if shapes.is_empty() {
        return Some(Hint::new(format!("{label} has no move to {}", g.name(to))));
    }
    let mut best: Option<(usize, Hint)> = None;
    for s in &shapes {
        match first_failure(variant, pos, from, s) {
            None => return Some(royal_left_attacked(variant, pos, from, to, &victims)),
            Some((i, why)) => {
                if best.as_ref().is_none_or(|(j, _)| i > *j) {
                    best = Some((i, why));
                }
            }
        }
    }
    // A piece named customPieceN says nothing of its moves: its Betza does.
    let kind = &variant.pieces[cell_kind(cell)];
    let betza = if kind.name.starts_with("customPiece") {
        format!(" ({} moves as {})", kind.name, kind.betza)
    } else {
        String::new()
    };
    best.map(|(_, why)| Hint { text: format!("{}{betza}", why.text), ..why })
}

/// `leaves its king on e1 attacked by the rook on e8`, with both marked:
/// the move is one of the piece's, and the royal piece is attacked after it.
fn royal_left_attacked(variant: &Variant, pos: &Position, from: usize, to: usize, victims: &[usize]) -> Hint {
    let g = &variant.geometry;
    let us = pos.side;
    let mut probe = pos.clone();
    let mut pseudo = Vec::new();
    variant.tables.pseudo_legal(&mut probe, &mut pseudo);
    let mv = pseudo.iter().copied().find(|m| {
        let mut v: Vec<usize> = m.victims().iter().map(|&x| x as usize).collect();
        v.sort_unstable();
        m.from as usize == from && m.to as usize == to && v == victims
    });
    let royal_name = variant.royal.map_or("royal piece", |k| variant.pieces[k].name.as_str());
    let Some(mv) = mv else {
        return Hint::new(format!("leaves its {royal_name} attacked"));
    };
    let played = variant.tables.play(&mut probe, mv);
    let royal = probe.royal[us];
    let found = if royal == NO_SQUARE { Vec::new() } else { attackers(variant, &probe, royal as usize, us ^ 1) };
    let hint = match (royal, found.first()) {
        (NO_SQUARE, _) => Hint::new(format!("leaves its {royal_name} attacked")),
        (royal, None) => Hint::new(format!("leaves its {royal_name} on {} attacked", g.name(royal as usize))),
        (royal, Some(&a)) => Hint::new(format!(
            "leaves its {royal_name} on {} attacked by {}",
            g.name(royal as usize),
            piece_label(variant, &probe, a)
        ))
        .mark(view_square(variant, royal as usize), SquareMark::Attacked)
        .mark(view_square(variant, a), SquareMark::Attacker),
    };
    variant.tables.unplay(&mut probe, mv, &played);
    hint
}
