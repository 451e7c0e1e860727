//! `chesstool butterfly-plot` against Hartmann's C program, compiled with gcc.

use assert_cmd::Command;
use predicates::prelude::*;
use std::path::PathBuf;
use std::sync::OnceLock;

/// `butterflyBoard` from the Chess Programming Wiki's "Butterfly Boards" page
/// (source document 000), unchanged but for its comments (which the
/// document's flattened text runs into the code) and a `main` that takes the
/// range from the command line instead of the fixed `butterflyBoard(3, 20)`.
const BUTTERFLY_FUNCTION: &str = r##"
void butterflyBoard(int from, int to)
{
   int sq1, sq2, f1, f2, r1, r2, df, dr;
   int nr = 0, nb = 0, nn = 0;
   for (sq2 = from; sq2 <= to; sq2++)
      printf("%c", (sq2 % 10) ? ' ' : '0' + (sq2/10) );
   printf("\n");
   for (sq2 = from; sq2 <= to; sq2++)
      printf("%1d", sq2 % 10 );
   printf("\n");
   for (sq1 = from; sq1 <= to; sq1++) {
      for (sq2 = from; sq2 <= to; sq2++) {
         if ( sq1 != sq2 ) {
            r1 = sq1 >> 3;
            r2 = sq2 >> 3;
            if (r1 == r2) {
               nr++;
               printf("-");
               continue;
            }
            f1 = sq1 & 7;
            f2 = sq2 & 7;
            if ( f1 == f2 ) {
               nr++;
               printf("|");
               continue;
            }
            if (f1 - r1 == f2 - r2) {
               nb++;
               printf("/");
               continue;
            }
            if (f1 + r1 == f2 + r2) {
               nb++;
               printf("\\");
               continue;
            }
            df = abs (f2 - f1);
            dr = abs (r2 - r1);
            if ( df + dr == 3 ) {
               nn++;
               printf("~");
               continue;
            }
         }
         printf("#");
      }
      printf(" %2d\n", sq1);
   }
   printf("rook moves %4d\n", nr);
   printf("bishop moves %4d\n", nb);
   printf("knight moves %4d\n", nn);
   printf("total moves %4d\n", nr + nb + nn);
}
"##;

const PROLOGUE: &str = "#include <stdio.h>\n#include <stdlib.h>\n#include <math.h>\n";
const MAIN: &str =
    "int main(int argc, char* argv[])\n{\n   butterflyBoard(atoi(argv[1]), atoi(argv[2]));\n   return 0;\n}\n";

fn squeeze(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The transcription is the document's code when the document is at hand.
#[test]
fn transcription_is_the_documents_code() {
    let path = "/work/shared/seeds/000_985889683f5ce300.txt";
    let Ok(doc) = std::fs::read_to_string(path) else {
        return;
    };
    let start = doc.find("void butterflyBoard").expect("function in document");
    let end = doc[start..].find("int main").expect("main in document") + start;
    let mut code = doc[start..end].to_string();
    for comment in [
        "// same rank",
        "// same file",
        "// same diagonal",
        "// same anti-diagonal",
        "// knight distance",
        "// invalid",
    ] {
        code = code.replace(comment, "");
    }
    assert_eq!(squeeze(&code), squeeze(BUTTERFLY_FUNCTION));
}

/// The C program compiled once per test run, or `None` without gcc.
fn c_program() -> Option<&'static PathBuf> {
    static PROGRAM: OnceLock<Option<PathBuf>> = OnceLock::new();
    PROGRAM
        .get_or_init(|| {
            let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
            let src = dir.join("butterfly.c");
            let exe = dir.join("butterfly_c");
            std::fs::write(&src, format!("{PROLOGUE}{BUTTERFLY_FUNCTION}{MAIN}")).ok()?;
            let status =
                std::process::Command::new("gcc").args(["-O0", "-w", "-o"]).arg(&exe).arg(&src).status().ok()?;
            status.success().then_some(exe)
        })
        .as_ref()
}

fn c_output(from: u32, to: u32) -> Vec<u8> {
    let exe = c_program().expect("gcc is needed to compile the document's C program");
    let out = std::process::Command::new(exe).args([from.to_string(), to.to_string()]).output().unwrap();
    assert!(out.status.success());
    out.stdout
}

fn ours(from: &str, to: &str) -> Vec<u8> {
    let out = Command::cargo_bin("chesstool").unwrap().args(["butterfly-plot", from, to]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

#[test]
fn byte_exact_against_the_c_program() {
    let ranges = [(0, 63), (3, 20), (3, 12), (3, 60), (0, 0), (63, 63), (9, 10), (10, 10), (7, 45), (20, 63)];
    for (from, to) in ranges {
        let want = c_output(from, to);
        let got = ours(&from.to_string(), &to.to_string());
        assert!(
            got == want,
            "{from}..{to}:\n--- C\n{}\n--- chesstool\n{}",
            String::from_utf8_lossy(&want),
            String::from_utf8_lossy(&got)
        );
    }
}

#[test]
fn every_range_from_the_full_board_down_matches() {
    // A sweep over many (FROM, TO) pairs, spaced to keep the test quick.
    for from in (0..64).step_by(7) {
        for to in (from..64).step_by(11) {
            assert_eq!(ours(&from.to_string(), &to.to_string()), c_output(from, to), "{from}..{to}");
        }
    }
}

#[test]
fn full_board_counts() {
    Command::cargo_bin("chesstool")
        .unwrap()
        .args(["butterfly-plot", "0", "63"])
        .assert()
        .success()
        .stdout(predicate::str::ends_with("rook moves  896\nbishop moves  560\nknight moves  336\ntotal moves 1792\n"));
}

#[test]
fn square_names_are_accepted_as_bounds() {
    assert_eq!(ours("d1", "e8"), c_output(3, 60));
}

#[test]
fn names_label_the_axes() {
    Command::cargo_bin("chesstool")
        .unwrap()
        .args(["butterfly-plot", "3", "12", "--names"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("defghabcde\n1111122222\n#----#~\\|/ d1\n-#---##~\\| e1\n"))
        .stdout(predicate::str::contains("/|\\~#----# e2\n"));
}

#[test]
fn svg_is_written() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let file = dir.join("butterfly_test.svg");
    let _ = std::fs::remove_file(&file);
    Command::cargo_bin("chesstool").unwrap().args(["butterfly-plot", "0", "63", "--svg"]).arg(&file).assert().success();
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(svg.starts_with("<svg"));
    assert!(svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<rect x=").count(), 64 * 64 + 6);
    assert!(svg.contains(">e4</text>"));
}

fn usage_error(args: &[&str], message: &str) {
    Command::cargo_bin("chesstool")
        .unwrap()
        .args(args)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::starts_with("error: ").and(predicate::str::contains(message)))
        .stderr(predicate::function(|s: &str| s.lines().count() == 1));
}

#[test]
fn bad_ranges_are_usage_errors() {
    usage_error(&["butterfly-plot", "20", "3"], "greater than");
    usage_error(&["butterfly-plot", "0", "64"], "TO: \"64\" is not a square");
    usage_error(&["butterfly-plot", "-1", "5"], "FROM: \"-1\" is not a square");
    usage_error(&["butterfly-plot", "0", "z9"], "TO: \"z9\" is not a square");
    usage_error(&["butterfly-plot", "e8", "d1"], "greater than");
}

#[test]
fn unwritable_svg_is_a_usage_error() {
    usage_error(&["butterfly-plot", "0", "63", "--svg", "/nonexistent-dir/x.svg"], "cannot write");
}

#[test]
fn history_counts_every_move_of_the_perft_tree() {
    let out = Command::cargo_bin("chesstool")
        .unwrap()
        .args(["butterfly-plot", "0", "63", "--history", "--depth", "3", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // Perft 1 + 2 + 3 of the start position.
    assert_eq!(v["moves_counted"], 20 + 400 + 8902);
    assert_eq!(v["depth"], 3);
    assert_eq!(v["root"], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let sum: u64 = v["pairs"].as_array().unwrap().iter().map(|p| p["count"].as_u64().unwrap()).sum();
    assert_eq!(sum, 9322);
    let g1f3 = v["pairs"].as_array().unwrap().iter().find(|p| p["from"] == "g1" && p["to"] == "f3").unwrap();
    assert_eq!(g1f3["count"], 341);
}

#[test]
fn history_heat_map_and_svg() {
    let file = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("history_test.svg");
    let _ = std::fs::remove_file(&file); // an earlier run's file would be refused
    Command::cargo_bin("chesstool")
        .unwrap()
        .args(["butterfly-plot", "0", "63", "--history", "--depth", "2", "--names"])
        .args(["--fen", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"])
        .arg("--svg")
        .arg(&file)
        .assert()
        .success()
        .stdout(predicate::str::contains("moves counted         2087"))
        .stdout(predicate::str::starts_with("abcdefgh"));
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(svg.contains("history counts, 2087 moves"));
}

#[test]
fn history_bad_input() {
    usage_error(
        &["butterfly-plot", "0", "63", "--history", "--depth", "0"],
        "--depth: 0 is not a history depth (1 to 8)",
    );
    usage_error(
        &["butterfly-plot", "0", "63", "--history", "--depth", "9"],
        "--depth: 9 is not a history depth (1 to 8)",
    );
    usage_error(&["butterfly-plot", "0", "63", "--history", "--depth", "2", "--fen", "8/8 w"], "--fen \"8/8 w\"");
    usage_error(&["butterfly-plot", "0", "63", "--history"], "--history needs --depth");
}

#[test]
fn square_names_in_either_case() {
    assert_eq!(ours("D1", "E8"), c_output(3, 60));
}

#[test]
fn options_without_effect_are_usage_errors() {
    usage_error(&["butterfly-plot", "0", "63", "--depth", "2"], "--depth has no effect without --history");
    usage_error(&["butterfly-plot", "0", "63", "--fen", "startpos"], "--fen has no effect without --history");
    usage_error(&["butterfly-plot", "0", "63", "--quiet"], "--quiet has no effect without --history");
    // With --json the failure is also the one document on stdout.
    for (args, needle) in [
        (&["--svg", "-", "--json"][..], "--svg - cannot be used with --json"),
        (&["--names", "--json"], "--names has no effect"),
    ] {
        let out =
            Command::cargo_bin("chesstool").unwrap().args(["butterfly-plot", "0", "63"]).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).starts_with(&format!("error: {needle}")));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!((v["status"].as_str(), v["error"]["kind"].as_str()), (Some("error"), Some("usage")), "{v}");
    }
}

#[test]
fn diagram_counts_as_json() {
    let out = Command::cargo_bin("chesstool").unwrap().args(["butterfly-plot", "0", "63", "--json"]).output().unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // The document's own totals for the whole board (the text diagram's last lines).
    assert_eq!(
        (v["rook_moves"].as_u64(), v["bishop_moves"].as_u64(), v["knight_moves"].as_u64()),
        (Some(896), Some(560), Some(336))
    );
    assert_eq!(v["total_moves"], 1792);
    assert_eq!(v["range"], serde_json::json!({"from": "a1", "to": "h8"}));
}
