//! Live feedback on stderr for long work: a status line for a hunt (depth,
//! path so far, time spent waiting for the engine) and a node bar for suites
//! (nodes per second, time left). Both stay hidden when stderr is not a
//! terminal or with `--quiet`, and appear only once the work has taken a
//! moment, so quick runs print nothing extra.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// How long work runs before its feedback appears.
const DELAY: Duration = Duration::from_millis(500);

fn lazy(bar: &ProgressBar, quiet: bool) {
    if quiet || !std::io::stderr().is_terminal() {
        return;
    }
    let delayed = bar.clone();
    std::thread::spawn(move || {
        std::thread::sleep(DELAY);
        if !delayed.is_finished() {
            delayed.set_draw_target(ProgressDrawTarget::stderr());
            delayed.enable_steady_tick(Duration::from_millis(200));
        }
    });
}

/// A one-line status with a spinner and the time elapsed.
pub struct Status {
    bar: ProgressBar,
}

impl Status {
    pub fn new(quiet: bool) -> Status {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{spinner} [{elapsed_precise}] {wide_msg}").expect("valid template"),
        );
        lazy(&bar, quiet);
        Status { bar }
    }

    pub fn set(&self, message: String) {
        self.bar.set_message(message);
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Drop for Status {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

/// A bar measured in the nodes a suite expects, with Mnps and time left.
pub struct NodeBar {
    bar: ProgressBar,
}

impl NodeBar {
    pub fn new(total_nodes: u64, quiet: bool) -> NodeBar {
        let bar = ProgressBar::with_draw_target(Some(total_nodes.max(1)), ProgressDrawTarget::hidden());
        let style = ProgressStyle::with_template("suite [{elapsed_precise}] {wide_bar} {msg} {mnps} Mnps, {eta} left")
            .expect("valid template")
            .with_key("mnps", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.1}", state.per_sec() / 1e6);
            });
        bar.set_style(style);
        lazy(&bar, quiet);
        NodeBar { bar }
    }

    /// One more count done: `nodes` of the expected total, `done` of `checks`.
    pub fn advance(&self, nodes: u64, done: usize, checks: usize) {
        self.bar.inc(nodes);
        self.bar.set_message(format!("{done}/{checks} counts,"));
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Drop for NodeBar {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}
