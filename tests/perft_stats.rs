//! The statistics columns against the published tables, never against our
//! own output:
//! - the Chess Programming Wiki, "Perft Results"
//!   (https://www.chessprogramming.org/Perft_Results): the initial position,
//!   Kiwipete (position 2) and position 3 with every column, position 4 with
//!   the columns it publishes (no discovery or double checks), positions 5
//!   and 6 with nodes only;
//! - The Grand Chess Tree (https://grandchesstree.com, its results files
//!   `perft_p0_results.json` and `perft_p1_results.json`): the initial
//!   position and Kiwipete with checks and mates split by kind.
//!
//! Definitions in `src/perft/stats.rs`. The Wiki's checks include the mates;
//! its discovery checks (single discovered) and double checks (two checkers)
//! exclude them: that is how its Kiwipete depth-5 double checks are 2637,
//! where 2645 moves give a double check, 8 of them mate (the Grand Chess
//! Tree's "direct discovered mates" at that depth).
//!
//! The fast path (`perft_stats_fast`, with and without a hash table) is held
//! to the tables; the slow reference (`perft_stats`, every move made) to the
//! tables at the depths it can afford, and to the fast path.

use chesstool::perft::{leaf_stats, leaf_stats_parallel, perft_stats, perft_stats_fast, Stats, StatsTable};
use chesstool::Position;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const POSITION_4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const POSITION_4_MIRRORED: &str = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1";
const POSITION_5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
const POSITION_6: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

/// A Wiki row: nodes, captures, e.p., castles, promotions, checks,
/// discovery checks, double checks, checkmates.
type WikiRow = [u64; 9];

fn wiki(s: &Stats) -> WikiRow {
    [
        s.nodes,
        s.captures,
        s.en_passants,
        s.castles,
        s.promotions,
        s.checks(),
        s.discovery_checks(),
        s.double_checks(),
        s.checkmates(),
    ]
}

/// CPW, initial position, depths 1-8.
const START_WIKI: [WikiRow; 8] = [
    [20, 0, 0, 0, 0, 0, 0, 0, 0],
    [400, 0, 0, 0, 0, 0, 0, 0, 0],
    [8_902, 34, 0, 0, 0, 12, 0, 0, 0],
    [197_281, 1_576, 0, 0, 0, 469, 0, 0, 8],
    [4_865_609, 82_719, 258, 0, 0, 27_351, 6, 0, 347],
    [119_060_324, 2_812_008, 5_248, 0, 0, 809_099, 329, 46, 10_828],
    [3_195_901_860, 108_329_926, 319_617, 883_453, 0, 33_103_848, 18_026, 1_628, 435_767],
    [84_998_978_956, 3_523_740_106, 7_187_977, 23_605_205, 0, 968_981_593, 847_039, 147_215, 9_852_036],
];

/// CPW, Kiwipete, depths 1-6 (depth 5's double checks: 2637).
const KIWIPETE_WIKI: [WikiRow; 6] = [
    [48, 8, 0, 2, 0, 0, 0, 0, 0],
    [2_039, 351, 1, 91, 0, 3, 0, 0, 0],
    [97_862, 17_102, 45, 3_162, 0, 993, 0, 0, 1],
    [4_085_603, 757_163, 1_929, 128_013, 15_172, 25_523, 42, 6, 43],
    [193_690_690, 35_043_416, 73_365, 4_993_637, 8_392, 3_309_887, 19_883, 2_637, 30_171],
    [8_031_647_685, 1_558_445_089, 3_577_504, 184_513_607, 56_627_920, 92_238_050, 568_417, 54_948, 360_003],
];

/// CPW, position 3, depths 1-8.
const POSITION_3_WIKI: [WikiRow; 8] = [
    [14, 1, 0, 0, 0, 2, 0, 0, 0],
    [191, 14, 0, 0, 0, 10, 0, 0, 0],
    [2_812, 209, 2, 0, 0, 267, 3, 0, 0],
    [43_238, 3_348, 123, 0, 0, 1_680, 106, 0, 17],
    [674_624, 52_051, 1_165, 0, 0, 52_950, 1_292, 3, 0],
    [11_030_083, 940_350, 33_325, 0, 7_552, 452_473, 26_067, 0, 2_733],
    [178_633_661, 14_519_036, 294_874, 0, 140_024, 12_797_406, 370_630, 3_612, 87],
    [3_009_794_393, 267_586_558, 8_009_239, 0, 6_578_076, 135_626_805, 7_181_487, 1_630, 450_410],
];

/// CPW, position 4 (and its mirror), depths 1-6: nodes, captures, e.p.,
/// castles, promotions, checks, checkmates (the columns it publishes).
const POSITION_4_WIKI: [[u64; 7]; 6] = [
    [6, 0, 0, 0, 0, 0, 0],
    [264, 87, 0, 6, 48, 10, 0],
    [9_467, 1_021, 4, 0, 120, 38, 22],
    [422_333, 131_393, 0, 7_795, 60_032, 15_492, 5],
    [15_833_292, 2_046_173, 6_512, 0, 329_464, 200_568, 50_562],
    [706_045_033, 210_369_132, 212, 10_882_006, 81_102_984, 26_973_664, 81_076],
];

/// CPW, positions 5 and 6: nodes only.
const POSITION_5_NODES: [u64; 5] = [44, 1_486, 62_379, 2_103_487, 89_941_194];
const POSITION_6_NODES: [u64; 6] = [46, 2_079, 89_890, 3_894_594, 164_075_551, 6_923_051_137];

/// A Grand Chess Tree row: nodes, captures, enpassants, castles, promotions;
/// direct, single discovered, direct discovered, double discovered and total
/// checks; the same five for mates.
type TreeRow = [u64; 15];

fn tree(s: &Stats) -> TreeRow {
    [
        s.nodes,
        s.captures,
        s.en_passants,
        s.castles,
        s.promotions,
        s.direct_checks,
        s.single_discovered_checks,
        s.direct_discovered_checks,
        s.double_discovered_checks,
        s.total_checks(),
        s.direct_mates,
        s.single_discovered_mates,
        s.direct_discovered_mates,
        s.double_discovered_mates,
        s.total_mates(),
    ]
}

/// The Grand Chess Tree, start position, depths 1-8.
const START_TREE: [TreeRow; 8] = [
    [20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [400, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [8_902, 34, 0, 0, 0, 12, 0, 0, 0, 12, 0, 0, 0, 0, 0],
    [197_281, 1_576, 0, 0, 0, 461, 0, 0, 0, 461, 8, 0, 0, 0, 8],
    [4_865_609, 82_719, 258, 0, 0, 26_998, 6, 0, 0, 27_004, 347, 0, 0, 0, 347],
    [119_060_324, 2_812_008, 5_248, 0, 0, 797_896, 329, 46, 0, 798_271, 10_828, 0, 0, 0, 10_828],
    [
        3_195_901_860,
        108_329_926,
        319_617,
        883_453,
        0,
        32_648_427,
        18_026,
        1_628,
        0,
        32_668_081,
        435_767,
        0,
        0,
        0,
        435_767,
    ],
    [
        84_998_978_956,
        3_523_740_106,
        7_187_977,
        23_605_205,
        0,
        958_135_303,
        847_039,
        147_215,
        0,
        959_129_557,
        9_852_032,
        4,
        0,
        0,
        9_852_036,
    ],
];

/// The Grand Chess Tree, Kiwipete, depths 1-6.
const KIWIPETE_TREE: [TreeRow; 6] = [
    [48, 8, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    [2_039, 351, 1, 91, 0, 3, 0, 0, 0, 3, 0, 0, 0, 0, 0],
    [97_862, 17_102, 45, 3_162, 0, 992, 0, 0, 0, 992, 1, 0, 0, 0, 1],
    [4_085_603, 757_163, 1_929, 128_013, 15_172, 25_432, 42, 6, 0, 25_480, 43, 0, 0, 0, 43],
    [
        193_690_690,
        35_043_416,
        73_365,
        4_993_637,
        8_392,
        3_257_196,
        19_883,
        2_637,
        0,
        3_279_716,
        30_163,
        0,
        8,
        0,
        30_171,
    ],
    [
        8_031_647_685,
        1_558_445_089,
        3_577_504,
        184_513_607,
        56_627_920,
        91_254_682,
        568_417,
        54_948,
        0,
        91_878_047,
        359_937,
        0,
        66,
        0,
        360_003,
    ],
];

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

/// Every row of `published` (depths from 1) against `got`, through `columns`.
fn check_rows<R: PartialEq + std::fmt::Debug>(fen: &str, got: &[Stats], published: &[R], columns: fn(&Stats) -> R) {
    assert_eq!(got.len(), published.len(), "{fen}");
    for (depth, (g, want)) in got.iter().zip(published).enumerate() {
        assert_eq!(&columns(g), want, "{fen} depth {}", depth + 1);
    }
}

fn fast(fen: &str, depth: usize) -> Vec<Stats> {
    perft_stats_fast(&pos(fen), depth as u32, None)
}

#[test]
fn start_position_to_depth_6() {
    let got = fast(START, 6);
    check_rows(START, &got, &START_WIKI[..6], wiki);
    check_rows(START, &got, &START_TREE[..6], tree);
}

#[test]
fn kiwipete_to_depth_5() {
    let got = fast(KIWIPETE, 5);
    check_rows(KIWIPETE, &got, &KIWIPETE_WIKI[..5], wiki);
    check_rows(KIWIPETE, &got, &KIWIPETE_TREE[..5], tree);
}

#[test]
fn position_3_to_depth_7() {
    check_rows(POSITION_3, &fast(POSITION_3, 7), &POSITION_3_WIKI[..7], wiki);
}

fn position_4(s: &Stats) -> [u64; 7] {
    [s.nodes, s.captures, s.en_passants, s.castles, s.promotions, s.checks(), s.checkmates()]
}

#[test]
fn position_4_and_its_mirror_to_depth_5() {
    for fen in [POSITION_4, POSITION_4_MIRRORED] {
        check_rows(fen, &fast(fen, 5), &POSITION_4_WIKI[..5], position_4);
    }
}

#[test]
fn positions_5_and_6_nodes() {
    check_rows(POSITION_5, &fast(POSITION_5, 5), &POSITION_5_NODES, |s| s.nodes);
    check_rows(POSITION_6, &fast(POSITION_6, 5), &POSITION_6_NODES[..5], |s| s.nodes);
}

/// The slow reference (every move made) agrees with the tables too.
#[test]
fn the_reference_to_the_tables() {
    let s = perft_stats(&pos(START), 5);
    check_rows(START, &s, &START_WIKI[..5], wiki);
    check_rows(START, &s, &START_TREE[..5], tree);
    let k = perft_stats(&pos(KIWIPETE), 4);
    check_rows(KIWIPETE, &k, &KIWIPETE_WIKI[..4], wiki);
    check_rows(KIWIPETE, &k, &KIWIPETE_TREE[..4], tree);
    check_rows(POSITION_3, &perft_stats(&pos(POSITION_3), 6), &POSITION_3_WIKI[..6], wiki);
    check_rows(POSITION_4, &perft_stats(&pos(POSITION_4), 4), &POSITION_4_WIKI[..4], position_4);
}

/// The fast path equals the reference, column by column, where checks of
/// every kind (e.p., promotions, castling, king moves that uncover) occur.
#[test]
fn the_fast_path_equals_the_reference() {
    for (fen, depth) in [
        (KIWIPETE, 3),
        (POSITION_3, 5),
        (POSITION_4, 4),
        (POSITION_5, 3),
        (POSITION_6, 3),
        // e.p. that uncovers two lines at once: a double discovered check.
        ("8/1B2R3/8/3pP3/4k3/8/8/7K w - d6 0 2", 4),
        ("4k3/8/8/r2pP2K/8/8/8/8 w - d6 0 2", 4),
        // A king that uncovers a check, castling that checks.
        ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", 4),
        ("r3k3/8/8/8/8/8/8/3K4 b q - 0 1", 4),
        ("4k3/8/4K3/8/8/8/8/4R3 w - - 0 1", 4),
    ] {
        let p = pos(fen);
        assert_eq!(perft_stats_fast(&p, depth, None), perft_stats(&p, depth), "{fen}");
    }
}

/// With a hash table (a tiny one forces collisions and replacements, a
/// large one keeps whole subtrees) the rows stay the published ones.
#[test]
fn hashed_rows_are_the_published_ones() {
    for table in [StatsTable::with_buckets(64), StatsTable::try_new(64).unwrap()] {
        let got = perft_stats_fast(&pos(KIWIPETE), 5, Some(&table));
        check_rows(KIWIPETE, &got, &KIWIPETE_TREE[..5], tree);
        let again = leaf_stats(&pos(KIWIPETE), 5, Some(&table));
        assert_eq!(tree(&again), KIWIPETE_TREE[4], "a second run served from the table");
    }
    let table = StatsTable::try_new(64).unwrap();
    let got = perft_stats_fast(&pos(START), 6, Some(&table));
    check_rows(START, &got, &START_TREE[..6], tree);
}

/// 8 billion leaves: with a hash table, a few minutes on two cores.
#[test]
#[ignore = "deep: Kiwipete depth 6 (8 billion leaves), with a hash table"]
fn kiwipete_depth_6_hashed() {
    let table = StatsTable::try_new(1024).unwrap();
    let got = leaf_stats_parallel(&pos(KIWIPETE), 6, Some(&table));
    assert_eq!(wiki(&got), KIWIPETE_WIKI[5]);
    assert_eq!(tree(&got), KIWIPETE_TREE[5]);
}

#[test]
#[ignore = "deep: start position depths 7 and 8 (85 billion leaves), with a hash table"]
fn start_position_depth_8_hashed() {
    let table = StatsTable::try_new(1024).unwrap();
    let got = perft_stats_fast(&pos(START), 8, Some(&table));
    check_rows(START, &got, &START_WIKI, wiki);
    check_rows(START, &got, &START_TREE, tree);
}

#[test]
#[ignore = "deep: position 3 depth 8 (3 billion leaves), position 4 depth 6, position 6 depth 6"]
fn deep_wiki_rows_hashed() {
    let table = StatsTable::try_new(512).unwrap();
    check_rows(POSITION_3, &perft_stats_fast(&pos(POSITION_3), 8, Some(&table)), &POSITION_3_WIKI, wiki);
    let table = StatsTable::try_new(512).unwrap();
    check_rows(POSITION_4, &perft_stats_fast(&pos(POSITION_4), 6, Some(&table)), &POSITION_4_WIKI, position_4);
    let table = StatsTable::try_new(512).unwrap();
    check_rows(POSITION_6, &perft_stats_fast(&pos(POSITION_6), 6, Some(&table)), &POSITION_6_NODES, |s| s.nodes);
}

/// The 8 moves of Kiwipete's depth 5 that give a double check and mate,
/// which the Wiki's double checks leave out (2645 - 8 = 2637): two checkers,
/// no legal reply, counted as a direct discovered mate and not as a double check.
#[test]
fn double_check_mates_are_not_wiki_double_checks() {
    for (fen, uci) in WITNESSES {
        let p = pos(fen);
        let after = p.play(p.parse_uci(uci).unwrap());
        assert_eq!(after.checkers().count(), 2, "{fen} {uci}");
        assert_eq!(after.count_legal(), 0, "{fen} {uci}");
        let s = &perft_stats(&p, 1)[0];
        assert_eq!((s.double_checks(), s.direct_discovered_mates), (0, 1), "{fen} {uci}");
    }
}

/// The two positions of Kiwipete's depth-5 tree where a move gives a double
/// check that mates (each reached by four move orders: the 8), with the
/// move: Nxf6#, the knight and the bishop on b5 (python-chess 1.11: checkers
/// b5 and f6, `is_checkmate()`).
const WITNESSES: [(&str, &str); 2] = [
    ("3rkb1r/p1pNqp2/bn2pnp1/1B1P4/1p2P3/2N2Q1p/PPPB1PPP/R3K2R w KQk - 1 3", "d7f6"),
    ("3rkr2/p1pNqpb1/bn2pnp1/1B1P4/1p2P3/2N2Q1p/PPPB1PPP/R3K2R w KQ - 1 3", "d7f6"),
];
