//! Finding a bug without knowing where it is, for any game: seeded random
//! walks (`walk`) through an engine's positions, each position compared
//! with ours at one depth and a difference handed to the bisection, which
//! reports the same witness as `divide --bisect`, shortened (`witness`).
//! Every position is asked as root + moves, so make/unmake state is
//! exercised as in games (unless `fen_only`).
//!
//! The depth is chosen from the perft of the first root (`choose_depth`):
//! the deepest whose subtree stays within a node budget, so that one call
//! checks a few thousand positions and a seed always repeats its depth.
//!
//! With position checks, an engine that prints its position (Stockfish's
//! `d`) is also held to our FEN (castling rights, e.p. square, clocks: make
//! move bugs that perft cannot see), and its hash key must be the same
//! whenever the position is: asked again after a move was taken back
//! (`position` with one move fewer), and reached by another move order.

mod failure;
mod group;

pub use failure::{FailureFinding, FailureKind};

use super::bisect::{Checker, VerifyError, Witness};
use super::walk::Walker;
use super::witness::{self, Fault};
use crate::engines::{Line, Shown};
use crate::rules::Rules;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// When a run stops (whichever comes first; neither: at the first finding).
#[derive(Debug, Clone, Copy, Default)]
pub struct Budget {
    /// Positions compared.
    pub positions: Option<u64>,
    /// Time since the start.
    pub time: Option<Duration>,
}

/// How a run walks and what it checks.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// The depth of each comparison (1: the move lists); with `auto_depth`,
    /// the deepest it may choose.
    pub depth: u32,
    /// Choose the depth from the first root's perft (`choose_depth`).
    pub auto_depth: bool,
    /// The shallowest depth asked of either side (`--min-depth`, 1 by
    /// default): the automatic depth is at least this, and bisections stop here.
    pub min_depth: u32,
    /// Send every position as a text of its own, never as moves from a root.
    pub fen_only: bool,
    /// Go on after a finding until the budget is spent, keeping one witness
    /// per cause.
    pub keep_going: bool,
    /// When the run stops.
    pub budget: Budget,
    /// Also compare the engine's printed position and keys.
    pub check_positions: bool,
    /// Every other game starts at one of the first `primary` roots in turn.
    pub primary: usize,
    /// Asked between comparisons: true ends the run with what it has (a
    /// signal caught); an engine failure while it is true is no failure.
    pub interrupted: Option<fn() -> bool>,
    /// After an engine failure, restart it and ask again up to this many
    /// times (`--retries`): an answer then shows a failure at random.
    pub retries: u32,
    /// The user set no time limit: each answer may take ten times the
    /// slowest so far (`failure::adaptive_limit`), not the default ten minutes.
    pub adaptive_timeout: bool,
}

/// Where a run is, for live progress.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// Positions compared so far.
    pub positions: u64,
    /// Games (random walks) started so far.
    pub games: u64,
    /// Time since the start.
    pub elapsed: Duration,
}

/// What the position checks found wrong.
pub enum PositionProblem<R: Rules> {
    /// The engine's FEN differs from ours in these fields.
    Fen {
        /// The FEN the engine printed.
        printed: String,
        /// Each field that differs, described.
        differences: Vec<String>,
    },
    /// The engine gave this position another key than before: when it was
    /// asked at `earlier` (another move order), or, with `taken_back`, at
    /// the same line before that move was played and taken back.
    Key {
        /// The key the engine printed now.
        key: String,
        /// The key it printed before.
        earlier_key: String,
        /// The line where it printed the earlier key.
        earlier: Line<R>,
        /// The move played and taken back, if that is how it was reached again.
        taken_back: Option<R::Move>,
    },
}

/// A position check that failed, at the end of `line`.
pub struct PositionFinding<R: Rules> {
    /// The line to the position.
    pub line: Line<R>,
    /// What was wrong with the engine's position there.
    pub problem: PositionProblem<R>,
}

/// The first thing a run found wrong.
pub enum Finding<R: Rules> {
    /// The move lists (or counts) differ: where the bisection ended.
    Moves(Witness<R>),
    /// The engine's printed position or key is wrong.
    Position(PositionFinding<R>),
    /// The engine crashed, hung or gave an unreadable answer.
    Failure(FailureFinding<R>),
}

/// One distinct thing found wrong, with how often its cause was met.
pub struct Found<R: Rules> {
    /// The first witness of this cause.
    pub finding: Finding<R>,
    /// The cause, in a few words (`missing en passant capture`).
    pub cause: String,
    /// The layer at fault, for a move finding.
    pub fault: Option<Fault>,
    /// How many positions showed this cause.
    pub count: u64,
    /// Plies of the walk when it was found (from the walk's root), before the witness was shortened.
    pub walk_plies: usize,
}

/// The depth a run compares at, and why.
#[derive(Debug, Clone)]
pub struct DepthChoice {
    /// The depth.
    pub depth: u32,
    /// Why, for the report (`the deepest depth up to 4 whose perft at the first root is at most 2000 nodes: 400 at depth 2`).
    pub reason: String,
}

/// A finished run.
pub struct Summary<R: Rules> {
    /// Positions compared (each comparison at the run's depth counts one).
    pub positions: u64,
    /// Games (random walks) played.
    pub games: u64,
    /// How long the run took.
    pub elapsed: Duration,
    /// The depth of the comparisons.
    pub depth: DepthChoice,
    /// Divides asked of the engine.
    pub engine_calls: u32,
    /// Time spent waiting for the engine.
    pub engine_wait: Duration,
    /// What was found, one entry per cause, in the order found.
    pub found: Vec<Found<R>>,
    /// The run was interrupted (`Options::interrupted`) before its budget was spent.
    pub interrupted: bool,
    /// The walker's sweep (the motif cases): how many lines were compared,
    /// and how many there were.
    pub sweep: SweepCoverage,
    /// The run stopped because the engine failed on `GIVE_UP` lines in a
    /// row, each after its retries.
    pub gave_up: bool,
}

/// Lines in a row on which the engine fails, each after its retries,
/// before a run gives up on it.
pub const GIVE_UP: u32 = 8;

/// What one look at a position found.
enum Examined<R: Rules> {
    /// Nothing wrong.
    Clean,
    /// The move lists differ: the shortened witness.
    Moves(Witness<R>),
    /// The printed position or key is wrong.
    Position(PositionFinding<R>),
}

/// How much of the sweep a run covered.
#[derive(Debug, Clone, Copy, Default)]
pub struct SweepCoverage {
    /// Lines compared.
    pub looked: usize,
    /// Lines in the sweep.
    pub of: usize,
    /// The budget (or a signal) ended the run before every line was looked
    /// at; false when a finding ended it first.
    pub cut_short: bool,
}

impl<R: Rules> Summary<R> {
    /// The first thing found wrong, if any.
    pub fn first(&self) -> Option<&Finding<R>> {
        self.found.first().map(|f| &f.finding)
    }

    /// True if the engine failed to answer somewhere (exit 3).
    pub fn engine_failed(&self) -> bool {
        self.gave_up || self.found.iter().any(|f| matches!(f.finding, Finding::Failure(_)))
    }
}

/// Keys the engine printed, by position, last move and the engine's
/// halfmove clock (the e.p. square an engine keeps may depend on the last
/// move, and Stockfish and Fairy-Stockfish mix the clock into the key they
/// print once it reaches 14, so only positions reached by the same last
/// move with the same clock must have one key).
struct KeyBook<R: Rules> {
    keys: HashMap<String, (String, Line<R>)>,
}

/// Keys remembered at most: bounded memory on long runs.
const MAX_KEYS: usize = 200_000;

impl<R: Rules> KeyBook<R> {
    fn identity(rules: &R, line: &Line<R>, pos: &R::Position, printed_fen: &str) -> String {
        let last = line.move_texts(rules).pop().unwrap_or_default();
        // The clock is the next-to-last field of every FEN dialect.
        let clock = printed_fen.split_whitespace().rev().nth(1).unwrap_or_default();
        format!("{} | {last} | {clock}", rules.position_text(pos))
    }

    /// The key this position had before, and where, if it differs from `key`.
    fn check(&mut self, rules: &R, line: &Line<R>, pos: &R::Position, shown: &Shown) -> Option<(String, Line<R>)> {
        let key = shown.key.as_deref()?;
        let id = KeyBook::identity(rules, line, pos, &shown.fen);
        match self.keys.get(&id) {
            Some((k, earlier)) if k != key => Some((k.clone(), earlier.clone())),
            Some(_) => None,
            None => {
                if self.keys.len() < MAX_KEYS {
                    self.keys.insert(id, (key.to_string(), line.clone()));
                }
                None
            }
        }
    }
}

/// Walks from `walker`'s roots, comparing `checker`'s engine with its
/// reference at every position, until the budget is spent or (without
/// `keep_going`) the first finding. An engine that fails to answer is
/// restarted and the walk goes on from a new game (`failure`), until it
/// fails on `GIVE_UP` lines in a row.
pub fn run<R: Rules>(
    checker: &mut Checker<'_, R>,
    walker: &mut Walker<'_, R>,
    options: &Options,
    on_progress: &mut dyn FnMut(&Progress),
) -> Result<Summary<R>, VerifyError> {
    let rules = checker.rules;
    let started = Instant::now();
    let mut keys = KeyBook { keys: HashMap::new() };
    let mut positions = 0u64;
    let mut found: Vec<Found<R>> = Vec::new();
    let mut failed_in_a_row = 0u32;
    let stop = || options.interrupted.is_some_and(|f| f());
    let spent = |positions: u64| {
        options.budget.positions.is_some_and(|n| positions >= n)
            || options.budget.time.is_some_and(|t| started.elapsed() >= t)
            || stop()
    };
    checker.min_depth = checker.min_depth.max(options.min_depth);
    let depth = if options.auto_depth {
        choose_depth(rules, walker.first_root(), options.min_depth, options.depth)
    } else {
        DepthChoice { depth: options.depth, reason: "as given (--depth)".to_string() }
    };
    let d = depth.depth;
    let depth = with_sweep_rule(depth, walker.sweep_total());
    let mut sweep = SweepCoverage { looked: 0, of: walker.sweep_total(), cut_short: false };
    'games: while !spent(positions) && failed_in_a_row < GIVE_UP {
        let mut line = walker.start(options.primary);
        let mut pos = line.position(rules);
        let mut before: Option<(R::Position, R::Move)> = None;
        let mut walked = 0usize;
        loop {
            if spent(positions) {
                break;
            }
            let asked = if options.fen_only { Line::new(pos.clone()) } else { line.clone() };
            // The line from the start to the asked root, for the layer test.
            checker.origin =
                walker.path_to(&if options.fen_only { line.clone() } else { Line::new(line.root.clone()) });
            // A motif case is looked at once: deeper, where its subtree is small.
            let d = if walker.in_sweep() { sweep_depth(rules, &pos, d) } else { d };
            let prior = before.as_ref().map(|(p, m)| (p, *m));
            let answer = failure::ask(checker, options.retries, options.adaptive_timeout, |checker| {
                examine(checker, &mut keys, &asked, &pos, prior, d, options.check_positions)
            });
            // An engine killed by the signal fails its call: that is the interruption.
            let asked_result = match answer {
                Err(_) if stop() => break 'games,
                answer => answer?,
            };
            if stop() && asked_result.answer.is_none() {
                break 'games;
            }
            if !asked_result.only_slow {
                if let Some(f) = failure::finding(checker, &asked, d, &asked_result) {
                    let cause = f.cause();
                    record(&mut found, Finding::Failure(f), cause, None, walked);
                    if !options.keep_going {
                        break 'games;
                    }
                }
            }
            let Some(examined) = asked_result.answer else {
                failed_in_a_row += 1;
                continue 'games;
            };
            failed_in_a_row = 0;
            positions += 1;
            sweep.looked += usize::from(walker.in_sweep());
            let (finding, cause, fault) = match examined {
                Examined::Clean => {
                    on_progress(&Progress { positions, games: walker.games(), elapsed: started.elapsed() });
                    // With a deeper comparison, the subtree below covers the
                    // next plies: step that far before comparing again.
                    for _ in 0..d {
                        let Some(m) = walker.next_move(&pos, line.moves.len()) else { continue 'games };
                        let next = rules.play(&pos, m);
                        before = Some((std::mem::replace(&mut pos, next), m));
                        line = line.child(m);
                        walked += 1;
                    }
                    continue;
                }
                Examined::Moves(w) => {
                    let fault = witness::fault(rules, &w);
                    let cause = witness::cause(&w, &fault);
                    (Finding::Moves(w), cause, Some(fault))
                }
                Examined::Position(f) => {
                    let cause = position_cause(&f);
                    (Finding::Position(f), cause, None)
                }
            };
            record(&mut found, finding, cause, fault, walked);
            if !options.keep_going {
                break 'games;
            }
            // A position where the engine is wrong: walk on from a new root.
            continue 'games;
        }
    }
    group::merge_fen_reader(&mut found);
    group::merge_at_random(&mut found);
    Ok(Summary {
        positions,
        games: walker.games(),
        elapsed: started.elapsed(),
        depth,
        engine_calls: checker.engine_calls,
        engine_wait: checker.engine_wait,
        sweep: SweepCoverage {
            cut_short: sweep.looked < sweep.of && (options.keep_going || found.is_empty()),
            ..sweep
        },
        found,
        interrupted: stop(),
        gave_up: failed_in_a_row >= GIVE_UP,
    })
}

/// One look at the end of `asked`: the comparison at depth `d` and its
/// bisection, the witness shortened; then, with `check_positions`, the
/// engine's printed position and keys. An engine that fails while the
/// witness is shortened leaves it as the bisection found it.
fn examine<R: Rules>(
    checker: &mut Checker<'_, R>,
    keys: &mut KeyBook<R>,
    asked: &Line<R>,
    pos: &R::Position,
    before: Option<(&R::Position, R::Move)>,
    d: u32,
    check_positions: bool,
) -> Result<Examined<R>, VerifyError> {
    let report = checker.check_from(asked, d, d, true)?;
    if let Some(w) = report.witness {
        return Ok(Examined::Moves(match witness::shorten(checker, w.clone()) {
            Ok(shorter) => shorter,
            Err(e) if failure::is_engine_failure(&e) => {
                checker.engine.restart();
                w
            }
            Err(e) => return Err(e),
        }));
    }
    if check_positions {
        if let Some(f) = check_position(checker, keys, asked, pos, before)? {
            return Ok(Examined::Position(f));
        }
    }
    Ok(Examined::Clean)
}

/// The depth a sweep line (a motif case) is compared at: the deepest from
/// the run's depth `d` up to `MAX_AUTO_DEPTH` whose perft at its end stays
/// within `AUTO_NODE_BUDGET` nodes (never below `d`): a slow engine's call
/// covers the case's whole neighbourhood, and a rerun with `--depth d`
/// repeats it.
fn sweep_depth<R: Rules>(rules: &R, pos: &R::Position, d: u32) -> u32 {
    let mut depth = d;
    while depth < MAX_AUTO_DEPTH && bounded_perft(rules, pos, depth + 1, AUTO_NODE_BUDGET).is_some() {
        depth += 1;
    }
    depth
}

/// The depth's reason with the sweep's rule, when there is a sweep.
fn with_sweep_rule(mut depth: DepthChoice, lines: usize) -> DepthChoice {
    if lines > 0 {
        depth.reason.push_str(&format!(
            "; each of the {lines} motif cases at the deepest depth up to {MAX_AUTO_DEPTH}, at least {}, whose perft there is at most {AUTO_NODE_BUDGET} nodes",
            depth.depth
        ));
    }
    depth
}

/// Adds a finding under its cause, or counts it when the cause is known
/// (keeping the shorter witness).
fn record<R: Rules>(
    found: &mut Vec<Found<R>>,
    finding: Finding<R>,
    cause: String,
    fault: Option<Fault>,
    walked: usize,
) {
    match found.iter_mut().find(|f| f.cause == cause) {
        Some(known) => {
            known.count += 1;
            if finding.plies() < known.finding.plies() {
                known.finding = finding;
                known.fault = fault;
                known.walk_plies = walked;
            }
        }
        None => found.push(Found { finding, cause, fault, count: 1, walk_plies: walked }),
    }
}

impl<R: Rules> Finding<R> {
    /// The line of the finding.
    pub fn line(&self) -> &Line<R> {
        match self {
            Finding::Moves(w) => &w.line,
            Finding::Position(p) => &p.line,
            Finding::Failure(f) => &f.line,
        }
    }

    /// The moves of its line.
    pub fn plies(&self) -> usize {
        self.line().moves.len()
    }
}

/// The cause of a position finding: the fields or the key check.
fn position_cause<R: Rules>(f: &PositionFinding<R>) -> String {
    match &f.problem {
        PositionProblem::Fen { differences, .. } => {
            let fields: Vec<&str> = differences.iter().map(|d| d.split(':').next().unwrap_or(d)).collect();
            format!("position: {}", fields.join(", "))
        }
        PositionProblem::Key { taken_back: Some(_), .. } => "position: key after a take-back".to_string(),
        PositionProblem::Key { .. } => "position: key by another move order".to_string(),
    }
}

/// The deepest depth from `min` up to `max` (and `MAX_AUTO_DEPTH`) whose
/// perft at `root`, counted by the reference rules, stays within
/// `AUTO_NODE_BUDGET` nodes: a function of the root and the options alone,
/// never of the clock, so one seed always compares at one depth. Depth 4
/// of a middlegame is millions of nodes; depth 1 of Amazons 2,176.
fn choose_depth<R: Rules>(rules: &R, root: &R::Position, min: u32, max: u32) -> DepthChoice {
    let min = min.max(1);
    let top = max.min(MAX_AUTO_DEPTH).max(min);
    let mut depth = min;
    let mut nodes = bounded_perft(rules, root, min, u64::MAX).unwrap_or(u64::MAX);
    while depth < top {
        match bounded_perft(rules, root, depth + 1, AUTO_NODE_BUDGET) {
            Some(n) => {
                depth += 1;
                nodes = n;
            }
            None => break,
        }
    }
    let floor = if min > 1 { format!(", at least --min-depth {min}") } else { String::new() };
    let reason = format!(
        "the deepest depth up to {top}{floor} whose perft at the first root is at most {AUTO_NODE_BUDGET} nodes: {nodes} at depth {depth}"
    );
    DepthChoice { depth, reason }
}

/// The perft of `pos` at `depth`, or `None` as soon as it passes `limit`
/// (so that a wide game costs no more than the budget to rule out).
fn bounded_perft<R: Rules>(rules: &R, pos: &R::Position, depth: u32, limit: u64) -> Option<u64> {
    fn count<R: Rules>(rules: &R, pos: &R::Position, depth: u32, total: &mut u64, limit: u64) -> bool {
        let moves = rules.legal_moves(pos);
        if depth <= 1 {
            *total += moves.len() as u64;
            return *total <= limit;
        }
        moves.into_iter().all(|m| count(rules, &rules.play(pos, m), depth - 1, total, limit))
    }
    let mut total = 0;
    if depth == 0 {
        return Some(1);
    }
    count(rules, pos, depth, &mut total, limit).then_some(total)
}

/// The most nodes the automatic depth's perft at the first root may have
/// (the standard start: 400 at depth 2, 8,902 at depth 3; xiangqi's 1,920
/// at depth 2): a move list or two per call for a fast engine, hundreds of
/// positions per start-up for a slow one.
pub const AUTO_NODE_BUDGET: u64 = 2_000;

/// The deepest depth chosen by itself (perft 4 of a middlegame position is
/// millions of nodes: seconds for a slow engine).
const MAX_AUTO_DEPTH: u32 = 4;

/// The engine's position at the end of `line` (or `None` if it cannot print one).
fn show<R: Rules>(checker: &mut Checker<'_, R>, line: &Line<R>) -> Result<Option<Shown>, VerifyError> {
    checker.engine.show(line).map_err(VerifyError::Engine)
}

/// The position checks at the end of `line` (the position `pos`, reached
/// from `before`): the engine's FEN, its key against the keys it gave
/// before, the key after the last move is taken back, the key by another
/// move order.
fn check_position<R: Rules>(
    checker: &mut Checker<'_, R>,
    keys: &mut KeyBook<R>,
    line: &Line<R>,
    pos: &R::Position,
    before: Option<(&R::Position, R::Move)>,
) -> Result<Option<PositionFinding<R>>, VerifyError> {
    let rules = checker.rules;
    let Some(shown) = show(checker, line)? else { return Ok(None) };
    if let Some(f) = fen_and_key(rules, keys, line, pos, before, &shown, None) {
        return Ok(Some(f));
    }
    if let (Some((back_pos, m)), Some(_)) = (before, &shown.key) {
        let back = Line { root: line.root.clone(), moves: line.moves[..line.moves.len() - 1].to_vec() };
        if let Some(again) = show(checker, &back)? {
            if let Some(f) = fen_and_key(rules, keys, &back, back_pos, None, &again, Some(m)) {
                return Ok(Some(f));
            }
        }
    }
    if let (Some((alt, alt_before, last)), Some(_)) = (transposed(rules, line, pos), &shown.key) {
        if let Some(other) = show(checker, &alt)? {
            if let Some(f) = fen_and_key(rules, keys, &alt, pos, Some((&alt_before, last)), &other, None) {
                return Ok(Some(f));
            }
        }
    }
    Ok(None)
}

/// The FEN check (unless `taken_back`: the position was checked already)
/// and the key check of one printed position.
fn fen_and_key<R: Rules>(
    rules: &R,
    keys: &mut KeyBook<R>,
    line: &Line<R>,
    pos: &R::Position,
    before: Option<(&R::Position, R::Move)>,
    shown: &Shown,
    taken_back: Option<R::Move>,
) -> Option<PositionFinding<R>> {
    if taken_back.is_none() {
        let differences = rules.position_text_differences(before, pos, &shown.fen);
        if !differences.is_empty() {
            let problem = PositionProblem::Fen { printed: shown.fen.clone(), differences };
            return Some(PositionFinding { line: line.clone(), problem });
        }
    }
    let key = shown.key.clone()?;
    let (earlier_key, earlier) = keys.check(rules, line, pos, shown)?;
    let problem = PositionProblem::Key { key, earlier_key, earlier, taken_back };
    Some(PositionFinding { line: line.clone(), problem })
}

/// The line with its 4th- and 2nd-last moves (the same side's) swapped,
/// when that is legal and reaches the same position by the same last move:
/// (the line, the position before its last move, the last move).
fn transposed<R: Rules>(rules: &R, line: &Line<R>, pos: &R::Position) -> Option<(Line<R>, R::Position, R::Move)> {
    let n = line.moves.len();
    if n < 4 || line.moves[n - 4] == line.moves[n - 2] {
        return None;
    }
    let mut moves = line.moves.clone();
    moves.swap(n - 4, n - 2);
    let mut p = Line { root: line.root.clone(), moves: moves[..n - 4].to_vec() }.position(rules);
    let mut before = p.clone();
    for &m in &moves[n - 4..] {
        if !rules.legal_moves(&p).contains(&m) {
            return None;
        }
        before = p.clone();
        p = rules.play(&p, m);
    }
    (rules.position_text(&p) == rules.position_text(pos))
        .then(|| (Line { root: line.root.clone(), moves }, before, line.moves[n - 1]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::{Builtin, Divide, Divider, EngineError};
    use crate::verify::walk::Walker;
    use crate::{chess::Chess, Position};
    use std::sync::Arc;

    /// Our generator, printing our FEN and a key that is wrong in one way.
    struct Shows {
        inner: Builtin<Chess>,
        /// The key depends on the number of moves sent.
        key_of_length: bool,
        /// The key depends on the move order (an incremental-key bug).
        key_of_order: bool,
        /// The FEN keeps every castling right of the root.
        keeps_rights: bool,
    }

    impl Divider<Chess> for Shows {
        fn name(&self) -> String {
            "shows".into()
        }

        fn divide(&mut self, line: &Line<Chess>, depth: u32) -> Result<Divide, EngineError> {
            self.inner.divide(line, depth)
        }

        fn show(&mut self, line: &Line<Chess>) -> Result<Option<Shown>, EngineError> {
            let pos = line.position(&Chess::new());
            let mut fen: Vec<String> = pos.to_fen().split(' ').map(str::to_string).collect();
            if self.keeps_rights {
                fen[2] = line.root.to_fen().split(' ').nth(2).unwrap().to_string();
            }
            let mut key = pos.key();
            if self.key_of_length {
                key ^= line.moves.len() as u64;
            }
            if self.key_of_order {
                key ^= line.moves.iter().enumerate().map(|(i, m)| (i as u64 + 1) * u64::from(m.raw())).sum::<u64>();
            }
            Ok(Some(Shown { fen: fen.join(" "), key: Some(format!("{key:016X}")) }))
        }
    }

    fn fuzz(engine: Shows, root: &str) -> Summary<Chess> {
        let chess = Chess::new();
        let mut engine = engine;
        let mut reference = Builtin::new(Arc::new(Chess::new()));
        let mut checker = Checker::new(&chess, &mut engine, &mut reference);
        let mut walker = Walker::new(&chess, vec![Position::from_fen(root).unwrap()], 1);
        let budget = Budget { positions: Some(3000), time: None };
        let options = Options {
            depth: 1,
            auto_depth: false,
            min_depth: 1,
            interrupted: None,
            fen_only: false,
            keep_going: false,
            budget,
            check_positions: true,
            primary: 1,
            retries: 1,
            adaptive_timeout: false,
        };
        run(&mut checker, &mut walker, &options, &mut |_| {}).unwrap()
    }

    fn engine() -> Shows {
        Shows {
            inner: Builtin::new(Arc::new(Chess::new())),
            key_of_length: false,
            key_of_order: false,
            keeps_rights: false,
        }
    }

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    #[test]
    fn a_correct_engine_passes() {
        let s = fuzz(engine(), KIWIPETE);
        assert!(s.first().is_none());
        assert_eq!(s.positions, 3000);
        assert!(s.games > 10, "{} games", s.games);
    }

    #[test]
    fn each_position_bug_is_found() {
        let s = fuzz(Shows { keeps_rights: true, ..engine() }, KIWIPETE);
        let Some(Finding::Position(PositionFinding { problem: PositionProblem::Fen { differences, .. }, .. })) =
            s.first()
        else {
            panic!("no FEN finding")
        };
        assert!(differences[0].starts_with("castling: engine KQkq"), "{differences:?}");
        let s = fuzz(Shows { key_of_length: true, ..engine() }, KIWIPETE);
        // Found where a walk from a root met on another walk reaches a
        // position the other walk passed, with fewer moves.
        assert!(
            matches!(s.first(), Some(Finding::Position(PositionFinding { problem: PositionProblem::Key { .. }, .. }))),
            "no key finding"
        );
        let s = fuzz(Shows { key_of_order: true, ..engine() }, KIWIPETE);
        let Some(Finding::Position(PositionFinding {
            problem: PositionProblem::Key { taken_back, earlier, .. },
            line,
        })) = s.first()
        else {
            panic!("no key finding")
        };
        assert!(taken_back.is_none());
        assert_ne!(earlier.moves, line.moves);
    }

    #[test]
    fn keys_differ_freely_where_the_printed_clocks_differ() {
        // Stockfish and Fairy-Stockfish print a key that mixes in the
        // halfmove clock once it is 14 or more; our variant positions keep
        // no clock, so the engine's printed clock tells the positions apart.
        let rules = Chess::new();
        let line = Line::<Chess>::new(Position::from_fen(KIWIPETE).unwrap());
        let pos = line.position(&rules);
        let shown = |clock: u32, key: &str| Shown {
            fen: format!("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - {clock} 40"),
            key: Some(key.to_string()),
        };
        let mut keys = KeyBook { keys: HashMap::new() };
        assert!(keys.check(&rules, &line, &pos, &shown(18, "AAAA")).is_none());
        assert!(keys.check(&rules, &line, &pos, &shown(22, "BBBB")).is_none());
        assert!(keys.check(&rules, &line, &pos, &shown(22, "CCCC")).is_some());
    }
}
