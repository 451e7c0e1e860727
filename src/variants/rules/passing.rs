//! Passing (`pass`, `passWhite`, `passBlack`: the king "moves" to its own
//! square) and Janggi's bikjang (`bikjangRule`: generals facing on an open
//! file), as Fairy-Stockfish's `variant.h` names them. Two passes in a
//! row, or a pass while the generals face, end the game.

/// A key's error: (line, message), as `keys.rs` has it (not imported:
/// `keys.rs` calls this file).
type KeyError = (Option<usize>, String);

/// Who may pass, and whether facing generals are bikjang.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Passing {
    /// Per side, may it pass?
    pub pass: [bool; 2],
    /// Generals facing on an open file: the side to move may always pass
    /// (even in check), any other move must break the facing, and a pass
    /// that keeps it ends the game.
    pub bikjang: bool,
}

/// The passing rules; `None` when neither side may pass and there is no bikjang.
pub(super) fn from_keys(flag: &dyn Fn(&str, bool) -> Result<bool, KeyError>) -> Result<Option<Passing>, KeyError> {
    let both = flag("pass", false)?;
    let pass = [flag("passWhite", both)?, flag("passBlack", both)?];
    let bikjang = flag("bikjangRule", false)?;
    Ok((pass[0] || pass[1] || bikjang).then_some(Passing { pass, bikjang }))
}
