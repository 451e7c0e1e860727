//! A test engine for `chesstool divide --bisect`: our generator with bugs
//! switched on by `--bug NAME[,NAME...]` or `BUGGY_ENGINE_BUG`. It speaks
//! UCI (`go perft N`, no arguments) and perftree's script protocol
//! (`buggy_engine [OPTIONS] DEPTH FEN [MOVES]`).
//!
//! Move-generation bugs: `no-ep`, `ep-pin` (e.p. ignoring pins),
//! `castle-through-check`, `castle-rights-capture` (a rook captured on its
//! square keeps its castling right: shows only when moves are passed as a
//! list), `ep-stale` (a piece that lands on the e.p. square also removes the
//! pawn that just double-pushed, as a make-move that trusts a stale e.p.
//! square would: shows only when moves are passed as a list),
//! `no-underpromotion`, `double-push-rank3`, `king-into-check`; the bugs
//! of a real engine (Potential, before its fixes): `ep-rank-pin` (an e.p.
//! capture by a pawn pinned along its rank with the captured pawn beside
//! it), `ep-diagonal-pin` (by a pawn pinned along a diagonal),
//! `promotion-pin` (a pinned pawn promotes off its pin); and of other real
//! engines: `ep-check-diagonal` (in check along a diagonal, e.p. captures
//! are generated although they do not answer it), `ep-pin-along` (a legal
//! e.p. capture along the pin diagonal is refused), `castle-rights-corner`
//! (a rook that captures on a corner leaves the captured rook's right in
//! place: that side castles later with no rook there). Command bugs:
//! `moves-side` (after `position fen ROOT moves ...` from a root with Black
//! to move, the other side is to move), `moves-side-junk` (the same, and its
//! divide also lists its king onto every neighbouring square).
//! Position bugs, seen only through Stockfish's `d` (its `Fen:` and `Key:`
//! lines): `fen-castling-capture` (the FEN keeps the castling right of a
//! rook captured on its square; the moves stay right), `key-take-back` (asked
//! for the last line again without its last move, it prints the key it had
//! after that move, as an unmake that forgets to restore the hash key).
//! Findings, not failures (see `findings.rs`): `duplicate` (the first move
//! listed again), `illegal-promo`, `zero-count`, `promo-rank`,
//! `fen-castling-swap`, `moves-before-position`.
//! Misbehaviour: `crash`, `crash-deep` (only below the root), `crash-on-ep`
//! (panics, status 101, on every position with an e.p. capture), `hang`,
//! `hang-deep`, `hang-random` (UCI: one `go perft` in eight, at random,
//! prints half an answer and hangs), `garbage`, `duplicate`, `sum-wrong` (the total is one more
//! than the sum of the moves).
//! What it can do (UCI): `no-chess960` (lists no `UCI_Chess960` and
//! answers it `No such option`, as Stockfish does for options it lacks),
//! `no-such-option` (lists its options but answers every `setoption` with
//! `No such option: NAME`); `--option 'option name N type T ...'` lists
//! one more option (repeatable), which it then takes and ignores: it still
//! plays chess. `--hang-on FEN` hangs when asked about lines from FEN
//! alone (a suite's one bad position); `--crash-once FILE` crashes at its
//! first perft if FILE does not exist, creating it (an engine that fails at
//! random: a restart succeeds). `--crash-at-depth N` crashes (exit 1, no
//! output) when asked for a perft of depth N or less (an engine that
//! cannot answer `go perft 1`). `--delay MS` waits MS milliseconds before
//! each perft answer (a slow engine); `--delay-random MS` a random time up
//! to MS (an engine on a loaded machine).
//!
//! `--xboard`: the engine speaks xboard instead of UCI (`examples/buggy_engine/xboard.rs`).
//! Answer habits (UCI): `threaded` (answers `isready` at once and prints
//! its divide half a second later, as an engine counting on a thread of
//! its own), `no-go-perft` (ignores `go perft`, as Ethereal does),
//! `silent-after` (ends its divide with `Perft done.`, no total, and
//! never answers `isready` after `go perft`).
//!
//! Output layout with `--format` or `BUGGY_ENGINE_FORMAT`: `stockfish` (UCI
//! default), `perftree` (script default), `weiss`, `dash`, `san` (long
//! algebraic with piece letters and `O-O`), `total` (only the total).

use chesstool::attacks::{king_attacks, pawn_attacks};
use chesstool::board::{Bitboard, Color, Rank, Role, Square};
use chesstool::movegen::MoveKind;
use chesstool::{Move, Position};
use std::io::{BufRead, Write};

mod findings;
mod xboard;

#[derive(Default, Clone)]
struct Bugs {
    names: Vec<String>,
    /// `--option` lines: options listed after `uci`, taken and ignored.
    options: Vec<String>,
    /// `--hang-on FEN`.
    hang_on: Option<String>,
    /// `--crash-once FILE`.
    crash_once: Option<String>,
    /// `--crash-at-depth N`.
    crash_at_depth: Option<u32>,
    /// `--delay MS`, `--delay-random MS`: the wait before each perft answer.
    delay: Option<(u64, bool)>,
}

impl Bugs {
    /// Crashes when asked for a perft of depth `--crash-at-depth` or less.
    fn crash_if_shallow(&self, depth: u32) {
        if self.crash_at_depth.is_some_and(|n| depth <= n) {
            eprintln!("buggy_engine: crash at depth {depth}");
            std::process::exit(1);
        }
    }
}

impl Bugs {
    /// Waits as `--delay` or `--delay-random` asks, before a perft answer.
    fn wait(&self) {
        let Some((ms, random)) = self.delay else { return };
        let ms = if random {
            // The clock's nanoseconds: a different wait every call, on purpose.
            let nanos =
                std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
            u64::from(nanos) % (ms + 1)
        } else {
            ms
        };
        std::thread::sleep(std::time::Duration::from_millis(ms));
    }

    fn has(&self, name: &str) -> bool {
        self.names.iter().any(|n| n == name)
    }
}

/// A position as the engine believes it: the board plus the castling rights
/// it tracks itself (different from the board's only with `castle-rights-capture`).
#[derive(Clone, Copy)]
struct Node {
    pos: Position,
    rights: Bitboard,
    /// `moves-side-junk`: the root was set up for the wrong side; its divide
    /// also lists junk (its king onto every neighbouring square).
    junk: bool,
}

enum BMove {
    Real(Move),
    /// A move our generator rejects, with the position it leads to when that
    /// is a valid position (else its subtree counts as one node).
    Fake {
        uci: String,
        san: String,
        next: Option<Position>,
    },
}

fn back_rank(c: Color) -> Bitboard {
    Bitboard::rank(if c == Color::White { Rank::First } else { Rank::Eighth })
}

fn valid(pos: Position) -> Option<Position> {
    let mut p = Position::from_fen(&pos.to_fen()).ok()?;
    p.set_chess960(pos.is_chess960());
    Some(p)
}

fn our_king_attacked(pos: &Position, us: Color) -> bool {
    (pos.attackers_to(pos.king(us), pos.occupied()) & pos.by_color(!us)).any()
}

impl Node {
    fn root(pos: Position) -> Node {
        Node { pos, rights: pos.castling_rooks(), junk: false }
    }

    fn play(&self, m: Move, bugs: &Bugs) -> Node {
        let us = self.pos.turn();
        let next = self.pos.play(m);
        let corner_bug = bugs.has("castle-rights-corner");
        let rights = if corner_bug || bugs.has("castle-rights-capture") || bugs.has("fen-castling-capture") {
            // With `castle-rights-corner` a move clears only the mover's own
            // corner: the capturer leaving the captured rook's corner keeps it.
            let own = if corner_bug { back_rank(us) } else { !Bitboard::EMPTY };
            let mut r = self.rights & !(Bitboard::from_square(m.from()) & own);
            if m.is_castling() || self.pos.piece_at(m.from()).map(|p| p.role) == Some(Role::King) {
                r &= !back_rank(us);
            }
            // The bug: the captured rook's square (m.to()) keeps its right
            // (with `castle-rights-corner`, only when a rook takes it).
            let rook_takes = self.pos.role_at(m.from()) == Some(Role::Rook) && !m.is_castling();
            if corner_bug && !rook_takes {
                r = r.without(m.to());
            }
            r
        } else {
            next.castling_rooks()
        };
        let next = if bugs.has("ep-stale") { stale_ep_capture(&self.pos, m, next) } else { next };
        Node { pos: next, rights, junk: false }
    }

    fn moves(&self, bugs: &Bugs) -> Vec<BMove> {
        let pos = &self.pos;
        let us = pos.turn();
        let them = !us;
        let legal = pos.legal_moves();
        let chess960 = pos.is_chess960();
        let mut out: Vec<BMove> = legal
            .iter()
            .copied()
            .filter(|m| !(bugs.has("no-ep") && m.is_en_passant()))
            .filter(|m| !(bugs.has("ep-pin-along") && m.is_en_passant() && pinned_on_diagonal(pos, m.from())))
            .filter(|m| !(bugs.has("no-underpromotion") && matches!(m.promotion_role(), Some(r) if r != Role::Queen)))
            .flat_map(|m| match bugs.has("promo-rank").then(|| findings::promo_rank(pos, m)).flatten() {
                Some(misprints) => misprints
                    .into_iter()
                    .map(|f| BMove::Fake { san: f.uci.clone(), uci: f.uci, next: f.next })
                    .collect(),
                None => vec![BMove::Real(m)],
            })
            .collect();
        let mut fake = |m: Move, next: Option<Position>| {
            if !legal.contains(m) {
                out.push(BMove::Fake { uci: m.to_uci(chess960), san: long_san(pos, m), next });
            }
        };
        let king = pos.king(us);
        if bugs.has("ep-pin") {
            if let Some(ep) = pos.ep_square() {
                for from in pawn_attacks(them, ep) & pos.pieces(us, Role::Pawn) {
                    fake(Move::en_passant(from, ep), None);
                }
            }
        }
        // The three bugs of a real engine: an e.p. capture allowed for a pawn
        // pinned along its rank (with the captured pawn beside it), or along
        // a diagonal, and a pinned pawn allowed to promote off its pin.
        if let Some(ep) = pos.ep_square().filter(|_| !pos.is_check()) {
            for from in pawn_attacks(them, ep) & pos.pieces(us, Role::Pawn) {
                let on_rank = king.rank() == from.rank();
                if (bugs.has("ep-rank-pin") && on_rank) || (bugs.has("ep-diagonal-pin") && !on_rank) {
                    let m = Move::en_passant(from, ep);
                    fake(m, valid(pos.play_unchecked(m)));
                }
            }
        }
        // In check along a diagonal: every e.p. capture, as if it answered it.
        let diagonal_check = (pos.checkers() & pos.diagonal_sliders()).any();
        if let Some(ep) = pos.ep_square().filter(|_| bugs.has("ep-check-diagonal") && diagonal_check) {
            for from in pawn_attacks(them, ep) & pos.pieces(us, Role::Pawn) {
                fake(Move::en_passant(from, ep), None);
            }
        }
        if bugs.has("promotion-pin") && !pos.is_check() {
            let (seventh, step) = if us == Color::White { (Rank::Seventh, 8) } else { (Rank::Second, -8) };
            for from in pos.pieces(us, Role::Pawn) & Bitboard::rank(seventh) {
                let push = from.offset(step).filter(|to| !pos.occupied().contains(*to));
                let targets = (pawn_attacks(us, from) & pos.by_color(them)).into_iter().chain(push);
                for to in targets {
                    for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                        let m = Move::promotion(from, to, role);
                        fake(m, valid(pos.play_unchecked(m)));
                    }
                }
            }
        }
        if bugs.has("king-into-check") {
            for to in king_attacks(king) & !pos.by_color(us) {
                fake(Move::normal(king, to), None);
            }
        }
        if bugs.has("double-push-rank3") {
            let (rank3, step) = if us == Color::White { (Rank::Third, 8) } else { (Rank::Sixth, -8) };
            for from in pos.pieces(us, Role::Pawn) & Bitboard::rank(rank3) {
                let (Some(mid), Some(to)) = (from.offset(step), from.offset(2 * step)) else { continue };
                if !pos.occupied().contains(mid) && !pos.occupied().contains(to) {
                    let next = pos.play(Move::normal(from, to));
                    if !our_king_attacked(&next, us) {
                        fake(Move::normal(from, to), valid(next));
                    }
                }
            }
        }
        let castling_rooks = |rights: Bitboard| rights & back_rank(us) & Bitboard::rank(king.rank());
        if bugs.has("castle-through-check") && !pos.is_check() {
            for rook in castling_rooks(pos.castling_rooks()) & pos.pieces(us, Role::Rook) {
                let m = Move::castling(king, rook);
                if castling_path_clear(pos, m) && !attacked(pos, m.castling_king_target(), m) {
                    let next = pos.play(m);
                    fake(m, valid(next));
                }
            }
        }
        if bugs.has("castle-rights-corner") && !pos.is_check() {
            for sq in castling_rooks(self.rights) & !pos.castling_rooks() & !pos.pieces(us, Role::Rook) {
                let m = Move::castling(king, sq);
                if castling_path_clear(pos, m) && !path_attacked(pos, m) {
                    fake(m, fake_castle(pos, m));
                }
            }
        }
        if bugs.has("castle-rights-capture") && !pos.is_check() {
            for sq in castling_rooks(self.rights) & !pos.castling_rooks() & pos.by_color(them) {
                let m = Move::castling(king, sq);
                if castling_path_clear(pos, m) && !path_attacked(pos, m) {
                    fake(m, fake_castle(pos, m));
                }
            }
        }
        out
    }
}

/// True if the pawn on `from` is pinned to its king along a diagonal.
fn pinned_on_diagonal(pos: &Position, from: Square) -> bool {
    let us = pos.turn();
    let diagonal = pos.diagonal_sliders() & pos.by_color(!us);
    (pos.attackers_to(pos.king(us), pos.occupied().without(from)) & diagonal).any()
        && !(pos.attackers_to(pos.king(us), pos.occupied()) & diagonal).any()
}

/// The `ep-stale` bug: a piece (not an e.p. capture) landing on the e.p.
/// square removes the pawn that double-pushed past it.
fn stale_ep_capture(pos: &Position, m: Move, next: Position) -> Position {
    let Some(ep) = pos.ep_square().filter(|&ep| ep == m.to() && !m.is_en_passant()) else { return next };
    let pawn = if pos.turn() == Color::White { ep.offset(-8) } else { ep.offset(8) };
    let Some(pawn) = pawn else { return next };
    let mut board = board_of(&next);
    board[pawn as usize] = None;
    let fen = next.to_fen();
    let rest = fen.split_once(' ').map_or("", |(_, r)| r);
    Position::from_fen(&format!("{} {rest}", board_fen(&board))).ok().and_then(valid).unwrap_or(next)
}

/// Squares between king, rook and their targets empty (but for the two).
fn castling_path_clear(pos: &Position, m: Move) -> bool {
    let span = |a: Square, b: Square| {
        let (lo, hi) = (a.min(b) as u8, a.max(b) as u8);
        (lo..=hi).map(Square::new).fold(Bitboard::EMPTY, |bb, s| bb.with(s))
    };
    let (k, r) = (m.from(), m.to());
    let need = (span(k, m.castling_king_target()) | span(r, m.castling_rook_target())).without(k).without(r);
    (need & pos.occupied()).is_empty()
}

fn attacked(pos: &Position, sq: Square, m: Move) -> bool {
    pos.attacked_by(!pos.turn(), pos.occupied().without(m.from()).without(m.to())).contains(sq)
}

fn path_attacked(pos: &Position, m: Move) -> bool {
    let (a, b) = (m.from() as u8, m.castling_king_target() as u8);
    (a.min(b)..=a.max(b)).any(|s| attacked(pos, Square::new(s), m))
}

/// The board after castling with a "rook" that was captured: the king and a
/// rook of ours on their targets, the capturing piece gone.
fn fake_castle(pos: &Position, m: Move) -> Option<Position> {
    let mut board = board_of(pos);
    let us = pos.turn();
    let (rook_char, king_char) = if us == Color::White { ('R', 'K') } else { ('r', 'k') };
    board[m.from() as usize] = None;
    board[m.to() as usize] = None;
    board[m.castling_king_target() as usize] = Some(king_char);
    board[m.castling_rook_target() as usize] = Some(rook_char);
    let fen = format!("{} {} - - 0 1", board_fen(&board), if us == Color::White { 'b' } else { 'w' });
    Position::from_fen(&fen).ok()
}

fn board_of(pos: &Position) -> [Option<char>; 64] {
    let mut b = [None; 64];
    for sq in pos.occupied() {
        b[sq as usize] = pos.piece_at(sq).map(|p| p.char());
    }
    b
}

fn board_fen(b: &[Option<char>; 64]) -> String {
    let mut s = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match b[rank * 8 + file] {
                Some(c) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

/// Long algebraic with piece letters (`Nb1c3`, `e7e8Q`, `O-O`).
fn long_san(pos: &Position, m: Move) -> String {
    if m.kind() == MoveKind::Castling {
        return if m.to().file() > m.from().file() { "O-O".into() } else { "O-O-O".into() };
    }
    let mut s = String::new();
    match pos.piece_at(m.from()).map(|p| p.role) {
        Some(Role::Pawn) | None => {}
        Some(r) => s.push(r.char().to_ascii_uppercase()),
    }
    s.push_str(&format!("{}{}", m.from(), m.to()));
    if let Some(r) = m.promotion_role() {
        s.push(r.char().to_ascii_uppercase());
    }
    s
}

fn perft(node: &Node, depth: u32, bugs: &Bugs) -> u64 {
    let moves = node.moves(bugs);
    if depth <= 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|bm| subtree(node, bm, depth - 1, bugs)).sum()
}

fn subtree(node: &Node, bm: &BMove, depth: u32, bugs: &Bugs) -> u64 {
    if depth == 0 {
        return 1;
    }
    match bm {
        BMove::Real(m) => perft(&node.play(*m, bugs), depth, bugs),
        BMove::Fake { next: Some(p), .. } => perft(&Node::root(*p), depth, bugs),
        BMove::Fake { next: None, .. } => 1,
    }
}

/// The divide in the chosen layout.
fn divide_text(node: &Node, depth: u32, bugs: &Bugs, format: &str, below_root: bool) -> String {
    if bugs.has("hang") || (bugs.has("hang-deep") && below_root) {
        println!("a2a3: 1");
        let _ = std::io::stdout().flush();
        loop {
            std::thread::sleep(std::time::Duration::from_secs(3600));
        }
    }
    let chess960 = node.pos.is_chess960();
    let mut rows: Vec<(String, u64)> = node
        .moves(bugs)
        .iter()
        .map(|bm| {
            let name = match (bm, format) {
                (BMove::Real(m), "san") => long_san(&node.pos, *m),
                (BMove::Real(m), _) => m.to_uci(chess960),
                (BMove::Fake { san, .. }, "san") => san.clone(),
                (BMove::Fake { uci, .. }, _) => uci.clone(),
            };
            (name, subtree(node, bm, depth - 1, bugs))
        })
        .collect();
    if bugs.has("illegal-promo") {
        rows.extend(findings::illegal_promotion(&node.pos).map(|m| (m, 1)));
    }
    if node.junk {
        // Its king "moves" onto every neighbouring square it cannot go to
        // (its own pieces', attacked ones): junk beside the wrong side's list.
        let king = node.pos.king(node.pos.turn());
        let listed: Vec<String> = rows.iter().map(|(m, _)| m.clone()).collect();
        for to in king_attacks(king) {
            let m = format!("{king}{to}");
            if !listed.contains(&m) {
                rows.push((m, 1));
            }
        }
    }
    if bugs.has("crash-on-ep") && node.pos.legal_moves().iter().any(|m| m.is_en_passant()) {
        // Its own assertion, as an engine's debug build has: status 101.
        panic!("buggy_engine: assertion failed: no e.p. capture expected here");
    }
    if bugs.has("zero-count") {
        rows.extend(findings::zero_count_moves(&node.pos).into_iter().map(|m| (m, 0)));
    }
    let mut total: u64 = rows.iter().map(|(_, n)| n).sum();
    if bugs.has("sum-wrong") {
        total += 1;
    }
    if let Some(file) = &bugs.crash_once {
        if std::fs::OpenOptions::new().write(true).create_new(true).open(file).is_ok() {
            println!("a2a3: 1");
            let _ = std::io::stdout().flush();
            std::process::abort();
        }
    }
    if bugs.has("crash") || (bugs.has("crash-deep") && below_root) {
        for (m, n) in rows.iter().take(rows.len() / 2) {
            println!("{m}: {n}");
        }
        let _ = std::io::stdout().flush();
        std::process::abort();
    }
    let mut lines: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(i, (m, n))| match format {
            "perftree" | "san" => format!("{m} {n}"),
            "weiss" => format!("move {} : {m} : {n}", i + 1),
            "dash" => format!("{m} - {n}"),
            _ => format!("{m}: {n}"),
        })
        .collect();
    if format == "total" {
        lines.clear();
    }
    if bugs.has("duplicate") && !lines.is_empty() {
        lines.push(lines[0].clone());
    }
    if bugs.has("garbage") {
        lines.insert(lines.len() / 2, "a1a1: hello, I am not a move".to_string());
    }
    let total_line = match format {
        "perftree" | "san" => format!("\n{total}"),
        "weiss" => format!("\nNodes: {total}"),
        "dash" => format!("Total: {total}"),
        _ => format!("\nNodes searched: {total}"),
    };
    lines.push(total_line);
    lines.join("\n") + "\n"
}

fn apply_moves(root: Position, moves: &[&str], bugs: &Bugs) -> Result<Node, String> {
    let mut node = Node::root(root);
    for text in moves {
        let m = node.pos.parse_uci(text).map_err(|e| e.to_string())?;
        node = node.play(m, bugs);
    }
    // The `moves-side` bug: after moves from a root with Black to move, the
    // side to move comes out wrong (a handler that counts plies from White).
    let junk = bugs.has("moves-side-junk");
    if (bugs.has("moves-side") || junk) && !root.turn().is_white() && !moves.is_empty() {
        let fen = node.pos.to_fen();
        let mut fields: Vec<&str> = fen.split(' ').collect();
        fields[1] = if fields[1] == "w" { "b" } else { "w" };
        fields[3] = "-";
        if let Ok(flipped) = Position::from_fen(&fields.join(" ")) {
            node = Node { junk, ..Node::root(flipped) };
        }
    }
    Ok(node)
}

const USAGE: &str = "usage: buggy_engine [--bug NAME[,NAME...]] [--format FORMAT] [--option LINE]... [--hang-on FEN]
                    [--crash-once FILE] [--crash-at-depth N] [--delay MS] [--delay-random MS]
                    [DEPTH [FEN [MOVES]]]
  without DEPTH: a UCI engine on standard input (`go perft N`); with --xboard an xboard one (`perft N`)
  with DEPTH: one divide in perftree's script protocol, then exit
  bugs: no-ep, ep-pin, castle-through-check, castle-rights-capture, no-underpromotion,
        double-push-rank3, king-into-check, ep-rank-pin, ep-diagonal-pin, promotion-pin,
        ep-check-diagonal, ep-pin-along, castle-rights-corner, moves-side, moves-side-junk, crash, crash-deep,
        crash-on-ep, hang, hang-deep, hang-random, garbage, duplicate, illegal-promo,
        zero-count, promo-rank, fen-castling-swap, moves-before-position,
        sum-wrong, no-chess960, no-such-option, threaded, no-go-perft, silent-after
  formats: stockfish, perftree, weiss, dash, san, total";

/// A usage error: the reason and the usage on stderr, exit 2 (never a panic).
fn usage_error(reason: &str) -> ! {
    eprintln!("buggy_engine: {reason}\n{USAGE}");
    std::process::exit(2)
}

fn main() {
    let mut bugs = Bugs::default();
    let mut format: Option<String> = std::env::var("BUGGY_ENGINE_FORMAT").ok();
    if let Ok(b) = std::env::var("BUGGY_ENGINE_BUG") {
        bugs.names.extend(b.split(',').filter(|s| !s.is_empty()).map(String::from));
    }
    let mut rest = Vec::new();
    let mut xboard = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "-h" | "--help" => {
                println!("{USAGE}");
                return;
            }
            "--xboard" => xboard = true,
            "--bug" => match args.next() {
                Some(names) => bugs.names.extend(names.split(',').map(String::from)),
                None => usage_error("--bug needs a NAME"),
            },
            "--format" => format = Some(args.next().unwrap_or_else(|| usage_error("--format needs a FORMAT"))),
            "--option" => bugs.options.push(args.next().unwrap_or_else(|| usage_error("--option needs a LINE"))),
            "--hang-on" => bugs.hang_on = Some(args.next().unwrap_or_else(|| usage_error("--hang-on needs a FEN"))),
            "--crash-at-depth" => {
                let n = args.next().and_then(|n| n.parse().ok());
                bugs.crash_at_depth = Some(n.unwrap_or_else(|| usage_error("--crash-at-depth needs a depth")));
            }
            "--delay" | "--delay-random" => {
                let ms = args.next().and_then(|n| n.parse().ok());
                let ms = ms.unwrap_or_else(|| usage_error(&format!("{a} needs a number of milliseconds")));
                bugs.delay = Some((ms, a == "--delay-random"));
            }
            "--crash-once" => {
                bugs.crash_once = Some(args.next().unwrap_or_else(|| usage_error("--crash-once needs a FILE")))
            }
            flag if flag.starts_with("--") => usage_error(&format!("unknown option {flag:?}")),
            _ => rest.push(a),
        }
    }
    if rest.is_empty() && xboard {
        xboard::xboard_loop(&bugs, format.as_deref().unwrap_or("stockfish"));
    } else if rest.is_empty() {
        uci_loop(&bugs, format.as_deref().unwrap_or("stockfish"));
    } else {
        let format = format.as_deref().unwrap_or("perftree");
        let depth: u32 =
            rest[0].parse().unwrap_or_else(|_| usage_error(&format!("DEPTH {:?} is not a number", rest[0])));
        let fen = rest.get(1).map_or("startpos", String::as_str);
        let root = read_fen(fen, &bugs).unwrap_or_else(|e| usage_error(&format!("FEN {fen:?}: {e}")));
        let mut moves: Vec<&str> = rest.get(2).map_or(Vec::new(), |m| m.split_whitespace().collect());
        if bugs.has("moves-before-position") {
            // Played on the position before this one (there is none), then
            // the FEN set up over them: the moves are lost.
            moves.clear();
        }
        let node = apply_moves(root, &moves, &bugs).unwrap_or_else(|e| usage_error(&format!("MOVES: {e}")));
        if bugs.hang_on.as_deref() == Some(fen) {
            hang_forever();
        }
        bugs.crash_if_shallow(depth.max(1));
        print!("{}", divide_text(&node, depth.max(1), &bugs, format, !moves.is_empty()));
    }
}

/// The root as the engine reads it: `startpos` or a FEN (with the wings
/// of its castling rights swapped under `fen-castling-swap`).
fn read_fen(fen: &str, bugs: &Bugs) -> Result<Position, String> {
    if fen == "startpos" {
        return Ok(Position::startpos());
    }
    if bugs.has("fen-castling-swap") {
        return findings::read_fen_swapped(fen);
    }
    Position::from_fen(fen).map_err(|e| e.to_string())
}

/// A number below `n` from the clock: different at every call, on purpose.
fn random_below(n: u32) -> u32 {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    (nanos / 1000) % n
}

fn hang_forever() -> ! {
    loop {
        std::thread::sleep(std::time::Duration::from_secs(3600));
    }
}

fn uci_loop(bugs: &Bugs, format: &str) {
    println!("BuggyEngine 0.1 ({}) by the chesstool tests", bugs.names.join(","));
    let mut chess960 = false;
    let mut node = Node::root(Position::startpos());
    let mut below_root = false;
    // The last `position` asked (root and moves), and with `key-take-back`
    // the key kept after a move was taken back.
    let mut last: (String, Vec<String>) = ("startpos".into(), Vec::new());
    let mut stale_key: Option<u64> = None;
    let mut hang_here = false;
    // `silent-after`: no `readyok` once a perft was asked.
    let mut silent = false;
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["uci"] => {
                println!("id name BuggyEngine");
                if !bugs.has("no-chess960") {
                    println!("option name UCI_Chess960 type check default false");
                }
                for option in &bugs.options {
                    println!("{option}");
                }
                println!("uciok");
            }
            ["isready"] if silent => {}
            ["isready"] => println!("readyok"),
            ["setoption", "name", rest @ ..] => {
                let name = rest.iter().take_while(|w| **w != "value").copied().collect::<Vec<_>>().join(" ");
                let listed = (name == "UCI_Chess960" && !bugs.has("no-chess960"))
                    || bugs.options.iter().any(|o| {
                        o.strip_prefix("option name ").is_some_and(|r| r.starts_with(&format!("{name} type")))
                    });
                if !listed || bugs.has("no-such-option") {
                    println!("No such option: {name}");
                } else if name == "UCI_Chess960" {
                    chess960 = rest.last() == Some(&"true");
                }
            }
            ["position", rest @ ..] => {
                let (fen, mut moves): (String, &[&str]) = match rest {
                    ["startpos", tail @ ..] => ("startpos".into(), tail.strip_prefix(&["moves"]).unwrap_or(&[])),
                    ["fen", tail @ ..] => {
                        let n = tail.iter().position(|w| *w == "moves").unwrap_or(tail.len());
                        (tail[..n].join(" "), tail.get(n + 1..).unwrap_or(&[]))
                    }
                    _ => continue,
                };
                hang_here = bugs.hang_on.as_deref() == Some(fen.as_str()) && moves.is_empty();
                let Ok(mut root) = read_fen(&fen, bugs) else { continue };
                if bugs.has("moves-before-position") && rest.first() == Some(&"fen") && !moves.is_empty() {
                    // The moves are played on the position set up before,
                    // then the FEN is set up over them: the moves are lost.
                    let _ = apply_moves(node.pos, moves, bugs);
                    moves = &[];
                }
                if chess960 {
                    root.set_chess960(true);
                }
                if let Ok(n) = apply_moves(root, moves, bugs) {
                    let taken_back =
                        fen == last.0 && last.1.len() == moves.len() + 1 && last.1[..moves.len()] == *moves;
                    stale_key = (bugs.has("key-take-back") && taken_back).then(|| node.pos.key());
                    last = (fen, moves.iter().map(|m| m.to_string()).collect());
                    node = n;
                    below_root = !moves.is_empty();
                }
            }
            ["go", "perft", _] if bugs.has("no-go-perft") => {}
            ["go", "perft", d] => {
                if hang_here {
                    hang_forever();
                }
                let depth: u32 = d.parse().unwrap_or(1).max(1);
                bugs.crash_if_shallow(depth);
                bugs.wait();
                if bugs.has("hang-random") && random_below(8) == 0 {
                    // A threaded perft that deadlocks now and then: half an
                    // answer, then nothing.
                    println!("a2a3: 1");
                    let _ = std::io::stdout().flush();
                    hang_forever();
                }
                if bugs.has("threaded") {
                    let (node, bugs, format) = (node, bugs.clone(), format.to_string());
                    std::thread::spawn(move || {
                        std::thread::sleep(std::time::Duration::from_millis(500));
                        println!("{}", divide_text(&node, depth, &bugs, &format, below_root));
                        let _ = std::io::stdout().flush();
                    });
                    continue;
                }
                if bugs.has("silent-after") {
                    let text = divide_text(&node, depth, bugs, format, below_root);
                    let moves: Vec<&str> =
                        text.lines().filter(|l| l.contains(": ") && !l.starts_with("Nodes")).collect();
                    println!("{}\nPerft done.", moves.join("\n"));
                    silent = true;
                    let _ = std::io::stdout().flush();
                    continue;
                }
                println!("info string perft with bugs: {}", bugs.names.join(","));
                print!("{}", divide_text(&node, depth, bugs, format, below_root));
                println!();
            }
            ["d"] => print!("{}", show(&node, stale_key)),
            ["quit"] => break,
            _ => {}
        }
        let _ = std::io::stdout().flush();
    }
}

/// Stockfish's `d`, without the board: the FEN (its castling field from the
/// rights the engine tracks) and the key (`stale`: a key not restored).
fn show(node: &Node, stale: Option<u64>) -> String {
    let mut fields: Vec<String> = node.pos.to_fen().split(' ').map(String::from).collect();
    if node.rights != node.pos.castling_rooks() {
        let mut castling = String::new();
        for color in [Color::White, Color::Black] {
            let king = node.pos.king(color).file();
            let rooks = node.rights & back_rank(color);
            for (side, wing) in
                [('k', rooks.into_iter().any(|r| r.file() > king)), ('q', rooks.into_iter().any(|r| r.file() < king))]
            {
                if wing {
                    castling.push(if color == Color::White { side.to_ascii_uppercase() } else { side });
                }
            }
        }
        fields[2] = if castling.is_empty() { "-".to_string() } else { castling };
    }
    format!("Fen: {}\nKey: {:016X}\nCheckers: \n", fields.join(" "), stale.unwrap_or(node.pos.key()))
}
