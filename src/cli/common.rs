//! Pieces shared by several subcommands: the position arguments, range-checked
//! parsers for every numeric option, thread pools, progress bars and the one
//! JSON document of a `--json` run.

use anyhow::{Context, Result};
use chesstool::input::{Caps, Input};
use chesstool::position::Position;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use serde::Serialize;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Where to start: a FEN (or `startpos`) and moves played from it.
#[derive(clap::Args, Debug, Clone)]
pub struct PositionArgs {
    /// The root position: FEN, X-FEN or Shredder-FEN, or `startpos`.
    ///
    /// Quote it: a FEN has spaces.
    #[arg(long, default_value = "startpos", allow_hyphen_values = true)]
    pub fen: String,
    /// Moves to play from the position first.
    ///
    /// Each in UCI or SAN: `--moves e2e4 e7e5` or `--moves e4 e5 Nf3`.
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    pub moves: Vec<String>,
    /// Treat the position as Chess960 (otherwise recognised from the castling field); with N,
    /// start from Chess960 start position N instead of --fen.
    ///
    /// N is 0 to 959 in Scharnagl's numbering, as engines and python-chess
    /// number them (518 is the standard start position).
    #[arg(long, value_name = "N", num_args = 0..=1, value_parser = chess960_number)]
    pub chess960: Option<Option<u32>>,
}

/// A Chess960 start position's number, 0 to 959.
fn chess960_number(s: &str) -> Result<u32, String> {
    integer_in(s, 0, 959, "a Chess960 start position number").map(|n| n as u32)
}

impl PositionArgs {
    /// Whether `--chess960` is given (with or without a number).
    pub fn is_chess960(&self) -> bool {
        self.chess960.is_some()
    }

    /// The number of the Chess960 start position given with `--chess960 N`,
    /// refused beside a `--fen` (both would give the root).
    fn start_number(&self) -> Result<Option<u32>> {
        let Some(Some(n)) = self.chess960 else { return Ok(None) };
        if self.fen != "startpos" {
            let message = format!("--chess960 {n} and --fen both give the position: give one of them");
            return Err(super::usage_error(message, None));
        }
        Ok(Some(n))
    }

    /// The root as text: `--fen`, or start position N's Shredder-FEN with
    /// `--chess960 N` (for the commands that read the root through a game's
    /// rules, as `divide` does).
    pub fn fen_text(&self) -> Result<String> {
        Ok(match self.start_number()? {
            Some(n) => chesstool::position::chess960_start_fen(n).expect("0 to 959 is a start position"),
            None => self.fen.clone(),
        })
    }

    /// The root position (with `--chess960` applied).
    pub fn root(&self) -> Result<Position> {
        if let Some(n) = self.start_number()? {
            return Ok(chesstool::position::chess960_start(n).expect("0 to 959 is a start position"));
        }
        let mut pos = Position::from_fen(&self.fen).with_context(|| format!("--fen \"{}\"", clip(&self.fen)))?;
        if self.chess960.is_some() {
            pos.set_chess960(true);
        }
        Ok(pos)
    }

    /// The position after the moves.
    pub fn resolve(&self) -> Result<Position> {
        let mut pos = self.root()?;
        for (n, text) in self.moves.iter().enumerate() {
            pos = pos.play(resolve_move(&pos, n, text)?);
        }
        Ok(pos)
    }

    /// The moves in UCI, as played (SAN given on the command line comes out as UCI).
    pub fn uci_moves(&self) -> Result<Vec<String>> {
        let mut pos = self.root()?;
        let mut uci = Vec::with_capacity(self.moves.len());
        for (n, text) in self.moves.iter().enumerate() {
            let m = resolve_move(&pos, n, text)?;
            uci.push(m.to_uci(pos.is_chess960()));
            pos = pos.play(m);
        }
        Ok(uci)
    }
}

/// One `--moves` entry, UCI or SAN, as a legal move of `pos`. The one place
/// that decides how move text is read (re-point it when the notation moves).
fn resolve_move(pos: &Position, index: usize, text: &str) -> Result<chesstool::Move> {
    chesstool::chess::notation::read_move(pos, text).map_err(|e| {
        anyhow::anyhow!("--moves: move {} \"{}\": {} in {}", index + 1, clip(text), move_problem(&e), pos.to_fen())
    })
}

/// What is wrong with a move, without repeating it (the one wording of every
/// `--moves` error, whatever the game).
pub fn move_problem(e: &chesstool::rules::ReadMoveError) -> String {
    use chesstool::rules::ReadMoveError;
    match e {
        ReadMoveError::Syntax(_) => "not a move in any notation we know (UCI like e2e4, or SAN like Nf3)".into(),
        ReadMoveError::Malformed(why) => why.clone(),
        ReadMoveError::Ambiguous(_) => "ambiguous (several legal moves fit it)".into(),
        ReadMoveError::Illegal { .. } => "not legal".into(),
    }
}

/// A square name in either case (`e4`, `E4`).
pub fn parse_square(option: &str, text: &str) -> Result<chesstool::Square> {
    chesstool::Square::parse(&text.trim().to_ascii_lowercase()).ok_or_else(|| {
        super::usage_error(format!("{option}: \"{}\" is not a square (a name such as e4 or E4)", clip(text)), None)
    })
}

/// At most about 100 characters of user input, for error messages.
pub use chesstool::engines::clip;

// ---------------------------------------------------------------------------
// Range-checked parsers: every numeric option goes through one of these, so no
// number a user types can panic or overflow later. The messages name the value
// and the range; clap puts the option's name in front (`--depth: -1 is not ...`).

/// The most worker threads any subcommand accepts; more only wastes memory
/// (and thousands make thread creation itself fail).
pub const MAX_THREADS: usize = 1024;

/// The largest `--timeout` and time limit: a week.
pub const MAX_SECONDS: f64 = 604_800.0;

/// The one default `--timeout`, in seconds, for every subcommand that runs an
/// engine (bench's Stockfish needs about 60 s for Kiwipete at depth 6).
pub const DEFAULT_TIMEOUT: f64 = 600.0;

/// The largest hash table, in MiB (1 TiB); a table larger than the machine's
/// memory fails later with "cannot allocate".
pub const MAX_HASH_MB: usize = 1 << 20;

/// An integer in `min..=max`, or a message naming what was expected.
pub fn integer_in(s: &str, min: u64, max: u64, what: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!("{} is not {what} ({min} to {max})", shown(s))),
    }
}

/// A number of seconds in `(0, max]` (or `[0, max]` with `zero`); `inf`,
/// `nan` and exponents past the range are refused.
pub fn seconds_in(s: &str, zero: bool, max: f64, what: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x <= max && (x > 0.0 || (zero && x == 0.0)) => Ok(x),
        _ => {
            let low = if zero { "0" } else { "more than 0" };
            Err(format!("{} is not {what} ({low}, at most {max})", shown(s)))
        }
    }
}

fn shown(s: &str) -> String {
    if s.is_empty() {
        "an empty value".to_string()
    } else {
        clip(s)
    }
}

/// `--threads`: 0 (all cores) up to `MAX_THREADS`.
pub fn threads_arg(s: &str) -> Result<usize, String> {
    match s.trim().parse::<u64>() {
        Ok(n) if n <= MAX_THREADS as u64 => Ok(n as usize),
        Ok(n) => Err(format!("{n} threads is more than the {MAX_THREADS} allowed (0 = all cores)")),
        Err(_) => Err(format!("{} is not a number of threads (0 = all cores, up to {MAX_THREADS})", shown(s))),
    }
}

/// `--depth`: 0 up to `chesstool::perft::MAX_DEPTH`.
pub fn depth_arg(s: &str) -> Result<u32, String> {
    integer_in(s, 0, chesstool::perft::MAX_DEPTH.into(), "a depth").map(|d| d as u32)
}

/// `--depth` where the root alone means nothing (divide): 1 up to `MAX_DEPTH`.
pub fn positive_depth_arg(s: &str) -> Result<u32, String> {
    integer_in(s, 1, chesstool::perft::MAX_DEPTH.into(), "a depth").map(|d| d as u32)
}

/// `--timeout`: seconds, more than 0 and at most a week.
pub fn timeout_arg(s: &str) -> Result<f64, String> {
    seconds_in(s, false, MAX_SECONDS, "a timeout in seconds")
}

/// `--hash`: MiB, 0 (no table) up to `MAX_HASH_MB`.
pub fn hash_arg(s: &str) -> Result<usize, String> {
    integer_in(s, 0, MAX_HASH_MB as u64, "a hash size in MiB").map(|n| n as usize)
}

/// `--seed`: any 64-bit number.
pub fn seed_arg(s: &str) -> Result<u64, String> {
    integer_in(s, 0, u64::MAX, "a seed")
}

/// The threads a pool of `threads` (0 = all cores) will have.
pub fn thread_count(threads: usize) -> usize {
    if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    }
}

/// A rayon pool of `threads` threads (0 = all cores).
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(thread_count(threads))
        .build()
        .context(super::Internal("cannot start the worker threads".into()))
}

/// Runs `f` on a rayon pool of `threads` threads (0 = all cores).
#[allow(dead_code)] // kept for divide and suite
pub fn with_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> Result<T> {
    Ok(thread_pool(threads)?.install(f))
}

// ---------------------------------------------------------------------------
// Output.

/// Set once the run's JSON document is out, so that `main` prints no second
/// (error) document after it.
static JSON_PRINTED: AtomicBool = AtomicBool::new(false);

/// Prints the one JSON document of a `--json` run on stdout, pretty-printed.
/// A run that prints its own error document (with more keys) through this
/// and then returns the error gets no second document from `main`.
pub fn print_json<T: Serialize>(value: &T) -> Result<()> {
    let text = serde_json::to_string_pretty(value).context(super::Internal("cannot write the JSON".into()))?;
    JSON_PRINTED.store(true, Ordering::SeqCst);
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}")?;
    out.flush()?;
    Ok(())
}

/// Whether the run's JSON document was printed.
pub fn json_printed() -> bool {
    JSON_PRINTED.load(Ordering::SeqCst)
}

/// Writes `text` to stdout, passing write errors (a broken pipe) up.
pub fn print_text(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Writes `text` to stderr; a failure there has nowhere to be reported.
pub fn print_err(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes());
    let _ = err.flush();
}

// ---------------------------------------------------------------------------
// Output files. Nothing is silently overwritten: an output that is also one
// of the command's inputs is refused, an existing file needs `--force`, and a
// file is written whole or not at all (a temporary file renamed over it).

/// `--force`, flattened into every subcommand that writes a file.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct ForceArg {
    /// Replace the output file if it exists.
    #[arg(long)]
    pub force: bool,
}

/// Refuses an output before any work: none or `-` (standard output) is
/// fine (but `--force` then does nothing); a file that is also one of
/// `inputs` never is, not even with `--force`; an existing file only with
/// `force`; a directory never. A device or pipe (`/dev/null`) is written to,
/// not replaced, so it needs no `--force`. `option` names the output in
/// messages (`-o`, `--svg`).
pub fn check_output(
    option: &str,
    path: Option<&std::path::Path>,
    force: bool,
    inputs: &[&std::path::Path],
) -> Result<()> {
    let path = match path {
        Some(path) if !is_stdio(path) => path,
        _ if force => return Err(super::no_effect("--force", &format!("without {option} FILE (nothing to replace)"))),
        _ => return Ok(()),
    };
    let shown = clip(&path.display().to_string());
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(anyhow::anyhow!("{option} {shown}: {e}")),
    };
    if meta.is_dir() {
        return Err(super::usage_error(format!("{option} {shown}: is a directory"), None));
    }
    if !meta.is_file() {
        return Ok(());
    }
    if inputs.iter().any(|input| same_file(path, &meta, input)) {
        return Err(super::usage_error(
            format!("{option} {shown}: is also an input; the output would replace it"),
            None,
        ));
    }
    if !force {
        return Err(super::usage_error(format!("{option} {shown}: the file exists (--force replaces it)"), None));
    }
    Ok(())
}

/// Whether `input` (`-`: standard input) is the file of `output`: the same
/// device and inode, whatever the names and links.
fn same_file(output_path: &std::path::Path, output: &std::fs::Metadata, input: &std::path::Path) -> bool {
    let input = if is_stdio(input) { std::path::Path::new("/dev/stdin") } else { input };
    let Ok(meta) = std::fs::metadata(input) else { return false };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = output_path;
        meta.dev() == output.dev() && meta.ino() == output.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (meta, output);
        std::fs::canonicalize(input).ok() == std::fs::canonicalize(output_path).ok()
    }
}

/// Writes `bytes` to `path` (standard output for `-`) once [`check_output`]
/// agrees: into a new temporary file beside it, then renamed over it, so
/// that a failed write leaves the old file (or none), never half a file.
/// Through a symbolic link the link's target is replaced. (The check is
/// made again here; a file that another process creates between it and the
/// rename is replaced.)
pub fn write_output_file(
    option: &str,
    path: &std::path::Path,
    bytes: &[u8],
    force: bool,
    inputs: &[&std::path::Path],
) -> Result<()> {
    if is_stdio(path) {
        let mut out = std::io::stdout().lock();
        out.write_all(bytes)?;
        out.flush()?;
        return Ok(());
    }
    check_output(option, Some(path), force, inputs)?;
    let shown = clip(&path.display().to_string());
    let cannot = |e: std::io::Error| anyhow::anyhow!("{option}: cannot write {shown}: {e}");
    let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let old = std::fs::metadata(&target).ok();
    if old.as_ref().is_some_and(|m| !m.is_file()) {
        // A device or a pipe: nothing to replace.
        let mut file = std::fs::OpenOptions::new().write(true).open(&target).map_err(cannot)?;
        return file.write_all(bytes).and_then(|()| file.flush()).map_err(cannot);
    }
    let (tmp, mut file) = create_temporary(&target).map_err(cannot)?;
    let written = file
        .write_all(bytes)
        .and_then(|()| file.sync_all())
        .and_then(|()| old.map_or(Ok(()), |m| file.set_permissions(m.permissions())))
        .and_then(|()| std::fs::rename(&tmp, &target));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(cannot(e));
    }
    Ok(())
}

/// A new file `.NAME.tmp-PID[-N]` beside `target`, created only if no file
/// of that name exists (so no other file is ever touched).
fn create_temporary(target: &std::path::Path) -> std::io::Result<(std::path::PathBuf, std::fs::File)> {
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => std::path::Path::new("."),
    };
    let name = target.file_name().map_or_else(|| "output".into(), |n| n.to_string_lossy());
    let pid = std::process::id();
    let mut last = None;
    for n in 0..100 {
        let suffix = if n == 0 { String::new() } else { format!("-{n}") };
        let tmp = dir.join(format!(".{name}.tmp-{pid}{suffix}"));
        match std::fs::File::create_new(&tmp) {
            Ok(file) => return Ok((tmp, file)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no free temporary name")))
}

/// Opens `path` for bounded reading, or standard input for `-`.
pub fn open_input(path: &std::path::Path) -> Result<Input<'static>> {
    if is_stdio(path) {
        Ok(Input::from_reader("standard input", std::io::stdin()))
    } else {
        Ok(Input::open(path)?)
    }
}

/// Reads the UTF-8 text of `path`, or stdin for `-`, within `caps`;
/// returns the text and a name for messages.
pub fn read_input(path: &std::path::Path, caps: Caps) -> Result<(String, String)> {
    let input = open_input(path)?;
    let name = input.name().to_string();
    Ok((input.text(caps)?, name))
}

/// Reads the text of `path`, or stdin for `-`, as bytes within `caps` (for
/// readers that decode Latin-1 or strip a BOM themselves); returns a name
/// for messages and the bytes.
pub fn read_input_bytes(path: &std::path::Path, caps: Caps) -> Result<(String, Vec<u8>)> {
    let input = open_input(path)?;
    let name = input.name().to_string();
    Ok((name, input.text_bytes(caps)?))
}

/// `-` names stdin or stdout.
pub fn is_stdio(path: &std::path::Path) -> bool {
    path.as_os_str() == "-"
}

/// `n thing` or `n things`.
pub fn plural(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Nodes per second in millions, guarding against a zero duration.
pub fn mnps(nodes: u64, seconds: f64) -> f64 {
    nodes as f64 / seconds.max(1e-9) / 1e6
}

/// A duration for people: `0.4 ms`, `12.3 ms`, `1.25 s`, `2m 05s`, `1h 02m`.
pub fn human_duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 1e-3 {
        format!("{:.1} us", s * 1e6)
    } else if s < 1.0 {
        format!("{:.1} ms", s * 1e3)
    } else if s < 60.0 {
        format!("{s:.2} s")
    } else {
        clock(s)
    }
}

/// Whole seconds as `45s`, `2m 05s`, `1h 02m`.
fn clock(s: f64) -> String {
    let s = s.round() as u64;
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, s / 60 % 60),
    }
}

// ---------------------------------------------------------------------------
// Progress.

/// A progress bar on stderr that appears only after the first second, and
/// never when stderr is not a terminal or `quiet` is set. It shows the time
/// left (from the share of the work done so far), and with nodes the speed.
pub struct LazyProgress {
    bar: ProgressBar,
    shown: Arc<Shown>,
    can_show: bool,
}

/// What the bar's own fields read: nodes counted and when the stage began.
struct Shown {
    nodes: AtomicU64,
    /// The position is the node count (not a count of steps).
    nodes_are_position: bool,
    stage_start: Mutex<Instant>,
    /// The current stage's name, for the line that reports it done.
    stage_name: Mutex<Option<String>>,
    /// A fixed end (a time budget): the time left is the time to it.
    deadline: Mutex<Option<Instant>>,
    /// How long an uncounted stage usually takes, in seconds.
    expected: Mutex<Option<f64>>,
}

/// A counted stage: the share done.
const SHARE: &str = "{msg} [{elapsed_precise}] {wide_bar} {percent}%  {left}";
/// A stage without counts: a spinner and its usual time.
const UNCOUNTED: &str = "{msg} [{elapsed_precise}] {spinner}  {left}";

/// The bar's look, with its own fields: `{speed}` (Mnps) and `{left}`.
fn style(template: &str, shown: &Arc<Shown>) -> ProgressStyle {
    let (for_speed, for_left) = (shown.clone(), shown.clone());
    ProgressStyle::with_template(template)
        .expect("valid template")
        .with_key("speed", move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
            let nodes = if for_speed.nodes_are_position { state.pos() } else { for_speed.nodes() };
            let _ = write!(w, "{:.1} Mnps", mnps(nodes, for_speed.stage_seconds()));
        })
        .with_key("left", move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
            let spent = for_left.stage_seconds();
            let text = match (for_left.deadline(), *lock(&for_left.expected)) {
                (Some(end), _) => {
                    format!("at most {} left", clock(end.saturating_duration_since(Instant::now()).as_secs_f64()))
                }
                (None, Some(usual)) if spent < usual => {
                    format!("about {} left (usually {})", clock((usual - spent).max(1.0)), clock(usual))
                }
                (None, Some(usual)) => format!("longer than the usual {}", clock(usual)),
                (None, None) if state.len() == Some(0) => "time left unknown".to_string(),
                (None, None) => time_left(spent, state.pos(), state.len()),
            };
            let _ = w.write_str(&text);
        })
}

impl LazyProgress {
    /// `len` steps of work (positions, runs, squares): count and time left.
    pub fn new(len: u64, what: &str, quiet: bool) -> LazyProgress {
        LazyProgress::build(len, what, quiet, false, "{msg} [{elapsed_precise}] {wide_bar} {pos}/{len}  {left}")
    }

    /// Work whose size is known in nodes (a suite's expected counts): the
    /// position is in nodes (`inc_by`), with speed and time left.
    #[allow(dead_code)] // for suite
    pub fn nodes(total: u64, what: &str, quiet: bool) -> LazyProgress {
        LazyProgress::build(
            total,
            what,
            quiet,
            true,
            "{msg} [{elapsed_precise}] {wide_bar} {percent}%  {speed}  {left}",
        )
    }

    /// `len` units of estimated work (`inc_by`), with the nodes counted so
    /// far given apart (`add_nodes`): speed from the nodes, time left from
    /// the units.
    pub fn weighted(len: u64, what: &str, quiet: bool) -> LazyProgress {
        LazyProgress::build(len, what, quiet, false, "{msg} [{elapsed_precise}] {wide_bar} {percent}%  {speed}  {left}")
    }

    /// Work in named stages (`stage`, `stage_expected`): the share of the
    /// current stage done and its time left.
    pub fn stages(what: &str, quiet: bool) -> LazyProgress {
        LazyProgress::build(0, what, quiet, false, SHARE)
    }

    fn build(len: u64, what: &str, quiet: bool, nodes_are_position: bool, template: &str) -> LazyProgress {
        let shown = Arc::new(Shown {
            nodes: AtomicU64::new(0),
            nodes_are_position,
            stage_start: Mutex::new(Instant::now()),
            stage_name: Mutex::new(None),
            deadline: Mutex::new(None),
            expected: Mutex::new(None),
        });
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
        let style = style(template, &shown);
        bar.set_style(style);
        bar.set_message(what.to_string());
        let can_show = !quiet && std::io::stderr().is_terminal();
        if can_show {
            let delayed = bar.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_secs(1));
                if !delayed.is_finished() {
                    delayed.set_draw_target(ProgressDrawTarget::stderr());
                    delayed.enable_steady_tick(Duration::from_millis(200));
                }
            });
        }
        LazyProgress { bar, shown, can_show }
    }

    /// Whether the bar may appear (stderr is a terminal and not `--quiet`):
    /// work done only for the bar's sake can be skipped otherwise.
    pub fn can_show(&self) -> bool {
        self.can_show
    }

    pub fn inc(&self) {
        self.bar.inc(1);
    }

    pub fn inc_by(&self, steps: u64) {
        self.bar.inc(steps);
    }

    /// Nodes counted (for the speed of a `weighted` bar).
    pub fn add_nodes(&self, nodes: u64) {
        self.shown.nodes.fetch_add(nodes, Ordering::Relaxed);
    }

    /// More steps than announced (work whose length shows as it goes).
    pub fn extend(&self, steps: u64) {
        self.bar.inc_length(steps);
    }

    /// The work ends by `deadline` (a time budget): the time left is the
    /// time to it.
    pub fn set_deadline(&self, deadline: Option<Instant>) {
        *lock(&self.shown.deadline) = deadline;
    }

    /// A new stage of `len` steps (0: not counted): its name, position 0, and
    /// the time left counted from now. The stage before it, if named, gets a
    /// line of its own above the bar with its time.
    pub fn stage(&self, name: &str, len: u64) {
        let previous = lock(&self.shown.stage_name).replace(name.to_string());
        if let Some(previous) = previous {
            self.note(&format!("done: {previous} ({})", clock(self.shown.stage_seconds())));
        }
        *lock(&self.shown.expected) = None;
        self.bar.set_style(style(SHARE, &self.shown));
        *lock(&self.shown.stage_start) = Instant::now();
        self.shown.nodes.store(0, Ordering::Relaxed);
        self.bar.set_message(name.to_string());
        self.bar.set_length(len);
        self.bar.set_position(0);
    }

    /// The time since the current stage began.
    pub fn stage_elapsed(&self) -> Duration {
        Duration::from_secs_f64(self.shown.stage_seconds())
    }

    /// A new stage that cannot be counted, which usually takes `usual`
    /// (if known): a spinner and the time left from that.
    pub fn stage_expected(&self, name: &str, usual: Option<Duration>) {
        self.stage(name, 0);
        *lock(&self.shown.expected) = usual.map(|u| u.as_secs_f64());
        self.bar.set_style(style(UNCOUNTED, &self.shown));
    }

    /// Prints a line above the bar, if the bar is showing: for stage reports
    /// that should stay on the screen.
    pub fn note(&self, line: &str) {
        if self.can_show && !self.bar.is_hidden() {
            self.bar.suspend(|| print_err(&format!("{line}\n")));
        }
    }

    pub fn finish(&self) {
        if let Some(last) = lock(&self.shown.stage_name).take() {
            self.note(&format!("done: {last} ({})", clock(self.shown.stage_seconds())));
        }
        self.bar.finish_and_clear();
    }
}

impl Shown {
    fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    fn stage_seconds(&self) -> f64 {
        lock(&self.stage_start).elapsed().as_secs_f64()
    }

    fn deadline(&self) -> Option<Instant> {
        *lock(&self.deadline)
    }
}

/// A lock that a panicked holder does not poison for the bar.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// `about 2m 05s left`, from the time spent on the share done so far.
fn time_left(spent: f64, pos: u64, len: Option<u64>) -> String {
    match len {
        Some(len) if pos > 0 && len >= pos && spent > 0.5 => {
            let left = spent * (len - pos) as f64 / pos as f64;
            format!("about {} left", clock(left.max(1.0)))
        }
        _ => "time left: estimating".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_out_of_range_are_refused_with_the_range() {
        assert_eq!(depth_arg("20"), Ok(20));
        assert_eq!(depth_arg("-1"), Err("-1 is not a depth (0 to 20)".to_string()));
        assert!(depth_arg("10000").unwrap_err().contains("(0 to 20)"));
        assert!(positive_depth_arg("0").is_err());
        assert_eq!(threads_arg("0"), Ok(0));
        assert!(threads_arg("1025").unwrap_err().contains("1024"));
        assert!(threads_arg("-2").unwrap_err().contains("-2"));
        for bad in ["1e19", "1e300", "inf", "-inf", "nan", "-1", "0", "604801", "", "x"] {
            assert!(timeout_arg(bad).is_err(), "{bad}");
        }
        assert_eq!(timeout_arg("0.5"), Ok(0.5));
        assert_eq!(timeout_arg("604800"), Ok(MAX_SECONDS));
        assert!(hash_arg("18446744073709551616").is_err());
        assert!(hash_arg("99999999999").is_err());
        assert_eq!(seed_arg("18446744073709551615"), Ok(u64::MAX));
        assert!(seed_arg("-1").is_err());
        assert_eq!(seconds_in("0", true, 10.0, "x"), Ok(0.0));
        assert!(integer_in("", 0, 1, "a thing").unwrap_err().starts_with("an empty value"));
    }

    #[test]
    fn long_input_is_clipped_in_messages() {
        let long = "x".repeat(10_000);
        assert!(depth_arg(&long).unwrap_err().len() < 150);
    }

    #[test]
    fn plurals_and_durations_read_well() {
        assert_eq!(plural(1u32, "rank", "ranks"), "1 rank");
        assert_eq!(plural(0u32, "rank", "ranks"), "0 ranks");
        assert_eq!(human_duration(Duration::from_micros(400)), "400.0 us");
        assert_eq!(human_duration(Duration::from_micros(106_325)), "106.3 ms");
        assert_eq!(human_duration(Duration::from_millis(2_500)), "2.50 s");
        assert_eq!(human_duration(Duration::from_secs(125)), "2m 05s");
        assert_eq!(human_duration(Duration::from_secs(3_720)), "1h 02m");
    }

    #[test]
    fn time_left_follows_the_share_done() {
        assert_eq!(time_left(10.0, 1, Some(4)), "about 30s left");
        assert_eq!(time_left(10.0, 0, Some(4)), "time left: estimating");
        assert_eq!(time_left(60.0, 1, Some(3)), "about 2m 00s left");
    }
}
