//! Pieces shared by several subcommands: the position arguments, thread pools,
//! progress bars and output helpers.

use anyhow::{Context, Result};
use chesstool::position::Position;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// Where to start: a FEN (or `startpos`) and moves played from it.
#[derive(clap::Args, Debug, Clone)]
pub struct PositionArgs {
    /// FEN, X-FEN or Shredder-FEN of the root position (or `startpos`).
    #[arg(long, default_value = "startpos", allow_hyphen_values = true)]
    pub fen: String,
    /// UCI moves to play from the FEN first (e.g. `--moves e2e4 e7e5`).
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
    /// Treat the position as Chess960 (otherwise recognised from the castling field).
    #[arg(long)]
    pub chess960: bool,
}

impl PositionArgs {
    /// The root position (with `--chess960` applied).
    pub fn root(&self) -> Result<Position> {
        let mut pos = Position::from_fen(&self.fen).with_context(|| format!("--fen {:?}", self.fen))?;
        if self.chess960 {
            pos.set_chess960(true);
        }
        Ok(pos)
    }

    /// The position after the moves.
    pub fn resolve(&self) -> Result<Position> {
        self.root()?.play_uci_moves(self.moves.iter().map(String::as_str)).context("--moves")
    }
}

/// The most worker threads any subcommand accepts; more only wastes memory
/// (and thousands make thread creation itself fail).
pub const MAX_THREADS: usize = 1024;

/// Parses `--threads`: 0 (all cores) up to `MAX_THREADS`.
pub fn threads_arg(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n <= MAX_THREADS => Ok(n),
        Ok(n) => Err(format!("{n} threads is more than the {MAX_THREADS} allowed")),
        Err(_) => Err(format!("{s:?} is not a number of threads")),
    }
}

/// Runs `f` on a rayon pool of `threads` threads (0 = all cores).
pub fn with_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> Result<T> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().context("cannot start the thread pool")?;
    Ok(pool.install(f))
}

/// A progress bar on stderr that appears only after the first second, and
/// never when stderr is not a terminal or `quiet` is set.
pub struct LazyProgress {
    bar: ProgressBar,
}

impl LazyProgress {
    pub fn new(len: u64, what: &str, quiet: bool) -> LazyProgress {
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{msg} [{elapsed_precise}] {wide_bar} {pos}/{len}").expect("valid template"),
        );
        bar.set_message(what.to_string());
        if !quiet && std::io::stderr().is_terminal() {
            let delayed = bar.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_secs(1));
                if !delayed.is_finished() {
                    delayed.set_draw_target(ProgressDrawTarget::stderr());
                    delayed.enable_steady_tick(Duration::from_millis(200));
                }
            });
        }
        LazyProgress { bar }
    }

    pub fn inc(&self) {
        self.bar.inc(1);
    }

    /// More steps than announced (work whose length shows as it goes).
    pub fn extend(&self, steps: u64) {
        self.bar.inc_length(steps);
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// Nodes per second in millions, guarding against a zero duration.
pub fn mnps(nodes: u64, seconds: f64) -> f64 {
    nodes as f64 / seconds.max(1e-9) / 1e6
}
