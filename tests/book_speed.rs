//! Probe speed on the whole gnuchess book (about 143,000 nodes), in process:
//! every 20th position of the book and a few that no line reaches, each
//! probed by FEN alone (the walk over the whole tree, the hardest case).
//! A measurement in CPU time, not a gate (wall time on a shared machine is noise):
//! `cargo test --release --test book_speed -- --ignored --nocapture`.

mod book_common;

use chesstool::book::polyglot::{self, ImportOptions};
use chesstool::book::probe::Book;
use chesstool::book::write::encode;
use chesstool::Position;

/// CPU time of this thread: wall time on a shared machine is mostly the
/// other tenants.
fn thread_cpu_seconds() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // Safety: `ts` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

#[test]
#[ignore]
fn probe_times_on_the_gnuchess_book() {
    let Some(path) = book_common::gnuchess_book() else { return };
    let entries = polyglot::read_entries(&std::fs::read(path).unwrap()).unwrap();
    let (tree, _) = polyglot::import(&entries, ImportOptions { max_ply: None, min_weight: 1 });
    let (bytes, sizes) = encode(&tree).unwrap();
    let started = thread_cpu_seconds();
    let book = Book::from_bytes(&bytes).unwrap();
    let load = thread_cpu_seconds() - started;
    let mut positions = Vec::new();
    let mut n = 0;
    tree.for_each(|id, before| {
        n += 1;
        if n % 20 == 0 {
            positions.push(before.play(tree.node(id).mv));
        }
    });
    for fen in ["8/8/8/8/8/8/8/K1k5 w - - 0 1", "rnbqkbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBQKBNR w - - 0 1"] {
        positions.push(Position::from_fen(fen).unwrap());
    }
    let mut times: Vec<(f64, String)> = positions
        .iter()
        .map(|pos| {
            let t = thread_cpu_seconds();
            book.probe(pos, None).unwrap();
            ((thread_cpu_seconds() - t) * 1e3, pos.to_fen())
        })
        .collect();
    times.sort_by(|a, b| a.0.total_cmp(&b.0));
    let median = times[times.len() / 2].0;
    let (max, worst) = times.last().unwrap();
    for (t, fen) in times.iter().rev().take(5) {
        println!("{t:.2} ms {fen}");
    }
    println!(
        "{} nodes, {} bytes; load {:.2} ms; {} probes by FEN, CPU time: median {median:.2} ms, max {max:.2} ms ({worst})",
        sizes.nodes,
        sizes.bytes,
        load * 1e3,
        times.len()
    );
}
