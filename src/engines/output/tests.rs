//! Unit tests of the answer parser.

use super::*;

fn moves(d: &Divide) -> Vec<(&str, u64)> {
    d.moves.iter().map(|(m, n)| (m.as_str(), *n)).collect()
}

fn auto(text: &str) -> ParsedOutput {
    parse_output(text, DivideFormat::Auto).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

#[test]
fn stockfish_with_info_lines() {
    let out = "info string NNUE evaluation using nn.nnue enabled\na2a3: 380\nb1c3: 440\n\nNodes searched: 820\n\n";
    let d = parse_divide(out, DivideFormat::Auto).unwrap();
    assert_eq!(moves(&d), [("a2a3", 380), ("b1c3", 440)]);
    assert_eq!(d.total, Some(820));
}

#[test]
fn perftree_weiss_dash_piece_letters_and_totals() {
    let d = parse_divide("e2e4 20\na7b8Q 3\n\n23\n", DivideFormat::Auto).unwrap();
    assert_eq!((moves(&d), d.total), (vec![("e2e4", 20), ("a7b8Q", 3)], Some(23)));
    let d = parse_divide("move 1 : a2a3 : 380\nmove 2 : b2b3 : 420\n\nNodes: 800\n", DivideFormat::Auto).unwrap();
    assert_eq!((moves(&d), d.total), (vec![("a2a3", 380), ("b2b3", 420)], Some(800)));
    let d = parse_divide("a2a3 - 380\nO-O - 7\nTotal: 387\n", DivideFormat::Auto).unwrap();
    assert_eq!(moves(&d), [("a2a3", 380), ("O-O", 7)]);
    let d = parse_divide("Nb1a3 3193522577\nNg1-f3 12\n", DivideFormat::Auto).unwrap();
    assert_eq!((moves(&d), d.total), (vec![("Nb1a3", 3193522577), ("Ng1-f3", 12)], None));
    let d = parse_divide("Nodes searched: 197281\n", DivideFormat::Auto).unwrap();
    assert!(d.total_only() && d.nodes() == 197281);
    let d = parse_divide("197281\n", DivideFormat::Total).unwrap();
    assert_eq!(d.total, Some(197281));
    let d = parse_divide("Perft 4: 197,281\n", DivideFormat::Auto).unwrap();
    assert_eq!(d.total, Some(197281));
}

#[test]
fn every_total_line_form() {
    for (line, n) in [
        ("Nodes searched: 8902", 8902),
        ("Nodes searched  : 8902", 8902),
        ("Total: 8902", 8902),
        ("Total nodes: 8902", 8902),
        ("Nodes: 8902", 8902),
        ("Leaf nodes = 8902", 8902),
        ("Leaves: 8902", 8902),
        ("Perft 3: 8,902", 8902),
        ("perft(3) = 8902 ( 0.000 sec)", 8902),
        ("Perft Complete : 8902 nodes visited in 12ms", 8902),
        ("8902 nodes", 8902),
        ("Nodes: 8902, time: 3 ms", 8902),
    ] {
        assert!(is_total_line(line, DivideFormat::Auto), "{line}");
        assert_eq!(auto(&format!("e2e4: {n}\n{line}\n")).divide.total, Some(n), "{line}");
    }
}

#[test]
fn pastes_as_people_paste_them() {
    // A whole Stockfish session with echoes, a BOM and CRLF line ends.
    let paste = "\u{feff}> uci\r\nStockfish 15.1 by the Stockfish developers (see AUTHORS file)\r\n\
        id name Stockfish 15.1\r\noption name Hash type spin default 16 min 1 max 33554432\r\nuciok\r\n\
        isready\r\nreadyok\r\nposition startpos\r\ngo perft 2\r\ne2e4: 20\r\nd2d4: 20\r\n\r\n\
        Nodes searched: 40\r\nTime: 5 ms\r\n";
    let p = auto(paste);
    assert_eq!(moves(&p.divide), [("e2e4", 20), ("d2d4", 20)]);
    assert_eq!(p.divide.total, Some(40));
    assert_eq!((p.skipped.banner, p.skipped.uci, p.skipped.echo, p.skipped.timing), (1, 4, 4, 1));
    assert!(p.skipped.bom);
    assert_eq!(
        p.skipped.describe().unwrap(),
        "1 banner, 4 UCI chatter, 4 command echo, 1 timing/depth, a byte-order mark"
    );
    // VICE/Weiss with its header and speed lines.
    let vice = "Starting Test To Depth:2\nmove 1 : e2e4 : 20\nmove 2 : d2d4 : 20\n\n\
        Perft Complete : 40 nodes visited in 12ms\n               : 3333 nps\n";
    let p = auto(vice);
    assert_eq!((p.divide.total, p.format, p.skipped.timing), (Some(40), DivideFormat::Weiss, 2));
    let weiss = "move 1 : e2e4 : 20\nmove 2 : d2d4 : 20\n\nPerft complete:\nTime  : 5ms\nLeaves: 40\nLPS   : 8000\n";
    assert_eq!(auto(weiss).divide.total, Some(40));
    assert_eq!(auto("Depth 3\ne2e4 20\n\n20\n").skipped.timing, 1);
}

#[test]
fn unknown_line_names_its_number() {
    let err = parse_divide("a2a3: 380\nb2b3: 420\nc2c3 is 420\n", DivideFormat::Auto).unwrap_err();
    assert!(matches!(err, ParseOutputError::UnknownLine { line: 3, .. }), "{err}");
    let err = parse_divide("a2a3 380\n", DivideFormat::Stockfish).unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 1: \"a2a3 380\" is not a stockfish divide line (the layout is `e2e4: 20` and `Nodes searched: N`; \
         the whole text reads as perftree output)"
    );
    assert_eq!(parse_divide("", DivideFormat::Auto).unwrap_err(), ParseOutputError::Empty { skipped: 0 });
    // Looks like data but cannot be read: never skipped, even first.
    let err = parse_divide("e2e4: twenty\nd2d4: 20\n", DivideFormat::Auto).unwrap_err();
    assert!(matches!(err, ParseOutputError::UnknownLine { line: 1, .. }), "{err}");
}

#[test]
fn a_forced_format_that_does_not_fit_is_an_error_naming_the_right_one() {
    let sf = "e2e4: 20\nd2d4: 20\n\nNodes searched: 40\n";
    let err = parse_output(sf, DivideFormat::Perftree).unwrap_err();
    assert!(err.to_string().contains("reads as stockfish output"), "{err}");
}

#[test]
fn debug_lines_and_boards_among_the_moves_are_skipped_by_kind() {
    let text = "Debug: starting perft\n +---+---+---+\n | r | . | k |\n 8 r n b q k b n r\n   a b c d e f g h\n\
        a2a3: 380\nDebug: Move f2f4 has 20 nodes at depth 2\nrnbqkbnr\nMoves: 2\nb2b3: 420\n\nNodes searched: 800\n";
    let p = auto(text);
    assert_eq!(moves(&p.divide), [("a2a3", 380), ("b2b3", 420)]);
    assert_eq!((p.skipped.debug, p.skipped.board, p.skipped.prose), (2, 5, 1), "{:?}", p.skipped);
    assert!(p.skipped.describe().unwrap().contains("2 debug, 5 board diagram, 1 other prose"));
    // Starts like a move but cannot be read: an error with its number.
    let err = parse_divide("a2a3: 380\nDebug: x\nb2b3 has 420\n", DivideFormat::Auto).unwrap_err();
    assert!(matches!(err, ParseOutputError::UnknownLine { line: 3, .. }), "{err}");
    // A bare number between moves is not prose.
    let err = parse_divide("a2a3: 380\n420\nb2b3: 420\n", DivideFormat::Stockfish).unwrap_err();
    assert!(matches!(err, ParseOutputError::UnknownLine { line: 2, .. }), "{err}");
}

#[test]
fn one_reading_for_every_source() {
    // The script: refused by the one rule, wherever it comes from.
    let err = read_answer("e2e4 5\nd2d4 5\n\n11\n", DivideFormat::Auto).unwrap_err();
    assert_eq!(err, ParseOutputError::TotalNotSum { total: 11, sum: 10, moves: 2 });
    assert_eq!(err.rule(), "total-is-sum");
    assert_eq!(err.to_string(), "the total 11 is not the sum of the 2 moves above it (10)");
    assert!(read_answer("e2e4 5\nd2d4 5\n\n10\n", DivideFormat::Auto).is_ok());
    // No total: the moves are summed; a total alone is a total.
    assert!(read_answer("e2e4 5\nd2d4 5\n", DivideFormat::Auto).is_ok());
    assert!(read_answer("Nodes searched: 400\n", DivideFormat::Auto).is_ok());
    // A line no layout reads names every layout.
    let err = read_answer("e2e4 5\ne2e4 has 5\n", DivideFormat::Auto).unwrap_err();
    assert!(err.to_string().contains("is not a divide line (the layouts read are `e2e4: 20`"), "{err}");
    assert_eq!(err.rule(), "divide-line");
}

#[test]
fn refusals_are_recognised() {
    assert!(refuses("No such option: UCI_Variant"));
    assert!(refuses("Unknown command: 'foo'. Type help for more information."));
    assert!(!refuses("info string variant atomic"));
    assert!(!refuses("e2e4: 20"));
}

#[test]
fn repeated_moves_are_kept_apart_and_second_totals_are_errors() {
    let d = parse_divide("a2a3: 1\nb2b3: 1\na2a3: 1\n", DivideFormat::Auto).unwrap();
    assert_eq!(d.moves, [("a2a3".to_string(), 1), ("b2b3".to_string(), 1)]);
    assert_eq!(d.repeated, [("a2a3".to_string(), 1)]);
    // The total may count the move printed again once or twice.
    for total in [2, 3] {
        let text = format!("a2a3: 1\nb2b3: 1\na2a3: 1\n\nNodes searched: {total}\n");
        assert_eq!(read_answer(&text, DivideFormat::Auto).unwrap().divide.repeated.len(), 1);
    }
    assert!(read_answer("a2a3: 1\nb2b3: 1\na2a3: 1\n\nNodes searched: 4\n", DivideFormat::Auto).is_err());
    let err = parse_divide("a2a3: 1\n\nNodes searched: 1\nNodes searched: 1\n", DivideFormat::Auto).unwrap_err();
    assert!(matches!(err, ParseOutputError::SecondTotal { line: 4, .. }));
}

#[test]
fn total_lines_end_uci_answers() {
    assert!(is_total_line("Nodes searched: 20", DivideFormat::Auto));
    assert!(!is_total_line("e2e4: 20", DivideFormat::Auto));
    assert!(!is_total_line("info depth 1", DivideFormat::Auto));
    assert_eq!("Fairy-Stockfish".parse::<DivideFormat>(), Ok(DivideFormat::Stockfish));
}

#[test]
fn engines_without_perft_are_recognised() {
    assert!(says_no_perft("bestmove e2e4 ponder e7e5"));
    assert!(says_no_perft("Unknown command: 'go perft 2'. Type help for more information."));
    assert!(says_no_perft("Unknown command: go perft 2"));
    assert!(!says_no_perft("e2e4: 20"));
    assert!(!says_no_perft("info string NNUE evaluation using nn-ad9b42354671.nnue enabled"));
    assert_eq!(no_perft("info depth 1 seldepth 1 multipv 1 score cp 20 nodes 20 pv e2e4"), Some(NoPerft::Searched));
    assert_eq!(no_perft("info score cp 13 depth 2"), Some(NoPerft::Searched));
    assert_eq!(no_perft("info string depth of the perft: 3"), None);
    assert_eq!(no_perft("info nodes 8902 time 3"), None);
    assert_eq!(no_perft("Unknown command: go perft 3"), Some(NoPerft::Unknown));
}

#[test]
fn moves_of_other_games_are_tokens_too() {
    for t in ["a10a9", "N@b2", "e7e8=Q", "O-O-O", "b1c3", "Nxe5+", "P@e4", "7g7f", "P*5e", "8h2b+", ":g:f"] {
        assert!(is_move_token(t), "{t}");
    }
    for t in ["Stockfish", "15.1", "e2e4:", "", "5ms", "(see", "7g7f:", "e2:e4"] {
        assert!(!is_move_token(t), "{t}");
    }
}
