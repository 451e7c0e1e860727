//! The fast perft (PEXT and magic builds, 1 and 2 threads, with and without a
//! hash table, including a tiny one where entries collide all the time) gives
//! exactly the published suite counts and the reference `perft`'s counts.

use chesstool::perft::{perft, perft_fast, perft_fast_magic, perft_fast_parallel, HashTable};
use chesstool::verify::suite::parse_suite;
use chesstool::Position;

/// Counts above this are skipped (the deep ones are for `chesstool bench`).
const NODE_CAP: u64 = 2_000_000;

fn suite_cases() -> Vec<(String, Position, u32, u64)> {
    let mut cases = Vec::new();
    for file in ["standard", "tricky", "chess960", "random"] {
        let path = format!("{}/suites/{file}.epd", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("suite file");
        for entry in parse_suite(&path, &text).expect("suite parses") {
            let pos = Position::from_fen(&entry.fen).expect("suite FEN");
            for &(depth, nodes) in entry.counts.iter().filter(|&&(_, n)| n <= NODE_CAP) {
                cases.push((entry.origin.clone(), pos, depth, nodes));
            }
        }
    }
    assert!(cases.len() > 1000, "suites found");
    cases
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap()
}

#[test]
fn every_suite_count_single_thread_pext_and_magic() {
    for (origin, pos, depth, want) in suite_cases() {
        assert_eq!(perft_fast(&pos, depth, None), want, "{origin} depth {depth}");
        assert_eq!(perft_fast_magic(&pos, depth, None), want, "{origin} depth {depth} (magic)");
    }
}

#[test]
fn every_suite_count_with_and_without_hash_on_one_and_two_threads() {
    let cases = suite_cases();
    for threads in [1, 2] {
        let pool = pool(threads);
        let big = HashTable::new(16);
        // Four lines: almost every store evicts another position's entry.
        let tiny = HashTable::with_lines(4);
        pool.install(|| {
            for (origin, pos, depth, want) in &cases {
                let (pos, depth, want) = (pos, *depth, *want);
                assert_eq!(perft_fast_parallel(pos, depth, None), want, "{origin} d{depth} t{threads}");
                assert_eq!(perft_fast_parallel(pos, depth, Some(&big)), want, "{origin} d{depth} t{threads} hash");
                assert_eq!(perft_fast_parallel(pos, depth, Some(&tiny)), want, "{origin} d{depth} t{threads} tiny");
            }
        });
    }
}

#[test]
fn one_mebibyte_table_shared_over_many_runs() {
    // Entries from every earlier position stay in the table: a wrong match
    // across positions or depths would show up here.
    let table = HashTable::new(1);
    let magic_table = HashTable::with_lines(1024);
    for (origin, pos, depth, want) in suite_cases() {
        assert_eq!(perft_fast(&pos, depth, Some(&table)), want, "{origin} depth {depth}");
        assert_eq!(perft_fast_magic(&pos, depth, Some(&magic_table)), want, "{origin} depth {depth} (magic)");
    }
}

#[test]
fn agrees_with_the_reference_perft() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        for depth in 0..=4 {
            assert_eq!(perft_fast(&pos, depth, None), perft(&pos, depth), "{fen} depth {depth}");
        }
    }
}

#[test]
fn irrelevant_en_passant_square_only_misses() {
    // The e.p. square d6 is kept (the e5 pawn could take pseudo-legally) but
    // the capture is illegal: both pawns would leave the fifth rank and the
    // rook on h5 would hit the king on a5. The keys differ from the same
    // position without e.p., the counts do not, and a shared table must give
    // both right (they just miss each other's entries).
    let with_ep = Position::from_fen("8/8/8/K2pP2r/8/8/8/7k w - d6 0 2").unwrap();
    let without = Position::from_fen("8/8/8/K2pP2r/8/8/8/7k w - - 0 2").unwrap();
    assert_ne!(with_ep.key(), without.key());
    let table = HashTable::with_lines(64);
    for depth in 1..=5 {
        let want = perft(&without, depth);
        assert_eq!(perft(&with_ep, depth), want);
        assert_eq!(perft_fast(&with_ep, depth, Some(&table)), want, "with e.p., depth {depth}");
        assert_eq!(perft_fast(&without, depth, Some(&table)), want, "without e.p., depth {depth}");
    }
}

#[test]
fn castling_rook_shielding_the_kings_path() {
    // Chess960: the castling rook on b1 hides c1 from the black rook on a1.
    // The fast path reads the king's safety from one enemy attack map made
    // with that rook still on the board; here the map must not be trusted
    // for castling (after O-O-O the a1 rook would attack the king on c1).
    // Both kings have several free squares, so the map is always made.
    for fen in [
        "7k/8/8/8/8/8/8/rR1K4 w B - 0 1",
        "7k/8/8/8/8/8/8/rRK5 w B - 0 1",
        "Rr1k4/8/8/8/8/8/8/7K b b - 0 1",
        "1r2k2r/8/8/8/8/8/8/R3K1R1 w KQk - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        for depth in 1..=4 {
            assert_eq!(perft_fast(&pos, depth, None), perft(&pos, depth), "{fen} depth {depth}");
            assert_eq!(perft_fast_magic(&pos, depth, None), perft(&pos, depth), "{fen} depth {depth} (magic)");
        }
    }
}

/// Two workers made to share a core (both pinned to one, then let go, so they
/// stay there for the moment): the search moves one of them for its own
/// duration, counts the same, and leaves every worker's allowed cores as they were.
#[cfg(target_os = "linux")]
#[test]
fn workers_sharing_a_core_get_their_cores_back() {
    fn allowed() -> Vec<usize> {
        // Safety: an all-zero cpu_set_t is the empty set; a valid set of the size given.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        assert_eq!(unsafe { libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) }, 0);
        // Safety: indices below CPU_SETSIZE into a valid set.
        (0..libc::CPU_SETSIZE as usize).filter(|&c| unsafe { libc::CPU_ISSET(c, &set) }).collect()
    }
    fn pin(cpus: &[usize]) {
        // Safety: as above.
        let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        for &c in cpus {
            unsafe { libc::CPU_SET(c, &mut set) };
        }
        assert_eq!(unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) }, 0);
    }
    let pool = pool(2);
    let before: Vec<Vec<usize>> = pool.broadcast(|_| allowed());
    let kiwipete = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
    let table = HashTable::new(16);
    for _ in 0..3 {
        let first = before[0][0];
        pool.broadcast(|ctx| {
            pin(&[first]);
            pin(&before[ctx.index()]);
        });
        assert_eq!(pool.install(|| perft_fast_parallel(&kiwipete, 4, Some(&table))), 4_085_603);
        assert_eq!(pool.install(|| perft_fast_parallel(&kiwipete, 4, None)), 4_085_603);
        assert_eq!(pool.broadcast(|_| allowed()), before);
    }
}
