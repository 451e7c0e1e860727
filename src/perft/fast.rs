//! The fast perft: a compact copy-make board, fully legal generation that
//! hands whole target sets to a sink (so the last ply is a popcount and the
//! second-to-last never builds a list), slider lookups by PEXT when the CPU has
//! BMI2 (the whole hot path is compiled twice and chosen at run time; fancy
//! magics otherwise), an optional lock-free hash table, and a rayon split over
//! the first two plies. `super::perft` stays the reference it is tested against.

use super::hash::HashTable;
use crate::attacks::{between, king_attacks, knight_attacks, magic, pawn_attacks};
use crate::board::{zobrist, Color, Role, Square};
use crate::movegen::Move;
use crate::position::Position;
use rayon::prelude::*;
use std::marker::PhantomData;

const PAWN: usize = Role::Pawn as usize;
const KNIGHT: usize = Role::Knight as usize;
const BISHOP: usize = Role::Bishop as usize;
const ROOK: usize = Role::Rook as usize;
const QUEEN: usize = Role::Queen as usize;
const KING: usize = Role::King as usize;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
const RANK_1: u64 = 0xff;
const RANK_8: u64 = 0xff << 56;

/// The board of the fast path: role and colour sets, castling rooks, the e.p.
/// target as a set, and the Zobrist key (kept only where the hash table needs
/// it). The side to move is a type parameter, never stored.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Board {
    role: [u64; 6],
    color: [u64; 2],
    castling: u64,
    ep: u64,
    key: u64,
}

impl Board {
    fn from_position(pos: &Position) -> Board {
        Board {
            role: Role::ALL.map(|r| pos.by_role(r).0),
            color: [pos.by_color(Color::White).0, pos.by_color(Color::Black).0],
            castling: pos.castling_rooks().0,
            ep: pos.ep_square().map_or(0, |sq| 1 << sq as u8),
            key: pos.key(),
        }
    }
}

/// Side to move as a type, so that every colour-relative constant folds.
trait Side {
    const US: usize;
    const WHITE: bool;
    type Opp: Side;
}
struct White;
struct Black;
impl Side for White {
    const US: usize = 0;
    const WHITE: bool = true;
    type Opp = Black;
}
impl Side for Black {
    const US: usize = 1;
    const WHITE: bool = false;
    type Opp = White;
}

/// Slider lookups plus the recursion entry compiled for them.
trait Sliders: Sized {
    fn rook(sq: usize, occ: u64) -> u64;
    fn bishop(sq: usize, occ: u64) -> u64;
    fn node<S: Side>(b: &Board, depth: u32, tt: Option<&HashTable>) -> u64;
}

struct Magic;
impl Sliders for Magic {
    #[inline(always)]
    fn rook(sq: usize, occ: u64) -> u64 {
        magic::rook_attacks_magic(Square::new(sq as u8), crate::Bitboard(occ)).0
    }
    #[inline(always)]
    fn bishop(sq: usize, occ: u64) -> u64 {
        magic::bishop_attacks_magic(Square::new(sq as u8), crate::Bitboard(occ)).0
    }
    #[inline(always)]
    fn node<S: Side>(b: &Board, depth: u32, tt: Option<&HashTable>) -> u64 {
        node_magic::<S>(b, depth, tt)
    }
}

fn node_magic<S: Side>(b: &Board, depth: u32, tt: Option<&HashTable>) -> u64 {
    node::<S, Magic>(b, depth, tt)
}

/// PEXT lookups. Only ever instantiated behind a successful check for BMI1,
/// BMI2 and POPCNT (`lookups`), which is what the `unsafe` blocks rely on.
#[cfg(target_arch = "x86_64")]
struct Pext;
#[cfg(target_arch = "x86_64")]
impl Sliders for Pext {
    #[inline(always)]
    fn rook(sq: usize, occ: u64) -> u64 {
        // Safety: `Pext` is used only after BMI2 was detected (see `lookups`).
        unsafe { magic::rook_attacks_pext(Square::new(sq as u8), crate::Bitboard(occ)).0 }
    }
    #[inline(always)]
    fn bishop(sq: usize, occ: u64) -> u64 {
        // Safety: as for `rook`.
        unsafe { magic::bishop_attacks_pext(Square::new(sq as u8), crate::Bitboard(occ)).0 }
    }
    #[inline(always)]
    fn node<S: Side>(b: &Board, depth: u32, tt: Option<&HashTable>) -> u64 {
        // Safety: as for `rook`.
        unsafe { node_pext::<S>(b, depth, tt) }
    }
}

/// The whole tree below here is compiled with BMI1/BMI2/POPCNT enabled, so
/// `pext`, `popcnt`, `tzcnt` and `blsr` are inlined into the generator.
///
/// # Safety
/// The CPU must support BMI1, BMI2 and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,popcnt")]
unsafe fn node_pext<S: Side>(b: &Board, depth: u32, tt: Option<&HashTable>) -> u64 {
    node::<S, Pext>(b, depth, tt)
}

/// Fancy magics with the POPCNT instruction (x86-64 CPUs without fast PEXT).
#[cfg(target_arch = "x86_64")]
struct MagicPopcnt;
#[cfg(target_arch = "x86_64")]
impl Sliders for MagicPopcnt {
    #[inline(always)]
    fn rook(sq: usize, occ: u64) -> u64 {
        Magic::rook(sq, occ)
    }
    #[inline(always)]
    fn bishop(sq: usize, occ: u64) -> u64 {
        Magic::bishop(sq, occ)
    }
    #[inline(always)]
    fn node<S: Side>(b: &Board, depth: u32, tt: Option<&HashTable>) -> u64 {
        // Safety: `MagicPopcnt` is used only after POPCNT was detected.
        unsafe { node_magic_popcnt::<S>(b, depth, tt) }
    }
}

/// # Safety
/// The CPU must support POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn node_magic_popcnt<S: Side>(b: &Board, depth: u32, tt: Option<&HashTable>) -> u64 {
    node::<S, MagicPopcnt>(b, depth, tt)
}

/// Which compiled copy of the hot path to run.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Lookups {
    /// Portable: fancy magics, no special instructions.
    Magic,
    /// Fancy magics with POPCNT.
    MagicPopcnt,
    /// PEXT tables with BMI1/BMI2/POPCNT.
    Pext,
}

/// The fastest copy this CPU runs: PEXT where it is fast (not on AMD before
/// Zen 3, where it is microcoded and slow), else magics; the environment
/// variable `CHESSTOOL_NO_PEXT` forces the magic copy.
fn lookups() -> Lookups {
    static CHOSEN: std::sync::OnceLock<Lookups> = std::sync::OnceLock::new();
    *CHOSEN.get_or_init(detect_lookups)
}

fn detect_lookups() -> Lookups {
    #[cfg(target_arch = "x86_64")]
    {
        let popcnt = std::is_x86_feature_detected!("popcnt");
        let pext = popcnt
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
            && !slow_pext()
            && std::env::var_os("CHESSTOOL_NO_PEXT").is_none();
        if pext {
            Lookups::Pext
        } else if popcnt {
            Lookups::MagicPopcnt
        } else {
            Lookups::Magic
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Lookups::Magic
    }
}

/// AMD before Zen 3 (family 0x19) implements PEXT in microcode.
#[cfg(target_arch = "x86_64")]
fn slow_pext() -> bool {
    use std::arch::x86_64::__cpuid;
    let (vendor, signature) = (__cpuid(0), __cpuid(1).eax);
    let amd = vendor.ebx == u32::from_le_bytes(*b"Auth") && vendor.edx == u32::from_le_bytes(*b"enti");
    let base = (signature >> 8) & 0xf;
    let family = if base == 0xf { base + ((signature >> 20) & 0xff) } else { base };
    amd && family < 0x19
}

/// Leaf nodes `depth` plies below `b` (side to move `turn`), on this thread.
fn run(b: &Board, turn: Color, depth: u32, tt: Option<&HashTable>, lookups: Lookups) -> u64 {
    #[cfg(target_arch = "x86_64")]
    match lookups {
        // Safety: `lookups()` chose these only where the CPU has the features.
        Lookups::Pext => {
            return unsafe {
                match turn {
                    Color::White => node_pext::<White>(b, depth, tt),
                    Color::Black => node_pext::<Black>(b, depth, tt),
                }
            }
        }
        // Safety: as above.
        Lookups::MagicPopcnt => {
            return unsafe {
                match turn {
                    Color::White => node_magic_popcnt::<White>(b, depth, tt),
                    Color::Black => node_magic_popcnt::<Black>(b, depth, tt),
                }
            }
        }
        Lookups::Magic => {}
    }
    let _ = lookups;
    match turn {
        Color::White => node_magic::<White>(b, depth, tt),
        Color::Black => node_magic::<Black>(b, depth, tt),
    }
}

#[inline(always)]
fn node<S: Side, A: Sliders>(b: &Board, depth: u32, tt: Option<&HashTable>) -> u64 {
    match depth {
        0 => 1,
        1 => {
            let mut counter = Counter(0);
            generate::<S, A, _>(b, &mut counter);
            counter.0
        }
        _ => {
            if let Some(hit) = tt.and_then(|t| t.probe(b.key, depth)) {
                return hit;
            }
            let nodes = if depth == 2 {
                let mut walk = Walk::<A, true> { depth: 1, tt: None, nodes: 0, _sliders: PhantomData };
                generate::<S, A, _>(b, &mut walk);
                walk.nodes
            } else {
                let mut walk = Walk::<A, false> { depth: depth - 1, tt, nodes: 0, _sliders: PhantomData };
                generate::<S, A, _>(b, &mut walk);
                walk.nodes
            };
            if let Some(t) = tt {
                t.store(b.key, depth, nodes);
            }
            nodes
        }
    }
}

// ---- generation ----------------------------------------------------------

const PUSH: u8 = 0;
const DOUBLE_PUSH: u8 = 1;
const CAPTURE: u8 = 2;
const PROMOTION: u8 = 3;
const PROMOTION_CAPTURE: u8 = 4;

/// Receives legal moves in groups from `generate`.
trait Sink {
    /// A piece of role `ROLE` on `from` moves to each square of `targets`.
    fn piece<S: Side, const ROLE: usize>(&mut self, b: &Board, from: usize, targets: u64);
    /// Pawns move to each square of `targets` from `target - step`.
    fn pawns<S: Side, const KIND: u8>(&mut self, b: &Board, targets: u64, step: i32);
    fn en_passant<S: Side>(&mut self, b: &Board, from: usize, to: usize);
    fn castle<S: Side>(&mut self, b: &Board, king: usize, rook: usize);
}

/// Bulk counting: a popcount per group.
struct Counter(u64);

impl Sink for Counter {
    #[inline(always)]
    fn piece<S: Side, const ROLE: usize>(&mut self, _b: &Board, _from: usize, targets: u64) {
        self.0 += targets.count_ones() as u64;
    }
    #[inline(always)]
    fn pawns<S: Side, const KIND: u8>(&mut self, _b: &Board, targets: u64, _step: i32) {
        let n = targets.count_ones() as u64;
        self.0 += if KIND >= PROMOTION { 4 * n } else { n };
    }
    #[inline(always)]
    fn en_passant<S: Side>(&mut self, _b: &Board, _from: usize, _to: usize) {
        self.0 += 1;
    }
    #[inline(always)]
    fn castle<S: Side>(&mut self, _b: &Board, _king: usize, _rook: usize) {
        self.0 += 1;
    }
}

/// Makes every move and counts below it: with `LAST` the children are counted
/// by popcount here, otherwise the recursion (and the hash table) takes over.
struct Walk<'a, A, const LAST: bool> {
    depth: u32,
    tt: Option<&'a HashTable>,
    nodes: u64,
    _sliders: PhantomData<A>,
}

impl<A: Sliders, const LAST: bool> Walk<'_, A, LAST> {
    #[inline(always)]
    fn visit<S: Side>(&mut self, parent: &Board, mut child: Board) {
        if LAST {
            let mut counter = Counter(0);
            generate::<S::Opp, A, _>(&child, &mut counter);
            self.nodes += counter.0;
        } else {
            if self.tt.is_some() {
                child.key = key_after(parent, &child);
            }
            self.nodes += A::node::<S::Opp>(&child, self.depth, self.tt);
        }
    }
}

impl<A: Sliders, const LAST: bool> Sink for Walk<'_, A, LAST> {
    #[inline(always)]
    fn piece<S: Side, const ROLE: usize>(&mut self, b: &Board, from: usize, mut targets: u64) {
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            self.visit::<S>(b, make_piece::<S, ROLE>(b, from, to));
        }
    }
    #[inline(always)]
    fn pawns<S: Side, const KIND: u8>(&mut self, b: &Board, mut targets: u64, step: i32) {
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            let from = (to as i32 - step) as usize;
            if KIND >= PROMOTION {
                for role in [QUEEN, ROOK, BISHOP, KNIGHT] {
                    self.visit::<S>(b, make_promotion::<S>(b, from, to, role));
                }
            } else {
                self.visit::<S>(b, make_pawn::<S, KIND>(b, from, to));
            }
        }
    }
    #[inline(always)]
    fn en_passant<S: Side>(&mut self, b: &Board, from: usize, to: usize) {
        self.visit::<S>(b, make_en_passant::<S>(b, from, to));
    }
    #[inline(always)]
    fn castle<S: Side>(&mut self, b: &Board, king: usize, rook: usize) {
        self.visit::<S>(b, make_castle::<S>(b, king, rook));
    }
}

/// Collects the children (with keys), for splitting work over threads.
struct Children(Vec<Board>);

impl Children {
    fn push(&mut self, parent: &Board, mut child: Board) {
        child.key = key_after(parent, &child);
        self.0.push(child);
    }
}

impl Sink for Children {
    fn piece<S: Side, const ROLE: usize>(&mut self, b: &Board, from: usize, targets: u64) {
        for to in bits(targets) {
            self.push(b, make_piece::<S, ROLE>(b, from, to));
        }
    }
    fn pawns<S: Side, const KIND: u8>(&mut self, b: &Board, targets: u64, step: i32) {
        for to in bits(targets) {
            let from = (to as i32 - step) as usize;
            if KIND >= PROMOTION {
                for role in [QUEEN, ROOK, BISHOP, KNIGHT] {
                    self.push(b, make_promotion::<S>(b, from, to, role));
                }
            } else {
                self.push(b, make_pawn::<S, KIND>(b, from, to));
            }
        }
    }
    fn en_passant<S: Side>(&mut self, b: &Board, from: usize, to: usize) {
        self.push(b, make_en_passant::<S>(b, from, to));
    }
    fn castle<S: Side>(&mut self, b: &Board, king: usize, rook: usize) {
        self.push(b, make_castle::<S>(b, king, rook));
    }
}

fn bits(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let sq = set.trailing_zeros() as usize;
        set &= set - 1;
        Some(sq)
    })
}

#[inline(always)]
fn sq(i: usize) -> Square {
    Square::new(i as u8)
}

#[inline(always)]
fn knights(i: usize) -> u64 {
    knight_attacks(sq(i)).0
}

#[inline(always)]
fn kings(i: usize) -> u64 {
    king_attacks(sq(i)).0
}

#[inline(always)]
fn pawn_hits(white: bool, i: usize) -> u64 {
    pawn_attacks(if white { Color::White } else { Color::Black }, sq(i)).0
}

#[inline(always)]
fn ray(a: usize, b: usize) -> u64 {
    between(sq(a), sq(b)).0
}

#[inline(always)]
fn shift(set: u64, step: i32) -> u64 {
    if step > 0 {
        set << step
    } else {
        set >> -step
    }
}

/// Whether the enemy attacks `target` with occupancy `occ` (the king removed).
#[inline(always)]
fn attacked<S: Side, A: Sliders>(b: &Board, target: usize, occ: u64) -> bool {
    let theirs = b.color[1 - S::US];
    let diag = (b.role[BISHOP] | b.role[QUEEN]) & theirs;
    let line = (b.role[ROOK] | b.role[QUEEN]) & theirs;
    (knights(target) & b.role[KNIGHT] & theirs)
        | (pawn_hits(S::WHITE, target) & b.role[PAWN] & theirs)
        | (kings(target) & b.role[KING] & theirs)
        | (A::bishop(target, occ) & diag)
        | (A::rook(target, occ) & line)
        != 0
}

/// Every square the enemy attacks with occupancy `occ` (our king removed).
#[inline(always)]
fn seen<S: Side, A: Sliders>(b: &Board, occ: u64) -> u64 {
    let theirs = b.color[1 - S::US];
    let pawns = b.role[PAWN] & theirs;
    // Their pawns capture towards us: down the board when White is to move.
    let mut seen = if S::WHITE {
        ((pawns & !FILE_A) >> 9) | ((pawns & !FILE_H) >> 7)
    } else {
        ((pawns & !FILE_A) << 7) | ((pawns & !FILE_H) << 9)
    };
    seen |= kings((b.role[KING] & theirs).trailing_zeros() as usize);
    let mut set = b.role[KNIGHT] & theirs;
    while set != 0 {
        seen |= knights(set.trailing_zeros() as usize);
        set &= set - 1;
    }
    let mut set = (b.role[BISHOP] | b.role[QUEEN]) & theirs;
    while set != 0 {
        seen |= A::bishop(set.trailing_zeros() as usize, occ);
        set &= set - 1;
    }
    let mut set = (b.role[ROOK] | b.role[QUEEN]) & theirs;
    while set != 0 {
        seen |= A::rook(set.trailing_zeros() as usize, occ);
        set &= set - 1;
    }
    seen
}

/// Every legal move of `b` (side `S`) to `sink`.
#[inline(always)]
fn generate<S: Side, A: Sliders, K: Sink>(b: &Board, sink: &mut K) {
    let (us, them) = (S::US, 1 - S::US);
    let ours = b.color[us];
    let theirs = b.color[them];
    let occ = ours | theirs;
    let king = (b.role[KING] & ours).trailing_zeros() as usize;

    // Checkers and pins in one pass: enemy sliders seen from the king through
    // our own pieces are checkers (nothing between) or pinners (one of ours).
    let mut checkers = (knights(king) & b.role[KNIGHT] & theirs) | (pawn_hits(S::WHITE, king) & b.role[PAWN] & theirs);
    let mut pin_hv = 0;
    let mut pin_diag = 0;
    let mut snipers = A::rook(king, theirs) & (b.role[ROOK] | b.role[QUEEN]) & theirs;
    while snipers != 0 {
        let s = snipers.trailing_zeros() as usize;
        snipers &= snipers - 1;
        let path = ray(king, s);
        let blockers = path & ours;
        if blockers == 0 {
            checkers |= 1 << s;
        } else if blockers & (blockers - 1) == 0 {
            pin_hv |= path | 1 << s;
        }
    }
    let mut snipers = A::bishop(king, theirs) & (b.role[BISHOP] | b.role[QUEEN]) & theirs;
    while snipers != 0 {
        let s = snipers.trailing_zeros() as usize;
        snipers &= snipers - 1;
        let path = ray(king, s);
        let blockers = path & ours;
        if blockers == 0 {
            checkers |= 1 << s;
        } else if blockers & (blockers - 1) == 0 {
            pin_diag |= path | 1 << s;
        }
    }

    // The king: a lone target is tested on its own; with several, one map of
    // every square the enemy attacks is cheaper. Either way the king is off
    // the board, so that it does not shield the square behind it from a slider.
    let king_targets = kings(king) & !ours;
    let occ_without_king = occ ^ (1 << king);
    // `danger` is that map when computed, else 0 (the enemy king always
    // attacks some square, so a computed map is never empty).
    let mut danger = 0;
    let safe = if king_targets & king_targets.wrapping_sub(1) == 0 {
        let t = king_targets.trailing_zeros() as usize;
        if king_targets != 0 && attacked::<S, A>(b, t, occ_without_king) {
            0
        } else {
            king_targets
        }
    } else {
        danger = seen::<S, A>(b, occ_without_king);
        king_targets & !danger
    };
    sink.piece::<S, KING>(b, king, safe);

    if checkers & (checkers.wrapping_sub(1)) != 0 {
        return; // double check: only the king moves
    }
    let check_mask = if checkers == 0 { !0 } else { ray(king, checkers.trailing_zeros() as usize) | checkers };
    let targets = !ours & check_mask;
    let pinned = pin_hv | pin_diag;

    let mut set = b.role[KNIGHT] & ours & !pinned;
    while set != 0 {
        let from = set.trailing_zeros() as usize;
        set &= set - 1;
        sink.piece::<S, KNIGHT>(b, from, knights(from) & targets);
    }
    // A slider pinned along one kind of line cannot move along the other.
    let bishops = b.role[BISHOP] & ours & !pin_hv;
    let mut set = bishops & !pin_diag;
    while set != 0 {
        let from = set.trailing_zeros() as usize;
        set &= set - 1;
        sink.piece::<S, BISHOP>(b, from, A::bishop(from, occ) & targets);
    }
    let mut set = bishops & pin_diag;
    while set != 0 {
        let from = set.trailing_zeros() as usize;
        set &= set - 1;
        sink.piece::<S, BISHOP>(b, from, A::bishop(from, occ) & targets & pin_diag);
    }
    let rooks = b.role[ROOK] & ours & !pin_diag;
    let mut set = rooks & !pin_hv;
    while set != 0 {
        let from = set.trailing_zeros() as usize;
        set &= set - 1;
        sink.piece::<S, ROOK>(b, from, A::rook(from, occ) & targets);
    }
    let mut set = rooks & pin_hv;
    while set != 0 {
        let from = set.trailing_zeros() as usize;
        set &= set - 1;
        sink.piece::<S, ROOK>(b, from, A::rook(from, occ) & targets & pin_hv);
    }
    let mut set = b.role[QUEEN] & ours;
    while set != 0 {
        let from = set.trailing_zeros() as usize;
        set &= set - 1;
        let bit = 1u64 << from;
        let to = if bit & pinned == 0 {
            A::rook(from, occ) | A::bishop(from, occ)
        } else if bit & pin_diag != 0 {
            A::bishop(from, occ) & pin_diag
        } else {
            A::rook(from, occ) & pin_hv
        };
        sink.piece::<S, QUEEN>(b, from, to & targets);
    }

    generate_pawns::<S, K>(b, sink, check_mask, pin_hv, pin_diag);

    if checkers == 0 {
        let rights = b.castling & ours & b.role[ROOK] & if S::WHITE { RANK_1 } else { RANK_8 };
        if rights != 0 {
            generate_castling::<S, A, K>(b, sink, king, rights, occ, danger);
        }
    }
}

#[inline(always)]
fn generate_pawns<S: Side, K: Sink>(b: &Board, sink: &mut K, check_mask: u64, pin_hv: u64, pin_diag: u64) {
    // Colour-relative constants; `left` steps towards the a-file, `right` towards the h-file.
    let (up, left, right) = if S::WHITE { (8, 7, 9) } else { (-8, -9, -7) };
    let (third_rank, last_rank) = if S::WHITE { (0xff << 16, RANK_8) } else { (0xff << 40, RANK_1) };
    let ours = b.color[S::US];
    let theirs = b.color[1 - S::US];
    let pawns = b.role[PAWN] & ours;
    let empty = !(ours | theirs);

    // Captures: a pawn pinned along a rook line cannot capture; one pinned
    // along a bishop line only along its pin.
    let free = pawns & !pin_hv & !pin_diag;
    let pinned = pawns & pin_diag;
    let victims = theirs & check_mask;
    let to = (shift(free & !FILE_A, left) | (shift(pinned & !FILE_A, left) & pin_diag)) & victims;
    sink.pawns::<S, CAPTURE>(b, to & !last_rank, left);
    sink.pawns::<S, PROMOTION_CAPTURE>(b, to & last_rank, left);
    let to = (shift(free & !FILE_H, right) | (shift(pinned & !FILE_H, right) & pin_diag)) & victims;
    sink.pawns::<S, CAPTURE>(b, to & !last_rank, right);
    sink.pawns::<S, PROMOTION_CAPTURE>(b, to & last_rank, right);

    // Pushes: a pawn pinned along a bishop line cannot push; one pinned along
    // a rook line only along its pin (on the king's file).
    let pushers = pawns & !pin_diag;
    let single = (shift(pushers & !pin_hv, up) | (shift(pushers & pin_hv, up) & pin_hv)) & empty;
    let double = shift(single & third_rank, up) & empty & check_mask;
    let single = single & check_mask;
    sink.pawns::<S, PUSH>(b, single & !last_rank, up);
    sink.pawns::<S, PROMOTION>(b, single & last_rank, up);
    sink.pawns::<S, DOUBLE_PUSH>(b, double, 2 * up);

    if b.ep != 0 {
        let ep = b.ep.trailing_zeros() as usize;
        let candidates = pawns & pawn_hits(!S::WHITE, ep);
        if candidates != 0 {
            generate_en_passant::<S, K>(b, sink, ep, candidates);
        }
    }
}

/// En passant is rare and full of traps (the captured pawn may be the checker,
/// both pawns may leave the king's rank), so each candidate is tested on the
/// board after it, with the slow but sure lookups.
#[cold]
#[inline(never)]
fn generate_en_passant<S: Side, K: Sink>(b: &Board, sink: &mut K, ep: usize, candidates: u64) {
    let ours = b.color[S::US];
    let theirs = b.color[1 - S::US];
    let king = (b.role[KING] & ours).trailing_zeros() as usize;
    let captured = if S::WHITE { ep - 8 } else { ep + 8 };
    for from in bits(candidates) {
        let occ = ((ours | theirs) ^ (1 << from) ^ (1 << captured)) | 1 << ep;
        let enemy = theirs & !(1 << captured);
        let attackers = (Magic::rook(king, occ) & (b.role[ROOK] | b.role[QUEEN]))
            | (Magic::bishop(king, occ) & (b.role[BISHOP] | b.role[QUEEN]))
            | (knights(king) & b.role[KNIGHT])
            | (pawn_hits(S::WHITE, king) & b.role[PAWN]);
        if attackers & enemy == 0 {
            sink.en_passant::<S>(b, from, ep);
        }
    }
}

/// Squares (on the first rank) that must be empty but for king and rook, and
/// squares the king crosses or lands on, for each (king file, rook file).
const CASTLE_PATHS: [[(u64, u64); 8]; 8] = castle_paths();

const fn castle_paths() -> [[(u64, u64); 8]; 8] {
    // Squares from `a` to `b` inclusive on the first rank.
    const fn span(a: usize, b: usize) -> u64 {
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        (0xff >> (7 - hi)) & (0xff << lo)
    }
    let mut t = [[(0, 0); 8]; 8];
    let mut king = 0;
    while king < 8 {
        let mut rook = 0;
        while rook < 8 {
            let (king_to, rook_to) = if rook > king { (6, 5) } else { (2, 3) };
            let king_path = (span(king, king_to) & !(1 << king)) | 1 << king_to;
            let rook_path = span(rook, rook_to) & !(1 << rook);
            t[king][rook] = ((king_path | rook_path) & !(1 << king) & !(1 << rook), king_path);
            rook += 1;
        }
        king += 1;
    }
    t
}

/// Castling with king and rook on any files (Chess960): every square either
/// piece crosses or lands on is empty but for the two of them, and no square
/// the king crosses or lands on is attacked once both have left. Only called
/// when not in check. The emptiness test is inline (it usually fails); the
/// attack test reads `danger` (the enemy attack map without our king, or 0
/// if not computed) where it can.
///
/// The map was made with the castling rook on the board, and a Chess960 rook
/// can shield a square of the king's path from a rook or queen on the rank;
/// but then that enemy piece attacks the rook's square. So if the map does not
/// cover the rook, removing the rook uncovers nothing and the map is exact.
/// (Removing the king uncovers nothing either: a slider on the rank behind it
/// would be giving check.)
#[inline(always)]
fn generate_castling<S: Side, A: Sliders, K: Sink>(
    b: &Board,
    sink: &mut K,
    king: usize,
    mut rights: u64,
    occ: u64,
    danger: u64,
) {
    let base = king & 56;
    while rights != 0 {
        let rook = rights.trailing_zeros() as usize;
        rights &= rights - 1;
        let (empty, king_path) = CASTLE_PATHS[king & 7][rook & 7];
        if (empty << base) & occ == 0 {
            let king_path = king_path << base;
            let safe = if danger != 0 && danger & 1 << rook == 0 {
                king_path & danger == 0
            } else {
                king_path_safe::<S, A>(b, king_path, occ & !(1 << king) & !(1 << rook))
            };
            if safe {
                sink.castle::<S>(b, king, rook);
            }
        }
    }
}

#[inline(never)]
fn king_path_safe<S: Side, A: Sliders>(b: &Board, king_path: u64, others: u64) -> bool {
    bits(king_path).all(|t| !attacked::<S, A>(b, t, others))
}

// ---- making moves ----------------------------------------------------------

/// Removes whatever stands on `to` (nothing, for a quiet move): cheaper than
/// finding out which role it is.
#[inline(always)]
fn clear<S: Side>(c: &mut Board, to: u64) {
    for r in [PAWN, KNIGHT, BISHOP, ROOK, QUEEN] {
        c.role[r] &= !to;
    }
    c.color[1 - S::US] &= !to;
}

#[inline(always)]
fn make_piece<S: Side, const ROLE: usize>(b: &Board, from: usize, to: usize) -> Board {
    let (f, t) = (1u64 << from, 1u64 << to);
    let mut c = *b;
    clear::<S>(&mut c, t);
    c.role[ROLE] ^= f | t;
    c.color[S::US] ^= f | t;
    // A rook leaving or taken on its castling square loses the right.
    c.castling &= !(f | t);
    if ROLE == KING {
        c.castling &= if S::WHITE { !RANK_1 } else { !RANK_8 };
    }
    c.ep = 0;
    c
}

#[inline(always)]
fn make_pawn<S: Side, const KIND: u8>(b: &Board, from: usize, to: usize) -> Board {
    let (f, t) = (1u64 << from, 1u64 << to);
    let mut c = *b;
    if KIND == CAPTURE {
        clear::<S>(&mut c, t);
        c.castling &= !t;
    }
    c.role[PAWN] ^= f | t;
    c.color[S::US] ^= f | t;
    c.ep = 0;
    if KIND == DOUBLE_PUSH {
        // The e.p. square is kept only if an enemy pawn could take there, as
        // `Position` does, so that keys agree.
        let ep = (from + to) / 2;
        if pawn_hits(S::WHITE, ep) & b.role[PAWN] & b.color[1 - S::US] != 0 {
            c.ep = 1 << ep;
        }
    }
    c
}

#[inline(always)]
fn make_promotion<S: Side>(b: &Board, from: usize, to: usize, role: usize) -> Board {
    let (f, t) = (1u64 << from, 1u64 << to);
    let mut c = *b;
    clear::<S>(&mut c, t);
    c.castling &= !t;
    c.role[PAWN] ^= f;
    c.role[role] |= t;
    c.color[S::US] ^= f | t;
    c.ep = 0;
    c
}

#[inline(always)]
fn make_en_passant<S: Side>(b: &Board, from: usize, to: usize) -> Board {
    let captured = if S::WHITE { to - 8 } else { to + 8 };
    let mut c = *b;
    c.role[PAWN] ^= 1 << from | 1 << to | 1 << captured;
    c.color[S::US] ^= 1 << from | 1 << to;
    c.color[1 - S::US] ^= 1 << captured;
    c.ep = 0;
    c
}

#[inline(always)]
fn make_castle<S: Side>(b: &Board, king: usize, rook: usize) -> Board {
    let base = king & 56;
    let (king_to, rook_to) = if rook > king { (base + 6, base + 5) } else { (base + 2, base + 3) };
    let mut c = *b;
    c.role[KING] = (c.role[KING] & !(1 << king)) | 1 << king_to;
    c.role[ROOK] = (c.role[ROOK] & !(1 << rook)) | 1 << rook_to;
    c.color[S::US] = (c.color[S::US] & !(1 << king) & !(1 << rook)) | 1 << king_to | 1 << rook_to;
    c.castling &= if S::WHITE { !RANK_1 } else { !RANK_8 };
    c.ep = 0;
    c
}

/// The child's Zobrist key from the parent's and what changed between them
/// (works for every kind of move; only needed where the hash table is used).
fn key_after(parent: &Board, child: &Board) -> u64 {
    let mut key = parent.key ^ zobrist::turn_key();
    for (ci, color) in Color::ALL.into_iter().enumerate() {
        for role in Role::ALL {
            let r = role as usize;
            let changed = (parent.color[ci] & parent.role[r]) ^ (child.color[ci] & child.role[r]);
            for s in bits(changed) {
                key ^= zobrist::piece_key(color, role, sq(s));
            }
        }
    }
    for s in bits(parent.castling ^ child.castling) {
        key ^= zobrist::castling_key(sq(s));
    }
    for s in bits(parent.ep ^ child.ep) {
        key ^= zobrist::ep_key(sq(s));
    }
    key
}

// ---- entry points ------------------------------------------------------------

/// The children of `b` (side `turn`), with keys.
fn children(b: &Board, turn: Color) -> Vec<Board> {
    let mut out = Children(Vec::with_capacity(64));
    match turn {
        Color::White => generate::<White, Magic, _>(b, &mut out),
        Color::Black => generate::<Black, Magic, _>(b, &mut out),
    }
    out.0
}

/// Below this depth a subtree is not worth splitting over threads.
const SPLIT_MIN_DEPTH: u32 = 4;

/// Leaf nodes of `b` split over the current rayon pool at the first `levels` plies.
fn split(b: &Board, turn: Color, depth: u32, tt: Option<&HashTable>, lookups: Lookups, levels: u32) -> u64 {
    if levels == 0 || depth < SPLIT_MIN_DEPTH {
        return run(b, turn, depth, tt, lookups);
    }
    if let Some(hit) = tt.and_then(|t| t.probe(b.key, depth)) {
        return hit;
    }
    let nodes = children(b, turn).par_iter().map(|c| split(c, !turn, depth - 1, tt, lookups, levels - 1)).sum();
    if let Some(t) = tt {
        t.store(b.key, depth, nodes);
    }
    nodes
}

/// Leaf nodes at `depth` below `pos`, counted on the current thread, with an
/// optional hash table. The same count as `perft` (tests hold it to that).
pub fn perft_fast(pos: &Position, depth: u32, tt: Option<&HashTable>) -> u64 {
    run(&Board::from_position(pos), pos.turn(), depth, tt, lookups())
}

/// As `perft_fast` with the portable fancy-magic copy of the hot path even
/// where PEXT and POPCNT are available (so that tests cover the fallback).
pub fn perft_fast_magic(pos: &Position, depth: u32, tt: Option<&HashTable>) -> u64 {
    run(&Board::from_position(pos), pos.turn(), depth, tt, Lookups::Magic)
}

/// Leaf nodes at `depth` below `pos` on every thread of the current rayon
/// pool (the tree is split over the first two plies), with an optional hash
/// table shared by all threads.
pub fn perft_fast_parallel(pos: &Position, depth: u32, tt: Option<&HashTable>) -> u64 {
    split(&Board::from_position(pos), pos.turn(), depth, tt, lookups(), 2)
}

/// Per-root-move counts on the current rayon pool (split over two plies), in
/// generation order, with `on_done` called after each root move; the hash
/// table is optional. This is what `divide --hash` can call.
pub fn divide_fast(
    pos: &Position,
    depth: u32,
    tt: Option<&HashTable>,
    on_done: &(dyn Fn() + Sync),
) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let lookups = lookups();
    let moves = pos.legal_moves();
    moves
        .as_slice()
        .par_iter()
        .map(|&m| {
            let child = pos.play(m);
            let n = split(&Board::from_position(&child), child.turn(), depth - 1, tt, lookups, 1);
            on_done();
            (m, n)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_follow_position() {
        for fen in [
            crate::position::STARTPOS_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let b = Board::from_position(&pos);
            let kids = children(&b, pos.turn());
            let moves = pos.legal_moves();
            assert_eq!(kids.len(), moves.len());
            // Same children (the generation orders differ); equal boards
            // include equal keys, so the incremental key agrees too.
            for &m in moves.iter() {
                let next = Board::from_position(&pos.play(m));
                assert!(kids.contains(&next), "{fen} {m:?}");
            }
        }
    }
}
