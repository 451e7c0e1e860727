fn main() {
    let args: Vec<String> = std::env::args().collect();
    let pos = chesstool::Position::from_fen(&args[1]).unwrap();
    let depth: u32 = args[2].parse().unwrap();
    let t = std::time::Instant::now();
    let n = chesstool::perft::perft(&pos, depth);
    println!("{n} {:.3}s {:.0} Mnps", t.elapsed().as_secs_f64(), n as f64 / t.elapsed().as_secs_f64() / 1e6);
}
