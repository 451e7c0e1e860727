//! Compiled leg code against re-parsing the Betza strings at every node (as
//! WinBoard's generator does): the same perft both ways, alternating, and
//! the ratio of the medians.
//!
//! cargo run --release --example betza_reparse -- tests/variants/fairy.ini big10 3 [runs]

use chesstool::variants::count::perft;
use chesstool::variants::variant::user_ini;
use std::time::Instant;

fn main() {
    const USAGE: &str = "usage: betza_reparse FILE VARIANT DEPTH [RUNS]\n  \
        times perft of VARIANT (from the variants.ini FILE) with compiled leg code against re-parsing Betza";
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return;
    }
    if args.len() < 4 {
        eprintln!("{USAGE}");
        std::process::exit(2);
    }
    let variant = user_ini::load(&args[1], &args[2]).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(2)
    });
    let number = |i: usize, what: &str| -> usize {
        args[i].parse().unwrap_or_else(|_| {
            eprintln!("error: {what} {:?} is not a number\n{USAGE}", args[i]);
            std::process::exit(2)
        })
    };
    let depth = number(3, "DEPTH") as u32;
    let runs = if args.len() > 4 { number(4, "RUNS").max(1) } else { 3 };
    let pos = variant.parse_fen(&variant.start_fen).unwrap_or_else(|e| {
        eprintln!("error: the start position of {}: {e}", args[2]);
        std::process::exit(2)
    });
    let mut interpreted = variant.clone();
    interpreted.tables = variant.tables.interpreter_only();
    let mut reparsed = variant.clone();
    reparsed.tables = variant.tables.reparsing(variant.pieces.iter().map(|p| p.betza.clone()).collect());
    let time = |v: &chesstool::variants::Variant| {
        let started = Instant::now();
        let n = perft::perft(v, &mut pos.clone(), depth);
        (n, started.elapsed().as_secs_f64())
    };
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let (n1, t1) = time(&interpreted);
        let (n2, t2) = time(&reparsed);
        assert_eq!(n1, n2, "the two generators disagree");
        a.push(t1);
        b.push(t2);
    }
    a.sort_by(f64::total_cmp);
    b.sort_by(f64::total_cmp);
    let (ma, mb) = (a[runs / 2], b[runs / 2]);
    println!(
        "{} depth {depth}: compiled leg code {ma:.3} s, re-parsing every node {mb:.3} s: {:.1}x",
        variant.name,
        mb / ma
    );
}
