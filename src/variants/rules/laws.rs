//! `Laws`: every rule of a variant beyond its pieces' moves, one field
//! per rule family (each typed in a file of its own).

use super::bounds::Bounds;
use super::castling::Castling;
use super::drops::Drops;
use super::game_end::{Extinction, Flag};
use super::gates::Cambodian;
use super::palace::Palace;
use super::passing::Passing;
use super::pawns::PawnLaws;
use super::promotion::Promotion;
use super::region::Region;
use super::shogi::Shogi;
use super::stones::Stones;
use super::walls::Walling;

/// Every rule of a variant beyond its pieces' moves.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Laws {
    /// Pawns, if the variant has them.
    pub pawn: Option<PawnLaws>,
    /// Promotion, if pawns promote.
    pub promotion: Option<Promotion>,
    /// Castling, if allowed.
    pub castling: Option<Castling>,
    /// The FEN carries check counters; giving the last check wins.
    pub check_counting: bool,
    /// A region to reach.
    pub flag: Option<Flag>,
    /// Extinction rules.
    pub extinction: Option<Extinction>,
    /// A capture, when one is possible, is compulsory.
    pub must_capture: bool,
    /// A capture explodes the pieces around it (atomic).
    pub blast: bool,
    /// Giving check is not allowed (racing kings: `checking = false`).
    pub no_checks: bool,
    /// Kinds (a mask) that no explosion removes, the capturer included
    /// (`blastImmuneTypes`: atomar's kings).
    pub blast_immune: u64,
    /// Kinds (a mask) that may not capture a piece of their own kind
    /// (`mutuallyImmuneTypes`: atomar's kings cannot take each other).
    pub mutually_immune: u64,
    /// In check, the king may move only to take its one checker
    /// (`makpongRule`, Fairy-Stockfish's `Position::legal`).
    pub makpong: bool,
    /// Per side, sorted (kind, from, to): the two-square moves that only
    /// an unmoved piece other than the pawn has; they may be taken en
    /// passant. Filled by `Variant::new` from the built tables.
    pub initial_rushes: Vec<Vec<(u16, u16, u16)>>,
    /// Per side, where `i` moves are allowed, when `doubleStepRegion*`
    /// gives it (Fairy-Stockfish's `moves_from`); else by `Initial`.
    pub initial_region: Option<[Region; 2]>,
    /// Kinds that turn to stone (a wall) when they capture (petrified).
    pub petrify: Vec<usize>,
    /// Cambodian first moves (`cambodianMoves`, with `gating`).
    pub cambodian: Option<Cambodian>,
    /// Seirawan gating (`seirawanGating`): a piece from the hand may enter
    /// on the back-rank square a piece leaves for the first time.
    pub seirawan_gating: bool,
    /// Hands and drops (`pieceDrops`), if the variant has them.
    pub drops: Option<Drops>,
    /// Shogi's piece promotions and drop rules, if the variant has them.
    pub shogi: Option<Shogi>,
    /// Regions the pieces may not leave, the soldier's river, the flying
    /// general (Xiangqi).
    pub bounds: Bounds,
    /// A stone game's drops, flips and passes (Ataxx, Othello), if any.
    pub stones: Option<Stones>,
    /// Janggi's palace lines and cannons, if the variant has them.
    pub palace: Option<Palace>,
    /// Passing and bikjang, if a side may pass.
    pub passing: Option<Passing>,
    /// A wall placed with every move (`wallingRule`), if the variant has one.
    pub walling: Option<Walling>,
}

impl Laws {
    /// No rule acts when a move is played: no pawns (rushes, en passant),
    /// promotion, castling, explosions, petrification, gates, check counts
    /// or initial rushes. Such a variant's move is the board's `make`.
    pub fn plain_play(&self) -> bool {
        self.walling.is_none() && self.pawn.is_none() && self.promotion.is_none() && self.plain_board()
    }

    /// `plain_play` but for promotions, pawns that never rush (so no
    /// en-passant square ever stands) and a wall that leaves the other
    /// walls standing (every rule but the duck's, which lifts them): such
    /// a move is the board's `make`, its promotion and its wall.
    pub fn plain_with_extras(&self) -> bool {
        self.walling.as_ref().is_none_or(|w| w.rule != super::walls::WallRule::Duck)
            && self.pawn.as_ref().is_none_or(|p| {
                !p.betza && p.double_step.iter().chain(&p.triple_step).all(super::region::Region::is_empty)
            })
            && self.plain_board()
    }

    /// No rule acts when a move is played but pawns, promotion and walls.
    fn plain_board(&self) -> bool {
        self.castling.is_none()
            && !self.blast
            && self.petrify.is_empty()
            && self.cambodian.is_none()
            && !self.check_counting
            && self.initial_rushes.iter().all(Vec::is_empty)
            && self.drops.is_none()
            && self.shogi.is_none()
            && self.stones.is_none()
            && self.passing.is_none()
    }
}
