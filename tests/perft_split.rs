//! `chesstool perft split | unit | merge` end to end: merged totals against
//! published perft counts (Chess Programming Wiki; the Chess960 one from
//! Stockfish 15.1 in suites/chess960.epd), the unique-position counts of the
//! start position (OEIS A083276), resuming an interrupted unit, two Zobrist
//! seeds, and every kind of corruption merge must catch.

use assert_cmd::Command;
use std::path::{Path, PathBuf};

mod common;
use common::TempDir;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POS3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const POS4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const POS5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
const CHESS960: &str = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1";

fn chesstool() -> Command {
    let mut cmd = Command::cargo_bin("chesstool").unwrap();
    cmd.env_remove("RUST_BACKTRACE").env_remove("RUST_LIB_BACKTRACE");
    cmd
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `perft split` into `dir/split`; the manifest's path.
fn split(dir: &Path, fen: &str, ply: u32, depth: u32, unit_size: u32) -> PathBuf {
    let out = dir.join("split");
    chesstool()
        .args(["perft", "split", "--fen", fen, "-q"])
        .args(["--split-ply", &ply.to_string(), "--depth", &depth.to_string(), "--unit-size", &unit_size.to_string()])
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    out.join("manifest.json")
}

fn manifest_json(manifest: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(manifest).unwrap()).unwrap()
}

/// The unit files in manifest order.
fn units(manifest: &Path) -> Vec<PathBuf> {
    let dir = manifest.parent().unwrap();
    manifest_json(manifest)["units"].as_array().unwrap().iter().map(|u| dir.join(u["file"].as_str().unwrap())).collect()
}

/// Runs every unit; the results files (`unit-N.out` beside each unit, or
/// `unit-N.SUFFIX`).
fn run_units(manifest: &Path, suffix: &str, extra: &[&str]) -> Vec<PathBuf> {
    units(manifest)
        .iter()
        .map(|u| {
            let out = u.with_extension(suffix);
            chesstool().args(["perft", "unit", "-q"]).arg(u).arg("-o").arg(&out).args(extra).assert().success();
            out
        })
        .collect()
}

fn merge_json(manifest: &Path, results: &[PathBuf]) -> serde_json::Value {
    let out = chesstool().args(["perft", "merge", "--json"]).arg(manifest).args(results).assert().success();
    serde_json::from_slice(&out.get_output().stdout).unwrap()
}

#[test]
fn merged_totals_equal_published_perft() {
    // (root, split ply, depth, perft(split ply), perft(depth)), all published.
    let cases: [(&str, u32, u32, u64, u64); 9] = [
        ("startpos", 1, 4, 20, 197_281),
        ("startpos", 3, 5, 8_902, 4_865_609),
        ("startpos", 0, 3, 1, 8_902),
        ("startpos", 3, 3, 8_902, 8_902),
        (KIWIPETE, 2, 4, 2_039, 4_085_603),
        (POS3, 3, 6, 2_812, 11_030_083),
        (POS4, 2, 4, 264, 422_333),
        (POS5, 1, 3, 44, 62_379),
        (CHESS960, 2, 4, 400, 201_143),
    ];
    for (fen, ply, depth, at_split, total) in cases {
        let dir = TempDir::new("published");
        let manifest = split(&dir.0, fen, ply, depth, 700);
        let m = manifest_json(&manifest);
        assert_eq!(m["sum_counts"], at_split, "{fen} ply {ply}");
        let results = run_units(&manifest, "out", &["--hash", "4"]);
        let merged = merge_json(&manifest, &results);
        assert_eq!(merged["nodes"], total, "{fen} split at {ply}, depth {depth}");
        assert_eq!(merged["status"], "ok");
        assert_eq!(merged["units"], results.len());
        assert_eq!(merged["depth"], depth);
    }
}

#[test]
fn unique_positions_of_the_start_position() {
    // OEIS A083276: 20, 400, 5362, 72078, 822518 distinct positions after 1..5 plies.
    let dir = TempDir::new("unique");
    let out = chesstool()
        .args(["perft", "split", "--split-ply", "5", "--depth", "5", "--json", "-o"])
        .arg(dir.0.join("s"))
        .assert()
        .success();
    let report: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let unique: Vec<u64> = report["rows"].as_array().unwrap().iter().map(|p| p["unique"].as_u64().unwrap()).collect();
    assert_eq!(unique, [20, 400, 5362, 72078, 822_518]);
    assert_eq!(report["sum_counts"], 4_865_609u64, "perft(5)");
    let m = manifest_json(&dir.0.join("s/manifest.json"));
    assert_eq!(m["unique"], 822_518);
    assert_eq!(m["units"].as_array().unwrap().len(), 9, "100,000 records a unit");
}

#[test]
#[ignore = "ply 6 takes about 10 s of CPU in release mode"]
fn unique_positions_at_ply_six() {
    let dir = TempDir::new("unique6");
    chesstool()
        .args(["perft", "split", "--split-ply", "6", "--depth", "6", "-q", "-o"])
        .arg(dir.0.join("s"))
        .assert()
        .success();
    let m = manifest_json(&dir.0.join("s/manifest.json"));
    assert_eq!(m["unique"], 9_417_681u64, "OEIS A083276");
    assert_eq!(m["sum_counts"], 119_060_324u64);
}

#[test]
fn units_are_sorted_sized_and_checksummed() {
    let dir = TempDir::new("sorted");
    let manifest = split(&dir.0, KIWIPETE, 2, 3, 300);
    let m = manifest_json(&manifest);
    let mut all = Vec::new();
    for (entry, path) in m["units"].as_array().unwrap().iter().zip(units(&manifest)) {
        let body = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = body.lines().collect();
        assert!(lines.len() <= 300);
        assert_eq!(entry["records"], lines.len());
        // coreutils' sha256sum, not our code, for the checksum.
        let sum = std::process::Command::new("sha256sum").arg(&path).output().unwrap();
        assert_eq!(text(&sum.stdout).split(' ').next().unwrap(), entry["sha256"].as_str().unwrap());
        for line in lines {
            // A FEN of four fields and a count.
            assert_eq!(line.split(' ').count(), 5, "{line}");
            all.push(line.rsplit_once(' ').unwrap().0.to_string());
        }
    }
    assert_eq!(all.len(), m["unique"].as_u64().unwrap() as usize);
    assert!(all.windows(2).all(|w| w[0].as_bytes() < w[1].as_bytes()), "sorted bytewise, each position once");
}

#[test]
fn two_zobrist_seeds_agree_and_merge_as_two_computations() {
    let dir = TempDir::new("seeds");
    let manifest = split(&dir.0, KIWIPETE, 1, 4, 20);
    // A tiny table (1 MiB): many replacements, the keys matter.
    let a = run_units(&manifest, "a.out", &["--hash", "1"]);
    let b = run_units(&manifest, "b.out", &["--hash", "1", "--zobrist-seed", "12345"]);
    let both: Vec<PathBuf> = a.iter().chain(&b).cloned().collect();
    let merged = merge_json(&manifest, &both);
    assert_eq!(merged["nodes"], 4_085_603);
    assert!(merged["rows"].as_array().unwrap().iter().all(|u| u["computations"] == 2));
}

#[test]
fn merge_sums_past_two_to_the_64() {
    // Results whose perft values merge cannot check (only their form and
    // products): 20 records of perft 10^18 make 2 x 10^19 > 2^64.
    let dir = TempDir::new("u128");
    let manifest = split(&dir.0, "startpos", 1, 20, 100);
    let unit = &units(&manifest)[0];
    let mut fake = String::new();
    for line in std::fs::read_to_string(unit).unwrap().lines() {
        let (fen, count) = line.rsplit_once(' ').unwrap();
        let perft = 1_000_000_000_000_000_000u128;
        fake.push_str(&format!("{fen} {count} {perft} {}\n", perft * count.parse::<u128>().unwrap()));
    }
    let results = dir.0.join("fake.out");
    std::fs::write(&results, fake).unwrap();
    let out = chesstool().args(["perft", "merge", "--json"]).arg(&manifest).arg(&results).assert().success();
    let stdout = text(&out.get_output().stdout);
    assert!(stdout.contains("\"nodes\": 20000000000000000000,"), "{stdout}");
}

#[test]
fn an_interrupted_unit_resumes_after_its_last_complete_line() {
    let dir = TempDir::new("resume");
    let manifest = split(&dir.0, "startpos", 2, 5, 400);
    let unit = &units(&manifest)[0];
    let full = dir.0.join("full.out");
    chesstool().args(["perft", "unit", "-q"]).arg(unit).arg("-o").arg(&full).assert().success();
    let expected = std::fs::read_to_string(&full).unwrap();
    assert_eq!(expected.lines().count(), 400);
    // Cut inside line 31: 30 complete lines and a partial one.
    let cut: usize = expected.lines().take(30).map(|l| l.len() + 1).sum::<usize>() + 20;
    let partial = dir.0.join("partial.out");
    std::fs::write(&partial, &expected[..cut]).unwrap();
    let out = chesstool().args(["perft", "unit"]).arg(unit).arg("-o").arg(&partial).assert().success();
    assert!(text(&out.get_output().stderr).contains("dropped a partial last line"));
    assert!(text(&out.get_output().stdout).contains("resumed after 30 records"));
    assert_eq!(std::fs::read_to_string(&partial).unwrap(), expected);
    // A complete output: nothing left to do, nothing changed.
    chesstool().args(["perft", "unit", "-q"]).arg(unit).arg("-o").arg(&partial).assert().success();
    assert_eq!(std::fs::read_to_string(&partial).unwrap(), expected);
    // An output that is not this unit's is never overwritten.
    let foreign = dir.0.join("foreign.out");
    let wrong = expected.replacen(" 1 ", " 2 ", 1);
    std::fs::write(&foreign, &wrong).unwrap();
    let out = chesstool().args(["perft", "unit"]).arg(unit).arg("-o").arg(&foreign).assert().code(2);
    assert!(text(&out.get_output().stderr).contains("line 1:"), "{}", text(&out.get_output().stderr));
    assert_eq!(std::fs::read_to_string(&foreign).unwrap(), wrong);
}

#[test]
fn a_killed_unit_resumes_to_the_same_results() {
    let dir = TempDir::new("kill");
    let manifest = split(&dir.0, "startpos", 3, 7, 2000);
    let unit = &units(&manifest)[0];
    let out = dir.0.join("killed.out");
    let bin = assert_cmd::cargo::cargo_bin("chesstool");
    let mut child = std::process::Command::new(&bin)
        .args(["perft", "unit", "-q", "-t", "1"])
        .arg(unit)
        .arg("-o")
        .arg(&out)
        .spawn()
        .unwrap();
    // Kill it once some lines are out (or let it finish on a fast machine).
    for _ in 0..500 {
        if std::fs::metadata(&out).map(|m| m.len() > 2000).unwrap_or(false) || child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let _ = child.kill();
    child.wait().unwrap();
    chesstool().args(["perft", "unit", "-q"]).arg(unit).arg("-o").arg(&out).assert().success();
    let reference = dir.0.join("reference.out");
    chesstool().args(["perft", "unit", "-q"]).arg(unit).arg("-o").arg(&reference).assert().success();
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&reference).unwrap());
}

/// A split of startpos at ply 2 (400 records in 4 units of 100) with results.
struct Computed {
    dir: TempDir,
    manifest: PathBuf,
    results: Vec<PathBuf>,
}

fn computed() -> Computed {
    let dir = TempDir::new("corrupt");
    let manifest = split(&dir.0, "startpos", 2, 4, 100);
    let results = run_units(&manifest, "out", &[]);
    assert_eq!(results.len(), 4);
    Computed { dir, manifest, results }
}

/// Replaces line `n` (1-based) of `path` by `f(line)`; `None` deletes it.
fn edit_line(path: &Path, n: usize, f: impl Fn(&str) -> Option<String>) {
    let body = std::fs::read_to_string(path).unwrap();
    let mut out = String::new();
    for (i, line) in body.lines().enumerate() {
        let line = if i + 1 == n { f(line) } else { Some(line.to_string()) };
        if let Some(l) = line {
            out.push_str(&l);
            out.push('\n');
        }
    }
    std::fs::write(path, out).unwrap();
}

/// The numbers of a result line changed by `f(count, perft, product)`.
fn renumber(line: &str, f: impl Fn(u64, u64, u128) -> (u64, u64, u128)) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let n = words.len();
    let (c, p, x) = f(words[n - 3].parse().unwrap(), words[n - 2].parse().unwrap(), words[n - 1].parse().unwrap());
    format!("{} {c} {p} {x}", words[..n - 3].join(" "))
}

/// Merge fails with `code` and a stderr line containing every needle.
fn merge_fails(c: &Computed, results: &[PathBuf], code: i32, needles: &[&str]) {
    let out = chesstool().args(["perft", "merge"]).arg(&c.manifest).args(results).assert().code(code);
    let stderr = text(&out.get_output().stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    for needle in needles {
        assert!(stderr.contains(needle), "{needle:?} not in {stderr}");
    }
    assert!(out.get_output().stdout.is_empty());
}

#[test]
fn merge_names_the_unit_and_line_of_an_edited_count() {
    let c = computed();
    edit_line(&c.results[1], 7, |l| Some(renumber(l, |c, p, _| (c + 1, p, u128::from(c + 1) * u128::from(p)))));
    merge_fails(&c, &c.results, 1, &["unit unit-000001.txt line 7:", "unit-000001.out"]);
}

#[test]
fn merge_names_the_unit_and_line_of_a_missing_line() {
    let c = computed();
    edit_line(&c.results[2], 50, |_| None);
    merge_fails(&c, &c.results, 1, &["unit unit-000002.txt line 50:"]);
    let c = computed();
    edit_line(&c.results[3], 100, |_| None);
    merge_fails(&c, &c.results, 1, &["unit unit-000003.txt line 100:", "missing"]);
}

#[test]
fn merge_names_the_unit_and_line_of_a_wrong_product() {
    let c = computed();
    edit_line(&c.results[0], 3, |l| Some(renumber(l, |c, p, x| (c, p, x + 1))));
    merge_fails(&c, &c.results, 1, &["unit unit-000000.txt line 3:", "product"]);
}

#[test]
fn merge_catches_a_duplicated_unit() {
    // unit 0's results handed in a second time in place of unit 3's.
    let c = computed();
    let copy = c.dir.0.join("split/unit-000003.out");
    std::fs::copy(&c.results[0], &copy).unwrap();
    merge_fails(&c, &c.results, 2, &["unit unit-000003.txt: no results"]);
    // A unit listed twice in the manifest.
    let c = computed();
    let text = std::fs::read_to_string(&c.manifest).unwrap().replace("unit-000001.txt", "unit-000000.txt");
    std::fs::write(&c.manifest, text).unwrap();
    merge_fails(&c, &c.results, 2, &["unit-000000.txt is listed twice"]);
    // A record copied into another unit (manifest made consistent with it).
    let c = computed();
    let first_of_1 =
        std::fs::read_to_string(c.dir.0.join("split/unit-000001.txt")).unwrap().lines().next().unwrap().to_string();
    let result_of_1 = std::fs::read_to_string(&c.results[1]).unwrap().lines().next().unwrap().to_string();
    let unit0 = c.dir.0.join("split/unit-000000.txt");
    let mut body = std::fs::read_to_string(&unit0).unwrap();
    body.push_str(&format!("{first_of_1}\n"));
    std::fs::write(&unit0, body).unwrap();
    let mut results0 = std::fs::read_to_string(&c.results[0]).unwrap();
    results0.push_str(&format!("{result_of_1}\n"));
    std::fs::write(&c.results[0], results0).unwrap();
    let sum = std::process::Command::new("sha256sum").arg(&unit0).output().unwrap();
    let sha = crate::text(&sum.stdout).split(' ').next().unwrap().to_string();
    let mut m = manifest_json(&c.manifest);
    m["units"][0]["sha256"] = sha.into();
    m["units"][0]["records"] = 101.into();
    m["unique"] = 401.into();
    m["sum_counts"] = 401.into();
    std::fs::write(&c.manifest, serde_json::to_string(&m).unwrap()).unwrap();
    merge_fails(&c, &c.results, 1, &["unit unit-000001.txt line 1:", "unit-000000.txt"]);
}

#[test]
fn merge_names_the_line_where_two_computations_disagree() {
    let c = computed();
    let second = c.dir.0.join("second.out");
    std::fs::copy(&c.results[1], &second).unwrap();
    edit_line(&second, 9, |l| Some(renumber(l, |c, p, _| (c, p + 1, u128::from(c) * u128::from(p + 1)))));
    let mut all = c.results.clone();
    all.push(second);
    merge_fails(&c, &all, 1, &["unit unit-000001.txt line 9:", "disagree"]);
}

#[test]
fn merge_names_the_line_of_an_edited_unit() {
    let c = computed();
    edit_line(&c.dir.0.join("split/unit-000002.txt"), 4, |l| {
        let (fen, count) = l.rsplit_once(' ').unwrap();
        Some(format!("{fen} {}", count.parse::<u64>().unwrap() + 1))
    });
    merge_fails(&c, &c.results, 1, &["unit unit-000002.txt line 4:"]);
}

/// The results as `res0.txt`, ... (named after no unit), so that merge
/// must find each one's unit by its first record.
fn renamed_results(c: &Computed) -> Vec<PathBuf> {
    let renamed: Vec<PathBuf> = (0..c.results.len()).map(|i| c.dir.0.join(format!("res{i}.txt"))).collect();
    for (from, to) in c.results.iter().zip(&renamed) {
        std::fs::rename(from, to).unwrap();
    }
    renamed
}

#[test]
fn merge_names_the_real_fault_when_results_are_named_after_no_unit() {
    // A unit's first line edited: its checksum, not the results, is at fault.
    let c = computed();
    let res = renamed_results(&c);
    edit_line(&c.dir.0.join("split/unit-000000.txt"), 1, |l| Some(format!("X{l}")));
    merge_fails(&c, &res, 1, &["unit unit-000000.txt: sha256", "the unit changed after the split"]);
    // A unit's first line that does not read at all.
    let c = computed();
    let res = renamed_results(&c);
    edit_line(&c.dir.0.join("split/unit-000000.txt"), 1, |l| Some(format!("{} 0", l.rsplit_once(' ').unwrap().0)));
    merge_fails(&c, &res, 1, &["unit unit-000000.txt line 1: count 0"]);
    // A results line whose product does not fit: that line's own fault.
    let c = computed();
    let res = renamed_results(&c);
    edit_line(&res[0], 1, |l| Some(format!("{} {}", l.rsplit_once(' ').unwrap().0, "9".repeat(45))));
    merge_fails(&c, &res, 1, &["res0.txt line 1: product", "out of range"]);
}

#[test]
fn a_unit_that_cannot_be_read_is_named() {
    let dir = TempDir::new("nounit");
    let out = dir.0.join("x.out");
    for (unit, needle) in [
        ("/nonexistent", "cannot read unit /nonexistent: No such file"),
        ("-", "not from standard input"),
        ("/", "/: the unit is not a file"),
    ] {
        let run = chesstool().args(["perft", "unit", unit, "-o"]).arg(&out).write_stdin("").assert().code(2);
        let stderr = text(&run.get_output().stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with("error: ") && stderr.contains(needle), "{needle:?} not in {stderr}");
        assert!(!stderr.contains("manifest"), "{stderr}");
    }
}

#[test]
fn merge_json_reports_a_mismatch_as_a_document() {
    let c = computed();
    edit_line(&c.results[1], 2, |l| Some(renumber(l, |c, p, x| (c, p, x * 2))));
    let out = chesstool().args(["perft", "merge", "--json"]).arg(&c.manifest).args(&c.results).assert().code(1);
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(doc["status"], "mismatch");
    assert!(doc["message"].as_str().unwrap().contains("line 2"));
}

#[test]
fn bad_input_is_a_one_line_error() {
    let c = computed();
    let unit = c.dir.0.join("split/unit-000000.txt");
    let fails = |args: Vec<std::ffi::OsString>, needles: &[&str]| {
        let out = chesstool().args(args).assert().code(2);
        let stderr = text(&out.get_output().stderr);
        assert!(stderr.starts_with("error: ") && !stderr.contains("panicked"), "{stderr}");
        for needle in needles {
            assert!(stderr.contains(needle), "{needle:?} not in {stderr}");
        }
    };
    let os = |v: &[&str]| v.iter().map(std::ffi::OsString::from).collect::<Vec<_>>();
    let mut args = os(&["perft", "split", "--split-ply", "5", "--depth", "4", "-o"]);
    args.push(c.dir.0.join("x").into());
    fails(args, &["--split-ply 5 is deeper than --depth 4"]);
    let mut args = os(&["perft", "split", "--split-ply", "1", "--depth", "4", "-o"]);
    args.push(c.dir.0.join("split").into());
    fails(args, &["not empty"]);
    fails(os(&["perft", "split", "--split-ply", "21", "--depth", "4", "-o", "x"]), &["not a depth"]);
    let mut args = os(&["perft", "unit", "--depth", "3", "-o", "x.out"]);
    args.push(unit.clone().into());
    fails(args, &["--depth 3 is not the manifest's depth 4 - split ply 2 = 2"]);
    // A unit changed after the split.
    let edited = c.dir.0.join("split/unit-000001.txt");
    edit_line(&edited, 3, |_| Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 1".into()));
    let mut args = os(&["perft", "unit", "-o"]);
    args.extend([c.dir.0.join("y.out").into(), edited.clone().into()]);
    fails(args, &["unit-000001.txt: sha256"]);
    // Its FEN is caught too once the manifest agrees with the file.
    let sum = std::process::Command::new("sha256sum").arg(&edited).output().unwrap();
    let mut m = manifest_json(&c.manifest);
    m["units"][1]["sha256"] = text(&sum.stdout).split(' ').next().unwrap().into();
    std::fs::write(&c.manifest, serde_json::to_string(&m).unwrap()).unwrap();
    let mut args = os(&["perft", "unit", "-o"]);
    args.extend([c.dir.0.join("y.out").into(), edited.into()]);
    fails(args, &["unit-000001.txt line 3", "invalid FEN"]);
    let mut args = os(&["perft", "merge"]);
    args.extend([c.manifest.clone().into(), c.results[0].clone().into(), c.results[0].clone().into()]);
    fails(args, &["given twice"]);
    let mut args = os(&["perft", "merge"]);
    args.extend([c.dir.0.join("nothing.json").into(), c.results[0].clone().into()]);
    fails(args, &["nothing.json"]);
}

#[test]
fn plain_perft_is_unchanged() {
    let out = chesstool().args(["perft", "--depth", "3"]).assert().success();
    assert!(text(&out.get_output().stdout).contains("Nodes: 8902 "));
    chesstool().args(["perft"]).assert().code(2);
}
