//! Zeroed memory for the hash tables: an anonymous mapping whose pages are
//! either all brought in before the search (`Touch::Now`) or brought in by
//! the search as it first writes them (`Touch::AsUsed`).
//!
//! Small pages, never huge ones asked for: on the virtual machines measured
//! (`docs/performance.md`, "The table's memory"), a huge page's first touch
//! cost 5-13 ms per MiB whenever the host had reclaimed the memory, which it
//! does with any large block the guest frees, so a 1 GiB table took 13 s to
//! map on every run; small pages reuse what the last run freed (0.3 s per
//! GiB), and cost no more than huge ones on memory the host never gave out.
use std::alloc::Layout;

/// When a table's pages are brought in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Touch {
    /// All of them before the table is returned: a search that will use most
    /// of the table pays half as much per page as faulting them one by one,
    /// and none of it lands in the timed search.
    Now,
    /// Each one by the first write to it: a small search in a large table
    /// pays only for the pages it uses.
    AsUsed,
}

impl Touch {
    /// `Now` when a search `depth` plies deep is expected to write to most
    /// pages of a table of `bytes`, else `AsUsed`. The estimate of the entries
    /// stored is the start position's growth of distinct positions, about
    /// ten times a ply (9.4 million six plies down, 96 million at seven, 988
    /// million at eight), so a search of depth `d` stores about `10^(d-1)`.
    /// Spread at random over the pages, that many entries touch most of them
    /// once they reach the number of pages.
    pub fn for_search(bytes: usize, depth: u32) -> Touch {
        let pages = (bytes / PAGE_BYTES).max(1) as f64;
        let entries = 10f64.powi(depth as i32 - 1);
        if entries >= pages {
            Touch::Now
        } else {
            Touch::AsUsed
        }
    }
}

/// The page size the estimate counts with.
const PAGE_BYTES: usize = 4096;

/// Zeroed memory for `layout`, its pages brought in as `touch` says; `None`
/// when the system cannot give that much.
pub(super) fn zeroed_memory(layout: Layout, touch: Touch) -> Option<*mut u8> {
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
        if touch == Touch::Now && !populate(p, layout.size()) {
            // Safety: the mapping just made, not used again.
            unsafe { libc::munmap(p, layout.size()) };
            return None;
        }
        // Page-aligned, so cache-line aligned.
        Some(p as *mut u8)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = touch;
        // Safety: the layout has non-zero size.
        let p = unsafe { std::alloc::alloc_zeroed(layout) };
        (!p.is_null()).then_some(p)
    }
}

/// Maps every page of the `size` bytes at `p` for writing; false when there
/// is not enough memory behind the mapping (an error now, not the kernel's
/// out-of-memory killer in the middle of the search).
#[cfg(target_os = "linux")]
fn populate(p: *mut libc::c_void, size: usize) -> bool {
    // Safety: advice on a mapping of `size` bytes at `p`, which changes no
    // contents; the fallback writes zeros (the contents already there) inside it.
    unsafe {
        if libc::madvise(p, size, MADV_POPULATE_WRITE) == 0 {
            return true;
        }
        if std::io::Error::last_os_error().raw_os_error() == Some(libc::ENOMEM) {
            return false;
        }
        // Kernels before 5.14 (EINVAL), or advice refused: touch every page.
        let bytes = p as *mut u8;
        for at in (0..size).step_by(PAGE_BYTES) {
            std::ptr::write_volatile(bytes.add(at), 0);
        }
    }
    true
}

/// `madvise` advice that maps every page of a range for writing (Linux 5.14).
#[cfg(target_os = "linux")]
const MADV_POPULATE_WRITE: libc::c_int = 23;

/// Frees what `zeroed_memory` returned for this layout.
pub(super) fn free_memory(p: *mut u8, layout: Layout) {
    // Safety: `p` came from `zeroed_memory(layout, _)` and is not used again.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_searches_touch_the_table_first() {
        let gib = 1 << 30;
        assert_eq!(Touch::for_search(256 << 20, 5), Touch::AsUsed);
        assert_eq!(Touch::for_search(256 << 20, 6), Touch::Now);
        assert_eq!(Touch::for_search(8 * gib, 7), Touch::AsUsed);
        assert_eq!(Touch::for_search(8 * gib, 8), Touch::Now);
        assert_eq!(Touch::for_search(4096, 1), Touch::Now, "one page for one entry");
    }

    #[test]
    fn memory_is_zero_either_way() {
        let layout = Layout::from_size_align(1 << 20, 64).unwrap();
        for touch in [Touch::Now, Touch::AsUsed] {
            let p = zeroed_memory(layout, touch).unwrap();
            // Safety: `p` holds `layout.size()` bytes, zeroed and owned here.
            let bytes = unsafe { std::slice::from_raw_parts_mut(p, layout.size()) };
            assert!(bytes.iter().all(|&b| b == 0));
            bytes[12345] = 7;
            free_memory(p, layout);
        }
    }
}
