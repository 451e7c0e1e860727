//! `Position`: a small `Copy` board that is updated by copy-make, with an
//! incrementally updated Zobrist key.

mod chess960;
mod fen;
mod validate;

pub use chess960::{chess960_back_rank, chess960_start, chess960_start_fen};
pub use fen::{FenError, ParseFenError, STARTPOS_FEN};
pub use validate::PositionError;

use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use crate::board::zobrist;
use crate::board::{Bitboard, ByColor, CastlingRights, Color, File, Move, MoveKind, Piece, Rank, Role, Square};

/// A chess position: the pieces, the side to move, castling rights, e.p. square, clocks and Zobrist key.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Position {
    by_role: [Bitboard; 6],
    by_color: ByColor<Bitboard>,
    turn: Color,
    castling: CastlingRights,
    ep_square: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    key: u64,
    chess960: bool,
}

impl Position {
    /// The standard start position.
    pub fn startpos() -> Position {
        Position::from_fen(STARTPOS_FEN).expect("the start position is valid")
    }

    fn empty() -> Position {
        Position {
            by_role: [Bitboard::EMPTY; 6],
            by_color: ByColor::default(),
            turn: Color::White,
            castling: CastlingRights::NONE,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            key: 0,
            chess960: false,
        }
    }

    // ---- queries -------------------------------------------------------

    /// The side to move.
    #[inline(always)]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The squares of `color`'s pieces.
    #[inline(always)]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color]
    }

    /// The squares of every piece of `role`, both colours.
    #[inline(always)]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role as usize]
    }

    /// The squares of `color`'s pieces of `role`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color] & self.by_role[role as usize]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color.white | self.by_color.black
    }

    /// Bishops and queens.
    #[inline(always)]
    pub fn diagonal_sliders(&self) -> Bitboard {
        self.by_role[Role::Bishop as usize] | self.by_role[Role::Queen as usize]
    }

    /// Rooks and queens.
    #[inline(always)]
    pub fn line_sliders(&self) -> Bitboard {
        self.by_role[Role::Rook as usize] | self.by_role[Role::Queen as usize]
    }

    /// The king of `color` (a validated position has exactly one).
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        self.pieces(color, Role::King).lsb()
    }

    /// The role of the piece on `sq`, if any.
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        Role::ALL.into_iter().find(|&r| self.by_role[r as usize].contains(sq))
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let role = self.role_at(sq)?;
        let color = if self.by_color.white.contains(sq) { Color::White } else { Color::Black };
        Some(Piece { color, role })
    }

    /// Squares of rooks that keep a castling right (both colours).
    pub fn castling_rooks(&self) -> Bitboard {
        self.castling.rooks()
    }

    /// The castling rights.
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// The e.p. target square, if the last move was a double push that an
    /// enemy pawn could (pseudo-legally) capture, or as given in the FEN.
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// The halfmove clock (plies since the last capture or pawn move).
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The fullmove number (starts at 1, grows after Black's move).
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The Zobrist key (SplitMix64 numbers, see `board::zobrist`), kept up to date by every move.
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Whether castling follows Chess960's rules (and is written as Shredder-FEN).
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Switches castling notation (UCI output and FEN) to Chess960's.
    pub fn set_chess960(&mut self, chess960: bool) {
        self.chess960 = chess960;
    }

    /// Pieces of either colour attacking `sq`, with the given occupancy.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        (rook_attacks(sq, occupied) & self.line_sliders())
            | (bishop_attacks(sq, occupied) & self.diagonal_sliders())
            | (knight_attacks(sq) & self.by_role(Role::Knight))
            | (king_attacks(sq) & self.by_role(Role::King))
            | (pawn_attacks(Color::White, sq) & self.pieces(Color::Black, Role::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.pieces(Color::White, Role::Pawn))
    }

    /// Enemy pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        let us = self.turn;
        self.attackers_to(self.king(us), self.occupied()) & self.by_color[!us]
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// The key computed from scratch (tests compare it with the incremental one).
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in self.occupied() {
            let p = self.piece_at(sq).expect("occupied square has a piece");
            key ^= zobrist::piece_key(p.color, p.role, sq);
        }
        for rook in self.castling.rooks() {
            key ^= zobrist::castling_key(rook);
        }
        if let Some(ep) = self.ep_square {
            key ^= zobrist::ep_key(ep);
        }
        if self.turn == Color::Black {
            key ^= zobrist::turn_key();
        }
        key
    }

    // ---- changes ---------------------------------------------------------

    #[inline(always)]
    fn put(&mut self, color: Color, role: Role, sq: Square) {
        self.by_role[role as usize] |= sq;
        self.by_color[color] |= sq;
        self.key ^= zobrist::piece_key(color, role, sq);
    }

    #[inline(always)]
    fn remove(&mut self, color: Color, role: Role, sq: Square) {
        self.by_role[role as usize] ^= sq;
        self.by_color[color] ^= sq;
        self.key ^= zobrist::piece_key(color, role, sq);
    }

    #[inline(always)]
    fn remove_castling(&mut self, rooks: Bitboard) {
        for rook in self.castling.remove(rooks) {
            self.key ^= zobrist::castling_key(rook);
        }
    }

    /// The position after `m`, which must be legal here (copy-make).
    #[inline]
    pub fn play(&self, m: Move) -> Position {
        let mut next = *self;
        next.play_in_place(m);
        next
    }

    /// The position after a pseudo-legal `m`: a piece of the side to move on
    /// `m.from()` that moves by its rules and does not capture a king, but
    /// may leave its own king attacked. For telling why a move is illegal
    /// (is our king attacked afterwards?); `play` does no more checking, this
    /// name only makes the weaker promise explicit.
    pub fn play_unchecked(&self, m: Move) -> Position {
        self.play(m)
    }

    /// Plays the legal move `m` on this position.
    pub fn play_in_place(&mut self, m: Move) {
        let us = self.turn;
        let them = !us;
        let (from, to) = (m.from(), m.to());
        if let Some(ep) = self.ep_square.take() {
            self.key ^= zobrist::ep_key(ep);
        }
        // Saturating: a FEN may start the clocks at u32::MAX.
        self.halfmoves = self.halfmoves.saturating_add(1);
        match m.kind() {
            MoveKind::Castling => {
                self.remove(us, Role::King, from);
                self.remove(us, Role::Rook, to);
                self.put(us, Role::King, m.castling_king_target());
                self.put(us, Role::Rook, m.castling_rook_target());
                self.remove_castling(back_rank(us));
            }
            MoveKind::EnPassant => {
                let captured = Square::from_coords(to.file(), from.rank());
                self.remove(them, Role::Pawn, captured);
                self.remove(us, Role::Pawn, from);
                self.put(us, Role::Pawn, to);
                self.halfmoves = 0;
            }
            MoveKind::Normal | MoveKind::Promotion => {
                let role = self.role_at(from).expect("a move starts on a piece");
                if self.by_color[them].contains(to) {
                    let captured = self.role_at(to).expect("occupied square has a piece");
                    self.remove(them, captured, to);
                    self.halfmoves = 0;
                }
                self.remove(us, role, from);
                self.put(us, m.promotion_role().unwrap_or(role), to);
                if role == Role::Pawn {
                    self.halfmoves = 0;
                    if from.index().abs_diff(to.index()) == 16 {
                        let ep = Square::new((from as u8 + to as u8) / 2);
                        if (pawn_attacks(us, ep) & self.pieces(them, Role::Pawn)).any() {
                            self.ep_square = Some(ep);
                            self.key ^= zobrist::ep_key(ep);
                        }
                    }
                } else if role == Role::King {
                    self.remove_castling(back_rank(us));
                }
                // Moving from or capturing on a castling rook's square ends its right.
                self.remove_castling(Bitboard::from_square(from) | to);
            }
        }
        if us == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = them;
        self.key ^= zobrist::turn_key();
    }
}

/// The first rank for White, the eighth for Black.
#[inline(always)]
pub fn back_rank(color: Color) -> Bitboard {
    match color {
        Color::White => Bitboard::rank(Rank::First),
        Color::Black => Bitboard::rank(Rank::Eighth),
    }
}

/// True if `rook` is on the king side (h-side) of `king`.
#[inline(always)]
pub fn is_kingside(king: Square, rook: Square) -> bool {
    rook.file() > king.file()
}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

/// The file a castling rook of `color` stands on, for FEN output.
pub(crate) fn castling_files(pos: &Position, color: Color) -> impl Iterator<Item = File> + '_ {
    (pos.castling.rooks_of(color) & pos.by_color[color]).into_iter().map(|sq| sq.file())
}
