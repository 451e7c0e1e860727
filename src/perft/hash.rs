//! A perft hash table shared by all threads without locks, that never returns
//! a wrong count.
//!
//! Each entry is two atomics: `data` (count and depth) and `check = key ^ data`
//! (the "lockless hashing" trick). A reader accepts an entry only if
//! `check ^ data` equals the full 64-bit key it looks for and the depth
//! matches, so an entry torn by two writers racing (the two words from
//! different stores), or one belonging to another position, is rejected
//! (short of a 64-bit Zobrist collision). Entries are grouped in buckets of
//! two: one kept for the deeper subtree, one always replaced.

use std::alloc::Layout;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

const DEPTH_BITS: u32 = 6;
const DEPTH_MASK: u64 = (1 << DEPTH_BITS) - 1;
/// Words per bucket: two entries of (check, data).
const BUCKET_WORDS: usize = 4;
/// Bytes per bucket (half a cache line).
pub const BUCKET_BYTES: usize = BUCKET_WORDS * 8;

/// Zeroed memory for the table, with every page already mapped, so that no
/// page fault (or, worse, a copy-on-write fault after a first read of the
/// shared zero page) lands in the timed search. On Linux the kernel maps the
/// pages at once, as huge pages where it can: 0.03 s for 256 MiB, against
/// 0.09 s for small pages (`MAP_POPULATE`) and 0.14 s clearing them by hand;
/// and perft 8 with 8 GiB is 7% faster for the TLB misses it no longer
/// takes. `None` when the system cannot give that much memory.
pub(super) fn zeroed_memory(layout: Layout) -> Option<*mut u8> {
    #[cfg(target_os = "linux")]
    {
        // Safety: an anonymous private mapping; no file, no fixed address.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                layout.size(),
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return None;
        }
        // Huge pages where the kernel offers them (a probe of a large table
        // misses the TLB on small pages), then every page mapped now.
        // Safety: advice on the mapping just made, which changes no contents;
        // the fallback writes zeros (the contents already there) inside it.
        unsafe {
            libc::madvise(p, layout.size(), libc::MADV_HUGEPAGE);
            if libc::madvise(p, layout.size(), MADV_POPULATE_WRITE) != 0 {
                if std::io::Error::last_os_error().raw_os_error() == Some(libc::ENOMEM) {
                    // Not enough memory behind the mapping: an error now, not
                    // the kernel's out-of-memory killer in the middle of the search.
                    libc::munmap(p, layout.size());
                    return None;
                }
                // Kernels before 5.14 (EINVAL), or advice refused: touch every page.
                let bytes = p as *mut u8;
                for at in (0..layout.size()).step_by(4096) {
                    std::ptr::write_volatile(bytes.add(at), 0);
                }
            }
        }
        // Page-aligned, so cache-line aligned.
        Some(p as *mut u8)
    }
    #[cfg(not(target_os = "linux"))]
    {
        // Safety: the layout has non-zero size.
        let p = unsafe { std::alloc::alloc_zeroed(layout) };
        (!p.is_null()).then_some(p)
    }
}

/// `madvise` advice that maps every page of a range for writing (Linux 5.14).
#[cfg(target_os = "linux")]
const MADV_POPULATE_WRITE: libc::c_int = 23;

/// Frees what `zeroed_memory` returned for this layout.
pub(super) fn free_memory(p: *mut u8, layout: Layout) {
    // Safety: `p` came from `zeroed_memory(layout)` and is not used again.
    #[cfg(target_os = "linux")]
    unsafe {
        libc::munmap(p as *mut libc::c_void, layout.size());
    }
    // Safety: as above.
    #[cfg(not(target_os = "linux"))]
    unsafe {
        std::alloc::dealloc(p, layout)
    }
}

/// A hash table the system could not give memory for.
#[derive(Debug, Clone, Copy, thiserror::Error)]
#[error("cannot allocate a hash table of {mb} MiB")]
pub struct TableTooLarge {
    /// The size asked for, in MiB.
    pub mb: usize,
}

/// A shared, lock-free hash table of perft subtree counts.
pub struct HashTable {
    words: *mut AtomicU64,
    buckets: usize,
}

// Safety: the table is a plain array of atomics owned by this value; every
// access goes through `AtomicU64`.
unsafe impl Send for HashTable {}
// Safety: as above; shared access is by atomic loads and stores only.
unsafe impl Sync for HashTable {}

impl HashTable {
    /// A table of `mb` MiB (at least one bucket), all of it mapped and zeroed
    /// before it is returned; an error if the system cannot give that much.
    pub fn try_new(mb: usize) -> Result<HashTable, TableTooLarge> {
        let bytes = mb.checked_mul(1 << 20);
        bytes.and_then(|b| HashTable::allocate(b / BUCKET_BYTES)).ok_or(TableTooLarge { mb })
    }

    /// As `try_new`, for sizes known to fit (panics otherwise).
    pub fn new(mb: usize) -> HashTable {
        HashTable::try_new(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of `buckets` buckets of two entries (tests use tiny ones to
    /// force collisions).
    pub fn with_buckets(buckets: usize) -> HashTable {
        HashTable::allocate(buckets).expect("memory for the hash table")
    }

    /// `buckets` (at least one) zeroed buckets, or `None` if they do not fit
    /// in memory.
    fn allocate(buckets: usize) -> Option<HashTable> {
        let buckets = buckets.max(1);
        // All-zero bytes are a valid `AtomicU64` (same layout as `u64`), and a
        // zero entry never matches a probe (probes are for depth >= 1, a zero
        // entry has depth 0).
        let words = zeroed_memory(Self::layout(buckets)?)? as *mut AtomicU64;
        Some(HashTable { words, buckets })
    }

    fn layout(buckets: usize) -> Option<Layout> {
        Layout::from_size_align(buckets.checked_mul(BUCKET_BYTES)?, 64).ok()
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets * BUCKET_BYTES
    }

    /// The share of entries in use (0 to 1), read off an even spread of up
    /// to 1,000 buckets, as engines report `hashfull`.
    pub fn filled(&self) -> f64 {
        let sample = self.buckets.min(1000);
        let used = (0..sample)
            .map(|i| {
                // Safety: i * buckets / sample < buckets, as in `bucket`.
                let b = unsafe {
                    &*(self.words.add(i * self.buckets / sample * BUCKET_WORDS) as *const [AtomicU64; BUCKET_WORDS])
                };
                b.chunks_exact(2).filter(|e| e[1].load(Relaxed) & DEPTH_MASK != 0).count()
            })
            .sum::<usize>();
        used as f64 / (2 * sample) as f64
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &[AtomicU64; BUCKET_WORDS] {
        let index = ((key as u128 * self.buckets as u128) >> 64) as usize;
        // Safety: index < buckets, and the allocation holds `buckets` buckets
        // of BUCKET_WORDS words, aligned for `AtomicU64`, alive as long as `self`.
        unsafe { &*(self.words.add(index * BUCKET_WORDS) as *const [AtomicU64; BUCKET_WORDS]) }
    }

    /// Asks the CPU to start loading the bucket of `key`, so that a probe a
    /// little later does not wait for memory.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // Safety: a prefetch is only a hint; it never faults, whatever the address.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(self.bucket(key).as_ptr() as *const i8);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The stored count of the subtree of `depth` plies below the position
    /// with this key, if an entry for exactly that key and depth is there.
    #[inline]
    pub fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        let bucket = self.bucket(key);
        for entry in bucket.chunks_exact(2) {
            let data = entry[1].load(Relaxed);
            let check = entry[0].load(Relaxed);
            if check ^ data == key && data & DEPTH_MASK == depth as u64 && depth != 0 {
                return Some(data >> DEPTH_BITS);
            }
        }
        None
    }

    /// Remembers `nodes` for the subtree of `depth` plies below `key`.
    /// Counts too large to pack are simply not stored.
    #[inline]
    pub fn store(&self, key: u64, depth: u32, nodes: u64) {
        if nodes >> (64 - DEPTH_BITS) != 0 || depth == 0 || depth as u64 > DEPTH_MASK {
            return;
        }
        let data = nodes << DEPTH_BITS | depth as u64;
        let bucket = self.bucket(key);
        // The first entry keeps the deeper (costlier) subtree; the second
        // takes whatever the first does not.
        let deep = bucket[1].load(Relaxed) & DEPTH_MASK;
        let slot = if depth as u64 >= deep { 0 } else { 2 };
        bucket[slot].store(key ^ data, Relaxed);
        bucket[slot + 1].store(data, Relaxed);
    }
}

impl Drop for HashTable {
    fn drop(&mut self) {
        let layout = Self::layout(self.buckets).expect("the layout it was made with");
        free_memory(self.words as *mut u8, layout);
    }
}

impl std::fmt::Debug for HashTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HashTable({} buckets)", self.buckets)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_rejects() {
        let t = HashTable::with_buckets(1);
        assert_eq!(t.probe(42, 3), None);
        t.store(42, 3, 1000);
        assert_eq!(t.probe(42, 3), Some(1000));
        assert_eq!(t.probe(42, 4), None, "depth is part of the match");
        assert_eq!(t.probe(43, 3), None, "the full key is checked");
        t.store(43, 2, 7);
        assert_eq!(t.probe(43, 2), Some(7));
        assert_eq!(t.probe(42, 3), Some(1000), "the deeper entry stays");
        // A torn entry: data from one store, check from another.
        let b = t.bucket(42);
        b[1].store(5 << DEPTH_BITS | 3, Relaxed);
        assert_eq!(t.probe(42, 3), None);
        assert_eq!(t.probe(0, 0), None, "a zero entry never matches");
        assert_eq!(t.filled(), 1.0, "both entries of the one bucket in use");
        assert_eq!(HashTable::with_buckets(4).filled(), 0.0);
    }
}
