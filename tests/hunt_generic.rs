//! The hunt serves any game: a toy game (take 1, 2 or 3 stones from a pile)
//! implements `Rules` here, and a small awk script that plays it through
//! perftree's script protocol, with an injected bug, is diffed and bisected
//! by the same engines/verify code that hunts chess bugs.

use chesstool::engines::{Builtin, DivideFormat, Divider, Line, SavedDivide, ScriptEngine};
use chesstool::rules::{Hint, ReadMoveError, Rules};
use chesstool::verify::bisect::Checker;
use chesstool::verify::diff::diff_divides;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Take-away: a position is the number of stones left; a move `tK` takes K
/// of them (1 to 3, no more than are left). The game ends at 0 stones.
struct TakeAway;

impl TakeAway {
    fn count(&self, n: u32, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal_moves(&n).into_iter().map(|k| self.count(n - u32::from(k), depth - 1)).sum()
    }
}

impl Rules for TakeAway {
    type Position = u32;
    type Move = u8;
    type PositionError = std::num::ParseIntError;

    fn name(&self) -> String {
        "take-away".to_string()
    }

    fn parse_position(&self, text: &str) -> Result<u32, Self::PositionError> {
        text.trim().parse()
    }

    fn position_text(&self, pos: &u32) -> String {
        pos.to_string()
    }

    fn legal_moves(&self, pos: &u32) -> Vec<u8> {
        (1..=3u8).filter(|&k| u32::from(k) <= *pos).collect()
    }

    fn play(&self, pos: &u32, mv: u8) -> u32 {
        pos - u32::from(mv)
    }

    fn move_text(&self, _pos: &u32, mv: u8) -> String {
        format!("t{mv}")
    }

    fn read_move(&self, pos: &u32, text: &str) -> Result<u8, ReadMoveError> {
        let k: u8 = text
            .strip_prefix('t')
            .and_then(|k| k.parse().ok())
            .filter(|k| (1..=9).contains(k))
            .ok_or_else(|| ReadMoveError::Syntax(text.to_string()))?;
        if self.legal_moves(pos).contains(&k) {
            Ok(k)
        } else {
            Err(ReadMoveError::Illegal { text: text.to_string(), canonical: Some(format!("t{k}")) })
        }
    }

    fn divide(&self, pos: &u32, depth: u32) -> Vec<(u8, u64)> {
        self.legal_moves(pos).into_iter().map(|k| (k, self.count(pos - u32::from(k), depth - 1))).collect()
    }

    fn max_depth(&self) -> u32 {
        30
    }

    fn extra_hint(&self, pos: &u32, text: &str) -> Option<Hint> {
        let k: u32 = text.strip_prefix('t')?.parse().ok()?;
        Some(Hint::new(if k > 3 {
            format!("takes {k} stones, more than 3")
        } else {
            format!("takes {k} of {pos} stones")
        }))
    }
}

/// The engine under test: perftree's protocol (`sh toy.sh DEPTH POS
/// [MOVES]`), with a bug: from a pile of 5 it may also take 4.
const TOY_ENGINE: &str = r#"
awk -v depth="$1" -v pos="$2" -v moves="$3" '
function legal(n, k) { return k <= 3 && k <= n || (n == 5 && k == 4) }
function perft(n, d,   k, s) {
    if (d == 0) return 1
    s = 0
    for (k = 1; k <= 4; k++) if (legal(n, k)) s += perft(n - k, d - 1)
    return s
}
BEGIN {
    n = pos + 0
    c = split(moves, m, " ")
    for (i = 1; i <= c; i++) n -= substr(m[i], 2) + 0
    total = 0
    for (k = 1; k <= 4; k++) if (legal(n, k)) { x = perft(n - k, depth - 1); print "t" k " " x; total += x }
    print ""
    print total
}'
"#;

fn toy_engine(test: &str) -> (PathBuf, ScriptEngine<TakeAway>) {
    let dir = std::env::temp_dir().join(format!("chesstool-hunt-generic-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("toy.sh");
    std::fs::write(&script, TOY_ENGINE).unwrap();
    let words = vec!["sh".to_string(), script.display().to_string()];
    let engine = ScriptEngine::new(Arc::new(TakeAway), "toy.sh", words, Duration::from_secs(20), DivideFormat::Auto);
    (dir, engine)
}

#[test]
fn the_same_bisection_finds_a_bug_in_a_toy_game() {
    let rules = Arc::new(TakeAway);
    let (dir, mut engine) = toy_engine("bug");
    let mut reference = Builtin::new(Arc::clone(&rules));
    let mut checker = Checker::new(&*rules, &mut engine, &mut reference);
    let root = rules.parse_position("12").unwrap();
    let report = checker.check(&Line::new(root), 6, true).unwrap();
    let calls = checker.engine_calls;
    drop(checker);
    std::fs::remove_dir_all(&dir).unwrap();

    // By hand: the bug needs a pile of 5, i.e. 7 stones taken from 12. Two
    // moves take at most 6, three can take 7, so the position after three
    // moves is the first that can be a pile of 5, and its move list is
    // counted first at depth 4.
    assert_eq!(report.root_depth, 4, "{report:?}");
    let w = report.witness.expect("the bug is found");
    // The witness is a pile of 5 where the engine lists `t4` besides t1-t3.
    assert_eq!(w.line.position(&*rules), 5, "{w:?}");
    assert_eq!(w.depth, 1);
    assert!(w.diff.missing.is_empty());
    assert_eq!(w.diff.extra.len(), 1);
    assert_eq!(w.diff.extra[0].mv, "t4");
    assert_eq!(w.diff.extra[0].hint.as_deref(), Some("takes 4 stones, more than 3"));
    // The path is moves of the game, and the engine was asked with them.
    let taken: u32 = w.line.moves.iter().map(|&k| u32::from(k)).sum();
    assert_eq!(taken, 7);
    assert!(w.line.move_texts(&*rules).iter().all(|m| m.starts_with('t')));
    assert!(calls >= 4, "{calls}");
}

#[test]
fn the_engine_agrees_where_the_bug_cannot_show() {
    let rules = Arc::new(TakeAway);
    let (dir, mut engine) = toy_engine("agree");
    let mut reference = Builtin::new(Arc::clone(&rules));
    let mut checker = Checker::new(&*rules, &mut engine, &mut reference);
    // From 4 stones no pile of 5 is ever reached.
    let report = checker.check(&Line::new(4), 5, true).unwrap();
    drop(checker);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(report.witness.is_none() && report.root.is_match());
    // perft(4, 5) is 0: five moves take at least 5 stones, more than 4.
    assert_eq!(report.root.reference_total, 0);
}

#[test]
fn a_pasted_toy_divide_is_read_by_meaning() {
    let rules = TakeAway;
    // Depth 2 from 5 stones by hand: t1 -> 4 stones, 3 moves; t2 -> 3, 3;
    // t3 -> 2, 2 moves. The paste also lists the illegal t4 (-> 1 stone, 1).
    let paste = "toy engine 0.1\nt1: 3\nt2: 3\nt3: 2\nt4: 1\n\nNodes searched: 9\n";
    let mut saved = SavedDivide::parse("paste", paste, DivideFormat::Auto).unwrap();
    assert_eq!(saved.skipped().banner, 1);
    let line: Line<TakeAway> = Line::new(5);
    let pasted = Divider::<TakeAway>::divide(&mut saved, &line, 2).unwrap();
    let ours = Builtin::new(Arc::new(TakeAway)).divide(&line, 2).unwrap();
    assert_eq!(ours.nodes(), 8);
    let diff = diff_divides(&rules, &5, &pasted, &ours).unwrap();
    assert_eq!(diff.extra.iter().map(|x| x.mv.as_str()).collect::<Vec<_>>(), ["t4"]);
    assert!(diff.missing.is_empty() && diff.counts.is_empty());
}
