//! Every answer dialect pasted with `divide --against`, read by the same
//! parser as live answers and compared with our generator: Sjaak II's depth
//! tables and divides with a running sum (captured from /usr/games/sjaakii
//! in tests/fixtures/dialects), Sjeng's `Raw nodes for depth N`, Ethereal's
//! bare total, and the other labelled totals; notation with piece letters,
//! castling, gating, drops and USI piece letters, without and with
//! `--variant`. Counts are the published ones (start position 20, 400,
//! 8902; Kiwipete 48, 2039; shogi 30; seirawan 28) and Sjaak II's own,
//! never our output pasted back.

use assert_cmd::Command;
use std::path::PathBuf;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dialects").join(name);
    std::fs::read_to_string(path).unwrap()
}

/// Runs `divide --against -` with `paste` on stdin: exit code, stdout, stderr.
fn against(args: &[&str], paste: &str) -> (i32, String, String) {
    let out = Command::cargo_bin("chesstool")
        .unwrap()
        .arg("divide")
        .args(args)
        .args(["--against", "-"])
        .write_stdin(paste.to_string())
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

fn assert_match(args: &[&str], paste: &str, nodes: u64) {
    let (code, out, err) = against(args, paste);
    assert_eq!(code, 0, "{args:?}\n{out}\n{err}");
    assert!(out.contains("match at depth") && out.contains(&format!(": {nodes} nodes")), "{out}");
}

#[test]
fn depth_table_iterations_answer_the_asked_depth() {
    // Sjaak II's `perft 3` from the start.
    let table = " 1         20  0.00    370370.37nps\n 2        400  0.00   2484472.05nps\n\
                  3       8902  0.00   6954687.50nps\npong 1\n";
    assert_match(&["--depth", "3"], table, 8902);
    assert_match(&["--depth", "2"], table, 400);
    // A wrong total at the asked depth is the engine's, exit 1.
    let (code, out, _) = against(&["--depth", "3"], &table.replace("8902", "8903"));
    assert_eq!(code, 1, "{out}");
    // No total of the asked depth: the paste answers another question.
    let (code, _, err) = against(&["--depth", "4"], table);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no total for depth 4"), "{err}");
}

#[test]
fn divides_with_a_running_sum_per_iteration() {
    let paste = fixture("sjaak_kiwipete_perft_2_1.txt");
    assert_match(&["--depth", "2", "--fen", KIWIPETE], &paste, 2039);
    // The depth-1 block of the same paste answers depth 1.
    assert_match(&["--depth", "1", "--fen", KIWIPETE], &paste, 48);
    // One count changed with its running sums: the move is the finding.
    let altered = paste.replace("  Nc3-b1         42         42", "  Nc3-b1         41         41");
    let altered = altered.replace("  Nc3-d1         42         84", "  Nc3-d1         42         83");
    assert_ne!(altered, paste);
    let (code, out, err) = against(&["--depth", "2", "--fen", KIWIPETE], &altered);
    // Running sums of every later line are now off by one: refused, naming
    // the first.
    assert_eq!(code, 2, "{out}\n{err}");
    assert!(err.contains("running sum"), "{err}");
}

#[test]
fn labelled_totals_of_other_engines() {
    for (paste, depth, nodes) in [
        // Sjeng's `perft 3`.
        ("Raw nodes for depth 3: 8902\nTime : 0.00\n", "3", 8902),
        ("total moves=400\n", "2", 400),
        ("info .result 400 positions\n", "2", 400),
        ("Depth 2: 400 nodes searched.\nNodes per second: 1234567\n", "2", 400),
        // Ethereal's `perft 3`: a bare total.
        ("8902\n", "3", 8902),
    ] {
        assert_match(&["--depth", depth], paste, nodes);
    }
    // `Raw nodes for depth 3` does not answer depth 2.
    let (code, _, err) = against(&["--depth", "2"], "Raw nodes for depth 3: 8902\nTime : 0.00\n");
    assert_eq!(code, 2, "{err}");
}

#[test]
fn nodes_after_the_moves_that_are_not_their_sum_are_refused() {
    let (code, _, err) = against(&["--depth", "1", "--fen", KIWIPETE], "Nc3-b1 1\nNc3-d1 1\nNodes: 3\n");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is not the sum"), "{err}");
}

#[test]
fn long_algebraic_with_piece_letters_and_castling_in_chess() {
    // Kiwipete's `perft 1 1` block of the fixture: Nc3xb5-style captures,
    // O-O, O-O-O.
    let paste: String = fixture("sjaak_kiwipete_perft_2_1.txt").lines().take(49).map(|l| format!("{l}\n")).collect();
    assert!(paste.contains("O-O-O") && paste.contains("Qf3xf6"));
    assert_match(&["--depth", "1", "--fen", KIWIPETE], &paste, 48);
    // The `+` of a promoted piece is read too.
    let plus = paste.replace("  Nc3-b1 ", " +Nc3-b1 ");
    assert_match(&["--depth", "1", "--fen", KIWIPETE], &plus, 48);
}

#[test]
fn gating_moves_with_variant() {
    let paste = fixture("sjaak_seirawan_perft_1_1.txt");
    assert!(paste.contains("Nb1-a3/H"));
    assert_match(&["--depth", "1", "--variant", "seirawan"], &paste, 28);
    // A gating move left out: the missing move is named, not skipped.
    let cut = paste.replace("Ng1-h3/E          1         28\n", "").replace(" 1         28 ", " 1         27 ");
    let (code, out, err) = against(&["--depth", "1", "--variant", "seirawan", "--json"], &cut);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("g1h3e"), "{out}");
}

#[test]
fn drops_without_the_pawn_letter_with_variant() {
    let paste = fixture("sjaak_crazyhouse_drops_perft_1_1.txt");
    assert!(paste.contains("@e2"));
    let fen = "rnbqkbnr/pppp1ppp/8/8/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3";
    assert_match(&["--depth", "1", "--variant", "crazyhouse", "--fen", fen], &paste, 63);
    let lettered = paste.replace("     @e2 ", "    P@e2 ");
    assert_match(&["--depth", "1", "--variant", "crazyhouse", "--fen", fen], &lettered, 63);
}

#[test]
fn usi_moves_with_piece_letters_never_match_by_the_total() {
    let paste = fixture("sjaak_usi_shogi_perft_1_1.txt");
    assert!(paste.contains("P7g-7f"));
    let (code, out, err) = against(&["--depth", "1", "--variant", "shogi", "--json"], &paste);
    assert_eq!(code, 0, "{out}\n{err}");
    // Every line was read: none skipped as banner or prose.
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    for kind in ["banner", "prose", "timing"] {
        assert_eq!(json["skipped_lines"][kind], 0, "{kind}: {out}");
    }
    // A move line in a notation not read is an error naming its line,
    // never skipped into a `match`.
    let broken = paste.replace("  P7g-7f  ", "  P7g~7f  ");
    let (code, out, err) = against(&["--depth", "1", "--variant", "shogi"], &broken);
    assert_ne!(code, 0, "{out}\n{err}");
    assert!(!out.contains("match"), "{out}");
    assert!(err.contains("line 3"), "{err}");
    // A wrong count on a piece-letter line is found as that move's.
    let wrong = paste.replace("  P7g-7f          1          3", "  P7g-7f          2          4");
    let wrong = (4..=30)
        .rev()
        .fold(wrong, |t, n| t.replace(&format!("          1 {n:>10}\n"), &format!("          1 {:>10}\n", n + 1)));
    let wrong = wrong.replace(" 1         30 ", " 1         31 ");
    let (code, out, err) = against(&["--depth", "1", "--variant", "shogi"], &wrong);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("c3c4"), "{out}"); // 7g7f in Fairy-Stockfish's squares
}
