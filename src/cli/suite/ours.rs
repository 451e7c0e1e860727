//! Our generator's counts of a whole suite, counted on every worker thread
//! at once: the (position, depth) counts run side by side, the largest
//! first, and each large perft splits further over the threads (rayon's
//! work stealing shares them). The report takes them back in the file's
//! order, so its output does not depend on the threads.

use super::super::hunt::live::NodeBar;
use chesstool::engines::signals;
use chesstool::rules::Rules;
use rayon::prelude::*;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The stack of each worker thread.
const STACK: usize = 64 << 20;

/// One count to make: the position, the depth, the count the suite expects
/// (to order the work and move the progress bar).
pub struct Job<P> {
    pub position: P,
    pub depth: u32,
    pub expected: u64,
}

/// The counts under way, and those received so far.
pub struct OurCounts {
    rx: Receiver<(usize, u64, f64)>,
    /// Each job's count and seconds, once received.
    done: Vec<Option<(u64, f64)>>,
    expected: Vec<u64>,
    received: usize,
}

impl OurCounts {
    /// Starts counting every job on a pool of `threads` threads, on a thread
    /// of its own so that a signal can end the wait.
    pub fn start<R: Rules + 'static>(rules: &Arc<R>, jobs: Vec<Job<R::Position>>, threads: usize) -> OurCounts {
        let (tx, rx) = channel();
        let expected: Vec<u64> = jobs.iter().map(|j| j.expected).collect();
        let count = jobs.len();
        let rules = Arc::clone(rules);
        std::thread::spawn(move || {
            // A worker waiting inside one perft's split may take up another
            // whole count on top of its stack: room for several.
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).stack_size(STACK).build();
            let Ok(pool) = pool else { return };
            // The largest counts first: a long one started last would leave
            // the other threads idle at the end.
            let mut order: Vec<usize> = (0..jobs.len()).collect();
            order.sort_by_key(|&i| std::cmp::Reverse(jobs[i].expected));
            pool.install(|| {
                order.par_iter().with_max_len(1).for_each_with(tx, |tx, &i| {
                    if signals::interrupted().is_some() {
                        return;
                    }
                    let started = Instant::now();
                    let nodes = rules.perft(&jobs[i].position, jobs[i].depth);
                    let _ = tx.send((i, nodes, started.elapsed().as_secs_f64()));
                });
            });
        });
        OurCounts { rx, done: vec![None; count], expected, received: 0 }
    }

    /// Job `i`'s count and the seconds it took, waiting for it (and moving
    /// the bar with every count that comes meanwhile); `None` when a signal
    /// ends the wait.
    pub fn get(&mut self, i: usize, bar: &NodeBar) -> Option<(u64, f64)> {
        while self.done[i].is_none() {
            match self.rx.recv_timeout(Duration::from_millis(50)) {
                Ok((j, nodes, seconds)) => {
                    self.done[j] = Some((nodes, seconds));
                    self.received += 1;
                    bar.advance(self.expected[j], self.received, self.done.len());
                }
                Err(RecvTimeoutError::Timeout) if signals::interrupted().is_none() => {}
                Err(_) => return None,
            }
        }
        self.done[i]
    }
}
