//! Worker threads of one search on different cores, so that two threads
//! on two idle cores do not take turns on one of them.
//!
//! Why: the workers sleep while the caller does something else for a while
//! (`bench` maps a fresh hash table before every run, about 35 ms), and when
//! the search wakes them, Linux (6.18, on a 2-core machine) can put the
//! second worker on the core of the first, which just woke it, and leave the
//! other core idle for most of the search: `perf sched timehist` showed both
//! workers taking 4 ms turns on one core for 14 ms of a position-5 search
//! while the other stayed idle. `bench --threads 2 --hash 256` took 17.5 ms
//! on position 5 depth 5 (medians), where a search with both cores is 13 ms.
//!
//! So a search on several threads first asks every worker where it runs
//! (one broadcast, a few microseconds when they are awake); a worker found
//! on a core another one already has is moved to an allowed core none of
//! them has, for the time of the search only. Nothing moves when every
//! worker has a core of its own, or when there are more workers than cores.

/// Undoes the moves of `spread` when dropped (the end of the search).
pub(super) struct Spread {
    #[cfg(target_os = "linux")]
    moved: Vec<(libc::pid_t, libc::cpu_set_t)>,
}

#[cfg(target_os = "linux")]
impl Drop for Spread {
    fn drop(&mut self) {
        for (tid, allowed) in &self.moved {
            // Safety: a valid set of the size given; a thread that has ended
            // since only makes the call fail.
            unsafe { libc::sched_setaffinity(*tid, std::mem::size_of::<libc::cpu_set_t>(), allowed) };
        }
    }
}

/// Moves workers of the current rayon pool that share a core with another
/// worker to cores none of them is on, until the returned value is dropped.
#[cfg(target_os = "linux")]
pub(super) fn spread() -> Spread {
    let mut spread = Spread { moved: Vec::new() };
    if rayon::current_num_threads() < 2 {
        return spread;
    }
    // Safety: gettid and sched_getcpu take no arguments and cannot fail
    // (sched_getcpu's -1 is skipped below).
    let at: Vec<(libc::pid_t, libc::c_int)> = rayon::broadcast(|_| unsafe { (libc::gettid(), libc::sched_getcpu()) });
    let size = std::mem::size_of::<libc::cpu_set_t>();
    // Safety: an all-zero cpu_set_t is the empty set.
    let (mut allowed, mut taken): (libc::cpu_set_t, libc::cpu_set_t) = unsafe { std::mem::zeroed() };
    // Safety: a valid set of the size given.
    if unsafe { libc::sched_getaffinity(0, size, &mut allowed) } != 0 {
        return spread;
    }
    let cores = libc::CPU_SETSIZE as usize;
    for &(tid, cpu) in &at {
        let Ok(cpu) = usize::try_from(cpu) else { continue };
        if cpu >= cores {
            continue;
        }
        // Safety (all CPU_ macros here): indices below CPU_SETSIZE into valid sets.
        if !unsafe { libc::CPU_ISSET(cpu, &taken) } {
            unsafe { libc::CPU_SET(cpu, &mut taken) };
            continue;
        }
        let free = (0..cores).find(|&c| unsafe { libc::CPU_ISSET(c, &allowed) && !libc::CPU_ISSET(c, &taken) });
        let Some(free) = free else { break };
        // Safety: as above.
        let (mut before, mut only): (libc::cpu_set_t, libc::cpu_set_t) = unsafe { std::mem::zeroed() };
        // Safety: valid sets of the size given, for a thread of this process.
        unsafe {
            libc::CPU_SET(free, &mut only);
            if libc::sched_getaffinity(tid, size, &mut before) == 0 && libc::sched_setaffinity(tid, size, &only) == 0 {
                libc::CPU_SET(free, &mut taken);
                spread.moved.push((tid, before));
            }
        }
    }
    spread
}

/// Elsewhere the workers stay where the system puts them.
#[cfg(not(target_os = "linux"))]
pub(super) fn spread() -> Spread {
    Spread {}
}
