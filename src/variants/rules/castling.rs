//! Castling: the king's and the rook's files and rank, the kinds that
//! castle, Chess960.

/// Castling: the king from its file to a fixed file, the rook beside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Castling {
    /// The king's destination file castling towards the h side (0-based).
    pub kingside_file: u8,
    /// The king's destination file castling towards the a side.
    pub queenside_file: u8,
    /// The king's file in non-960 starts.
    pub king_file: u8,
    /// White's castling rank (0-based); Black's is the mirror.
    pub rank: u8,
    /// The kinds that castle as the rook.
    pub rook_kinds: Vec<usize>,
    /// The kind that castles as the king when that is not the royal piece
    /// (`castlingKingPiece`: giveaway's commoner); `None`: the royal piece.
    pub king_kind: Option<usize>,
    /// Chess960 rules: any king and rook files, moves printed king to rook.
    pub chess960: bool,
}
