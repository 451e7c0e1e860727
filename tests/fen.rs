//! FEN, X-FEN and Shredder-FEN: round trips over every suite position, the
//! `startpos` keyword, optional counters, and one test per bad-FEN case of
//! issue 2 asserting that the one-line message names the problem.

mod common;

use chesstool::position::{FenError, ParseFenError, PositionError, STARTPOS_FEN};
use chesstool::{Color, Position, Role, Square};

/// The error message of a FEN that must not parse; it must be one line.
fn error(fen: &str) -> (FenError, String) {
    match Position::from_fen(fen) {
        Ok(pos) => panic!("{fen:?} parsed (as {}) but must be rejected", pos.to_fen()),
        Err(e) => {
            let msg = e.to_string();
            assert!(!msg.contains('\n'), "message for {fen:?} is not one line: {msg:?}");
            assert!(!msg.is_empty());
            (e, msg)
        }
    }
}

fn assert_mentions(fen: &str, needles: &[&str]) -> FenError {
    let (e, msg) = error(fen);
    for n in needles {
        assert!(msg.contains(n), "message for {fen:?} should mention {n:?}: got {msg:?}");
    }
    e
}

// ---- round trips -------------------------------------------------------

#[test]
fn every_suite_fen_round_trips() {
    let mut n = 0;
    for line in common::all_suites() {
        let pos = Position::from_fen(&line.fen).unwrap_or_else(|e| panic!("suites/{}:{}: {e}", line.file, line.line));
        assert_eq!(pos.to_fen(), line.fen, "suites/{}:{}", line.file, line.line);
        // Parsing the output again gives the same position.
        assert_eq!(Position::from_fen(&pos.to_fen()).unwrap(), pos);
        n += 1;
    }
    assert!(n > 300, "only {n} suite positions");
}

#[test]
fn chess960_suite_is_shredder_fen_and_recognised() {
    for line in common::read_suite("chess960.epd") {
        let pos = Position::from_fen(&line.fen).unwrap();
        let castling = line.fen.split(' ').nth(2).unwrap();
        if castling != "-" {
            assert!(pos.is_chess960(), "suites/chess960.epd:{} not recognised as Chess960", line.line);
            assert!(castling.chars().all(|c| c.is_ascii_alphabetic() && !"KQkq".contains(c)), "{castling}");
        }
    }
    for line in common::read_suite("standard.epd") {
        assert!(!Position::from_fen(&line.fen).unwrap().is_chess960(), "{}", line.fen);
    }
}

#[test]
fn startpos_keyword() {
    let pos = Position::from_fen("startpos").unwrap();
    assert_eq!(pos, Position::startpos());
    assert_eq!(pos.to_fen(), STARTPOS_FEN);
    assert_eq!(pos.to_fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(Position::from_fen("  startpos  ").unwrap(), pos);
    assert!(!pos.is_chess960());
}

#[test]
fn halfmove_and_fullmove_are_optional() {
    let full = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1").unwrap();
    let four = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq -").unwrap();
    let five = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0").unwrap();
    assert_eq!(four, full);
    assert_eq!(five, full);
    assert_eq!(four.to_fen(), "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    // The counters are kept when present.
    let p = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 17 42").unwrap();
    assert_eq!((p.halfmoves(), p.fullmoves()), (17, 42));
    assert_eq!(p.to_fen(), "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 17 42");
    // Castling and e.p. fields may be left out too (board and side suffice).
    let bare = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w").unwrap();
    assert_eq!(bare.to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

#[test]
fn xfen_kqkq_in_chess960_means_the_outermost_rooks() {
    // Rooks on b and g with the king between them: K and Q name them, and
    // the position is written back in Shredder-FEN.
    let pos = Position::from_fen("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1").unwrap();
    assert!(pos.is_chess960());
    assert_eq!(pos.to_fen(), "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1");
    assert_eq!(pos.castling_rooks().count(), 4);
    for sq in [Square::B1, Square::G1, Square::B8, Square::G8] {
        assert!(pos.castling_rooks().contains(sq), "{sq}");
    }
    // Two rooks on one side: K is the outermost one (h1), not g1.
    let pos = Position::from_fen("rr2k2r/8/8/8/8/8/8/R3K1RR w KQkq - 0 1").unwrap();
    assert!(pos.castling_rooks().contains(Square::H1));
    assert!(!pos.castling_rooks().contains(Square::G1));
    assert!(pos.castling_rooks().contains(Square::A8));
    assert!(!pos.castling_rooks().contains(Square::B8));
    // King on e and rooks in the corners: standard chess, written as KQkq.
    assert!(!pos.is_chess960());
    assert_eq!(pos.to_fen(), "rr2k2r/8/8/8/8/8/8/R3K1RR w KQkq - 0 1");
    // A Chess960 start position given in X-FEN and in Shredder-FEN is the same.
    let x = Position::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9").unwrap();
    let s = Position::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9").unwrap();
    assert_eq!(x, s);
    assert_eq!(x.to_fen(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
}

#[test]
fn shredder_fen_names_inner_rooks() {
    // G instead of H: the inner rook keeps the right.
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K1RR w GA - 0 1").unwrap();
    assert!(pos.is_chess960());
    assert!(pos.castling_rooks().contains(Square::G1));
    assert!(!pos.castling_rooks().contains(Square::H1));
    assert_eq!(pos.to_fen(), "4k3/8/8/8/8/8/8/R3K1RR w GA - 0 1");
    // HAha with the standard setup is Chess960 notation for the start position.
    let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1").unwrap();
    assert!(pos.is_chess960());
    assert_eq!(pos.to_fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
    assert_eq!(pos.legal_moves().len(), 20);
}

#[test]
fn parsed_fields_are_where_they_belong() {
    let pos = Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3").unwrap();
    assert_eq!(pos.turn(), Color::White);
    assert_eq!(pos.ep_square(), Some(Square::F6));
    assert_eq!(pos.king(Color::White), Square::E1);
    assert_eq!(pos.king(Color::Black), Square::E8);
    assert_eq!(pos.role_at(Square::E5), Some(Role::Pawn));
    assert_eq!(pos.pieces(Color::Black, Role::Pawn).count(), 8);
    assert_eq!(pos.occupied().count(), 32);
    assert_eq!(pos.key(), pos.compute_key());
}

// ---- bad FENs: each names the problem in one line ----------------------

#[test]
fn fusc_paper_middlegame_fen_has_short_ranks() {
    // FUSc# paper, section 3.2.2, as printed: Kiwipete with "p1ppqb1" (rank 7)
    // and "PPPBPPP" (rank 2) missing a square each.
    let fen = "r3k2r/p1ppqb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBPPP/R3K2R w KQkq";
    let e = assert_mentions(fen, &["rank 7", "7 squares", "expected 8"]);
    assert!(matches!(e, FenError::Parse(ParseFenError::RankLength { rank: 7, squares: 7 })), "{e:?}");
    // With rank 7 repaired, rank 2 is reported.
    let fixed7 = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBPPP/R3K2R w KQkq";
    assert_mentions(fixed7, &["rank 2", "7 squares"]);
    // The correct Kiwipete parses.
    Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -").unwrap();
}

#[test]
fn empty_fen() {
    for fen in ["", " ", "\t\n"] {
        let e = assert_mentions(fen, &["empty"]);
        assert!(matches!(e, FenError::Parse(ParseFenError::Empty)), "{fen:?}: {e:?}");
    }
}

#[test]
fn nine_ranks_and_seven_ranks() {
    assert_mentions("rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &["9 ranks", "expected 8"]);
    assert_mentions("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &["7 ranks", "expected 8"]);
}

#[test]
fn rank_too_long() {
    assert_mentions("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &["rank 7", "9 squares"]);
    assert_mentions("rnbqkbnr/pppppppp/8/8/44/8/PPPPPPPP/RNBQKBN1R w KQkq - 0 1", &["rank 1", "9 squares"]);
}

#[test]
fn castling_rights_without_rooks() {
    let e = assert_mentions("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", &["castling", "KQkq", "'K'", "rook"]);
    assert!(matches!(e, FenError::Parse(ParseFenError::CastlingWithoutRook { right: 'K', .. })), "{e:?}");
    // Only the black queen-side rook is missing.
    assert_mentions("4k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", &["'q'", "black rook"]);
    // Shredder-FEN naming a file without a rook.
    assert_mentions("4k3/8/8/8/8/8/8/R3K2R w G - 0 1", &["'G'", "rook"]);
}

#[test]
fn castling_right_whose_king_is_not_on_its_square() {
    assert_mentions("r3k2r/8/8/8/8/8/4K3/R6R w KQkq - 0 1", &["'K'", "white king", "back rank"]);
    assert_mentions("r6r/4k3/8/8/8/8/8/R3K2R w KQkq - 0 1", &["'k'", "black king"]);
}

#[test]
fn castling_field_garbage() {
    assert_mentions("r3k2r/8/8/8/8/8/8/R3K2R w KQkx - 0 1", &["castling", "KQkx"]);
    assert_mentions("r3k2r/8/8/8/8/8/8/R3K2R w KQkqK - 0 1", &["castling", "KQkqK"]);
    assert_mentions("r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1", &["castling", "given twice"]);
}

#[test]
fn en_passant_square_on_the_wrong_rank() {
    let e =
        assert_mentions("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", &["en passant", "e4", "rank 3"]);
    assert!(matches!(e, FenError::Position(PositionError::BadEnPassant { square: Square::E4, .. })), "{e:?}");
    // e3 with white to move: it must be on rank 6.
    assert_mentions("rnbqkbnr/pppp1ppp/8/8/4p3/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", &["e3", "rank 6"]);
    // Not a square at all.
    assert_mentions("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e9 0 1", &["en passant", "e9"]);
}

#[test]
fn en_passant_square_that_no_double_push_explains() {
    // Start position, black to move, e3: no white pawn on e4.
    assert_mentions("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1", &["e3", "no pawn", "double push"]);
    // A pawn on e4 but e2 occupied (the pawn cannot have come from there).
    assert_mentions("rnbqkbnr/pppppppp/8/8/4P3/8/PPPPBPPP/RNBQK1NR b KQkq e3 0 1", &["e3", "not empty"]);
    // ... or e3 itself occupied.
    assert_mentions("rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/RNBQKB1R b KQkq e3 0 1", &["e3", "not empty"]);
    // The same position with the pawn really just pushed is fine.
    Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
}

#[test]
fn bad_piece_letter() {
    let e = assert_mentions("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &["rank 7", "'x'"]);
    assert!(matches!(e, FenError::Parse(ParseFenError::BadPiece { rank: 7, letter: 'x' })), "{e:?}");
    assert_mentions("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN9 w KQkq - 0 1", &["rank 1", "16 squares"]);
    assert_mentions("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN0R w KQkq - 0 1", &["rank 1", "\"0\""]);
    assert_mentions("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNé w KQkq - 0 1", &["rank 1", "'é'"]);
}

#[test]
fn missing_or_bad_side_to_move() {
    let e = assert_mentions("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", &["side to move"]);
    assert!(matches!(e, FenError::Parse(ParseFenError::MissingTurn)), "{e:?}");
    assert_mentions("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", &["side to move", "\"x\""]);
    assert_mentions("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR KQkq - 0 1", &["side to move", "KQkq"]);
}

#[test]
fn no_king() {
    assert_mentions("8/8/8/8/8/8/8/K7 w - - 0 1", &["no black king"]);
    assert_mentions("k7/8/8/8/8/8/8/8 b - - 0 1", &["no white king"]);
    assert_mentions("8/8/8/8/8/8/8/8 w - - 0 1", &["king"]);
}

#[test]
fn two_kings() {
    assert_mentions("k7/8/8/8/8/8/8/K1K5 w - - 0 1", &["white", "more than one king"]);
    assert_mentions("k1k5/8/8/8/8/8/8/K7 w - - 0 1", &["black", "more than one king"]);
}

#[test]
fn pawn_on_first_or_eighth_rank() {
    assert_mentions("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", &["pawn on a8", "rank"]);
    assert_mentions("4k3/8/8/8/8/8/8/4K2p w - - 0 1", &["pawn on h1", "rank"]);
}

#[test]
fn side_not_to_move_in_check() {
    let e = assert_mentions("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", &["side not to move", "black", "check"]);
    assert!(matches!(e, FenError::Position(PositionError::OppositeCheck(_))), "{e:?}");
    // By a pawn and by a knight.
    assert_mentions("8/8/8/8/8/3k4/4P3/4K3 w - - 0 1", &["side not to move", "black"]);
    assert_mentions("4k3/8/8/8/8/5n2/8/4K3 b - - 0 1", &["side not to move", "white"]);
    // Kings next to each other.
    assert_mentions("8/8/8/8/8/8/3k4/4K3 w - - 0 1", &["check"]);
}

#[test]
fn more_than_16_pieces_of_a_colour() {
    assert_mentions("QQQQQQQQ/QQQQQQQQ/Q7/8/8/8/8/K6k w - - 0 1", &["white", "more than 16 pieces"]);
    assert_mentions("k7/8/8/8/8/nnnnnnnn/nnnnnnnn/7K w - - 0 1", &["black", "more than 16 pieces"]);
    // Nine pawns of a colour.
    assert_mentions("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", &["white", "more than 8 pawns"]);
}

#[test]
fn bad_counters_and_trailing_text() {
    assert_mentions("4k3/8/8/8/8/8/8/4K3 w - - x 1", &["halfmove", "\"x\""]);
    assert_mentions("4k3/8/8/8/8/8/8/4K3 w - - 0 y", &["fullmove", "\"y\""]);
    assert_mentions("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", &["extra"]);
}

#[test]
fn random_bytes_are_rejected_with_one_line() {
    let mut rng = common::Rng::new(7);
    for _ in 0..2000 {
        let len = rng.below(40);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        let s = String::from_utf8_lossy(&bytes).into_owned();
        if let Err(e) = Position::from_fen(&s) {
            assert!(!e.to_string().contains('\n'), "{s:?}: {e}");
        }
    }
}

#[test]
fn move_counters_at_their_largest_do_not_wrap() {
    let pos = Position::from_fen("7k/8/8/8/8/8/8/4K3 w - - 4294967295 4294967295").unwrap();
    let pos = pos.play_uci_moves(["e1e2", "h8h7"]).unwrap();
    assert!(pos.to_fen().ends_with(" 4294967295 4294967295"), "{}", pos.to_fen());
}
