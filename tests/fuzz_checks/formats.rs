//! Text formats of the hunt and the tools: perft suites (EPD and `.perft`),
//! work-unit manifests, unit and result lines, magic files.

use super::text;
use chesstool::perft::units::{format_result_line, parse_result_line, parse_unit_line, Manifest};
use chesstool::tools::magic::verify as magic;
use chesstool::verify::suite::parse_suite_bytes;

/// A suite that reads has, for every position, counts at distinct depths
/// within the limit, each on a line of the file, and a FEN without `;`.
pub fn suite(data: &[u8]) {
    if data.len() > 16 << 10 {
        return;
    }
    let max_depth = 8;
    let Ok(entries) = parse_suite_bytes("fuzz.epd", data, max_depth) else { return };
    let lines = data.split(|&b| b == b'\n').count();
    for e in &entries {
        assert!(!e.fen.trim().is_empty(), "{}: an empty position", e.origin);
        assert!(e.line() >= 1 && e.line() <= lines, "{}: line {} of {lines}", e.origin, e.line());
        assert_eq!(e.counts.len(), e.count_lines.len(), "{}: counts and their lines", e.origin);
        for (i, &(depth, _)) in e.counts.iter().enumerate() {
            assert!(depth <= max_depth, "{}: depth {depth} over the limit {max_depth}", e.origin);
            assert!(!e.counts[..i].iter().any(|&(d, _)| d == depth), "{}: depth {depth} twice", e.origin);
            let line = e.count_line(depth);
            assert!(line >= 1 && line <= lines, "{}: count line {line} of {lines}", e.origin);
        }
    }
}

/// Work units: a manifest that reads is consistent (records add up, names
/// are plain and distinct) and writes back to JSON that reads the same; a
/// unit line and a result line that read give back their numbers, and a
/// result line written from them reads back the same.
pub fn units(data: &[u8]) {
    let Some(s) = text(data, 16 << 10) else { return };
    if s.trim_start().starts_with('{') {
        let Ok(m) = Manifest::from_text("fuzz.json", s) else { return };
        let records = m.units.iter().try_fold(0u64, |acc, u| acc.checked_add(u.records));
        assert_eq!(records, Some(m.unique), "records do not add up to unique");
        let json = serde_json::to_string(&m).expect("a manifest writes");
        assert_eq!(Manifest::from_text("again.json", &json).as_ref(), Ok(&m), "the manifest does not read back");
        return;
    }
    for line in s.lines().take(256) {
        if let Ok((fen, count)) = parse_unit_line(line) {
            assert!(count > 0 && line.contains(fen), "{line:?}: read as {fen:?} {count}");
        }
        if let Ok(r) = parse_result_line(line) {
            assert!(line.contains(r.fen), "{line:?}: FEN {:?} not in the line", r.fen);
            let written = format_result_line(r.fen, r.count, r.perft);
            let again = parse_result_line(written.trim_end()).unwrap_or_else(|e| panic!("{written:?}: {e}"));
            assert_eq!((again.fen, again.count, again.perft), (r.fen, r.count, r.perft), "{written:?}");
            assert_eq!(again.product, u128::from(r.count) * u128::from(r.perft));
        }
    }
}

/// Magic files: a file that parses verifies or is refused, never panics;
/// a file that verifies writes Rust.
pub fn magic_file(data: &[u8]) {
    let Some(s) = text(data, 16 << 10) else { return };
    let Ok(file) = magic::parse(s) else { return };
    if file.magics.len() > 128 {
        return;
    }
    if let Ok(v) = magic::verify(&file, false) {
        assert!(v.problems.len() as u64 <= v.problem_count, "more problems kept than counted");
        assert_eq!(v.ok(), v.problem_count == 0);
        if v.ok() {
            let _ = magic::to_rust(&file);
        }
    }
}
