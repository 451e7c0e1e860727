//! The loop driven through memory. Counts are the Chess Programming Wiki's
//! (start position, Kiwipete) and the published shogi perft (30, 900).

use super::Engine;

/// Everything the engine prints for `input`.
fn answer(input: &str) -> String {
    let mut out = Vec::new();
    Engine::new().run(input.as_bytes(), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// The totals of every `Nodes searched:` line.
fn totals(text: &str) -> Vec<u64> {
    text.lines().filter_map(|l| l.strip_prefix("Nodes searched: ")).map(|n| n.parse().unwrap()).collect()
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn go_perft_prints_stockfish_layout() {
    let out = answer("position startpos\ngo perft 2\n");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("chesstool "), "{out}");
    assert_eq!(lines.len(), 1 + 20 + 3, "{out}");
    assert!(lines.contains(&"e2e4: 20") && lines.contains(&"g1f3: 20"), "{out}");
    assert_eq!(&lines[21..], ["", "Nodes searched: 400", ""]);
}

#[test]
fn counts_of_published_positions() {
    let input = format!("position fen {KIWIPETE}\ngo perft 3\nposition startpos moves e2e4 e7e5\ngo perft 1\n");
    assert_eq!(totals(&answer(&input)), [97862, 29]);
}

#[test]
fn threads_and_hash_give_the_same_counts() {
    let input = format!(
        "setoption name Threads value 2\nsetoption name Hash value 8\nposition fen {KIWIPETE}\ngo perft 3\n\
         setoption name Hash value 0\ngo perft 2\n"
    );
    assert_eq!(totals(&answer(&input)), [97862, 2039]);
}

#[test]
fn handshake_lists_options_and_every_variant() {
    let out = answer("uci\nisready\nping 3\n");
    assert!(out.contains("\nid name chesstool "), "{out}");
    let variant = out.lines().find(|l| l.starts_with("option name UCI_Variant type combo")).unwrap();
    for name in ["chess", "crazyhouse", "shogi", "xiangqi", "capablanca"] {
        assert!(variant.contains(&format!(" var {name}")), "{variant}");
    }
    for option in ["VariantPath type string", "UCI_Chess960 type check", "Threads type spin", "Hash type spin"] {
        assert!(out.contains(&format!("option name {option}")), "{out}");
    }
    assert!(out.ends_with("uciok\nreadyok\npong 3\n"), "{out}");
}

#[test]
fn chess960_position() {
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let out = answer(&format!("setoption name UCI_Chess960 value true\nposition fen {fen}\ngo perft 1\n"));
    // The first position of the Chess Programming Wiki's Chess960 list.
    assert_eq!(totals(&out), [21]);
}

#[test]
fn a_variant_and_usi() {
    let out = answer("setoption name UCI_Variant value crazyhouse\nposition startpos\ngo perft 2\n");
    assert_eq!(totals(&out), [400]);
    let out = answer("usi\nposition startpos\ngo perft 1\ngo perft 2\nd\n");
    assert!(out.contains("option name USI_Variant type combo default shogi") && out.contains("usiok"), "{out}");
    assert_eq!(totals(&out), [30, 900]);
    assert!(
        out.contains("\n7g7f: 1\n")
            && out.contains("Fen: lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
        "{out}"
    );
    let out = answer("usi\nposition startpos moves 7g7f 3c3d\ngo perft 1\n");
    assert!(out.contains("\n8h2b+: 1\n"), "{out}");
}

#[test]
fn xboard_session() {
    let out = answer("xboard\nprotover 2\nnew\nforce\nusermove e2e4\nperft 1\nping 9\nvariant crazyhouse\nperft 2\n");
    assert!(out.contains("feature setboard=1 usermove=1 ping=1"), "{out}");
    assert!(out.contains("variants=\"normal,fischerandom,") && out.contains(",crazyhouse,"), "{out}");
    assert!(out.contains("\nfeature done=1\n"), "{out}");
    assert_eq!(totals(&out), [20, 400]);
    assert!(out.contains("\npong 9\n"), "{out}");
    let out = answer("xboard\nsetboard junk\nperft 1\ne2e5\nnew\nfoo\ne2e4\nperft 1\n");
    assert!(out.contains("\nError (bad position \"junk\""), "{out}");
    assert!(out.contains("\nError (no position"), "{out}");
    assert!(out.contains("\nIllegal move (no position"), "{out}");
    assert!(out.contains("\nError (unknown command): foo\n"), "{out}");
    assert_eq!(totals(&out), [20]);
}

#[test]
fn bad_input_gets_an_error_line_and_the_loop_goes_on() {
    let input = "garbage here\ngo perft x\ngo perft\ngo depth 3\nposition fen junk\ngo perft 1\n\
                 position startpos moves e2e5\ngo perft 1\nsetoption name UCI_Variant value nosuch\n\
                 setoption name Threads value many\nsetoption name Nope value 1\nsetoption\nposition\n\
                 go perft 99\n\u{0}\u{ff}\nposition startpos\ngo perft 1\nisready\n";
    let out = answer(input);
    let errors = out.lines().filter(|l| l.starts_with("info string error: ")).count();
    assert_eq!(errors, 15, "{out}");
    assert!(out.contains("info string error: unknown command \"garbage here\""), "{out}");
    assert!(out.contains("\"e2e5\""), "{out}");
    assert!(out.contains("no built-in variant \"nosuch\""), "{out}");
    assert_eq!(totals(&out), [20]);
    assert!(out.ends_with("readyok\n"), "{out}");
}

#[test]
fn quit_ends_and_an_overlong_line_is_refused() {
    let out = answer("quit\nposition startpos\ngo perft 1\n");
    assert_eq!(out.lines().count(), 1, "{out}");
    let long = format!("{}\nisready\n", "x".repeat(super::LINE_LIMIT + 10));
    let out = answer(&long);
    assert!(out.contains("info string error: a command line longer than") && out.ends_with("readyok\n"), "{out}");
}
