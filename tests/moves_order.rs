//! The legal-move order is a file format (opening books store moves as
//! indices into it), so it is pinned two ways:
//!
//! - `documented_order_holds`: the order docs/formats/book.md documents, re-derived
//!   here from the rules alone (a sort key with its own ray-walking pin test),
//!   equals `Position::legal_moves` on every suite position and every
//!   position one and two plies after it;
//! - `golden_order_hash`: a hash of the ordered move lists of 500 positions
//!   (the 425 suite positions, Chess960 included, and 75 after seeded random
//!   play) that any change of the order breaks.
//!
//! And `chesstool moves` on the command line.

mod common;

use assert_cmd::Command;
use chesstool::board::{Role, Square};
use chesstool::{Move, Position};
use common::Rng;

/// The documented sort key of a legal move (see docs/formats/book.md, "The move order").
fn documented_key(pos: &Position, m: Move) -> (u8, u8, u8, u8, u8) {
    let (from, to) = (m.from() as u8, m.to() as u8);
    if m.is_castling() {
        return (9, 0, to, 0, 0); // by the castling rook's square
    }
    if m.is_en_passant() {
        return (8, 0, from, 0, 0);
    }
    let role = pos.role_at(m.from()).unwrap();
    let (df, dr) = (to as i8 % 8 - from as i8 % 8, to as i8 / 8 - from as i8 / 8);
    match role {
        Role::King => (0, 0, to, 0, 0),
        Role::Knight => (1, from, to, 0, 0),
        Role::Pawn => {
            let promo = m.promotion_role().map_or(0, |r| match r {
                Role::Queen => 0,
                Role::Rook => 1,
                Role::Bishop => 2,
                _ => 3,
            });
            let promotes = u8::from(m.promotion_role().is_some());
            let group = if df < 0 {
                4 // capture towards the a-file
            } else if df > 0 {
                5 // capture towards the h-file
            } else if dr.abs() == 1 {
                6
            } else {
                7
            };
            (group, promotes, to, promo, 0)
        }
        _ => {
            let diagonal = df != 0 && dr != 0;
            let pinned = u8::from(pinned_along(pos, m.from(), diagonal));
            (if diagonal { 2 } else { 3 }, pinned, from, to, 0)
        }
    }
}

/// True if the piece on `sq` is pinned to its king along a diagonal
/// (`diagonal`) or along a rank or file, found by walking rays.
fn pinned_along(pos: &Position, sq: Square, diagonal: bool) -> bool {
    let us = pos.turn();
    let king = pos.king(us);
    let (kf, kr) = (king as i8 % 8, king as i8 / 8);
    let (sf, sr) = (sq as i8 % 8, sq as i8 / 8);
    let (df, dr) = ((sf - kf).signum(), (sr - kr).signum());
    let on_line = if diagonal { (sf - kf).abs() == (sr - kr).abs() && sf != kf } else { sf == kf || sr == kr };
    if !on_line || (df == 0 && dr == 0) {
        return false;
    }
    let (mut f, mut r) = (kf + df, kr + dr);
    let mut passed_our_piece = false;
    while (0..8).contains(&f) && (0..8).contains(&r) {
        let at = Square::new((r * 8 + f) as u8);
        if let Some(p) = pos.piece_at(at) {
            if !passed_our_piece {
                if at != sq {
                    return false;
                }
                passed_our_piece = true;
            } else {
                let slider = if diagonal { Role::Bishop } else { Role::Rook };
                return p.color == !us && (p.role == slider || p.role == Role::Queen);
            }
        }
        f += df;
        r += dr;
    }
    false
}

fn check_order(pos: &Position, ctx: &str) {
    let moves: Vec<Move> = pos.legal_moves().to_vec();
    let mut sorted = moves.clone();
    sorted.sort_by_key(|&m| documented_key(pos, m));
    assert_eq!(moves, sorted, "{ctx}: {}", pos.to_fen());
}

fn suite_positions() -> Vec<(String, Position)> {
    common::all_suites()
        .into_iter()
        .map(|l| (format!("suites/{}:{}", l.file, l.line), Position::from_fen(&l.fen).unwrap()))
        .collect()
}

#[test]
fn documented_order_holds() {
    let mut checked = 0;
    for (ctx, pos) in suite_positions() {
        check_order(&pos, &ctx);
        for &m in pos.legal_moves().iter() {
            let child = pos.play(m);
            check_order(&child, &ctx);
            for &n in child.legal_moves().iter() {
                check_order(&child.play(n), &ctx);
                checked += 1;
            }
        }
    }
    assert!(checked > 290_000, "{checked}");
}

/// A position whose order exercises the pinned groups: a bishop pinned on
/// a diagonal moves after an unpinned bishop on a higher square.
#[test]
fn pinned_sliders_come_after_free_ones() {
    let pinned = Position::from_fen("4k3/8/8/b7/8/8/3B4/4K2B w - - 0 1").unwrap();
    let order: Vec<String> = pinned.legal_moves().iter().map(|m| m.to_uci(false)).collect();
    // King moves, then the free bishop h1 (diagonal), then the pinned d2 (along a5-e1).
    let first_d2 = order.iter().position(|m| m.starts_with("d2")).unwrap();
    let last_h1 = order.iter().rposition(|m| m.starts_with("h1")).unwrap();
    assert!(last_h1 < first_d2, "{order:?}");
    assert_eq!(&order[first_d2..], ["d2c3", "d2b4", "d2a5"]);
}

/// The 500 positions of the golden hash.
fn golden_positions() -> Vec<Position> {
    let suite: Vec<Position> = suite_positions().into_iter().map(|(_, p)| p).collect();
    assert_eq!(suite.len(), 425);
    let mut out = suite.clone();
    let mut rng = Rng::new(19);
    while out.len() < 500 {
        let mut pos = *rng.pick(&suite);
        for _ in 0..1 + rng.below(6) {
            // Pick by sorted UCI, so that the positions do not depend on the order.
            let mut moves: Vec<Move> = pos.legal_moves().to_vec();
            if moves.is_empty() {
                break;
            }
            moves.sort_by_key(|m| m.to_uci(pos.is_chess960()));
            pos = pos.play(*rng.pick(&moves));
        }
        out.push(pos);
    }
    out
}

fn fnv1a(hash: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *hash ^= b as u64;
        *hash = hash.wrapping_mul(0x100_0000_01b3);
    }
}

#[test]
fn golden_order_hash() {
    let positions = golden_positions();
    assert_eq!(positions.len(), 500);
    assert!(positions.iter().filter(|p| p.is_chess960()).count() >= 72);
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut moves = 0;
    for pos in &positions {
        let line: Vec<String> = pos.legal_moves().iter().map(|m| m.to_uci(pos.is_chess960())).collect();
        moves += line.len();
        fnv1a(&mut hash, format!("{}: {}\n", pos.to_fen(), line.join(" ")).as_bytes());
    }
    assert_eq!(moves, GOLDEN_MOVES);
    assert_eq!(
        hash, GOLDEN_HASH,
        "the legal-move order changed: books written before this change read differently. \
         If the change is intended, it breaks the book format: say so in docs/formats/book.md and bump the format."
    );
}

/// Frozen on 2026-11-23 (issue 19): `Position::legal_moves` of the 500 positions.
const GOLDEN_HASH: u64 = 0x7290_a389_ce4a_9215;
const GOLDEN_MOVES: usize = 12970;

#[test]
fn cli_lists_index_uci_and_san() {
    let out =
        Command::cargo_bin("chesstool").unwrap().args(["moves", "--moves", "e4", "e7e5", "--json"]).output().unwrap();
    assert!(out.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["moves"], serde_json::json!(["e2e4", "e7e5"]));
    assert_eq!(doc["position"], "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    let legal = doc["legal_moves"].as_array().unwrap();
    assert_eq!(legal.len(), 29);
    let pos = Position::startpos().play_uci_moves(["e2e4", "e7e5"]).unwrap();
    for (i, (entry, m)) in legal.iter().zip(pos.legal_moves().iter()).enumerate() {
        assert_eq!(entry["index"], i);
        assert_eq!(entry["uci"], m.to_uci(false));
        assert_eq!(entry["san"], pos.san(*m));
    }
    let text = Command::cargo_bin("chesstool").unwrap().args(["moves"]).output().unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("│ 3     ┆ g1h3 ┆ Nh3 │"), "{text}");
    assert!(text.trim_end().ends_with("20 legal moves"), "{text}");
}

#[test]
fn cli_bad_moves_name_the_move() {
    let out = Command::cargo_bin("chesstool").unwrap().args(["moves", "--moves", "e4", "e5", "Nf6x"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("error: --moves: move 3 \"Nf6x\""), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let out = Command::cargo_bin("chesstool").unwrap().args(["moves", "--fen", "8/8/8", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["status"], "error");
    assert_eq!(doc["error"]["kind"], "input");
    assert!(doc["error"]["message"].as_str().unwrap().contains("--fen"));
}

#[test]
fn mate_and_stalemate_are_said() {
    let out =
        Command::cargo_bin("chesstool").unwrap().args(["moves", "--moves", "f3", "e5", "g4", "Qh4#"]).output().unwrap();
    assert!(String::from_utf8(out.stdout).unwrap().contains("0 legal moves (checkmate)"));
    let out = Command::cargo_bin("chesstool")
        .unwrap()
        .args(["moves", "--fen", "k7/8/1Q6/8/8/8/8/7K b - - 0 1"])
        .output()
        .unwrap();
    assert!(String::from_utf8(out.stdout).unwrap().contains("0 legal moves (stalemate)"));
}
