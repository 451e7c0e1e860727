//! No engine outlives chesstool. Every engine runs in a process group of its
//! own (so a terminal's Ctrl-C does not reach it, and its children are
//! killed with it); the groups alive are kept in a fixed table that a signal
//! handler can read without locking or allocating. On SIGINT, SIGTERM or
//! SIGHUP the handler kills every group and then lets the signal take its
//! default course, unless the run keeps a report (`report_on_signals`:
//! `suite`, `fuzz`): then the first signal is only recorded, the run
//! stops at its next step, prints what it has and ends by the same signal
//! (`exit_by_signal`); a second signal ends it at once. Against SIGKILL, which no handler sees, each engine asks
//! the kernel to kill it when its parent dies (`PR_SET_PDEATHSIG` on Linux).

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// More engines than chesstool ever runs at once (two per hunt).
const SLOTS: usize = 64;

static GROUPS: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];
static INSTALLED: AtomicBool = AtomicBool::new(false);
/// Set by a run that prints its report so far when interrupted.
static DEFER: AtomicBool = AtomicBool::new(false);
/// The signal recorded while `DEFER` was set (0: none).
static CAUGHT: AtomicI32 = AtomicI32::new(0);

/// Remembers a live engine's process group.
pub(crate) fn register(pgid: i32) {
    for slot in &GROUPS {
        if slot.compare_exchange(0, pgid, Ordering::SeqCst, Ordering::SeqCst).is_ok() {
            return;
        }
    }
    // A full table only loses the signal-time kill for this engine; its
    // own parent-death signal and the normal kill on drop still hold.
}

/// Forgets a process group once it has been killed.
pub(crate) fn unregister(pgid: i32) {
    for slot in &GROUPS {
        if slot.compare_exchange(pgid, 0, Ordering::SeqCst, Ordering::SeqCst).is_ok() {
            return;
        }
    }
}

/// Kills every engine process group still alive (SIGKILL). Safe to call
/// from a signal handler: atomics and kill(2) only.
pub fn kill_all_engines() {
    for slot in &GROUPS {
        let pgid = slot.load(Ordering::SeqCst);
        if pgid > 0 {
            #[cfg(unix)]
            // SAFETY: kill(2) with a negative pid signals a process group
            // we created; it is async-signal-safe and touches no memory.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
        }
    }
}

#[cfg(unix)]
extern "C" fn on_signal(signal: libc::c_int) {
    kill_all_engines();
    if DEFER.load(Ordering::SeqCst) && CAUGHT.compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst).is_ok() {
        // The run notices at its next step and reports what it has.
        return;
    }
    // SAFETY: signal(2) and raise(3) are async-signal-safe; restoring the
    // default action and raising again ends chesstool the way the signal
    // would have (exit status "killed by signal N").
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

/// Installs the handlers that kill every engine when chesstool is
/// interrupted (SIGINT), terminated (SIGTERM) or loses its terminal
/// (SIGHUP). A signal that was ignored when chesstool started (`nohup`, a
/// background job of a script) stays ignored. The binary calls this once at
/// start-up; calling it again does nothing. A library user who handles
/// these signals itself should call `kill_all_engines` from its own handler
/// instead.
pub fn kill_engines_on_signals() {
    if INSTALLED.swap(true, Ordering::SeqCst) {
        return;
    }
    #[cfg(unix)]
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: installs a handler that only uses async-signal-safe calls,
        // or puts back the "ignore" that was there.
        unsafe {
            let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            if libc::signal(signal, handler) == libc::SIG_IGN {
                libc::signal(signal, libc::SIG_IGN);
            }
        }
    }
}

/// From now on the first SIGINT, SIGTERM or SIGHUP kills the engines and
/// is recorded instead of ending chesstool: the run polls `interrupted`,
/// prints its report so far, then calls `exit_by_signal`.
pub fn report_on_signals() {
    DEFER.store(true, Ordering::SeqCst);
}

/// The signal recorded since `report_on_signals`, if any.
pub fn interrupted() -> Option<i32> {
    match CAUGHT.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

/// The signal's name for a report (`SIGTERM`).
pub fn signal_name(signal: i32) -> String {
    #[cfg(unix)]
    match signal {
        libc::SIGINT => return "SIGINT".into(),
        libc::SIGTERM => return "SIGTERM".into(),
        libc::SIGHUP => return "SIGHUP".into(),
        _ => {}
    }
    format!("signal {signal}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_reused() {
        for round in 0..3 {
            let pgids: Vec<i32> = (0..SLOTS as i32).map(|i| 1_000_000 + 100 * round + i).collect();
            for &p in &pgids {
                register(p);
            }
            for &p in &pgids {
                unregister(p);
            }
        }
        assert!(GROUPS.iter().all(|s| s.load(Ordering::SeqCst) == 0 || s.load(Ordering::SeqCst) < 1_000_000));
    }
}
