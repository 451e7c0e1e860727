//! Lines that show an engine refusing a command or without perft.

/// Why an answer to a perft command shows the engine has no such command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoPerft {
    /// `info depth`, `info score`, `bestmove`: it started a search.
    Searched,
    /// `Unknown command: go perft 3` and the like.
    Unknown,
}

/// How a line shows an engine without the perft command it was sent:
/// search output (`info depth 1 ...`, `info score ...`, `bestmove e2e4`) or
/// an "unknown command" line. `info string` and `info nodes` lines are not
/// search output: engines print them while counting too.
pub fn no_perft(line: &str) -> Option<NoPerft> {
    let l = line.trim().to_ascii_lowercase();
    let mut words = l.split_whitespace();
    let first = words.next().unwrap_or("");
    if first == "bestmove" {
        return Some(NoPerft::Searched);
    }
    if first == "info" {
        let searching = l.split_whitespace().any(|w| matches!(w, "depth" | "score" | "pv" | "seldepth" | "multipv"));
        let string = words.next() == Some("string");
        return (searching && !string).then_some(NoPerft::Searched);
    }
    ["unknown command", "unrecognized command", "unrecognised command", "unknown token", "invalid command"]
        .iter()
        .any(|p| l.contains(p))
        .then_some(NoPerft::Unknown)
}

/// True if `line` refuses a command: `No such option: X`, `Unknown
/// command: ...` and the like. Engines print it in place of an answer.
pub fn refuses(line: &str) -> bool {
    let l = line.trim().to_ascii_lowercase();
    let bare = [l.as_str(), l.strip_prefix("error: ").unwrap_or(""), l.strip_prefix("info string ").unwrap_or("")];
    [
        "no such option",
        "unknown option",
        "unsupported option",
        "unknown command",
        "unrecognized command",
        "unrecognised command",
        "invalid command",
    ]
    .iter()
    .any(|p| bare.iter().any(|b| b.starts_with(p)))
}

/// True if `line` shows an engine without perft (see `no_perft`).
pub fn says_no_perft(line: &str) -> bool {
    no_perft(line).is_some()
}
