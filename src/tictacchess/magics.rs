//! Rook and bishop attacks on the ghost-column board by magic lookup:
//! `attacks[offset + (((occupied & mask) * magic) >> shift)]`.
//!
//! The masks and magics come from the project's one magic finder
//! (`tools::magic::search`) given this board's geometry (4x4, stride 5), and
//! are kept as Rust source in `magic_numbers.rs`. A test re-runs the search
//! with the file's seed and compares, and another checks every lookup against
//! a ray walker of its own for all 2^16 occupancies of every square. The
//! tables themselves are built at compile time from the numbers.

use super::board::{Bits, Square, BOARD};
use crate::tools::magic::search::{self, Candidates, Geometry, Goal, Problem, Rng, Scratch, Slider};

#[path = "magic_numbers.rs"]
mod numbers;

/// The board as the magic search sees it.
pub const GEOMETRY: Geometry = Geometry { files: 4, ranks: 4, stride: 5 };

/// One square's magic: its relevant occupancy, multiplier and shift.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Magic {
    /// The relevant occupancy.
    pub mask: Bits,
    /// The multiplier.
    pub magic: u64,
    /// The right shift of the product (64 minus the index bits).
    pub shift: u8,
}

impl Magic {
    const NONE: Magic = Magic { mask: 0, magic: 0, shift: 63 };

    #[inline(always)]
    const fn index(&self, occupied: Bits) -> usize {
        (((occupied & self.mask) as u64).wrapping_mul(self.magic) >> self.shift) as usize
    }

    const fn entries(&self) -> usize {
        1 << (64 - self.shift)
    }
}

const ROOK_DIRS: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// Attacks from `bit` by walking the rays until a blocker (included) or the
/// edge. Only used to fill the tables.
const fn walk(bit: usize, occupied: Bits, dirs: &[(i8, i8); 4]) -> Bits {
    let (f0, r0) = ((bit % 5) as i8, (bit / 5) as i8);
    let mut att = 0;
    let mut d = 0;
    while d < 4 {
        let (mut f, mut r) = (f0 + dirs[d].0, r0 + dirs[d].1);
        while f >= 0 && f < 4 && r >= 0 && r < 4 {
            let b = 1 << (r * 5 + f);
            att |= b;
            if occupied & b != 0 {
                break;
            }
            f += dirs[d].0;
            r += dirs[d].1;
        }
        d += 1;
    }
    att
}

const fn table_size(magics: &[Magic; 20]) -> usize {
    let mut n = 0;
    let mut b = 0;
    while b < 20 {
        if BOARD >> b & 1 == 1 {
            n += magics[b].entries();
        }
        b += 1;
    }
    n
}

/// One slider's lookup table.
pub struct Table<const N: usize> {
    magics: [Magic; 20],
    offsets: [u16; 20],
    attacks: [Bits; N],
}

impl<const N: usize> Table<N> {
    const fn build(magics: [Magic; 20], dirs: &[(i8, i8); 4]) -> Table<N> {
        let mut offsets = [0u16; 20];
        let mut attacks = [0; N];
        let mut next = 0;
        let mut b = 0;
        while b < 20 {
            if BOARD >> b & 1 == 1 {
                offsets[b] = next as u16;
                let m = magics[b];
                // Every subset of the mask (carry-rippler).
                let mut occ: Bits = 0;
                loop {
                    let slot = next + m.index(occ);
                    let att = walk(b, occ, dirs);
                    assert!(attacks[slot] == 0 || attacks[slot] == att, "a magic number collides");
                    attacks[slot] = att;
                    occ = occ.wrapping_sub(m.mask) & m.mask;
                    if occ == 0 {
                        break;
                    }
                }
                next += m.entries();
            }
            b += 1;
        }
        Table { magics, offsets, attacks }
    }

    /// Attacks from `sq` with `occupied` (any bits; only the mask counts).
    #[inline(always)]
    pub fn attacks(&self, sq: Square, occupied: Bits) -> Bits {
        let b = sq.bit() as usize;
        // Safety of the indexing is plain bounds checking; the build placed
        // every square's block inside `attacks`.
        self.attacks[self.offsets[b] as usize + self.magics[b].index(occupied)]
    }

    /// The entry that an unmasked occupancy picks: the public
    /// implementation's slider bug, for the buggy engine of the examples.
    /// Wrapped into the square's block so that it never reads out of bounds.
    pub fn attacks_unmasked(&self, sq: Square, occupied: Bits) -> Bits {
        let b = sq.bit() as usize;
        let m = self.magics[b];
        let raw = ((occupied as u64).wrapping_mul(m.magic) >> m.shift) as usize;
        self.attacks[self.offsets[b] as usize + raw % m.entries()]
    }
}

const ROOK_SIZE: usize = table_size(&numbers::ROOK);
const BISHOP_SIZE: usize = table_size(&numbers::BISHOP);
/// The rook's attack table.
pub static ROOK: Table<ROOK_SIZE> = Table::build(numbers::ROOK, &ROOK_DIRS);
/// The bishop's attack table.
pub static BISHOP: Table<BISHOP_SIZE> = Table::build(numbers::BISHOP, &BISHOP_DIRS);

/// The squares a rook on `sq` attacks, `occupied` blocking.
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bits) -> Bits {
    ROOK.attacks(sq, occupied)
}

/// The squares a bishop on `sq` attacks, `occupied` blocking.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: Bits) -> Bits {
    BISHOP.attacks(sq, occupied)
}

/// The seed `magic_numbers.rs` was made with.
pub const SEED: u64 = numbers::SEED;

/// Searches magics for every square of both sliders with our magic finder,
/// index bits = relevant bits, each square seeded from `seed`.
pub fn find_magics(seed: u64) -> [[Magic; 20]; 2] {
    let mut out = [[Magic::NONE; 20]; 2];
    let mut scratch = Scratch::default();
    for (i, slider) in [Slider::Rook, Slider::Bishop].into_iter().enumerate() {
        for bit in GEOMETRY.squares() {
            let problem = Problem::on(GEOMETRY, slider, bit);
            let goal = Goal {
                index_bits: problem.relevant_bits().max(1),
                black: false,
                max_candidates: u64::MAX,
                candidates: Candidates::Structured,
            };
            let mut rng = Rng::new(search::square_seed(seed, slider, problem.square));
            let found = search::search(&problem, goal, &mut rng, &mut scratch, &|| false)
                .expect("an unbounded search always finds a magic");
            out[i][usize::from(bit)] = Magic { mask: found.mask as Bits, magic: found.magic, shift: found.shift as u8 };
        }
    }
    out
}

/// `magic_numbers.rs` as `find_magics(seed)` gives it.
pub fn numbers_source(seed: u64) -> String {
    let [rook, bishop] = find_magics(seed);
    let mut s = String::new();
    s.push_str("//! Magic numbers of the TicTacChess slider attacks (4x4 board, stride 5),\n");
    s.push_str("//! found by `tools::magic::search` from the seed below. Generated: the test\n");
    s.push_str("//! `tictacchess::magics::tests::numbers_are_what_the_search_finds` re-runs the\n");
    s.push_str("//! search and compares (`TTC_WRITE_MAGICS=1` rewrites this file).\n\n");
    s.push_str("use super::Magic;\n\n");
    s.push_str("/// The seed of the magic search that found these numbers.\n");
    s.push_str(&format!("pub const SEED: u64 = {seed};\n"));
    for (name, piece, magics) in [("ROOK", "rook", rook), ("BISHOP", "bishop", bishop)] {
        s.push_str(&format!("\n/// The {piece}'s magic of every bit of the layout (ghost bits unused).\n"));
        s.push_str(&format!("pub const {name}: [Magic; 20] = [\n"));
        for (bit, m) in magics.iter().enumerate() {
            let label = Square::from_bit(bit as u32).map_or("ghost column".to_string(), |sq| sq.to_string());
            s.push_str(&format!(
                "    Magic {{ mask: {:#07x}, magic: {:#018x}, shift: {} }}, // {label}\n",
                m.mask, m.magic, m.shift
            ));
        }
        s.push_str("];\n");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A ray walker by coordinates of its own, for the exhaustive check.
    fn slow(sq: Square, occupied: Bits, steps: &[(i8, i8)]) -> Bits {
        let mut att = 0;
        for &(df, dr) in steps {
            let (mut f, mut r) = (sq.file() as i8, sq.rank() as i8);
            loop {
                f += df;
                r += dr;
                if !(0..4).contains(&f) || !(0..4).contains(&r) {
                    break;
                }
                let t = Square::new(f as u8, r as u8);
                att |= t.bb();
                if occupied & t.bb() != 0 {
                    break;
                }
            }
        }
        att
    }

    #[test]
    fn every_lookup_matches_the_ray_walker() {
        for sq in Square::ALL {
            for dense in 0..1u32 << 16 {
                let occ: Bits =
                    Square::ALL.iter().enumerate().filter(|(i, _)| dense >> i & 1 == 1).map(|(_, s)| s.bb()).sum();
                assert_eq!(
                    rook_attacks(sq, occ),
                    slow(sq, occ, &[(0, 1), (0, -1), (1, 0), (-1, 0)]),
                    "rook {sq} {occ:#x}"
                );
                assert_eq!(
                    bishop_attacks(sq, occ),
                    slow(sq, occ, &[(1, 1), (1, -1), (-1, 1), (-1, -1)]),
                    "bishop {sq}"
                );
            }
        }
    }

    #[test]
    fn numbers_are_what_the_search_finds() {
        let expected = numbers_source(SEED);
        if std::env::var_os("TTC_WRITE_MAGICS").is_some() {
            std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/src/tictacchess/magic_numbers.rs"), &expected)
                .unwrap();
        }
        assert_eq!(include_str!("magic_numbers.rs"), expected, "regenerate with TTC_WRITE_MAGICS=1");
    }

    #[test]
    fn masks_leave_out_the_ray_ends() {
        // Rook on a1: a2, a3, b1, c1 (a4 and d1 are ray ends).
        let a1 = Square::parse("a1").unwrap();
        let expect: Bits = ["a2", "a3", "b1", "c1"].iter().map(|s| Square::parse(s).unwrap().bb()).sum();
        assert_eq!(numbers::ROOK[a1.bit() as usize].mask, expect);
        // Bishop on b1: only c2 (a2 and d3 are ray ends).
        let b1 = Square::parse("b1").unwrap();
        assert_eq!(numbers::BISHOP[b1.bit() as usize].mask, Square::parse("c2").unwrap().bb());
    }
}
