//! Engines are asked what they can do, and believed (issue 45): a variant
//! run against an engine without `UCI_Variant`, or without that variant
//! among its `var` values, fails at once naming the option; `No such
//! option` in an answer ends the call quoted; a Chess960 root against an
//! engine without `UCI_Chess960` is refused by `divide` and skipped with a
//! note by `suite` and `fuzz`, never compared. Scripts cannot advertise:
//! they get Chess960 roots only with `--chess960`. The counts compared in
//! the passing runs come from Stockfish and Fairy-Stockfish themselves.

use assert_cmd::Command;
use std::path::PathBuf;

mod common;
use common::{buggy_engine_cmd as engine, run_json, TempDir};

/// A Chess960 position (Shredder-FEN castling), from the issue.
const C960: &str = "r2k3r/8/8/8/8/8/8/R2K3R b HAha - 0 1";

fn chesstool(args: &[&str]) -> Command {
    common::chesstool_with(args, 120)
}

fn stderr_line(out: &std::process::Output) -> String {
    let text = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(text.trim_end().lines().count(), 1, "not one line: {text}");
    text
}

fn stockfish() -> Option<PathBuf> {
    let p = PathBuf::from("/usr/games/stockfish");
    if p.is_file() {
        return Some(p);
    }
    eprintln!("note: skipping, no Stockfish at /usr/games/stockfish");
    None
}

fn fairy_stockfish() -> Option<PathBuf> {
    let p = std::env::var_os("FAIRY_STOCKFISH").map(PathBuf::from).unwrap_or_else(|| "/opt/fsf/fairy-stockfish".into());
    if p.is_file() {
        return Some(p);
    }
    eprintln!("note: skipping, no Fairy-Stockfish (set FAIRY_STOCKFISH)");
    None
}

#[test]
fn a_variant_against_an_engine_without_uci_variant_is_exit_3_naming_it() {
    let out = chesstool(&["divide", "--variant", "atomic", "-d", "2", "--engine-uci", &engine("")]).output().unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stdout));
    let msg = stderr_line(&out);
    assert!(msg.contains("has no UCI option UCI_Variant") && msg.contains("atomic"), "{msg}");
    assert!(out.stdout.is_empty(), "no match printed");
    // The JSON error document names the rule.
    let (code, j, _) =
        run_json(&mut chesstool(&["divide", "--variant", "atomic", "-d", "2", "--json", "--engine-uci", &engine("")]));
    assert_eq!(code, 3);
    assert_eq!((j["status"].as_str(), j["error"]["kind"].as_str()), (Some("error"), Some("engine")), "{j}");
    assert_eq!(j["error"]["rule"], "option-advertised", "{j}");
    // suite and fuzz fail at once too: not one position could be asked.
    let dir = TempDir::new("variant-suite");
    let suite = dir.file("a.epd", b"startpos ;D1 20\n");
    let out = chesstool(&["suite", "--variant", "atomic", "--engine-uci", &engine("")]).arg(&suite).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(stderr_line(&out).contains("UCI_Variant"));
    let out =
        chesstool(&["fuzz", "--variant", "atomic", "--positions", "5", "--seed", "1", "--engine-uci", &engine("")])
            .output()
            .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(stderr_line(&out).contains("UCI_Variant"));
}

#[test]
fn a_variant_missing_from_the_var_list_names_the_list() {
    let offered =
        engine("--option 'option name UCI_Variant type combo default chess var chess var giveaway var horde'");
    let out = chesstool(&["divide", "--variant", "atomic", "-d", "2", "--engine-uci", &offered]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    let msg = stderr_line(&out);
    assert!(msg.contains("UCI_Variant does not offer \"atomic\" (it offers chess, giveaway, horde)"), "{msg}");
    // A long list is shortened.
    let vars: String = (0..40).map(|i| format!(" var v{i}")).collect();
    let long = engine(&format!("--option 'option name UCI_Variant type combo default v0{vars}'"));
    let out = chesstool(&["divide", "--variant", "atomic", "-d", "2", "--engine-uci", &long]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    let msg = stderr_line(&out);
    assert!(msg.contains("v11 and 28 more)") && !msg.contains("v12"), "{msg}");
}

#[test]
fn no_such_option_in_an_answer_ends_the_call_quoted() {
    let liar = engine("--bug no-such-option --option 'option name UCI_Variant type combo default chess var atomic'");
    let out = chesstool(&["divide", "--variant", "atomic", "-d", "2", "--engine-uci", &liar]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    let msg = stderr_line(&out);
    assert!(msg.contains("\"No such option: UCI_Variant\"") && msg.contains("setoption name UCI_Variant"), "{msg}");
    // The same for Chess960: listed, then refused.
    let out = chesstool(&["divide", "--fen", C960, "-d", "1", "--engine-uci", &engine("--bug no-such-option")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(stderr_line(&out).contains("\"No such option: UCI_Chess960\""));
}

#[test]
fn divide_refuses_a_chess960_root_an_engine_cannot_take() {
    let no960 = engine("--bug no-chess960");
    let out = chesstool(&["divide", "--fen", C960, "-d", "2", "--engine-uci", &no960]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    let msg = stderr_line(&out);
    assert!(msg.contains("has no UCI option UCI_Chess960"), "{msg}");
    // A standard root is asked as before: it needs no option.
    chesstool(&["divide", "-d", "2", "--engine-uci", &no960]).assert().code(0);
    // The engine that lists UCI_Chess960 gets the root.
    chesstool(&["divide", "--fen", C960, "-d", "2", "--engine-uci", &engine("")]).assert().code(0);
}

#[test]
fn scripts_get_chess960_roots_only_when_the_user_says_so() {
    let out = chesstool(&["divide", "--fen", C960, "-d", "2", "--engine-script", &engine("")]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    let msg = stderr_line(&out);
    assert!(msg.contains("cannot advertise") && msg.contains("UCI_Chess960") && msg.contains("--chess960"), "{msg}");
    chesstool(&["divide", "--fen", C960, "--chess960", "-d", "2", "--engine-script", &engine("")]).assert().code(0);
    // A variant chosen on the command line is the user's word for the script.
    let out =
        chesstool(&["divide", "--variant", "atomic", "-d", "1", "--engine-script", &engine("")]).output().unwrap();
    assert_ne!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
    // --chess960 means nothing to a UCI engine in suite and fuzz.
    let dir = TempDir::new("c960-usage");
    let suite = dir.file("a.epd", b"startpos ;D1 20\n");
    chesstool(&["suite", "--chess960", "--engine-uci", &engine("")]).arg(&suite).assert().code(2);
    chesstool(&["fuzz", "--chess960", "--positions", "3", "--engine-uci", &engine("")]).assert().code(2);
}

#[test]
fn suite_skips_chess960_positions_an_engine_cannot_take_with_a_note() {
    let dir = TempDir::new("c960-suite");
    // Counts from Stockfish 15.1 (`go perft`).
    let suite = dir.file("mixed.epd", format!("startpos ;D1 20 ;D2 400\n{C960} ;D1 26\n").as_bytes());
    let no960 = engine("--bug no-chess960");
    let out = chesstool(&["suite", "--engine-uci", &no960]).arg(&suite).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("note: 1 position never compared (")
            && text.contains("mixed.epd:2): ")
            && text.contains("UCI_Chess960"),
        "{text}"
    );
    let (code, j, _) = run_json(chesstool(&["suite", "--json", "--engine-uci", &no960]).arg(&suite));
    assert_eq!(code, 0);
    assert_eq!((j["totals"]["checked"].as_u64(), j["totals"]["unsupported"].as_u64()), (Some(2), Some(1)), "{j}");
    assert_eq!(j["unsupported"][0]["line_number"], 2, "{j}");
    assert!(j["unsupported"][0]["reason"].as_str().unwrap().contains("UCI_Chess960"), "{j}");
    // JUnit: the position's count is a skipped case saying why.
    let junit = dir.0.join("r.xml");
    chesstool(&["suite", "--engine-uci", &no960, "--junit"]).arg(&junit).arg(&suite).assert().code(0);
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("never compared") && xml.contains("UCI_Chess960"), "{xml}");
    // The engine that lists it, and a script vouched for, compare it.
    let (_, j, _) = run_json(chesstool(&["suite", "--json", "--engine-uci", &engine("")]).arg(&suite));
    assert_eq!(j["totals"]["checked"], 3, "{j}");
    let (_, j, _) = run_json(chesstool(&["suite", "--json", "--chess960", "--engine-script", &engine("")]).arg(&suite));
    assert_eq!(j["totals"]["checked"], 3, "{j}");
    let (_, j, _) = run_json(chesstool(&["suite", "--json", "--engine-script", &engine("")]).arg(&suite));
    assert_eq!((j["totals"]["checked"].as_u64(), j["totals"]["unsupported"].as_u64()), (Some(2), Some(1)), "{j}");
}

#[test]
fn fuzz_skips_chess960_roots_an_engine_cannot_take_and_counts_them() {
    let args = ["fuzz", "--positions", "120", "--seed", "7", "--json", "--engine-uci"];
    let (code, j, _) = run_json(chesstool(&args).arg(engine("--bug no-chess960")));
    assert_eq!(code, 0, "{j}");
    let skipped = &j["skipped_roots"];
    assert!(skipped["count"].as_u64().unwrap() > 0 && skipped["of"].as_u64() > skipped["count"].as_u64(), "{j}");
    assert!(skipped["reasons"][0].as_str().unwrap().contains("UCI_Chess960"), "{j}");
    let out = chesstool(&["fuzz", "--positions", "50", "--seed", "7", "--engine-uci", &engine("--bug no-chess960")])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("roots, never compared: "));
    // An engine that lists UCI_Chess960 is asked about every root.
    let (_, j, _) = run_json(chesstool(&args).arg(engine("")));
    assert!(j.get("skipped_roots").is_none(), "{j}");
}

#[test]
fn real_stockfish_is_refused_a_variant_and_still_matches_chess() {
    let Some(sf) = stockfish() else { return };
    let sf = sf.to_str().unwrap();
    // The example: a "match" at 400 nodes before.
    let out = chesstool(&["divide", "--variant", "atomic", "--engine-uci", sf, "--depth", "2"]).output().unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stdout));
    let msg = stderr_line(&out);
    assert!(msg.contains("has no UCI option UCI_Variant"), "{msg}");
    let out = chesstool(&["divide", "--variant", "capablanca", "--engine-uci", sf, "-d", "1"]).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(stderr_line(&out).contains("UCI_Variant"), "named, not a signal");
    // Stockfish plays Chess960 and says so: the root is compared.
    chesstool(&["divide", "--fen", C960, "-d", "3", "--engine-uci", sf]).assert().code(0);
    chesstool(&["divide", "-d", "3", "--engine-uci", sf]).assert().code(0);
}

#[test]
fn real_fairy_stockfish_still_matches_variants_and_files() {
    let Some(fsf) = fairy_stockfish() else { return };
    let fsf = fsf.to_str().unwrap();
    for variant in ["atomic", "capablanca", "grand"] {
        let out = chesstool(&["divide", "--variant", variant, "-d", "2", "--engine-uci", fsf]).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{variant}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stdout).starts_with("match at depth 2"));
    }
    // A variant of a file is not in the list before VariantPath is set: the
    // list is asked for again after setting it.
    let ini = format!("{}/tests/variants/fairy.ini", env!("CARGO_MANIFEST_DIR"));
    let out = chesstool(&["divide", "--variant", "mini5", "--variant-path", &ini, "-d", "2", "--engine-uci", fsf])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // Chess960 roots go to Fairy-Stockfish, which lists UCI_Chess960.
    chesstool(&["divide", "--fen", C960, "-d", "2", "--engine-uci", fsf]).assert().code(0);
}
