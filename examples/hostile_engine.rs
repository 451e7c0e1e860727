//! Engines that misbehave on purpose, to prove that chesstool's supervision
//! cannot be beaten (issue 15). One mode per run, through UCI (no arguments
//! besides the options) or perftree's script protocol (`hostile_engine
//! [OPTIONS] DEPTH FEN [MOVES]`); it answers USI's `usi` too:
//!
//! - `flood`: answers `go perft` (or the script call) with `info string`
//!   lines, without end;
//! - `no-newline`: prints bytes without a newline, without end;
//! - `no-perft`: answers `go perft` with `Unknown command: ...` (UCI) or
//!   prints it and exits (script); `bestmove` answers with a best move;
//! - `slow-start`: says nothing at all for an hour;
//! - `dies-mid-line`: prints a move line and half of another, then exits;
//! - `ignores-sigterm`: ignores SIGTERM and hangs on `go perft`.
//!
//! `--child` also starts a grandchild (`sleep 3600`), so that tests can see
//! the whole process group go. With `HOSTILE_PIDFILE=FILE` the engine
//! appends its pid (and the grandchild's) to FILE, one per line.

use std::io::{BufRead, Write};
use std::time::Duration;

fn hang() -> ! {
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}

fn record_pid(pid: u32) {
    if let Ok(path) = std::env::var("HOSTILE_PIDFILE") {
        if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(path) {
            let _ = writeln!(f, "{pid}");
        }
    }
}

/// What the mode does where a divide is expected; never returns normally
/// except for modes that then exit.
fn misbehave(mode: &str, uci: bool) {
    let mut out = std::io::stdout().lock();
    match mode {
        "flood" => loop {
            if writeln!(out, "info string flooding the pipe with text that is not a divide").is_err() {
                std::process::exit(0);
            }
        },
        "no-newline" => {
            let chunk = [b'x'; 4096];
            loop {
                if out.write_all(&chunk).is_err() {
                    std::process::exit(0);
                }
            }
        }
        "no-perft" => {
            let _ = writeln!(out, "Unknown command: 'go perft 2'. Type help for more information.");
            let _ = out.flush();
            if !uci {
                std::process::exit(0);
            }
        }
        "bestmove" => {
            let _ = writeln!(out, "info depth 1 score cp 20 pv e2e4\nbestmove e2e4");
            let _ = out.flush();
            if !uci {
                std::process::exit(0);
            }
        }
        "dies-mid-line" => {
            let _ = write!(out, "a2a3: 1\nb2b");
            let _ = out.flush();
            std::process::exit(1);
        }
        "ignores-sigterm" | "slow-start" => hang(),
        other => {
            eprintln!("hostile_engine: unknown mode {other:?}");
            std::process::exit(2);
        }
    }
}

fn main() {
    let mut mode = String::from("flood");
    let mut child = false;
    let mut rest = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "-h" | "--help" => {
                println!(
                    "usage: hostile_engine [--mode MODE] [--child] [ARGS...]\n  \
                     an engine that misbehaves on purpose (see the modes in examples/hostile_engine.rs);\n  \
                     with ARGS it misbehaves at once as a script engine, else after a UCI `go`"
                );
                return;
            }
            "--mode" => match args.next() {
                Some(m) => mode = m,
                None => {
                    eprintln!("hostile_engine: --mode needs a MODE");
                    std::process::exit(2);
                }
            },
            "--child" => child = true,
            _ => rest.push(a),
        }
    }
    record_pid(std::process::id());
    // Kept alive until the end of main: dropping a Child does not kill it.
    let _grandchild = child.then(|| {
        let c = std::process::Command::new("sleep").arg("3600").spawn().expect("sleep starts");
        record_pid(c.id());
        c
    });
    if mode == "ignores-sigterm" {
        // SAFETY: setting a signal to "ignore" touches no memory.
        unsafe {
            libc::signal(libc::SIGTERM, libc::SIG_IGN);
        }
    }
    if mode == "slow-start" {
        hang();
    }
    if !rest.is_empty() {
        misbehave(&mode, false);
        return;
    }
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let mut out = std::io::stdout().lock();
        match line.split_whitespace().collect::<Vec<_>>().as_slice() {
            ["uci"] => {
                let _ = writeln!(out, "id name HostileEngine ({mode})\nuciok");
            }
            // USI (`--engine-usi`): it lists the variant option a variant's
            // root needs, so that the misbehaviour comes at `go`.
            ["usi"] => {
                let _ = writeln!(
                    out,
                    "id name HostileEngine ({mode})\noption name USI_Variant type string default shogi\nusiok"
                );
            }
            ["isready"] => {
                let _ = writeln!(out, "readyok");
            }
            ["go", ..] => {
                drop(out);
                misbehave(&mode, true);
                continue;
            }
            ["quit"] => break,
            _ => {}
        }
        let _ = out.flush();
    }
}
