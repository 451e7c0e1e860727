//! Locating engines: `stockfish` (and any bare engine name) on PATH, then in Debian's `/usr/games`.

use std::path::{Path, PathBuf};

/// Where Debian and Ubuntu install Stockfish (not on a normal user's PATH).
pub const DEBIAN_STOCKFISH: &str = "/usr/games/stockfish";

/// The first executable file called `name` in the directories of `path`
/// (a PATH-style list).
pub fn find_in_path(name: &str, path: Option<&std::ffi::OsStr>) -> Option<PathBuf> {
    let path = path?;
    std::env::split_paths(path).map(|dir| dir.join(name)).find(|p| is_executable(p))
}

/// Stockfish on PATH, else at `/usr/games/stockfish`.
pub fn find_stockfish() -> Result<PathBuf, String> {
    if let Some(p) = find_in_path("stockfish", std::env::var_os("PATH").as_deref()) {
        return Ok(p);
    }
    let debian = Path::new(DEBIAN_STOCKFISH);
    if is_executable(debian) {
        return Ok(debian.to_path_buf());
    }
    Err(format!("Stockfish not found: no executable `stockfish` on PATH nor at {DEBIAN_STOCKFISH} (install it, e.g. `apt-get install stockfish`, or give its path)"))
}

/// Where Debian puts every game engine it packages (`sjeng`, `sjaakii`,
/// `ethereal-chess`, `stockfish`), a directory not on root's PATH.
pub const DEBIAN_GAMES: &str = "/usr/games";

/// Resolves an engine command's program: a bare `stockfish` that is not on
/// PATH is looked up at `/usr/games/stockfish`, and so is any other bare
/// name (`sjeng`) found in `/usr/games` but not on PATH; other programs are
/// left to the operating system. Returns the words with the program replaced.
pub fn resolve_program(mut words: Vec<String>) -> Result<Vec<String>, String> {
    let Some(first) = words.first() else { return Ok(words) };
    if first == "stockfish" {
        words[0] = find_stockfish()?.to_string_lossy().into_owned();
    } else if !first.contains('/') && find_in_path(first, std::env::var_os("PATH").as_deref()).is_none() {
        let games = Path::new(DEBIAN_GAMES).join(first);
        if is_executable(&games) {
            words[0] = games.to_string_lossy().into_owned();
        }
    }
    Ok(words)
}

fn is_executable(p: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        p.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        p.is_file()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_sh_in_a_path_list() {
        let path = std::ffi::OsString::from("/nonexistent:/bin:/usr/bin");
        assert!(find_in_path("sh", Some(&path)).is_some());
        assert!(find_in_path("no-such-program-here", Some(&path)).is_none());
    }

    #[test]
    fn other_programs_are_left_alone() {
        assert_eq!(resolve_program(vec!["./engine".into(), "-x".into()]).unwrap(), ["./engine", "-x"]);
    }
}
