//! Attack shapes and repeat detection: every capture a kind can make,
//! enumerated once with the conditions on its squares (for the royal rule),
//! and whether two paths of a kind can give the same move (deduplication).

use crate::variants::betza::compile::{flag, Leg};
use crate::variants::board::{Geometry, Side};

#[derive(Debug, Clone, Default)]
pub(crate) struct Shapes {
    /// For each displacement (dy + 15) * 31 + (dx + 15): a range of `shapes`.
    pub(crate) buckets: Vec<(u32, u32)>,
    /// (start, len, initial-only) into `conds`.
    pub(crate) shapes: Vec<(u32, u16, bool)>,
    /// (cell offset from the attacker, allowed classes).
    pub(crate) conds: Vec<(isize, u8)>,
}

/// Square classes as seen from the attacker.
pub(crate) const C_EMPTY: u8 = 1;
pub(crate) const C_OWN: u8 = 2;
pub(crate) const C_ENEMY: u8 = 4;
const C_ANY: u8 = 7;

/// The most conditions we keep per kind and side before falling back.
const SHAPE_BUDGET: usize = 1_000_000;

/// A shape in board-independent coordinates.
pub(crate) struct RawShape {
    target: (i8, i8),
    conds: Vec<((i8, i8), u8)>,
    initial: bool,
}

struct Enumerator {
    w: i8,
    h: i8,
    out: Vec<RawShape>,
    total: usize,
    conds: Vec<((i8, i8), u8)>,
    target: Option<(i8, i8)>,
    initial: bool,
}

impl Enumerator {
    fn fits(&self, p: (i8, i8)) -> bool {
        p.0.abs() < self.w && p.1.abs() < self.h
    }

    /// Adds a condition; false if it cannot hold (then nothing was added).
    fn push(&mut self, p: (i8, i8), mask: u8) -> bool {
        if p == (0, 0) {
            // The mover has left its square: it counts as empty.
            return mask & C_EMPTY != 0;
        }
        if Some(p) == self.target && mask & C_ENEMY == 0 {
            return false;
        }
        self.conds.push((p, mask));
        true
    }

    fn record(&mut self, target: (i8, i8)) {
        if target == (0, 0) {
            return;
        }
        // The royal piece stands on the target: earlier conditions there must allow it.
        if self.conds.iter().any(|&(p, m)| p == target && m & C_ENEMY == 0) {
            return;
        }
        let conds: Vec<_> = self.conds.iter().copied().filter(|&(p, _)| p != (0, 0) && p != target).collect();
        self.total += conds.len() + 1;
        self.out.push(RawShape { target, conds, initial: self.initial });
    }

    /// Walks every leg that continues from `p`; false when over budget.
    fn children(&mut self, leg: &Leg, p: (i8, i8)) -> bool {
        leg.children.iter().all(|child| self.leg(child, p))
    }

    fn leg(&mut self, leg: &Leg, cur: (i8, i8)) -> bool {
        // Every square visited counts too: long multi-leg slides explore
        // far more paths than they record.
        self.total += 1;
        if self.total > SHAPE_BUDGET {
            return false;
        }
        let mark = self.conds.len();
        let mut p = cur;
        let mut steps = 0u8;
        if leg.skip_first {
            p = (p.0 + leg.step.0, p.1 + leg.step.1);
            steps = 1;
            if !self.fits(p) || !self.push(p, C_ANY) {
                self.conds.truncate(mark);
                return true;
            }
        }
        let fin = leg.is_final();
        loop {
            p = (p.0 + leg.step.0, p.1 + leg.step.1);
            steps += 1;
            self.total += 1;
            if !self.fits(p) || self.total > SHAPE_BUDGET {
                break;
            }
            if fin {
                match self.target {
                    None => {
                        if leg.modes & flag::CAPTURE != 0 {
                            self.record(p);
                        }
                    }
                    Some(t) => {
                        let mut mask = 0;
                        if leg.modes & flag::MOVE != 0 {
                            mask |= C_EMPTY;
                        }
                        if leg.modes & flag::CAPTURE != 0 {
                            mask |= C_ENEMY;
                        }
                        if leg.modes & flag::DESTROY != 0 {
                            mask |= C_OWN;
                        }
                        let before = self.conds.len();
                        if p != t && self.push(p, mask) {
                            self.record(t);
                        }
                        self.conds.truncate(before);
                    }
                }
            } else {
                // The royal piece as a locust victim here...
                if leg.modes & flag::CAPTURE != 0
                    && self.target.is_none()
                    && p != (0, 0)
                    && self.conds.iter().all(|&(q, m)| q != p || m & C_ENEMY != 0)
                {
                    self.target = Some(p);
                    let ok = self.children(leg, p);
                    self.target = None;
                    if !ok {
                        return false;
                    }
                }
                // ... or an empty, friendly, hopped or captured square.
                let options = [
                    (flag::MOVE, C_EMPTY),
                    (flag::DESTROY, C_OWN),
                    (flag::HOP, C_OWN | C_ENEMY),
                    (flag::CAPTURE, C_ENEMY),
                ];
                for (bit, mask) in options {
                    if leg.modes & bit != 0 {
                        let before = self.conds.len();
                        let ok = !self.push(p, mask) || self.children(leg, p);
                        self.conds.truncate(before);
                        if !ok {
                            return false;
                        }
                    }
                }
            }
            if steps >= leg.range || !self.push(p, C_EMPTY) {
                break;
            }
        }
        self.conds.truncate(mark);
        self.total <= SHAPE_BUDGET
    }
}

/// Every capture shape of a kind (White's orientation), or `None` when there
/// are too many.
pub(crate) fn enumerate_shapes(roots: &[Leg], geometry: &Geometry) -> Option<Vec<RawShape>> {
    let mut e = Enumerator {
        w: geometry.width as i8,
        h: geometry.height as i8,
        out: Vec::new(),
        total: 0,
        conds: Vec::new(),
        target: None,
        initial: false,
    };
    for root in roots {
        e.initial = root.initial;
        if !e.leg(root, (0, 0)) {
            return None;
        }
    }
    Some(e.out)
}

pub(crate) fn bucket(list: &[RawShape], geometry: &Geometry, side: Side) -> Shapes {
    let flip = |p: (i8, i8)| if side == 0 { p } else { (-p.0, -p.1) };
    let mut order: Vec<usize> = (0..list.len()).collect();
    let key = |s: &RawShape| {
        let t = flip(s.target);
        ((t.1 + 15) as usize) * 31 + (t.0 + 15) as usize
    };
    order.sort_by_key(|&i| key(&list[i]));
    let mut shapes = Shapes { buckets: vec![(0, 0); 31 * 31], ..Shapes::default() };
    for &i in &order {
        let s = &list[i];
        let k = key(s);
        let start = shapes.conds.len() as u32;
        for &(p, m) in &s.conds {
            shapes.conds.push((geometry.delta(flip(p)), m));
        }
        let idx = shapes.shapes.len() as u32;
        if shapes.buckets[k].1 == 0 {
            shapes.buckets[k] = (idx, idx + 1);
        } else {
            shapes.buckets[k].1 = idx + 1;
        }
        shapes.shapes.push((start, s.conds.len() as u16, s.initial));
    }
    shapes
}

/// Can two paths of a kind give the same move? Enumerates every move shape
/// (destination and victims) with the conditions on its squares, and looks
/// for two shapes with the same move whose conditions can hold together (a
/// cannon's screen on e5 or on e6 cannot: the screen is the first piece).
pub(crate) fn may_repeat(roots: &[Leg], geometry: &Geometry) -> bool {
    use std::collections::HashMap;
    type Conds = Vec<((i8, i8), u8)>;
    type Seen = HashMap<((i8, i8), Vec<(i8, i8)>), Vec<Conds>>;
    struct Walk {
        w: i8,
        h: i8,
        seen: Seen,
        budget: usize,
        conds: Conds,
        victims: Vec<(i8, i8)>,
    }
    fn compatible(a: &Conds, b: &Conds) -> bool {
        a.iter().all(|&(p, m)| b.iter().all(|&(q, n)| p != q || m & n != 0))
    }
    impl Walk {
        /// True when a repeat was found (or the budget ran out).
        fn leg(&mut self, leg: &Leg, cur: (i8, i8)) -> bool {
            let mark = self.conds.len();
            let mut p = cur;
            let mut steps = 0u8;
            if leg.skip_first {
                p = (p.0 + leg.step.0, p.1 + leg.step.1);
                steps = 1;
            }
            let found = loop {
                p = (p.0 + leg.step.0, p.1 + leg.step.1);
                steps += 1;
                if p.0.abs() >= self.w || p.1.abs() >= self.h {
                    break false;
                }
                if self.budget == 0 {
                    break true;
                }
                self.budget -= 1;
                if leg.is_final() {
                    let mut v = self.victims.clone();
                    v.sort_unstable();
                    v.retain(|&x| x != p);
                    for (bit, mask) in [(flag::MOVE, C_EMPTY), (flag::CAPTURE, C_ENEMY), (flag::DESTROY, C_OWN)] {
                        if leg.modes & bit == 0 {
                            continue;
                        }
                        let mut conds = self.conds.clone();
                        if p != (0, 0) {
                            conds.push((p, mask));
                        }
                        let list = self.seen.entry((p, v.clone())).or_default();
                        if list.iter().any(|c| compatible(c, &conds)) {
                            return true;
                        }
                        list.push(conds);
                    }
                } else {
                    let options = [
                        (flag::MOVE, C_EMPTY, false),
                        (flag::HOP, C_OWN | C_ENEMY, false),
                        (flag::CAPTURE, C_ENEMY, true),
                        (flag::DESTROY, C_OWN, true),
                    ];
                    for (bit, mask, victim) in options {
                        if leg.modes & bit == 0 {
                            continue;
                        }
                        self.conds.push((p, mask));
                        if victim {
                            self.victims.push(p);
                        }
                        for child in &leg.children {
                            if self.leg(child, p) {
                                return true;
                            }
                        }
                        if victim {
                            self.victims.pop();
                        }
                        self.conds.pop();
                    }
                }
                if steps >= leg.range {
                    break false;
                }
                self.conds.push((p, C_EMPTY));
            };
            self.conds.truncate(mark);
            found
        }
    }
    let mut walk = Walk {
        w: geometry.width as i8,
        h: geometry.height as i8,
        seen: HashMap::new(),
        budget: 200_000,
        conds: Vec::new(),
        victims: Vec::new(),
    };
    roots.iter().any(|root| walk.leg(root, (0, 0)))
}
