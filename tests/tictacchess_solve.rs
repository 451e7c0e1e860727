//! The solved game: the table file's checks run everywhere; the values of a
//! full solve are checked against the plain Python reference's own search
//! (exact for games that end within four plies) when a table is given in
//! `TTC_TABLE` (the full solve needs about 1.2 GB and minutes: `#[ignore]`).

use assert_cmd::Command;

const REFERENCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/tools/ttc_reference.py");

fn temp_file(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ttc-solve-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("table");
    std::fs::write(&path, bytes).unwrap();
    path
}

/// The one-line error (exit 2) of `solve --table`, which must come before
/// any solving (20 s at most).
fn solve_error(table: &std::path::Path, needle: &str) -> String {
    let out = Command::cargo_bin("chesstool")
        .unwrap()
        .args(["tictacchess", "solve", "-q", "--table"])
        .arg(table)
        .timeout(std::time::Duration::from_secs(20))
        .assert()
        .code(2)
        .get_output()
        .clone();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(needle), "{err}");
    err
}

#[test]
fn a_foreign_table_is_refused() {
    let path = temp_file("foreign", b"PK\x03\x04 this is a zip file, not a table at all");
    solve_error(&path, "not a chesstool TicTacChess table");
    let empty = temp_file("empty", b"");
    solve_error(&empty, "not a chesstool TicTacChess table");
}

#[test]
fn a_truncated_table_is_refused() {
    let mut bytes = b"chesstool-ttc-v1".to_vec();
    bytes.extend(1_174_226_049u64.to_le_bytes());
    bytes.extend(0u64.to_le_bytes());
    bytes.extend([0u8; 1000]);
    let path = temp_file("short", &bytes);
    solve_error(&path, "truncated or damaged");
}

/// Positions near the end (lines about to close, finished games) and a few
/// that are not.
const POSITIONS: [&str; 16] = [
    "R3/1B2/2N1/4 Ppnbr w",
    "R3/1B2/2N1/4 Ppnbr b",
    "RNB1/4/4/nbr1 Pp w",
    "RNB1/4/4/nbr1 Pp b",
    "R2r/1B2/2b1/N3 Ppn w",
    "Rn2/1Bp1/2N1/P2b r w",
    "1n2/1Nb1/1Br1/1Pp1 R w",
    "RNBP/4/4/nbr1 p b",
    "rb2/4/4/RBN1 Ppn w",
    "P3/4/4/3p NBRnbr w",
    "4/2b1/1N2/R3 PBpnr w",
    "3R/2B1/1N2/rnbp P w",
    "1r2/1b2/1n2/NBR1 Pp w",
    "1r2/1b2/1n2/NBR1 Pp b",
    "R3/1B1n/2Nb/3r Pp b",
    "4/4/4/4 PNBRpnbr w",
];

#[test]
#[ignore]
fn values_agree_with_the_python_search() {
    let table = std::env::var("TTC_TABLE").expect("TTC_TABLE=path of a solved table");
    for pos in POSITIONS {
        let out = Command::cargo_bin("chesstool")
            .unwrap()
            .args(["tictacchess", "solve", "--table", &table, "--json", "--pos", pos])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let py = std::process::Command::new("python3").args([REFERENCE, "solve", pos, "4"]).output().unwrap();
        let py = String::from_utf8(py.stdout).unwrap();
        let py = py.trim();
        if py == "unknown" {
            // Not decided within four plies: a draw or a longer game.
            assert!(v["value"] == "draw" || v["plies"].as_u64().unwrap() > 4, "{pos}: {v}");
        } else {
            let (value, plies) = py.split_once(' ').unwrap();
            assert_eq!(v["value"], value, "{pos}");
            assert_eq!(v["plies"], plies.parse::<u64>().unwrap(), "{pos}");
        }
    }
}

/// An unwritable --table fails at once (before the minutes-long solve),
/// with one message naming the table, and leaves no file behind.
#[test]
fn an_unwritable_table_fails_before_the_solve() {
    let table = std::env::temp_dir().join(format!("ttc-solve-{}-none/no/such/dir/t.tbl", std::process::id()));
    let err = solve_error(&table, "t.tbl: cannot create the table");
    assert!(err.starts_with("error: --table: "), "{err}");
    assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
}

/// A table file that passes every check `play` makes at the start position
/// and costs no disk: sparse, all zero (every child a loss in 0 plies for
/// its mover) but the start position's byte, a win in 1 ply, which is what
/// those children say. Only the header, the size and the probed bytes are
/// read before the first input line.
fn fake_table(name: &str) -> std::path::PathBuf {
    use chesstool::tictacchess::solve::index::{state_of, Indexer, STATES};
    use std::io::{Seek, SeekFrom, Write};
    let path = temp_file(name, b"");
    let mut f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    f.write_all(b"chesstool-ttc-v1").unwrap();
    f.write_all(&STATES.to_le_bytes()).unwrap();
    f.write_all(&0u64.to_le_bytes()).unwrap();
    f.set_len(32 + STATES).unwrap();
    let start = chesstool::tictacchess::Position::parse("4/4/4/4 PNBRpnbr w").unwrap();
    let (mover, other) = state_of(&start);
    f.seek(SeekFrom::Start(32 + Indexer::new().index(mover, other))).unwrap();
    f.write_all(&[1]).unwrap();
    path
}

fn play(table: &std::path::Path, stdin: impl Into<Vec<u8>>) -> (Option<i32>, String, String) {
    let out = Command::cargo_bin("chesstool")
        .unwrap()
        .args(["tictacchess", "play", "-q", "--table"])
        .arg(table)
        .write_stdin(stdin)
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Standard input is read a bounded line at a time: a stream without line
/// ends (`< /dev/zero`) once ended in a 4 GiB allocation and an abort.
#[test]
fn play_reads_bounded_lines_of_standard_input() {
    let table = fake_table("play");
    // The fake table holds up: the game starts and ends with the input.
    let (code, stdout, err) = play(&table, "quit\n");
    assert_eq!(code, Some(0), "{err}");
    assert!(stdout.contains("Game abandoned."), "{stdout}");
    let (code, _, err) = play(&table, vec![0u8; 1 << 20]);
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: standard input line 1: longer than 4096 bytes"), "{err}");
    let (code, _, err) = play(&table, b"a\xff\n".to_vec());
    assert_eq!(code, Some(2), "{err}");
    assert!(err.starts_with("error: standard input line 1: not UTF-8"), "{err}");
    // The line number counts the lines read: an illegal move, then a flood.
    let mut input = b"zz\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', 5000));
    let (code, _, err) = play(&table, input);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.starts_with("error: standard input line 2: longer than"), "{err}");
    std::fs::remove_dir_all(table.parent().unwrap()).unwrap();
}
