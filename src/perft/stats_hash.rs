//! A hash table of whole statistics rows (`Stats`) for subtrees, shared by
//! all threads without locks, that never returns a torn or foreign row.
//!
//! A row is thirteen counters, too many for the two-word check of
//! `HashTable`, so each entry is guarded by a sequence number (a "seqlock"):
//! a writer makes it odd, writes key, depth and counters, and makes it even
//! again; a reader takes the entry only if the number was even and unchanged
//! across its reads, and the key (all 64 bits) and the depth match. A writer
//! that finds the entry being written by another gives up (the table is a
//! cache). Entries are grouped in buckets of two: one kept for the deeper
//! subtree, one always replaced.

use super::hash::TableTooLarge;
use super::memory::{free_memory, zeroed_memory, Touch};
use super::stats::{Stats, STATS_WORDS};
use std::alloc::Layout;
use std::sync::atomic::{fence, AtomicU64, Ordering};

/// Words per entry: sequence, key, depth, the counters (16 words, 128 bytes).
const ENTRY_WORDS: usize = 3 + STATS_WORDS;
/// Bytes per bucket of two entries.
pub const STATS_BUCKET_BYTES: usize = 2 * ENTRY_WORDS * 8;

/// A shared, lock-free hash table of statistics rows.
pub struct StatsTable {
    words: *mut AtomicU64,
    buckets: usize,
}

// Safety: the table is a plain array of atomics owned by this value; every
// access goes through `AtomicU64`.
unsafe impl Send for StatsTable {}
// Safety: as above; shared access is by atomic loads and stores only.
unsafe impl Sync for StatsTable {}

impl StatsTable {
    /// A table of `mb` MiB (at least one bucket), mapped and zeroed; an error
    /// if the system cannot give that much.
    pub fn try_new(mb: usize) -> Result<StatsTable, TableTooLarge> {
        StatsTable::try_with(mb, Touch::Now)
    }

    /// A table of `mb` MiB for a search `depth` plies deep, its pages brought
    /// in now or as used (as `HashTable::try_for_search`).
    pub fn try_for_search(mb: usize, depth: u32) -> Result<StatsTable, TableTooLarge> {
        StatsTable::try_with(mb, Touch::for_search(mb.saturating_mul(1 << 20), depth))
    }

    fn try_with(mb: usize, touch: Touch) -> Result<StatsTable, TableTooLarge> {
        let bytes = mb.checked_mul(1 << 20);
        bytes.and_then(|b| StatsTable::allocate(b / STATS_BUCKET_BYTES, touch)).ok_or(TableTooLarge { mb })
    }

    /// A table of `buckets` buckets (tests use tiny ones to force collisions).
    pub fn with_buckets(buckets: usize) -> StatsTable {
        StatsTable::allocate(buckets, Touch::Now).expect("memory for the hash table")
    }

    fn allocate(buckets: usize, touch: Touch) -> Option<StatsTable> {
        let buckets = buckets.max(1);
        // All-zero words are valid atomics, and a zero entry never matches a
        // probe (probes are for depth >= 1).
        let words = zeroed_memory(Self::layout(buckets)?, touch)? as *mut AtomicU64;
        Some(StatsTable { words, buckets })
    }

    fn layout(buckets: usize) -> Option<Layout> {
        Layout::from_size_align(buckets.checked_mul(STATS_BUCKET_BYTES)?, 64).ok()
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets * STATS_BUCKET_BYTES
    }

    /// The share of entries in use (0 to 1), read off an even spread of up
    /// to 1,000 buckets.
    pub fn filled(&self) -> f64 {
        let sample = self.buckets.min(1000);
        let used = (0..sample)
            .flat_map(|i| (0..2).map(move |slot| (i * self.buckets / sample, slot)))
            .filter(|&(index, slot)| self.entry_at(index, slot)[2].load(Ordering::Relaxed) != 0)
            .count();
        used as f64 / (2 * sample) as f64
    }

    #[inline(always)]
    fn entry(&self, key: u64, slot: usize) -> &[AtomicU64; ENTRY_WORDS] {
        self.entry_at(((key as u128 * self.buckets as u128) >> 64) as usize, slot)
    }

    #[inline(always)]
    fn entry_at(&self, index: usize, slot: usize) -> &[AtomicU64; ENTRY_WORDS] {
        debug_assert!(index < self.buckets && slot < 2);
        // Safety: index < buckets and slot < 2; the allocation holds `buckets`
        // buckets of two entries, aligned for `AtomicU64`, alive as long as `self`.
        unsafe { &*(self.words.add((index * 2 + slot) * ENTRY_WORDS) as *const [AtomicU64; ENTRY_WORDS]) }
    }

    /// The stored row of the subtree `depth` plies below the position with
    /// this key, if an entry for exactly that key and depth is there.
    pub fn probe(&self, key: u64, depth: u32) -> Option<Stats> {
        (0..2).find_map(|slot| read(self.entry(key, slot), key, depth))
    }

    /// Remembers `stats` for the subtree `depth` plies below `key`.
    pub fn store(&self, key: u64, depth: u32, stats: &Stats) {
        if depth == 0 {
            return;
        }
        // The first entry keeps the deeper (costlier) subtree; the second
        // takes whatever the first does not.
        let deep = self.entry(key, 0)[2].load(Ordering::Relaxed);
        let slot = if depth as u64 >= deep { 0 } else { 1 };
        write(self.entry(key, slot), key, depth, stats);
    }
}

fn read(e: &[AtomicU64; ENTRY_WORDS], key: u64, depth: u32) -> Option<Stats> {
    let seq = e[0].load(Ordering::Acquire);
    if seq & 1 == 1 || e[1].load(Ordering::Relaxed) != key || e[2].load(Ordering::Relaxed) != depth as u64 {
        return None;
    }
    let words: [u64; STATS_WORDS] = std::array::from_fn(|i| e[3 + i].load(Ordering::Relaxed));
    // The reads above happen before the second look at the sequence number.
    fence(Ordering::Acquire);
    (e[0].load(Ordering::Relaxed) == seq).then(|| Stats::from_words(words))
}

fn write(e: &[AtomicU64; ENTRY_WORDS], key: u64, depth: u32, stats: &Stats) {
    let seq = e[0].load(Ordering::Relaxed);
    if seq & 1 == 1 || e[0].compare_exchange(seq, seq + 1, Ordering::Acquire, Ordering::Relaxed).is_err() {
        return; // another thread is writing this entry
    }
    // The odd number is visible before any of the new words.
    fence(Ordering::Release);
    e[1].store(key, Ordering::Relaxed);
    e[2].store(depth as u64, Ordering::Relaxed);
    for (w, v) in e[3..].iter().zip(stats.to_words()) {
        w.store(v, Ordering::Relaxed);
    }
    e[0].store(seq + 2, Ordering::Release);
}

impl Drop for StatsTable {
    fn drop(&mut self) {
        let layout = Self::layout(self.buckets).expect("the layout it was made with");
        free_memory(self.words as *mut u8, layout);
    }
}

impl std::fmt::Debug for StatsTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "StatsTable({} buckets)", self.buckets)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(n: u64) -> Stats {
        Stats::from_words(std::array::from_fn(|i| n * 100 + i as u64))
    }

    #[test]
    fn stores_and_rejects() {
        let t = StatsTable::with_buckets(1);
        assert_eq!(t.probe(42, 3), None);
        t.store(42, 3, &row(1));
        assert_eq!(t.probe(42, 3), Some(row(1)));
        assert_eq!(t.probe(42, 4), None, "depth is part of the match");
        assert_eq!(t.probe(43, 3), None, "the full key is checked");
        t.store(43, 2, &row(2));
        assert_eq!(t.probe(43, 2), Some(row(2)));
        assert_eq!(t.probe(42, 3), Some(row(1)), "the deeper entry stays");
        // An entry being written (odd sequence number) is never read.
        let e = t.entry(42, 0);
        e[0].fetch_add(1, Ordering::Relaxed);
        assert_eq!(t.probe(42, 3), None);
        t.store(42, 3, &row(3));
        assert_eq!(t.probe(42, 3), None, "a writer does not enter an entry being written");
        e[0].fetch_add(1, Ordering::Relaxed);
        assert_eq!(t.probe(42, 3), Some(row(1)));
        assert_eq!(t.probe(0, 0), None, "a zero entry never matches");
    }

    #[test]
    fn racing_writers_never_tear_a_row() {
        let t = StatsTable::with_buckets(1);
        std::thread::scope(|s| {
            for n in 1..=3 {
                let t = &t;
                s.spawn(move || {
                    for _ in 0..20_000 {
                        t.store(7, 5, &row(n));
                        if let Some(got) = t.probe(7, 5) {
                            assert!((1..=3).any(|m| got == row(m)), "{got:?}");
                        }
                    }
                });
            }
        });
    }
}
