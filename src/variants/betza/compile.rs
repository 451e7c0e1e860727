//! The Betza compiler: parsed groups become a tree of concrete legs (every
//! direction unrolled), and the tree becomes leg code, the flat list of
//! `(flags, step, range, skip)` rows of H. G. Muller's design that the
//! move generator interprets.
//!
//! Layout: a leg row is followed by the rows of every leg that continues
//! from it (its subtree), so its `skip` jumps the whole group of paths that
//! share it when it fails. A non-final sliding leg that may stop on empty
//! squares (a hook mover's first leg) stops at the first one, runs its
//! subtree, and a loop row after the subtree steps one square further and
//! rewinds by its `range` to the first row of the subtree.

use super::parse::{self, mode, Atom, BetzaError, MoveGroup, Symmetry, INFINITE};

/// Row flags.
pub mod flag {
    /// May land on / stop at an empty square.
    pub const MOVE: u16 = 1;
    /// May capture an enemy piece there.
    pub const CAPTURE: u16 = 2;
    /// May capture a friendly piece there.
    pub const DESTROY: u16 = 4;
    /// Non-final: may stop on an occupied square and leave its piece.
    pub const HOP: u16 = 8;
    /// The last leg of its path: every landing is a move.
    pub const FINAL: u16 = 16;
    /// Non-final slide with MOVE: pause at each empty square (a loop row follows the subtree).
    pub const PAUSE: u16 = 32;
    /// Skip the first square of the slide whatever is on it (`j` on a slider).
    pub const SKIP_FIRST: u16 = 64;
    /// A loop directive, not a leg.
    pub const LOOP: u16 = 128;
    /// Only for a piece that has not moved (`i`).
    pub const INITIAL: u16 = 256;
}

/// One concrete leg of the path tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leg {
    /// The (file, rank) step of one square of this leg.
    pub step: (i8, i8),
    /// How many steps the leg may take (`INFINITE` = unlimited).
    pub range: u8,
    /// `flag::MOVE | CAPTURE | DESTROY | HOP`.
    pub modes: u16,
    /// Jumps over the first square of a slide whatever is on it (`j`).
    pub skip_first: bool,
    /// Only for a piece that has not moved (`i`).
    pub initial: bool,
    /// The legs that continue from this one; empty for the last leg.
    pub children: Vec<Leg>,
}

impl Leg {
    /// Whether this leg ends its path (no leg continues from it).
    pub fn is_final(&self) -> bool {
        self.children.is_empty()
    }
}

/// One row of leg code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    /// The `flag` bits of this row.
    pub flags: u16,
    /// The (file, rank) step of one square of this leg.
    pub step: (i8, i8),
    /// A leg's range (`INFINITE` = unlimited); a loop row's rewind distance.
    pub range: u16,
    /// Rows to skip when this leg (or loop) fails.
    pub skip: u16,
    /// Which leg of its path (0 = first).
    pub depth: u8,
    /// For a loop row: the range of the leg it repeats.
    pub limit: u8,
}

/// A compiled piece: its path tree and leg code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compiled {
    /// The Betza string as written.
    pub notation: String,
    /// The path tree: one root leg per first step.
    pub roots: Vec<Leg>,
    /// The leg code that the move generator runs.
    pub code: Vec<Row>,
    /// Notes for the user (ambiguous atoms).
    pub warnings: Vec<String>,
    /// The most legs in one path.
    pub max_legs: usize,
}

/// The most legs one path may have (interpreter state is sized by it).
pub const MAX_LEGS: usize = 8;
/// The most paths one group may unroll into.
pub const MAX_PATHS: u64 = 100_000;

/// Parses and compiles `notation`.
pub fn compile(notation: &str) -> Result<Compiled, BetzaError> {
    let piece = parse::parse(notation)?;
    let mut roots = Vec::new();
    for group in &piece.groups {
        // Bound the tree before building it: `aaaaaaaK` would be millions of paths.
        let mut paths: u64 = 1;
        let last = group.legs.len().saturating_sub(1);
        for (i, leg) in group.legs.iter().enumerate() {
            let set = parse::directions(notation, leg, group.atom.symmetry, i > 0)?;
            paths = paths.saturating_mul(u64::from(set.count_ones()).max(1));
            // A non-final slide that stops on empty squares forks at each of
            // up to 15 squares (ranges may toggle: count every leg so).
            let stops = leg.modes & (mode::M | mode::Y) != 0 || leg.modes == 0;
            if i < last && stops && (group.range != 1 || group.legs.iter().any(|l| l.modes & (mode::G | mode::Y) != 0))
            {
                paths = paths.saturating_mul(15);
            }
        }
        if group.legs.len() > MAX_LEGS || paths > MAX_PATHS {
            return Err(BetzaError {
                notation: notation.into(),
                pos: group.atom_pos,
                message: format!(
                    "{} legs and {paths} paths: more than the {MAX_LEGS} legs and {MAX_PATHS} paths implemented",
                    group.legs.len()
                ),
            });
        }
        roots.extend(build_group(notation, group)?);
    }
    let max_legs = roots.iter().map(depth).max().unwrap_or(0);
    if max_legs > MAX_LEGS {
        let pos = piece.groups.iter().map(|g| g.atom_pos).max().unwrap_or(0);
        return Err(BetzaError {
            notation: notation.into(),
            pos,
            message: format!("a path of {max_legs} legs is more than the {MAX_LEGS} implemented"),
        });
    }
    let mut code = Vec::new();
    for root in &roots {
        flatten(root, 0, &mut code);
    }
    Ok(Compiled { notation: notation.into(), roots, code, warnings: piece.warnings, max_legs })
}

fn depth(leg: &Leg) -> usize {
    1 + leg.children.iter().map(depth).max().unwrap_or(0)
}

fn toggle(range: u8) -> u8 {
    if range == 1 {
        INFINITE
    } else {
        1
    }
}

/// The squares a lame leaper passes (as Fairy-Stockfish: straight along the
/// longer axis until the rest is diagonal), excluding the target.
fn lame_path(step: (i8, i8)) -> Vec<(i8, i8)> {
    let (tx, ty) = step;
    let (mut x, mut y) = (0i8, 0i8);
    let mut path = Vec::new();
    while (x, y) != (tx, ty) {
        let diff = (tx - x).abs() - (ty - y).abs();
        if diff > 0 {
            x += (tx - x).signum();
        } else if diff < 0 {
            y += (ty - y).signum();
        } else {
            x += (tx - x).signum();
            y += (ty - y).signum();
        }
        if (x, y) != (tx, ty) {
            path.push((x, y));
        }
    }
    path
}

struct Ctx<'a> {
    notation: &'a str,
    group: &'a MoveGroup,
}

fn build_group(notation: &str, group: &MoveGroup) -> Result<Vec<Leg>, BetzaError> {
    let ctx = Ctx { notation, group };
    let mut legs = build_leg(&ctx, 0, group.atom, group.range, None)?;
    if group.initial {
        for leg in &mut legs {
            leg.initial = true;
        }
    }
    Ok(legs)
}

fn build_leg(ctx: &Ctx, index: usize, atom: Atom, range: u8, prev: Option<usize>) -> Result<Vec<Leg>, BetzaError> {
    let group = ctx.group;
    let mods = &group.legs[index];
    let last = index + 1 == group.legs.len();
    let err = |pos: usize, message: String| BetzaError { notation: ctx.notation.into(), pos, message };
    let set = parse::directions(ctx.notation, mods, atom.symmetry, prev.is_some())?;
    let m = mods.modes;
    let hop_final = last && m & (mode::P | mode::G) != 0;
    if last && m & mode::Y != 0 {
        return Err(err(mods.pos, "'y' on the last leg has nothing to change the range of".into()));
    }
    if m & mode::P != 0 && m & mode::G != 0 {
        return Err(err(mods.pos, "'p' and 'g' on one leg".into()));
    }
    let toggles = !last && m & (mode::G | mode::Y) != 0;
    let mut modes: u16 = 0;
    if m & mode::M != 0 || m & mode::Y != 0 {
        modes |= flag::MOVE;
    }
    if m & mode::C != 0 {
        modes |= flag::CAPTURE;
    }
    if m & mode::D != 0 {
        modes |= flag::DESTROY;
    }
    if !last && m & (mode::P | mode::G) != 0 {
        modes |= flag::HOP;
    }
    if modes == 0 && !hop_final {
        modes = if last { flag::MOVE | flag::CAPTURE } else { flag::MOVE };
    }
    let slider = range != 1;
    if mods.jumps > 1 {
        return Err(err(mods.pos, "'jj' (jump several squares) is not implemented".into()));
    }
    if mods.lame && slider {
        return Err(err(mods.pos, "'n' on a rider (a lame rider) is not implemented".into()));
    }
    let mut out = Vec::new();
    for dir in (0..8).filter(|i| set >> i & 1 == 1) {
        let abs = match prev {
            Some(p) => (p + dir) % 8,
            None => dir,
        };
        // A 45-degree turn converts an orthogonal atom into a diagonal one and back.
        let mut leg_atom = atom;
        if prev.is_some() && dir % 2 == 1 {
            leg_atom.symmetry = match atom.symmetry {
                Symmetry::Orthogonal => Symmetry::Diagonal,
                Symmetry::Diagonal => Symmetry::Orthogonal,
                s => s,
            };
        }
        let step = parse::step(leg_atom, abs);
        let next_range = if toggles { toggle(range) } else { range };
        let children = if last { Vec::new() } else { build_leg(ctx, index + 1, leg_atom, next_range, Some(abs))? };
        let mut leg = if hop_final {
            // pR = pafR, gQ = gafQ: hop the first occupied square, then go on straight.
            let mut cont = modes;
            if cont == 0 {
                cont = flag::MOVE | flag::CAPTURE;
            }
            let after = if m & mode::G != 0 { toggle(range) } else { range };
            Leg {
                step,
                range,
                modes: flag::HOP,
                skip_first: false,
                initial: false,
                children: vec![Leg { step, range: after, modes: cont, skip_first: false, initial: false, children }],
            }
        } else {
            Leg { step, range, modes, skip_first: false, initial: false, children }
        };
        if mods.jumps == 1 {
            if slider {
                leg.skip_first = true;
            } else {
                let path = lame_path(step);
                if path.len() != 1 {
                    return Err(err(
                        mods.pos,
                        format!(
                            "'j' on {} is ambiguous (which of its {} path squares must be jumped?)",
                            atom.letter,
                            path.len()
                        ),
                    ));
                }
                leg = prefix_path(leg, &path, flag::HOP);
            }
        }
        if mods.lame {
            let path = lame_path(step);
            if path.is_empty() {
                return Err(err(mods.pos, format!("'n' has no effect on {} (no square between)", atom.letter)));
            }
            if mods.jumps > 0 {
                return Err(err(mods.pos, "'n' and 'j' on one leg".into()));
            }
            leg = prefix_path(leg, &path, flag::MOVE);
        }
        out.extend(split_hop(leg));
    }
    Ok(out)
}

/// Replaces a leaper leg by unit legs through `path` (each with `modes`),
/// ending with the last hop to the original target.
fn prefix_path(leg: Leg, path: &[(i8, i8)], modes: u16) -> Leg {
    let target = leg.step;
    let last = *path.last().expect("a path square");
    let mut tail = Leg { step: (target.0 - last.0, target.1 - last.1), ..leg };
    let mut prev_point = last;
    for (i, &p) in path.iter().enumerate().rev() {
        let before = if i == 0 { (0, 0) } else { path[i - 1] };
        let node = Leg {
            step: (p.0 - before.0, p.1 - before.1),
            range: 1,
            modes,
            skip_first: false,
            initial: false,
            children: vec![tail],
        };
        tail = node;
        prev_point = before;
    }
    let _ = prev_point;
    tail.initial = false;
    tail
}

/// A non-final leg that may both capture and hop on an occupied square
/// continues two different ways from it: split it into two legs.
fn split_hop(mut leg: Leg) -> Vec<Leg> {
    leg.children = leg.children.into_iter().flat_map(split_hop).collect();
    if !leg.is_final() && leg.modes & flag::HOP != 0 && leg.modes & (flag::CAPTURE | flag::DESTROY) != 0 {
        let hop = Leg { modes: flag::HOP, ..leg.clone() };
        let take = Leg { modes: leg.modes & !flag::HOP, ..leg };
        vec![take, hop]
    } else {
        vec![leg]
    }
}

fn flatten(leg: &Leg, depth: u8, code: &mut Vec<Row>) {
    let mut flags = leg.modes;
    if leg.is_final() {
        flags |= flag::FINAL;
    }
    if leg.skip_first {
        flags |= flag::SKIP_FIRST;
    }
    if leg.initial {
        flags |= flag::INITIAL;
    }
    let pause = !leg.is_final() && leg.range != 1 && leg.modes & flag::MOVE != 0;
    if pause {
        flags |= flag::PAUSE;
    }
    let at = code.len();
    code.push(Row { flags, step: leg.step, range: leg.range as u16, skip: 0, depth, limit: leg.range });
    let first_child = code.len();
    for child in &leg.children {
        flatten(child, depth + 1, code);
    }
    if pause {
        let rewind = (code.len() - first_child) as u16;
        code.push(Row {
            flags: flag::LOOP | (leg.modes & !flag::MOVE) | flag::MOVE,
            step: leg.step,
            range: rewind,
            skip: 0,
            depth,
            limit: leg.range,
        });
    }
    code[at].skip = (code.len() - at - 1) as u16;
}

/// The flags of a row as words (`noncapt|capt`, `loop`).
pub fn flag_words(flags: u16) -> String {
    if flags & flag::LOOP != 0 {
        return "loop".into();
    }
    let mut words = Vec::new();
    if flags & flag::INITIAL != 0 {
        words.push("initial");
    }
    if flags & flag::MOVE != 0 {
        words.push("noncapt");
    }
    if flags & flag::CAPTURE != 0 {
        words.push("capt");
    }
    if flags & flag::DESTROY != 0 {
        words.push("destroy");
    }
    if flags & flag::HOP != 0 {
        words.push("hop");
    }
    if flags & flag::SKIP_FIRST != 0 {
        words.push("skipfirst");
    }
    if flags & flag::PAUSE != 0 {
        words.push("pause");
    }
    if flags & flag::FINAL != 0 {
        words.push("final");
    }
    words.join("|")
}

/// The range as the document writes it.
pub fn range_text(range: u16) -> String {
    if range == INFINITE as u16 {
        "inf".into()
    } else {
        range.to_string()
    }
}

/// A comment that says what a row does.
pub fn row_comment(code: &[Row], index: usize) -> String {
    let row = code[index];
    let target = index + 1 + row.skip as usize + 1;
    if row.flags & flag::LOOP != 0 {
        return format!(
            "step ({},{}) further from where leg {} stopped; if empty go back to row {}, else go on",
            row.step.0,
            row.step.1,
            row.depth + 1,
            index + 1 - row.range as usize
        );
    }
    let kind = if row.range == 1 { "leap" } else { "slide" };
    let mut what = format!("leg {}: {kind} ({},{})", row.depth + 1, row.step.0, row.step.1);
    if row.flags & flag::SKIP_FIRST != 0 {
        what.push_str(" skipping the first square");
    }
    let mut lands = Vec::new();
    if row.flags & flag::MOVE != 0 {
        lands.push("empty");
    }
    if row.flags & flag::CAPTURE != 0 {
        lands.push("enemy (captured)");
    }
    if row.flags & flag::DESTROY != 0 {
        lands.push("friend (captured)");
    }
    if row.flags & flag::HOP != 0 {
        lands.push("occupied (hopped)");
    }
    what.push_str(" to ");
    what.push_str(&lands.join(" or "));
    if row.flags & flag::FINAL != 0 {
        what.push_str("; a move ends there");
    } else if row.skip > 0 {
        what.push_str(&format!("; if it fails skip {} to row {target}", row.skip));
    }
    if row.flags & flag::PAUSE != 0 {
        what.push_str("; stops at the first empty square");
    }
    what
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hook_mover_has_loop_rows() {
        let c = compile("masR").unwrap();
        // 4 first legs, each with 2 perpendicular continuations and a loop row.
        assert_eq!(c.code.len(), 16);
        assert_eq!(c.code[0].skip, 3);
        assert_eq!(c.code[3].flags & flag::LOOP, flag::LOOP);
        assert_eq!(c.code[3].range, 2);
    }

    #[test]
    fn king_twice_shares_first_legs() {
        let c = compile("aK").unwrap();
        // 8 first legs, each followed by 7 continuations (all but straight back).
        assert_eq!(c.code.len(), 8 * 8);
        assert_eq!(c.code[0].skip, 7);
    }

    #[test]
    fn lame_knight_is_a_two_leg_path() {
        let c = compile("nN").unwrap();
        assert_eq!(c.roots.len(), 8);
        assert_eq!(c.roots[0].step, (0, 1));
        assert_eq!(c.roots[0].children[0].step, (1, 1));
        assert_eq!(lame_path((1, 3)), vec![(0, 1), (0, 2)]);
    }

    #[test]
    fn cannon_hops() {
        let c = compile("mRcpR").unwrap();
        assert_eq!(c.roots.len(), 8);
        let hop = &c.roots[4];
        assert_eq!(hop.modes, flag::HOP);
        assert_eq!(hop.children[0].modes, flag::CAPTURE);
        assert_eq!(hop.children[0].step, hop.step);
    }

    #[test]
    fn mao_bends_diagonally() {
        let c = compile("mafsW").unwrap();
        let first = &c.roots[0];
        assert_eq!(first.step, (0, 1));
        let steps: Vec<_> = first.children.iter().map(|l| l.step).collect();
        assert_eq!(steps, vec![(1, 1), (-1, 1)]);
    }
}
