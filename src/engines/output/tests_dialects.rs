//! Unit tests of every dialect the answer parser reads: the layouts as
//! Sjaak II, Sjeng and Ethereal print them (captured by hand), with the
//! published counts (start position 20, 400, 8902; Kiwipete 48, 2039;
//! shogi 30).

use super::*;

fn moves(d: &Divide) -> Vec<(&str, u64)> {
    d.moves.iter().map(|(m, n)| (m.as_str(), *n)).collect()
}

/// Sjaak II's `perft 2 1` from the start: a divide with a running sum and
/// a depth line per iteration.
fn sjaak_perft_2_1() -> String {
    let files = "abcdefgh";
    let mut out = String::from("# New game 'Chess'\n");
    for (depth, each, nps) in [(1, 1u64, "338983.05"), (2, 20, "4255319.15")] {
        let mut sum = 0;
        let mut line = |mv: String| {
            sum += each;
            out.push_str(&format!("{mv:>8} {each:>10} {sum:>10}\n"));
        };
        for (from, to) in [("b1", "a3"), ("b1", "c3"), ("g1", "f3"), ("g1", "h3")] {
            line(format!("N{from}-{to}"));
        }
        for rank in ["3", "4"] {
            for f in files.chars() {
                line(format!("{f}2-{f}{rank}"));
            }
        }
        out.push_str(&format!("{depth:2} {:>10}  0.00 {nps:>13}nps\n", sum));
    }
    out.push_str("pong 1\n");
    out
}

#[test]
fn depth_tables_without_a_divide() {
    // Sjaak II's `perft 3`: one line per iteration.
    let text = " 1         20  0.00    370370.37nps\n 2        400  0.00   2484472.05nps\n\
                 3       8902  0.00   5598742.14nps\npong 1\n";
    for (depth, total) in [(1, 20), (2, 400), (3, 8902)] {
        let p = read_answer_at(text, DivideFormat::Auto, depth).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.divide.total, Some(total), "depth {depth}");
        assert!(p.divide.moves.is_empty());
    }
    // Without the depth the last iteration is the answer.
    assert_eq!(read_answer(text, DivideFormat::Auto).unwrap().divide.total, Some(8902));
    let err = read_answer_at(text, DivideFormat::Auto, 4).unwrap_err();
    assert_eq!(err, ParseOutputError::NoDepth { depth: 4, seen: vec![1, 2, 3] });
    assert_eq!(err.to_string(), "no total for depth 4 in the output (it has totals for depth 1, 2, 3)");
    // `nps` apart from the speed, and the Kiwipete line.
    let p = read_answer_at(" 1         48  0.00   1454545.45 nps\n", DivideFormat::Auto, 1).unwrap();
    assert_eq!(p.divide.total, Some(48));
}

#[test]
fn a_divide_with_running_sums_per_iteration() {
    let text = sjaak_perft_2_1();
    let p = read_answer_at(&text, DivideFormat::Auto, 2).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(p.divide.moves.len(), 20);
    assert_eq!(p.divide.moves[0], ("Nb1-a3".to_string(), 20));
    assert_eq!(p.divide.total, Some(400));
    assert_eq!(p.skipped.other_depth, 21, "{:?}", p.skipped);
    let p = read_answer_at(&text, DivideFormat::Auto, 1).unwrap();
    assert_eq!((p.divide.moves.len(), p.divide.total), (20, Some(20)));
    // Without the depth: the last block.
    assert_eq!(read_answer(&text, DivideFormat::Auto).unwrap().divide.total, Some(400));
    // The same text pasted with the asked depth reads the same way forced
    // to the layout that reads it.
    assert_eq!(read_answer_at(&text, DivideFormat::Perftree, 2).unwrap().divide.total, Some(400));
}

#[test]
fn a_wrong_running_sum_names_its_line() {
    let text = "  Nc3-b1          1          1\n     O-O          1          3\n 1          2  0.00  1.00nps\n";
    let err = read_answer_at(text, DivideFormat::Auto, 1).unwrap_err();
    assert_eq!(
        err,
        ParseOutputError::RunningSum { line: 2, text: "O-O          1          3".into(), printed: 3, sum: 2 }
    );
    assert_eq!(err.rule(), "running-sum");
    // Right sums, castling among them (Kiwipete's `perft 1 1`).
    let ok = "  Qf3xf6          1         36\n     O-O          1         37\n   O-O-O          1         38\n";
    let d = parse_divide(ok, DivideFormat::Auto);
    // The first line's running sum is 36, not 1: refused.
    assert!(matches!(d, Err(ParseOutputError::RunningSum { line: 1, .. })), "{d:?}");
}

#[test]
fn an_iteration_line_ends_only_its_depth() {
    let line = " 2       2039  0.00  4021696.25nps";
    assert!(ends_answer(line, DivideFormat::Auto, 2));
    assert!(!ends_answer(line, DivideFormat::Auto, 3));
    assert!(!is_total_line(line, DivideFormat::Auto), "an iteration is not an answer's end whatever the depth");
    assert!(ends_answer("Raw nodes for depth 2: 2039", DivideFormat::Auto, 2));
    assert!(!ends_answer("Raw nodes for depth 3: 8902", DivideFormat::Auto, 2));
    assert!(ends_answer("Depth 2: 400 nodes searched.", DivideFormat::Auto, 2));
    assert!(!ends_answer("Depth 1: 20 nodes searched.", DivideFormat::Auto, 2));
    assert!(ends_answer("Perft 3: 8902", DivideFormat::Auto, 3));
    assert!(!ends_answer("perft(2) = 400", DivideFormat::Auto, 3));
    for line in ["Nodes searched: 8902", "info .result 400 positions", "total moves=400", "Nodes: 400", "8902"] {
        assert!(ends_answer(line, DivideFormat::Auto, 2), "{line}");
    }
    for line in ["Nodes per second: 5000", "Time : 0.00", "Nb1-a3  20  20", "e2e4: 20", "info depth 2"] {
        assert!(!ends_answer(line, DivideFormat::Auto, 2), "{line}");
    }
}

#[test]
fn labelled_totals_of_other_engines() {
    // Sjeng's `perft 3`.
    let p = read_answer_at("Raw nodes for depth 3: 8902\nTime : 0.00\n", DivideFormat::Auto, 3).unwrap();
    assert_eq!((p.divide.total, p.skipped.timing), (Some(8902), 1));
    let err = read_answer_at("Raw nodes for depth 3: 8902\nTime : 0.00\n", DivideFormat::Auto, 2).unwrap_err();
    assert_eq!(err, ParseOutputError::NoDepth { depth: 2, seen: vec![3] });
    for (text, total) in [
        ("total moves=400\n", 400),
        ("info .result 400 positions\n", 400),
        ("Depth 2: 400 nodes searched.\nNodes per second: 123456\n", 400),
        // Ethereal's `perft 3`: a bare total.
        ("8902\n", 8902),
    ] {
        let p = read_answer_at(text, DivideFormat::Auto, 2).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(p.divide.total, Some(total), "{text}");
    }
    // `Nodes: N` after the moves is held to the sum.
    let err = read_answer("e2e4 20\nd2d4 20\nNodes: 41\n", DivideFormat::Auto).unwrap_err();
    assert!(matches!(err, ParseOutputError::TotalNotSum { total: 41, sum: 40, .. }), "{err}");
    assert!(read_answer("e2e4 20\nd2d4 20\nNodes: 40\n", DivideFormat::Auto).is_ok());
}

#[test]
fn notations_of_other_engines_are_moves() {
    for t in [
        "Nb1-a3", "+Nc3-c4", "Nc3xb5", "O-O", "O-O-O", "O-O/H", "Nb1-a3/H", "@e2", "P@e2", "P7g-7f", "+B8h-2b",
        "S4i-3h+", "a7-a8=Q",
    ] {
        assert!(is_move_token(t), "{t}");
    }
    for t in ["/H", "Nb1-a3/", "P7g", "+", "x86_64", "1.4.1"] {
        assert!(!is_move_token(t), "{t}");
    }
    // Sjaak II's shogi in USI mode, and its seirawan gating moves.
    let text = "  P7g-7f          1          1\n  +B8h-2b          1          2\nNb1-a3/H          1          3\n \
                1          3  0.00     94637.22nps\n";
    let p = read_answer_at(text, DivideFormat::Auto, 1).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(moves(&p.divide), [("P7g-7f", 1), ("+B8h-2b", 1), ("Nb1-a3/H", 1)]);
}

#[test]
fn a_line_that_looks_like_a_move_is_never_skipped() {
    // A word with a square and a count after it, in no notation read.
    for (text, line) in [
        ("Sjaak II version 1.4.1 (x86_64)\nNb1~a3 1 1\n", 2),
        ("e2e4 20\nd2d4 20\nNb1%a3 20\n\n60\n", 3),
        ("banner\n7g>7f 1\n", 2),
    ] {
        let err = read_answer(text, DivideFormat::Auto).unwrap_err();
        assert!(matches!(err, ParseOutputError::UnknownLine { line: l, .. } if l == line), "{text}: {err}");
    }
    // Banners with version numbers are still banners.
    let p = read_answer("Sjaak II version 1.4.1 (x86_64)\n# New game 'Chess'\ne2e4 20\n", DivideFormat::Auto).unwrap();
    assert_eq!(p.skipped.banner, 2);
}

#[test]
fn moves_after_the_asked_block_are_refused() {
    let text = " e2e4 20 20\n 1  20  0.00  1.00nps\n e2e4 400 400\n";
    let err = read_answer_at(text, DivideFormat::Auto, 1).unwrap_err();
    assert!(matches!(err, ParseOutputError::AfterTotal { line: 3, .. }), "{err}");
    let err = read_answer_at("Perft 2: 400\nPerft 2: 400\n", DivideFormat::Auto, 2).unwrap_err();
    assert!(matches!(err, ParseOutputError::SecondTotal { line: 2, .. }), "{err}");
}
