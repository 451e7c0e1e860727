//! A perft hash table shared by all threads without locks, that never returns
//! a wrong count.
//!
//! Entries are read and written with plain atomic loads and stores. A
//! narrow entry is one word, so it is never torn. A wide entry is two:
//! `data` (count and depth) and `check = key ^ data` (the "lockless hashing"
//! trick); a reader accepts it only if `check ^ data` equals the full 64-bit
//! key it looks for and the depth matches, so an entry torn by two writers
//! racing (the two words from different stores) is rejected. An entry of
//! another position is rejected too, short of a collision of the bits
//! checked: all 64 of the key, except for narrow depth-3 entries on tables
//! under about 4 GiB (their 38 bits and the line's index: 56 bits at 16 MiB).
use super::memory::{free_memory, zeroed_memory, Touch};
use std::alloc::Layout;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

const DEPTH_BITS: u32 = 6;
const DEPTH_MASK: u64 = (1 << DEPTH_BITS) - 1;

/// A hash table the system could not give memory for.
#[derive(Debug, Clone, Copy, thiserror::Error)]
#[error("cannot allocate a hash table of {mb} MiB")]
pub struct TableTooLarge {
    /// The size asked for, in MiB.
    pub mb: usize,
}

/// A shared, lock-free hash table of perft subtree counts.
///
/// Two parts, each an array of 64-byte lines (one cache line per probe):
/// - the narrow part, most of the memory, holds subtrees of depth 2 and 3 in
///   one word each (eight to a line): their counts are small (under 2^16
///   and 2^24: no position has more than 218 moves), so the rest of the word checks
///   the key; with the line's index that is all 64 bits of the key on a
///   table of a few GiB. One word is written and read at once, so no entry
///   is ever torn.
/// - the wide part, a sixteenth, holds every other depth in two words
///   (check and data, four to a line). Deep subtrees are few (the start
///   position has 9.4 million distinct positions six plies down), and each
///   saves much more work than a shallow one.
///
/// Why: deep perft fills any table, and then what decides the time is how
/// many shallow subtrees it keeps. In one word each, twice as many fit.
pub struct HashTable {
    narrow: Lines,
    wide: Lines,
}

/// An array of zeroed 64-byte lines.
struct Lines {
    words: *mut AtomicU64,
    count: usize,
}

// Safety: the table is plain arrays of atomics owned by this value; every
// access goes through `AtomicU64`.
unsafe impl Send for HashTable {}
// Safety: as above; shared access is by atomic loads and stores only.
unsafe impl Sync for HashTable {}

/// Words per line.
const LINE_WORDS: usize = 8;
/// Bytes per line (a cache line).
pub const LINE_BYTES: usize = LINE_WORDS * 8;
/// The share of the lines that go to the wide part (1 in 16).
const WIDE_SHARE: usize = 16;

impl Lines {
    /// `count` (at least one) zeroed lines, or `None` if they do not fit in memory.
    fn new(count: usize, touch: Touch) -> Option<Lines> {
        let count = count.max(1);
        // All-zero bytes are a valid `AtomicU64` (same layout as `u64`), and a
        // zero word is an empty entry in either part.
        let words = zeroed_memory(Self::layout(count)?, touch)? as *mut AtomicU64;
        Some(Lines { words, count })
    }

    fn layout(count: usize) -> Option<Layout> {
        Layout::from_size_align(count.checked_mul(LINE_BYTES)?, 64).ok()
    }

    /// The line of `key`, chosen by the key's high bits (the entries check the low ones).
    #[inline(always)]
    fn of(&self, key: u64) -> &[AtomicU64; LINE_WORDS] {
        let index = ((key as u128 * self.count as u128) >> 64) as usize;
        self.at(index)
    }

    #[inline(always)]
    fn at(&self, index: usize) -> &[AtomicU64; LINE_WORDS] {
        debug_assert!(index < self.count);
        // Safety: index < count, and the allocation holds `count` lines of
        // LINE_WORDS words, aligned for `AtomicU64`, alive as long as `self`.
        unsafe { &*(self.words.add(index * LINE_WORDS) as *const [AtomicU64; LINE_WORDS]) }
    }

    /// Entries in use among an even spread of up to 1,000 lines, and entries looked at.
    fn used(&self, entry_words: usize, in_use: impl Fn(&[AtomicU64]) -> bool) -> (usize, usize) {
        let sample = self.count.min(1000);
        let used = (0..sample)
            .map(|i| self.at(i * self.count / sample).chunks_exact(entry_words).filter(|e| in_use(e)).count())
            .sum();
        (used, sample * LINE_WORDS / entry_words)
    }

    #[inline(always)]
    fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // Safety: a prefetch is only a hint; it never faults, whatever the address.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(self.of(key).as_ptr() as *const i8);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }
}

impl Drop for Lines {
    fn drop(&mut self) {
        let layout = Self::layout(self.count).expect("the layout it was made with");
        free_memory(self.words as *mut u8, layout);
    }
}

/// How a narrow entry packs the subtree of one depth: the key's low bits
/// above the count, the count above a two-bit code (0 for an empty word).
#[derive(Clone, Copy)]
struct Narrow {
    code: u64,
    count_bits: u32,
}

impl Narrow {
    /// The packing for `depth`, if that depth goes to the narrow part.
    #[inline(always)]
    fn of(depth: u32) -> Option<Narrow> {
        match depth {
            2 => Some(Narrow { code: 1, count_bits: 16 }),
            3 => Some(Narrow { code: 2, count_bits: 24 }),
            _ => None,
        }
    }

    #[inline(always)]
    fn shift(self) -> u32 {
        self.count_bits + 2
    }

    #[inline(always)]
    fn count(self, word: u64, key: u64) -> Option<u64> {
        let ok = word & 3 == self.code && (word ^ key << self.shift()) >> self.shift() == 0;
        ok.then_some(word >> 2 & ((1 << self.count_bits) - 1))
    }

    #[inline(always)]
    fn word(self, key: u64, nodes: u64) -> Option<u64> {
        (nodes >> self.count_bits == 0).then_some(key << self.shift() | nodes << 2 | self.code)
    }
}

/// The slot to overwrite among `depths` (0 for an empty one): the shallowest,
/// the first found from a start that the key picks, so that equal depths
/// take turns instead of one slot taking every new entry.
#[inline(always)]
fn victim(key: u64, depths: impl Fn(usize) -> u64, slots: usize) -> usize {
    let start = key as usize % slots;
    let mut best = start;
    let mut least = u64::MAX;
    for i in 0..slots {
        let slot = (start + i) % slots;
        let d = depths(slot);
        if d < least {
            least = d;
            best = slot;
        }
    }
    best
}

impl HashTable {
    /// A table of `mb` MiB (at least one line in each part), all of it mapped
    /// and zeroed before it is returned; an error if the system cannot give that much.
    pub fn try_new(mb: usize) -> Result<HashTable, TableTooLarge> {
        HashTable::try_with(mb, Touch::Now)
    }

    /// A table of `mb` MiB for a search `depth` plies deep: mapped whole
    /// before it is returned if such a search is expected to use most of it,
    /// else its pages are brought in as the search first writes them (see
    /// `Touch::for_search`).
    pub fn try_for_search(mb: usize, depth: u32) -> Result<HashTable, TableTooLarge> {
        HashTable::try_with(mb, Touch::for_search(mb.saturating_mul(1 << 20), depth))
    }

    fn try_with(mb: usize, touch: Touch) -> Result<HashTable, TableTooLarge> {
        let bytes = mb.checked_mul(1 << 20);
        bytes.and_then(|b| HashTable::allocate(b / LINE_BYTES, touch)).ok_or(TableTooLarge { mb })
    }

    /// As `try_new`, for sizes known to fit (panics otherwise).
    pub fn new(mb: usize) -> HashTable {
        HashTable::try_new(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of `lines` 64-byte lines, split as any other (tests use tiny
    /// ones to force collisions).
    pub fn with_lines(lines: usize) -> HashTable {
        HashTable::allocate(lines, Touch::Now).expect("memory for the hash table")
    }

    fn allocate(lines: usize, touch: Touch) -> Option<HashTable> {
        let wide = lines / WIDE_SHARE;
        Some(HashTable { narrow: Lines::new(lines - wide, touch)?, wide: Lines::new(wide, touch)? })
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        (self.narrow.count + self.wide.count) * LINE_BYTES
    }

    /// The share of entries in use (0 to 1), read off an even spread of up
    /// to 1,000 lines of each part, as engines report `hashfull`.
    pub fn filled(&self) -> f64 {
        let (narrow, narrow_seen) = self.narrow.used(1, |e| e[0].load(Relaxed) != 0);
        let (wide, wide_seen) = self.wide.used(2, |e| e[1].load(Relaxed) & DEPTH_MASK != 0);
        // Weighted by the memory each part holds.
        let part = |used: usize, seen: usize, lines: usize| used as f64 / seen as f64 * lines as f64;
        (part(narrow, narrow_seen, self.narrow.count) + part(wide, wide_seen, self.wide.count))
            / (self.narrow.count + self.wide.count) as f64
    }

    /// Asks the CPU to start loading the line where the subtree of `depth`
    /// below `key` would be, so that a probe a little later does not wait for memory.
    #[inline(always)]
    pub fn prefetch(&self, key: u64, depth: u32) {
        match Narrow::of(depth) {
            Some(_) => self.narrow.prefetch(key),
            None => self.wide.prefetch(key),
        }
    }

    /// The stored count of the subtree of `depth` plies below the position
    /// with this key, if an entry for exactly that key and depth is there.
    #[inline]
    pub fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        if let Some(narrow) = Narrow::of(depth) {
            return self.narrow.of(key).iter().find_map(|w| narrow.count(w.load(Relaxed), key));
        }
        for entry in self.wide.of(key).chunks_exact(2) {
            let data = entry[1].load(Relaxed);
            let check = entry[0].load(Relaxed);
            if check ^ data == key && data & DEPTH_MASK == depth as u64 && depth != 0 {
                return Some(data >> DEPTH_BITS);
            }
        }
        None
    }

    /// Remembers `nodes` for the subtree of `depth` plies below `key`, in
    /// place of the shallowest entry of its line. Counts too large to pack
    /// are simply not stored.
    #[inline]
    pub fn store(&self, key: u64, depth: u32, nodes: u64) {
        if let Some(narrow) = Narrow::of(depth) {
            let Some(word) = narrow.word(key, nodes) else { return };
            let line = self.narrow.of(key);
            line[victim(key, |s| line[s].load(Relaxed) & 3, LINE_WORDS)].store(word, Relaxed);
            return;
        }
        if nodes >> (64 - DEPTH_BITS) != 0 || depth == 0 || depth as u64 > DEPTH_MASK {
            return;
        }
        let data = nodes << DEPTH_BITS | depth as u64;
        let line = self.wide.of(key);
        let slot = 2 * victim(key, |s| line[2 * s + 1].load(Relaxed) & DEPTH_MASK, LINE_WORDS / 2);
        line[slot].store(key ^ data, Relaxed);
        line[slot + 1].store(data, Relaxed);
    }
}

impl std::fmt::Debug for HashTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HashTable({} + {} lines)", self.narrow.count, self.wide.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_entries_match_key_and_depth() {
        let t = HashTable::with_lines(1);
        assert_eq!(t.probe(42, 3), None);
        t.store(42, 3, 1000);
        assert_eq!(t.probe(42, 3), Some(1000));
        assert_eq!(t.probe(42, 2), None, "depth is part of the match");
        assert_eq!(t.probe(42 | 1 << 37, 3), None, "the key's low bits are checked");
        t.store(43, 2, 7);
        assert_eq!(t.probe(43, 2), Some(7));
        assert_eq!(t.probe(43 | 1 << 45, 2), None);
        t.store(44, 2, 1 << 16);
        assert_eq!(t.probe(44, 2), None, "a count too large to pack is not stored");
        assert_eq!(t.probe(0, 0), None, "a zero entry never matches");
    }

    #[test]
    fn wide_entries_reject_torn_writes() {
        let t = HashTable::with_lines(1);
        t.store(42, 5, 1 << 40);
        assert_eq!(t.probe(42, 5), Some(1 << 40));
        assert_eq!(t.probe(42 | 1 << 63, 5), None, "the full key is checked");
        assert_eq!(t.probe(42, 4), None);
        // A torn entry: data from one store, check from another.
        let line = t.wide.of(42);
        let slot = line.chunks_exact(2).position(|e| e[1].load(Relaxed) != 0).unwrap();
        line[2 * slot + 1].store(5 << DEPTH_BITS | 5, Relaxed);
        assert_eq!(t.probe(42, 5), None);
    }

    #[test]
    fn the_shallowest_entries_make_room() {
        let t = HashTable::with_lines(1);
        t.store(7, 3, 99);
        for key in 100..140 {
            t.store(key, 2, key);
        }
        assert_eq!(t.probe(7, 3), Some(99), "the deeper entry stays");
        let kept = (100..140).filter(|&k| t.probe(k, 2).is_some()).count();
        assert_eq!(kept, LINE_WORDS - 1, "every other slot holds a depth-2 entry");
        assert!(t.probe(139, 2).is_some(), "the newest is in");
    }

    #[test]
    fn filled_counts_entries_in_use() {
        let t = HashTable::with_lines(32);
        assert_eq!(t.filled(), 0.0);
        for key in 0..10_000u64 {
            t.store(key.wrapping_mul(0x9E37_79B9_7F4A_7C15), 2, 1);
            t.store(key.wrapping_mul(0x9E37_79B9_7F4A_7C15), 6, 1);
        }
        assert_eq!(t.filled(), 1.0);
    }
}
