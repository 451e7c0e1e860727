//! The files of a distributed perft: the manifest, the unit files (`FEN
//! count` lines, N records each) and the result lines (`FEN count perft
//! product`).

use super::split::Record;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// `DIR/manifest.json`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The root position (FEN).
    pub root: String,
    /// The ply at which the tree was split into units.
    pub split_ply: u32,
    /// The depth of the whole perft; each unit record is searched
    /// `depth - split_ply` plies.
    pub depth: u32,
    /// Records in all units (unique positions at `split_ply`).
    pub unique: u64,
    /// Their counts added up: perft(`split_ply`) of the root.
    pub sum_counts: u64,
    /// The unit files.
    pub units: Vec<UnitEntry>,
}

/// One unit file of a manifest.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct UnitEntry {
    /// File name, relative to the manifest's directory.
    pub file: String,
    /// Its number of records.
    pub records: u64,
    /// SHA-256 of the file's bytes, lower-case hex.
    pub sha256: String,
}

/// The manifest's file name in the units directory.
pub const MANIFEST_NAME: &str = "manifest.json";

impl Manifest {
    /// Reads and checks a manifest: names are plain file names, each listed
    /// once, checksums are hex, records add up to `unique`.
    pub fn read(path: &Path) -> Result<Manifest, String> {
        let input = crate::input::Input::open(path);
        let text = input.and_then(|i| i.text(crate::input::UNITS)).map_err(|e| e.to_string())?;
        Manifest::from_text(&path.display().to_string(), &text)
    }

    /// Reads and checks the text of a manifest (`name` only names it in
    /// messages).
    pub fn from_text(name: &str, text: &str) -> Result<Manifest, String> {
        let m: Manifest = serde_json::from_str(text).map_err(|e| format!("{name}: not a manifest: {e}"))?;
        let bad = |what: String| Err(format!("{name}: {what}"));
        if m.split_ply > m.depth || m.depth > super::MAX_DEPTH {
            return bad(format!(
                "split_ply {} and depth {} (need split_ply <= depth <= {})",
                m.split_ply,
                m.depth,
                super::MAX_DEPTH
            ));
        }
        let mut names = std::collections::HashSet::new();
        for u in &m.units {
            if u.file.is_empty() || u.file.contains(['/', '\\']) || u.file.starts_with('.') {
                return bad(format!("unit file {:?} is not a plain file name", u.file));
            }
            if !names.insert(&u.file) {
                return bad(format!("unit {} is listed twice", u.file));
            }
            if u.sha256.len() != 64 || !u.sha256.bytes().all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c)) {
                return bad(format!("unit {}: sha256 {:?} is not 64 lower-case hex digits", u.file, u.sha256));
            }
            if u.records == 0 {
                return bad(format!("unit {} has no records", u.file));
            }
        }
        // Checked: a hostile manifest's records could overflow a plain sum.
        let records = m.units.iter().try_fold(0u64, |sum, u| sum.checked_add(u.records));
        let Some(records) = records else {
            return bad("the units' records add up to more than 2^64".to_string());
        };
        if records != m.unique {
            return bad(format!("the units hold {records} records, but unique is {}", m.unique));
        }
        Ok(m)
    }

    /// Writes the manifest (to a temporary name first, so that a manifest
    /// that exists is complete).
    pub fn write(&self, dir: &Path) -> std::io::Result<()> {
        let tmp = dir.join(format!("{MANIFEST_NAME}.tmp"));
        let mut f = File::create(&tmp)?;
        writeln!(f, "{}", serde_json::to_string_pretty(self).map_err(std::io::Error::other)?)?;
        f.sync_all()?;
        std::fs::rename(tmp, dir.join(MANIFEST_NAME))
    }
}

/// Writes records into unit files of `unit_size` lines each
/// (`unit-000000.txt`, ...), hashing them as it goes.
pub struct UnitWriter {
    dir: PathBuf,
    unit_size: u64,
    open: Option<OpenUnit>,
    done: Vec<UnitEntry>,
    line: String,
}

struct OpenUnit {
    file: BufWriter<File>,
    hash: Sha256,
    entry: UnitEntry,
}

impl UnitWriter {
    /// A writer of units of at most `unit_size` records into `dir`.
    pub fn new(dir: &Path, unit_size: u64) -> UnitWriter {
        UnitWriter {
            dir: dir.to_path_buf(),
            unit_size: unit_size.max(1),
            open: None,
            done: Vec::new(),
            line: String::new(),
        }
    }

    /// Appends a record, opening the next unit file when one is full.
    pub fn push(&mut self, record: &Record) -> std::io::Result<()> {
        if self.open.is_none() {
            let name = format!("unit-{:06}.txt", self.done.len());
            let file = BufWriter::with_capacity(1 << 16, File::create_new(self.dir.join(&name))?);
            let entry = UnitEntry { file: name, records: 0, sha256: String::new() };
            self.open = Some(OpenUnit { file, hash: Sha256::new(), entry });
        }
        let unit = self.open.as_mut().expect("opened above");
        self.line.clear();
        record.key.write_fen(&mut self.line);
        self.line.push(' ');
        self.line.push_str(&record.count.to_string());
        self.line.push('\n');
        unit.file.write_all(self.line.as_bytes())?;
        unit.hash.update(self.line.as_bytes());
        unit.entry.records += 1;
        if unit.entry.records == self.unit_size {
            self.close()?;
        }
        Ok(())
    }

    fn close(&mut self) -> std::io::Result<()> {
        if let Some(mut unit) = self.open.take() {
            unit.file.flush()?;
            unit.file.get_ref().sync_all()?;
            unit.entry.sha256 = hex(&unit.hash.finalize());
            self.done.push(unit.entry);
        }
        Ok(())
    }

    /// Closes the last unit; the entries for the manifest.
    pub fn finish(mut self) -> std::io::Result<Vec<UnitEntry>> {
        self.close()?;
        Ok(self.done)
    }
}

/// Bytes as lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of a file, hex.
pub fn sha256_file(path: &Path) -> std::io::Result<String> {
    let mut f = File::open(path)?;
    let mut hash = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            return Ok(hex(&hash.finalize()));
        }
        hash.update(&buf[..n]);
    }
}

/// Splits `line` (no newline) into the FEN and the numbers after it: the
/// last `numbers` words are numbers, the words before them the FEN.
fn split_numbers<const N: usize>(line: &str) -> Result<(&str, [&str; N]), String> {
    let mut rest = line.trim_end();
    let mut numbers = [""; N];
    for slot in numbers.iter_mut().rev() {
        let cut = rest.rfind(' ').ok_or_else(|| format!("expected a FEN and {N} number(s), found {line:?}"))?;
        *slot = &rest[cut + 1..];
        rest = rest[..cut].trim_end();
    }
    if rest.is_empty() {
        return Err(format!("expected a FEN and {N} number(s), found {line:?}"));
    }
    Ok((rest, numbers))
}

fn number<T: std::str::FromStr>(word: &str, what: &str) -> Result<T, String> {
    if word.is_empty() || !word.bytes().all(|c| c.is_ascii_digit()) {
        return Err(format!("{what} {word:?} is not a number"));
    }
    word.parse().map_err(|_| format!("{what} {word} is out of range"))
}

/// A unit line `FEN count`.
pub fn parse_unit_line(line: &str) -> Result<(&str, u64), String> {
    let (fen, [count]) = split_numbers::<1>(line)?;
    let count = number(count, "count")?;
    if count == 0 {
        return Err("count 0: every record occurs at least once".to_string());
    }
    Ok((fen, count))
}

/// One line of a unit's results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultLine<'a> {
    /// The position.
    pub fen: &'a str,
    /// Move sequences from the root that reach it.
    pub count: u64,
    /// Its perft at the unit's depth.
    pub perft: u64,
    /// `count` times `perft`.
    pub product: u128,
}

/// A result line `FEN count perft product`.
pub fn parse_result_line(line: &str) -> Result<ResultLine<'_>, String> {
    let (fen, [count, perft, product]) = split_numbers::<3>(line)?;
    Ok(ResultLine {
        fen,
        count: number(count, "count")?,
        perft: number(perft, "perft")?,
        product: number(product, "product")?,
    })
}

/// The result line for a record (with its newline).
pub fn format_result_line(fen: &str, count: u64, perft: u64) -> String {
    format!("{fen} {count} {perft} {}\n", u128::from(count) * u128::from(perft))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines() {
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -";
        assert_eq!(parse_unit_line(&format!("{fen} 3")), Ok((fen, 3)));
        assert!(parse_unit_line(&format!("{fen} 0")).is_err());
        assert!(parse_unit_line(&format!("{fen} -3")).is_err());
        assert!(parse_unit_line("3").is_err());
        let line = format_result_line(fen, 3, u64::MAX);
        let parsed = parse_result_line(line.trim_end()).unwrap();
        assert_eq!(parsed.product, 3 * u128::from(u64::MAX));
        assert_eq!((parsed.fen, parsed.count, parsed.perft), (fen, 3, u64::MAX));
        assert!(parse_result_line(&format!("{fen} 3 20")).unwrap_err().contains("number"));
        assert!(parse_result_line(&format!("{fen} 3 20 6x")).is_err());
    }
}
