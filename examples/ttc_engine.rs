//! A small TicTacChess engine of our own with switchable bugs, for showing
//! the hunt (`chesstool tictacchess divide --engine-script ... --bisect`).
//! It speaks the perftree-style script protocol:
//!
//! ```text
//! ttc_engine [--bug NAME] DEPTH "POS" ["MOVES"]
//! ```
//!
//! and prints `move count` lines, a blank line and the total. It has its own
//! board and move generator (only the attack tables come from the library),
//! so a bug here is a bug of this engine alone. Bugs:
//!
//! - `slider-unmasked`: the public implementation's slider bug: the magic
//!   lookup takes the whole occupancy, the slider's own square included,
//!   without the mask;
//! - `drop-occupied`: drops are allowed onto squares the opponent holds (the
//!   piece there goes back to its hand);
//! - `pawn-last-rank`: a pawn on its last rank wraps around to its first
//!   rank (same file) when that square is empty;
//! - `no-anti-diagonal`: a win on the anti-diagonal d1-a4 goes unnoticed.

use chesstool::tictacchess::board::{
    has_line, pawn_captures, pawn_step, squares, Bits, Color, Kind, Square, BOARD, KNIGHT,
};
use chesstool::tictacchess::magics::{BISHOP, ROOK};
use std::process::ExitCode;

#[derive(Copy, Clone, PartialEq, Eq)]
enum Bug {
    None,
    SliderUnmasked,
    DropOccupied,
    PawnLastRank,
    NoAntiDiagonal,
}

#[derive(Copy, Clone)]
struct Board {
    at: [[Option<Square>; 4]; 2],
    turn: usize,
}

const ANTI_DIAGONAL: Bits = 1 << 3 | 1 << 7 | 1 << 11 | 1 << 15;

impl Board {
    fn occ(&self, side: usize) -> Bits {
        self.at[side].iter().flatten().map(|s| s.bb()).sum()
    }

    fn over(&self, bug: Bug) -> bool {
        let last = self.occ(1 - self.turn);
        has_line(last) && !(bug == Bug::NoAntiDiagonal && last == ANTI_DIAGONAL)
    }

    /// (kind, from, to) of every move.
    fn moves(&self, bug: Bug) -> Vec<(Kind, Option<Square>, Square)> {
        let mut out = Vec::new();
        if self.over(bug) {
            return out;
        }
        let us = self.turn;
        let color = if us == 0 { Color::White } else { Color::Black };
        let (own, theirs) = (self.occ(us), self.occ(1 - us));
        let all = own | theirs;
        for kind in Kind::ALL {
            match self.at[us][kind as usize] {
                None => {
                    let allowed = if bug == Bug::DropOccupied { BOARD & !own } else { BOARD & !all };
                    out.extend(squares(allowed).map(|to| (kind, None, to)));
                }
                Some(from) => {
                    let targets = match kind {
                        Kind::Pawn => {
                            let mut t =
                                (pawn_step(color, from.bb()) & !all) | (pawn_captures(color, from.bb()) & theirs);
                            let last = if us == 0 { 3 } else { 0 };
                            if bug == Bug::PawnLastRank && from.rank() == last {
                                t |= Square::new(from.file(), 3 - last).bb() & !all;
                            }
                            t
                        }
                        Kind::Knight => KNIGHT[from.bit() as usize] & !own,
                        Kind::Bishop if bug == Bug::SliderUnmasked => BISHOP.attacks_unmasked(from, all) & !own,
                        Kind::Rook if bug == Bug::SliderUnmasked => ROOK.attacks_unmasked(from, all) & !own,
                        Kind::Bishop => BISHOP.attacks(from, all) & !own,
                        Kind::Rook => ROOK.attacks(from, all) & !own,
                    };
                    out.extend(squares(targets).map(|to| (kind, Some(from), to)));
                }
            }
        }
        out
    }

    fn play(&self, (kind, from, to): (Kind, Option<Square>, Square)) -> Board {
        let mut b = *self;
        let them = 1 - self.turn;
        let _ = from;
        for slot in b.at[them].iter_mut() {
            if *slot == Some(to) {
                *slot = None;
            }
        }
        b.at[self.turn][kind as usize] = Some(to);
        b.turn = them;
        b
    }

    fn perft(&self, depth: u32, bug: Bug) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves(bug);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|&m| self.play(m).perft(depth - 1, bug)).sum()
    }
}

fn text((kind, from, to): (Kind, Option<Square>, Square)) -> String {
    match from {
        None => format!("{}@{to}", kind.letter()),
        Some(f) => format!("{f}{to}"),
    }
}

fn parse(pos: &str) -> Option<Board> {
    let mut fields = pos.split_whitespace();
    let (board, _hand, side) = (fields.next()?, fields.next()?, fields.next()?);
    let mut b = Board { at: [[None; 4]; 2], turn: if side == "w" { 0 } else { 1 } };
    for (i, row) in board.split('/').enumerate() {
        let mut file = 0u8;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                file += d as u8;
            } else {
                let side = usize::from(ch.is_ascii_lowercase());
                b.at[side][Kind::from_letter(ch)? as usize] = Some(Square::new(file, 3 - i as u8));
                file += 1;
            }
        }
    }
    Some(b)
}

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    const USAGE: &str = "usage: ttc_engine [--bug NAME] DEPTH \"POS\" [\"MOVES\"]\n  \
        a TicTacChess divide in perftree's format; bugs: slider-unmasked, drop-occupied, pawn-last-rank, no-anti-diagonal, none";
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let mut bug = Bug::None;
    if args.first().map(String::as_str) == Some("--bug") && args.len() > 1 {
        bug = match args[1].as_str() {
            "slider-unmasked" => Bug::SliderUnmasked,
            "drop-occupied" => Bug::DropOccupied,
            "pawn-last-rank" => Bug::PawnLastRank,
            "no-anti-diagonal" => Bug::NoAntiDiagonal,
            "none" => Bug::None,
            other => {
                eprintln!("unknown bug {other:?}");
                return ExitCode::from(2);
            }
        };
        args.drain(..2);
    }
    if args.len() < 2 || args.len() > 3 {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    }
    let (Ok(depth), Some(mut board)) = (args[0].parse::<u32>(), parse(&args[1])) else {
        eprintln!("bad depth or position");
        return ExitCode::from(2);
    };
    for m in args.get(2).map(|s| s.split_whitespace().collect::<Vec<_>>()).unwrap_or_default() {
        match board.moves(bug).into_iter().find(|&mv| text(mv) == m) {
            Some(mv) => board = board.play(mv),
            None => {
                eprintln!("illegal move {m}");
                return ExitCode::from(2);
            }
        }
    }
    let mut total = 0;
    let mut lines = Vec::new();
    if depth >= 1 {
        for mv in board.moves(bug) {
            let n = board.play(mv).perft(depth - 1, bug);
            total += n;
            lines.push(format!("{} {n}", text(mv)));
        }
    } else {
        total = 1;
    }
    lines.sort();
    let mut out = lines.join("\n");
    out.push_str(&format!("\n\n{total}\n"));
    print!("{out}");
    ExitCode::SUCCESS
}
