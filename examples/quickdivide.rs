fn main() {
    let args: Vec<String> = std::env::args().collect();
    let pos = chesstool::Position::from_fen(&args[1]).unwrap();
    let depth: u32 = args[2].parse().unwrap();
    for (m, n) in chesstool::perft::divide(&pos, depth) {
        println!("{}: {}", m.to_uci(pos.is_chess960()), n);
    }
}
