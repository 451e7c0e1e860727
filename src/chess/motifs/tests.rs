use super::sketch::plausible_checks;
use super::*;
use crate::board::Color;

/// SplitMix64, as `verify::walk` draws (that room sits above this one).
fn seeded(seed: u64) -> impl FnMut(u64) -> u64 {
    let mut state = seed;
    move |n| {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % n
    }
}

#[test]
fn every_case_is_built_and_holds() {
    for case in Case::all() {
        for seed in 1..=3 {
            let mut rng = seeded(seed);
            let setup = build_case(case, &mut rng).unwrap_or_else(|| panic!("{} not built (seed {seed})", case.name()));
            let fen = setup.root.to_fen();
            assert!(holds_case(&setup, case), "{}: {fen} {:?}", case.name(), setup.moves);
            let again = Setup { root: Position::from_fen(&fen).unwrap(), moves: setup.moves.clone() };
            assert!(holds_case(&again, case), "{} after a FEN round trip", case.name());
        }
    }
}

#[test]
fn cases_are_named_once_and_listed_round_by_round() {
    let all = Case::all();
    let names: std::collections::HashSet<String> = all.iter().map(Case::name).collect();
    assert_eq!(names.len(), all.len());
    let first: Vec<Motif> = all.iter().take(Motif::ALL.len()).map(|c| c.motif).collect();
    assert_eq!(first, Motif::ALL.to_vec(), "the first round has one case of each motif");
    assert_eq!(all[0].name(), "ep-pinned-on-rank");
    assert!(names.contains("castling-blocked/black-queenside-b8"));
    assert!(names.contains("rights-after-capture/white-by-queen"));
}

#[test]
fn a_case_holds_only_its_own_detail() {
    // One position of each of two cases of a motif; each holds its own.
    let along = Setup::at(Position::from_fen("7k/4b3/8/2Pp4/8/K7/8/8 w - d6 0 1").unwrap());
    let off = Setup::at(Position::from_fen("7k/K7/8/2Pp4/8/4b3/8/8 w - d6 0 1").unwrap());
    let [a, o] = [Detail::AlongPin, Detail::OffPin].map(|detail| Case { motif: Motif::EpPinnedOnDiagonal, detail });
    assert!(holds_case(&along, a) && !holds_case(&along, o));
    assert!(holds_case(&off, o) && !holds_case(&off, a));
    let diagonal = Setup::at(Position::from_fen("4b2k/8/8/2Pp4/K7/8/8/8 w - d6 0 1").unwrap());
    let rank = Setup::at(Position::from_fen("7k/K6r/8/2Pp4/8/8/8/8 w - d6 0 1").unwrap());
    let d = Case { motif: Motif::EpInOtherCheck, detail: Detail::Diagonal };
    assert!(holds_case(&diagonal, d) && !holds_case(&rank, d));
    let w = |side, file| Case {
        motif: Motif::CastlingThroughAttack,
        detail: Detail::Square { side, wing: Wing::King, file },
    };
    let through = Setup::at(Position::from_fen("k4r2/8/8/8/8/8/8/4K2R w K - 0 1").unwrap());
    assert!(holds_case(&through, w(Color::White, 5)));
    assert!(!holds_case(&through, w(Color::Black, 5)));
}

#[test]
fn a_rook_taken_on_its_corner_loses_its_right() {
    // White's rook takes Black's on h8 along the file, Black's knight on g8
    // blocks; then the rook and the knight leave: Black may not castle.
    let root = Position::from_fen("4k1nr/p7/8/8/8/8/8/4K2R w Kk - 0 1").unwrap();
    let uci = ["h1h8", "a7a6", "h8h3", "g8f6", "e1d1"];
    let mut pos = root;
    let moves: Vec<Move> = uci
        .iter()
        .map(|u| {
            let m = *pos.legal_moves().iter().find(|m| m.to_uci(false) == *u).unwrap();
            pos = pos.play(m);
            m
        })
        .collect();
    let setup = Setup { root, moves };
    let case = |by| Case { motif: Motif::RightsAfterCapture, detail: Detail::CapturedBy { side: Color::Black, by } };
    assert!(holds_case(&setup, case(Role::Rook)));
    assert!(!holds_case(&setup, case(Role::Queen)));
    // Without the moves, the right is still there.
    assert!(!holds_case(&Setup::at(root), case(Role::Rook)));
}

#[test]
fn impossible_checks_are_not_kept() {
    // The rook's check was there before the double step; two checkers on one line.
    let before_the_push = Position::from_fen("7k/8/4r3/2Pp4/8/8/8/4K3 w - d6 0 1").unwrap();
    assert!(!plausible_checks(&before_the_push));
    let aligned = Position::from_fen("4r2k/8/8/8/4K3/8/8/4q3 w - - 0 1").unwrap();
    assert!(!plausible_checks(&aligned));
    let uncovered = Position::from_fen("4b2k/8/8/2Pp4/K7/8/8/8 w - d6 0 1").unwrap();
    assert!(plausible_checks(&uncovered));
}

#[test]
fn a_seed_repeats() {
    for motif in [Motif::EpPinnedOnRank, Motif::OneMove] {
        let a = build(motif, &mut seeded(7)).unwrap().to_fen();
        let b = build(motif, &mut seeded(7)).unwrap().to_fen();
        assert_eq!(a, b);
    }
}

#[test]
fn the_start_position_holds_only_blocked_castling() {
    assert!(Motif::ALL.iter().all(|&m| !Case::of(m).is_empty()));
    let start = Position::startpos();
    for motif in Motif::ALL {
        assert_eq!(holds(&start, motif), motif == Motif::CastlingBlocked, "{}", motif.name());
    }
}

#[test]
fn known_positions_hold_their_motifs() {
    let cases = [
        ("8/8/8/K1Pp3r/8/8/8/7k w - d6 0 1", Motif::EpPinnedOnRank),
        ("8/8/8/KPp4r/8/8/8/7k w - c6 0 1", Motif::EpPinnedOnRank),
        ("5b1k/8/8/2Pp4/8/K7/8/8 w - d6 0 1", Motif::EpPinnedOnDiagonal),
        ("8/8/8/2Pp4/4K3/8/8/7k w - d6 0 1", Motif::EpRemovesChecker),
        ("4b2k/8/8/2Pp4/K7/8/8/8 w - d6 0 1", Motif::EpInOtherCheck),
        ("1n5k/K1P4r/8/8/8/8/8/8 w - - 0 1", Motif::PinnedPromotion),
        ("1b5k/2P5/3K4/8/8/8/8/8 w - - 0 1", Motif::PinnedPromotionCapture),
        ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", Motif::DiscoveredCheckByCastling),
        ("k4r2/8/8/8/8/8/8/4K2R w K - 0 1", Motif::CastlingThroughAttack),
        ("k3r3/8/8/8/8/8/8/4K2R w K - 0 1", Motif::CastlingOutOfCheck),
        ("k5r1/8/8/8/8/8/8/4K2R w K - 0 1", Motif::CastlingIntoAttack),
        ("1r5k/8/8/8/8/8/8/R3K3 w Q - 0 1", Motif::CastlingRookAttacked),
        ("7k/8/8/8/8/8/8/RN2K3 w Q - 0 1", Motif::CastlingBlocked),
        ("8/8/8/3k4/8/3K4/8/8 w - - 0 1", Motif::KingsNear),
        ("4r2k/8/8/8/8/3n4/8/4K3 w - - 0 1", Motif::DoubleCheck),
        ("8/8/8/R1Pp2k1/8/8/8/K7 w - d6 0 1", Motif::DiscoveredCheckByEp),
        ("7k/8/8/8/8/8/6q1/7K w - - 0 1", Motif::OneMove),
    ];
    for (fen, motif) in cases {
        let pos = Position::from_fen(fen).unwrap();
        assert!(holds(&pos, motif), "{} in {fen}", motif.name());
    }
}

#[test]
fn each_chess960_shape_holds_where_python_chess_says_so() {
    // The castlings python-chess 1.11 lists (chess960=True) on each board:
    // none on the blocked and shielded ones, the one named on the others.
    let boards = [
        ("4k3/8/8/8/8/8/8/1KR1N3 w C - 0 1", Shape::KingPathBlocked, None),
        ("4k3/8/8/8/8/8/8/rR1K4 w B - 0 1", Shape::RookShields, None),
        ("4k3/8/8/8/8/8/8/RK1N4 w A - 0 1", Shape::RookPathBlocked, None),
        ("4k3/8/8/8/8/8/8/6KR w H - 0 1", Shape::KingStays, Some("g1h1")),
        ("4k3/8/8/8/8/8/8/1K3R2 w F - 0 1", Shape::RookStays, Some("b1f1")),
        ("4k3/8/8/8/8/8/8/5KR1 w G - 0 1", Shape::Swap, Some("f1g1")),
    ];
    for (fen, shape, castling) in boards {
        let pos = Position::from_fen(fen).unwrap();
        let ours: Vec<String> = pos.legal_moves().iter().filter(|m| m.is_castling()).map(|m| m.to_uci(true)).collect();
        assert_eq!(ours, castling.into_iter().map(str::to_string).collect::<Vec<_>>(), "{fen}");
        for other in Shape::ALL {
            let case =
                Case { motif: Motif::Chess960Castling, detail: Detail::Chess960 { side: Color::White, shape: other } };
            assert_eq!(holds_case(&Setup::at(pos), case), other == shape, "{fen}: {}", case.name());
        }
        let black = Case { motif: Motif::Chess960Castling, detail: Detail::Chess960 { side: Color::Black, shape } };
        assert!(!holds_case(&Setup::at(pos), black), "{fen}: White is to move");
    }
}
