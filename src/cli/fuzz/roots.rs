//! The roots of `fuzz`'s walks: the built-in ones (for chess the standard
//! start, the CPW positions and the shipped suites, compiled in so that the
//! binary needs no files) or a list the user gives (`--roots FILE`).

use crate::cli::common::read_input_bytes;
use crate::cli::hunt::clip_message;
use chesstool::chess::motifs::{self, Case};
use chesstool::chess::Chess;
use chesstool::engines::{clip, Line};
use chesstool::rules::Rules;
use chesstool::variants::board::Position as VariantPosition;
use chesstool::variants::hunt::{motifs as variant_motifs, VariantRules};
use chesstool::verify::walk::SplitMix64;
use std::path::Path;

/// The chess suites, in order: the standard start and the six CPW positions
/// first (every other game starts from one of them), then the rest.
const CHESS_SUITES: [&str; 4] = [
    include_str!("../../../suites/standard.epd"),
    include_str!("../../../suites/tricky.epd"),
    include_str!("../../../suites/chess960.epd"),
    include_str!("../../../suites/random.epd"),
];

/// The built-in chess roots and how many of them are the primary ones.
pub fn chess_roots<R: Rules>(rules: &R) -> (Vec<R::Position>, usize) {
    let mut roots = Vec::new();
    let mut primary = 0;
    for (i, text) in CHESS_SUITES.iter().enumerate() {
        let parsed = parse_list(rules, text).expect("the shipped suites are valid");
        if i == 0 {
            primary = parsed.len();
        }
        roots.extend(parsed);
    }
    (roots, primary)
}

/// One line for each case of each motif of `chess::motifs`, drawn from
/// `seed`, in the cases' order: the first lines a chess run looks at.
pub fn motif_roots(seed: u64) -> Vec<Line<Chess>> {
    let mut rng = SplitMix64::new(seed ^ MOTIF_SEED);
    Case::all()
        .into_iter()
        .filter_map(|case| motifs::build_case(case, &mut |n| rng.below(n)))
        .map(|s| Line { root: s.root, moves: s.moves })
        .collect()
}

/// Keeps the motif positions' draws apart from the walks' (same seed).
const MOTIF_SEED: u64 = 0x6d6f_7469_6673;

/// One line from the variant's start for each case of its rules that a
/// seeded game reaches (`variants::hunt::motifs`), in the cases' order.
pub fn variant_motif_lines(rules: &VariantRules, start: &VariantPosition, seed: u64) -> Vec<Line<VariantRules>> {
    let mut rng = SplitMix64::new(seed ^ VARIANT_MOTIF_SEED);
    variant_motifs::motif_lines(&rules.variant, start, &mut |n| rng.below(n))
        .into_iter()
        .map(|(_, moves)| Line { root: start.clone(), moves })
        .collect()
}

/// Keeps a variant's motif games apart from the walks (same seed).
const VARIANT_MOTIF_SEED: u64 = 0x7661_726d_6f74;

/// The positions of `--roots FILE` (`-`: standard input).
pub fn read_roots<R: Rules>(rules: &R, path: &Path) -> anyhow::Result<Vec<R::Position>> {
    let (name, bytes) = read_input_bytes(path, chesstool::input::SUITE)?;
    let text = String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("--roots {name}: not UTF-8 text"))?;
    let roots = parse_list(rules, &text).map_err(|e| anyhow::anyhow!("--roots {name}: {e}"))?;
    if roots.is_empty() {
        anyhow::bail!("--roots {name}: no positions (one FEN or EPD line each; `#` starts a comment)");
    }
    Ok(roots)
}

/// One position a line: a FEN, or an EPD line (four fields, then operations
/// such as `bm e4;` or a suite's `;D1 20`); blank and `#` lines skipped.
fn parse_list<R: Rules>(rules: &R, text: &str) -> Result<Vec<R::Position>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split(';').next().unwrap_or("").trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        out.push(parse_line(rules, line).map_err(|e| format!("line {}: {e}", i + 1))?);
    }
    Ok(out)
}

fn parse_line<R: Rules>(rules: &R, line: &str) -> Result<R::Position, String> {
    let first = match rules.parse_position(line) {
        Ok(pos) => return Ok(pos),
        Err(e) => clip_message(&e),
    };
    // EPD: the first four fields, then operations; the clocks start at 0 1.
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() > 4 {
        if let Ok(pos) = rules.parse_position(&format!("{} 0 1", fields[..4].join(" "))) {
            return Ok(pos);
        }
    }
    Err(format!("{:?}: {first}", clip(line)))
}
