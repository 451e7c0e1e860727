//! Gates: first moves a piece has only while it stands unmoved on its
//! back-rank square (Cambodian chess's king leap and met double step).

/// Cambodian chess's first moves: the king's leap (a knight's move to the
/// rank in front, not out of check) and the met's double step, each only
/// while it stands unmoved on its back-rank square (a "gate").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cambodian {
    /// The met's kind (Fairy-Stockfish's `fers`), if the variant has one.
    pub fers: Option<usize>,
    /// The rook's kind: a rook moving to attack an unmoved king takes its leap away.
    pub rook: Option<usize>,
}
