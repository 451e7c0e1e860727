//! `buggy_engine --xboard`: the same generator and bugs over the xboard
//! protocol (protover 2): `feature ping=1 setboard=1 usermove=1 ...
//! done=1`, `new`, `force`, `setboard FEN`, `usermove MOVE` (`Illegal
//! move: MOVE` when it cannot be played), `perft N` (the divide in the
//! chosen layout), `ping N` -> `pong N`; anything else is answered
//! `Error (unknown command): ...`, `uci` too, as Sjaak II does.

use super::{apply_moves, divide_text, hang_forever, Bugs, Node};
use chesstool::Position;
use std::io::{BufRead, Write};

pub fn xboard_loop(bugs: &Bugs, format: &str) {
    println!("BuggyEngine 0.1 (xboard; {}) by the chesstool tests", bugs.names.join(","));
    let mut root = Position::startpos();
    let mut moves: Vec<String> = Vec::new();
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["xboard"] | ["force"] | ["accepted", ..] | ["rejected", ..] | ["post"] | ["hard"] | ["easy"] => {}
            ["protover", _] => {
                println!("feature ping=1 setboard=1 usermove=1 san=0 myname=\"BuggyEngine\" variants=\"normal\" done=1")
            }
            ["new"] => {
                root = Position::startpos();
                moves.clear();
            }
            ["setboard", fen @ ..] => match Position::from_fen(&fen.join(" ")) {
                Ok(pos) => {
                    root = pos;
                    moves.clear();
                }
                Err(e) => println!("Error (bad FEN: {e}): {}", fen.join(" ")),
            },
            ["usermove", mv] => {
                let mut tried = moves.clone();
                tried.push(mv.to_string());
                let texts: Vec<&str> = tried.iter().map(String::as_str).collect();
                match apply_moves(root, &texts, bugs) {
                    Ok(_) => moves = tried,
                    Err(_) => println!("Illegal move: {mv}"),
                }
            }
            ["perft", d] => {
                let texts: Vec<&str> = moves.iter().map(String::as_str).collect();
                let node = apply_moves(root, &texts, bugs).unwrap_or_else(|_| Node::root(root));
                if bugs.hang_on.as_deref() == Some(root.to_fen().as_str()) && moves.is_empty() {
                    hang_forever();
                }
                let depth: u32 = d.parse().unwrap_or(1).max(1);
                print!("{}", divide_text(&node, depth, bugs, format, !moves.is_empty()));
            }
            ["ping", n] => println!("pong {n}"),
            ["quit"] => break,
            _ => println!("Error (unknown command): {line}"),
        }
        let _ = std::io::stdout().flush();
    }
}
