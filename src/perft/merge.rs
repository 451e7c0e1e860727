//! Proving a distributed perft before adding it up: every unit has results,
//! every result line repeats its record's FEN and count, every product is
//! count x perft, every unit computed twice agrees line by line, the units
//! are the ones the manifest lists (checksums), sorted and disjoint, and
//! their counts add up to perft(split ply) of the root.

use super::units::{parse_result_line, parse_unit_line, Manifest};
use rayon::prelude::*;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The figures of one unit, proven.
#[derive(Clone, Debug, serde::Serialize)]
pub struct UnitFigures {
    /// The unit's file name.
    pub file: String,
    /// Its number of records (positions).
    pub records: u64,
    /// The records' counts added up.
    pub occurrences: u64,
    /// The products added up.
    pub nodes: u128,
    /// Result files that computed this unit (all agree).
    pub computations: usize,
}

/// The figures of a merge of every unit's results.
#[derive(Clone, Debug)]
pub struct MergeReport {
    /// Each unit's figures.
    pub units: Vec<UnitFigures>,
    /// The perft of the root: every unit's nodes added up.
    pub nodes: u128,
    /// Records in all units.
    pub records: u64,
    /// The records' counts added up.
    pub occurrences: u64,
}

/// Why results cannot be merged.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// The results or units contradict each other (exit 1).
    #[error("{0}")]
    Mismatch(String),
    /// Something cannot be read or is missing (exit 2).
    #[error("{0}")]
    Input(String),
}

use MergeError::{Input, Mismatch};

fn name(p: &Path) -> String {
    p.display().to_string()
}

/// A text file read line by line (bounded), each line with its number.
struct Lines {
    path: PathBuf,
    lines: crate::input::Lines<'static>,
    number: usize,
    /// The last line read, with its end.
    buf: String,
}

impl Lines {
    fn open(path: &Path) -> Result<Lines, MergeError> {
        let lines = crate::input::Input::open(path).and_then(|i| i.lines(crate::input::UNITS));
        let lines = lines.map_err(|e| Input(e.to_string()))?;
        Ok(Lines { path: path.to_path_buf(), lines, number: 0, buf: String::new() })
    }

    /// Reads the next line (with its newline) into `buf`; false at the end.
    fn advance(&mut self) -> Result<bool, MergeError> {
        self.buf.clear();
        match self.lines.next_with_end().map_err(|e| Input(e.to_string()))? {
            Some((n, text)) => {
                self.buf.push_str(text);
                self.number = n as usize;
                Ok(true)
            }
            None => Ok(false),
        }
    }
}

/// The first line of a file (without its line end), if it has one.
fn first_line(path: &Path) -> Result<Option<String>, MergeError> {
    let mut lines = Lines::open(path)?;
    Ok(lines.advance()?.then(|| lines.buf.trim_end().to_string()))
}

/// The message for a unit whose checksum is not the manifest's.
fn changed(unit: &str, sha: &str, expected: &str) -> String {
    format!("unit {unit}: sha256 {sha} is not the manifest's {expected} (the unit changed after the split)")
}

/// The first unit whose checksum is not the manifest's: why a results file
/// may match no unit. Only read on that error path.
fn first_changed_unit(manifest: &Manifest, dir: &Path) -> Result<Option<String>, MergeError> {
    for u in &manifest.units {
        let mut lines = Lines::open(&dir.join(&u.file))?;
        let mut hash = Sha256::new();
        while lines.advance()? {
            hash.update(lines.buf.as_bytes());
        }
        let sha = super::units::hex(&hash.finalize());
        if sha != u.sha256 {
            return Ok(Some(changed(&u.file, &sha, &u.sha256)));
        }
    }
    Ok(None)
}

/// The file name up to its first dot (`unit-000003` for `unit-000003.out`).
fn stem(path: &Path) -> String {
    let file = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    file.split('.').next().unwrap_or_default().to_string()
}

/// Which unit each results file belongs to: the unit whose first record its
/// first line repeats, or else the unit whose name it carries.
fn assign(manifest: &Manifest, dir: &Path, results: &[PathBuf]) -> Result<Vec<Vec<PathBuf>>, MergeError> {
    let mut by_first = HashMap::new();
    let mut by_stem = HashMap::new();
    for (i, u) in manifest.units.iter().enumerate() {
        let path = dir.join(&u.file);
        let line = first_line(&path)?.ok_or_else(|| Mismatch(format!("unit {}: empty file", u.file)))?;
        let (fen, _) = parse_unit_line(&line).map_err(|e| Mismatch(format!("unit {} line 1: {e}", u.file)))?;
        by_first.insert(fen.to_string(), i);
        by_stem.insert(stem(&path), i);
    }
    let mut seen = std::collections::HashSet::new();
    let mut per_unit = vec![Vec::new(); manifest.units.len()];
    for r in results {
        let canonical = std::fs::canonicalize(r).map_err(|e| Input(format!("{}: {e}", name(r))))?;
        if !seen.insert(canonical) {
            return Err(Input(format!("{}: results file given twice", name(r))));
        }
        let line = first_line(r)?.ok_or_else(|| Input(format!("{}: empty results file", name(r))))?;
        // A line that does not read is the same fault as on any later line.
        let fen = parse_result_line(&line).map_err(|e| Mismatch(format!("results {} line 1: {e}", name(r))))?.fen;
        let unit = match by_first.get(fen).or_else(|| by_stem.get(&stem(r))) {
            Some(&unit) => unit,
            // An edited unit no longer starts with the record its results repeat.
            None => match first_changed_unit(manifest, dir)? {
                Some(message) => return Err(Mismatch(message)),
                None => {
                    return Err(Input(format!(
                        "{} line 1: {fen:?} is the first record of no unit, and the name is no unit's",
                        name(r)
                    )))
                }
            },
        };
        per_unit[unit].push(r.clone());
    }
    for (u, rs) in manifest.units.iter().zip(&per_unit) {
        if rs.is_empty() {
            return Err(Input(format!("unit {}: no results among the {} file(s) given", u.file, results.len())));
        }
    }
    Ok(per_unit)
}

/// A unit's figures and its first and last FEN (to check the order across units).
struct Checked {
    figures: UnitFigures,
    first: String,
    last: String,
}

fn check_unit(manifest: &Manifest, dir: &Path, index: usize, results: &[PathBuf]) -> Result<Checked, MergeError> {
    let entry = &manifest.units[index];
    let unit = &entry.file;
    let mut input = Lines::open(&dir.join(unit))?;
    let mut outputs = results.iter().map(|r| Lines::open(r)).collect::<Result<Vec<_>, _>>()?;
    let mut hash = Sha256::new();
    let (mut first, mut last) = (String::new(), String::new());
    let mut figures =
        UnitFigures { file: unit.clone(), records: 0, occurrences: 0, nodes: 0, computations: results.len() };
    while input.advance()? {
        let (raw, n) = (&input.buf, input.number);
        hash.update(raw.as_bytes());
        let at = |what: String| Mismatch(format!("unit {unit} line {n}: {what}"));
        if !raw.ends_with('\n') {
            return Err(at("the last line has no newline (the file was cut short)".into()));
        }
        let (fen, count) = parse_unit_line(raw.trim_end()).map_err(at)?;
        if n > 1 && fen <= last.as_str() {
            return Err(at(format!("{fen:?} does not come after line {} (records are sorted, each once)", n - 1)));
        }
        let mut perft = None;
        for out in outputs.iter_mut() {
            let rname = name(&out.path);
            if !out.advance()? {
                return Err(at(format!("missing from results {rname}, which ends after line {}", n - 1)));
            }
            let r = parse_result_line(out.buf.trim_end()).map_err(|e| at(format!("results {rname}: {e}")))?;
            if r.fen != fen || r.count != count {
                return Err(at(format!("results {rname} have {:?} {}, the unit has {fen:?} {count}", r.fen, r.count)));
            }
            if r.product != u128::from(r.count) * u128::from(r.perft) {
                return Err(at(format!("results {rname}: product {} is not {} x {}", r.product, r.count, r.perft)));
            }
            match perft {
                None => perft = Some((r.perft, rname)),
                Some((p, ref other)) if p != r.perft => {
                    return Err(at(format!("the computations disagree: perft {p} in {other}, {} in {rname}", r.perft)));
                }
                Some(_) => {}
            }
        }
        let (p, _) = perft.expect("at least one result per unit");
        figures.records += 1;
        figures.occurrences += count;
        figures.nodes += u128::from(count) * u128::from(p);
        if n == 1 {
            first = fen.to_string();
        }
        last = fen.to_string();
    }
    for out in outputs.iter_mut() {
        if out.advance()? {
            return Err(Mismatch(format!(
                "unit {unit} line {}: results {} go on past the unit's {} records",
                out.number,
                name(&out.path),
                figures.records
            )));
        }
    }
    if figures.records != entry.records {
        return Err(Mismatch(format!("unit {unit}: {} records, the manifest says {}", figures.records, entry.records)));
    }
    let sha = super::units::hex(&hash.finalize());
    if sha != entry.sha256 {
        return Err(Mismatch(changed(unit, &sha, &entry.sha256)));
    }
    Ok(Checked { figures, first, last })
}

/// Checks everything and adds up; `perft_at_split` is perft(split ply) of
/// the root, computed by the caller. `on_unit` is called per unit checked.
pub fn merge(
    manifest: &Manifest,
    dir: &Path,
    results: &[PathBuf],
    perft_at_split: u64,
    on_unit: &(dyn Fn() + Sync),
) -> Result<MergeReport, MergeError> {
    let per_unit = assign(manifest, dir, results)?;
    let checked: Vec<Result<Checked, MergeError>> = (0..manifest.units.len())
        .into_par_iter()
        .map(|i| {
            let c = check_unit(manifest, dir, i, &per_unit[i]);
            on_unit();
            c
        })
        .collect();
    let mut units = Vec::with_capacity(checked.len());
    let mut previous: Option<(String, String)> = None;
    for (c, entry) in checked.into_iter().zip(&manifest.units) {
        let c = c?;
        if let Some((file, last)) = &previous {
            if c.first <= *last {
                return Err(Mismatch(format!(
                    "unit {} line 1: {:?} does not come after the last record of unit {file} (units are sorted and disjoint)",
                    entry.file, c.first
                )));
            }
        }
        previous = Some((entry.file.clone(), c.last));
        units.push(c.figures);
    }
    let records: u64 = units.iter().map(|u| u.records).sum();
    let occurrences: u64 = units.iter().map(|u| u.occurrences).sum();
    if records != manifest.unique {
        return Err(Mismatch(format!(
            "the units hold {records} records, the manifest says unique {}",
            manifest.unique
        )));
    }
    if occurrences != manifest.sum_counts || occurrences != perft_at_split {
        return Err(Mismatch(format!(
            "the counts add up to {occurrences}, the manifest says {}, and perft({}) of the root is {perft_at_split}",
            manifest.sum_counts, manifest.split_ply
        )));
    }
    let nodes = units.iter().map(|u| u.nodes).sum();
    Ok(MergeReport { units, nodes, records, occurrences })
}
