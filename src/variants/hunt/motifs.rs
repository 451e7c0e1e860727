//! The motif cases of a variant's own rules, as lines for `chesstool fuzz`
//! to look at first: a drop that gives check, a drop the rules refuse, a
//! promotion with a choice, a gate, a standing wall, a pass in check.
//!
//! A variant's positions cannot be sketched square by square as chess's
//! are (`chess::motifs`): its geometry, pieces and rules come from a file.
//! So the lines are found by play: seeded random games from the start,
//! leaning towards captures (they fill the hands), promotions and drops,
//! and at each position every case not yet found is tried with our own
//! move generator ([`evidence`]); the first position that holds a case
//! ends that case's line. Only the cases the variant's rules can hold are
//! looked for ([`candidates`]); one no game reaches within the budget has
//! no line. The random numbers come from the caller (`draw(n)`: a number
//! below `n`), so that a seeded run repeats.

use crate::variants::board::{cell_kind, cell_side, Position, EMPTY, NO_SQUARE, OFF};
use crate::variants::moves::vocabulary::{Move, Special};
use crate::variants::variant::definition::Variant;

/// A case of a variant rule that move generators get wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VariantCase {
    /// A legal drop.
    Drop,
    /// A legal drop that gives check.
    DropCheck,
    /// In check with a piece in hand: a drop that blocks the check is legal.
    DropInCheck,
    /// A piece in hand that may be dropped on a square of a file but not
    /// on another empty one of it (a pawn on the last rank, a drop outside
    /// the drop region).
    DropRefusedRank,
    /// A piece in hand that may be dropped on a rank but not on the empty
    /// square of a file that holds one of its kind already (shogi's nifu).
    DropRefusedFile,
    /// A pawn drop that would mate, refused (shogi's uchifuzume).
    DropMateRefused,
    /// A legal capture of a promoted piece (it goes to the hand demoted).
    CapturePromoted,
    /// A legal promotion.
    Promotion,
    /// Two or more kinds to promote to on the same move.
    PromotionChoice,
    /// The same move with and without promotion (an optional promotion).
    PromotionOptional,
    /// A move that exists only promoting (no plain version of it).
    PromotionForced,
    /// A promotion by a piece that moves away from the far side (shogi's
    /// promotion on leaving the zone).
    PromotionMovingBack,
    /// A legal e.p. capture.
    EnPassant,
    /// A legal castling.
    Castling,
    /// In check with a castling right: no castling is legal.
    CastlingInCheck,
    /// A legal move that gates a piece in from the hand.
    Gate,
    /// A legal castling that gates a piece in.
    GateCastling,
    /// A wall stands on the board, placed by a move of the line.
    WallStanding,
    /// A legal pass.
    Pass,
    /// In check in a game with passes: no pass is legal.
    PassInCheck,
    /// The side to move is in check.
    Check,
    /// A legal move that ends the game.
    EndsGame,
}

impl VariantCase {
    /// Every case, in the order `fuzz` looks at them.
    pub const ALL: [VariantCase; 22] = [
        VariantCase::Drop,
        VariantCase::DropCheck,
        VariantCase::DropInCheck,
        VariantCase::DropRefusedRank,
        VariantCase::DropRefusedFile,
        VariantCase::DropMateRefused,
        VariantCase::CapturePromoted,
        VariantCase::Promotion,
        VariantCase::PromotionChoice,
        VariantCase::PromotionOptional,
        VariantCase::PromotionForced,
        VariantCase::PromotionMovingBack,
        VariantCase::EnPassant,
        VariantCase::Castling,
        VariantCase::CastlingInCheck,
        VariantCase::Gate,
        VariantCase::GateCastling,
        VariantCase::WallStanding,
        VariantCase::Pass,
        VariantCase::PassInCheck,
        VariantCase::Check,
        VariantCase::EndsGame,
    ];

    /// The case's name in reports and docs (`drop-check`).
    pub const fn name(self) -> &'static str {
        match self {
            VariantCase::Drop => "drop",
            VariantCase::DropCheck => "drop-check",
            VariantCase::DropInCheck => "drop-in-check",
            VariantCase::DropRefusedRank => "drop-refused-rank",
            VariantCase::DropRefusedFile => "drop-refused-file",
            VariantCase::DropMateRefused => "drop-mate-refused",
            VariantCase::CapturePromoted => "capture-promoted",
            VariantCase::Promotion => "promotion",
            VariantCase::PromotionChoice => "promotion-choice",
            VariantCase::PromotionOptional => "promotion-optional",
            VariantCase::PromotionForced => "promotion-forced",
            VariantCase::PromotionMovingBack => "promotion-moving-back",
            VariantCase::EnPassant => "en-passant",
            VariantCase::Castling => "castling",
            VariantCase::CastlingInCheck => "castling-in-check",
            VariantCase::Gate => "gate",
            VariantCase::GateCastling => "gate-castling",
            VariantCase::WallStanding => "wall-standing",
            VariantCase::Pass => "pass",
            VariantCase::PassInCheck => "pass-in-check",
            VariantCase::Check => "check",
            VariantCase::EndsGame => "ends-game",
        }
    }
}

/// What shows that a position holds a case, in moves another generator
/// can be asked about.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Evidence {
    /// Legal moves that show it (the drop, both versions of an optional
    /// promotion); none for a case of the position itself.
    pub legal: Vec<Move>,
    /// A move the rules refuse here (the refused drop), if the case is a
    /// refusal.
    pub refused: Option<Move>,
    /// The side to move is in check.
    pub in_check: bool,
}

/// The cases `variant`'s rules can hold, in [`VariantCase::ALL`]'s order.
pub fn candidates(variant: &Variant) -> Vec<VariantCase> {
    use VariantCase::*;
    let laws = &variant.tables.laws;
    let drops = laws.drops.as_ref();
    let promotes = laws.promotion.is_some() || laws.shogi.is_some();
    VariantCase::ALL
        .into_iter()
        .filter(|case| match case {
            Drop | DropCheck | DropInCheck | DropRefusedRank | DropRefusedFile => drops.is_some(),
            DropMateRefused => laws.shogi.as_ref().is_some_and(|s| s.pawn_drop_mate.is_some()),
            CapturePromoted => drops.is_some_and(|d| d.captures_to_hand) && promotes,
            Promotion | PromotionChoice | PromotionOptional | PromotionForced | PromotionMovingBack => promotes,
            EnPassant => laws.pawn.is_some(),
            Castling | CastlingInCheck => laws.castling.is_some(),
            Gate => laws.seirawan_gating,
            GateCastling => laws.seirawan_gating && laws.castling.is_some(),
            WallStanding => laws.walling.is_some(),
            Pass | PassInCheck => laws.passing.is_some(),
            Check => variant.royal.is_some(),
            EndsGame => true,
        })
        .collect()
}

/// What shows that `pos` (whose legal moves are `moves`) holds `case`, or
/// `None` if it does not.
pub fn evidence(variant: &Variant, pos: &Position, moves: &[Move], case: VariantCase) -> Option<Evidence> {
    use VariantCase::*;
    let in_check = in_check(variant, pos);
    let shown = |legal: Vec<Move>| Some(Evidence { legal, refused: None, in_check });
    let first = |keep: &dyn Fn(&Move) -> bool| moves.iter().copied().find(|m| keep(m)).map(|m| vec![m]);
    let drops = || moves.iter().copied().filter(|m| m.special == Special::Drop);
    match case {
        Drop => shown(first(&|m| m.special == Special::Drop)?),
        DropCheck => drops().find(|&m| gives_check(variant, pos, m)).and_then(|m| shown(vec![m])),
        DropInCheck if in_check => shown(first(&|m| m.special == Special::Drop)?),
        DropRefusedRank | DropRefusedFile if !in_check => refused_drop(variant, pos, moves, case == DropRefusedFile)
            .map(|(allowed, refused)| Evidence { legal: vec![allowed], refused: Some(refused), in_check }),
        DropMateRefused => drop_mate_refused(variant, pos, moves).map(|refused| Evidence {
            legal: Vec::new(),
            refused: Some(refused),
            in_check,
        }),
        CapturePromoted => {
            shown(first(&|m| variant.tables.is_capture(pos, m) && pos.promoted.get(m.to as usize) == Some(&true))?)
        }
        Promotion => shown(first(&|m| is_promotion(m))?),
        PromotionChoice => promotion_pair(moves, |a, b| is_promotion(a) && is_promotion(b)).and_then(shown),
        PromotionOptional => {
            promotion_pair(moves, |a, b| is_promotion(a) && b.promo == 0 && b.special != Special::Drop).and_then(shown)
        }
        PromotionForced => {
            let plain_too = |p: &Move| moves.iter().any(|m| m.promo == 0 && same_step(m, p));
            shown(first(&|m| is_promotion(m) && !plain_too(m))?)
        }
        PromotionMovingBack => shown(first(&|m| is_promotion(m) && moves_back(variant, pos, m))?),
        EnPassant => shown(first(&|m| m.special == Special::EnPassant)?),
        Castling => shown(first(&|m| m.special == Special::Castle)?),
        CastlingInCheck => {
            let rights = pos.castle[pos.side].iter().any(|&r| r != NO_SQUARE);
            let none = !moves.iter().any(|m| m.special == Special::Castle);
            (in_check && rights && none).then(|| Evidence { in_check, ..Evidence::default() })
        }
        Gate => shown(first(&|m| m.gate != 0 && m.special != Special::Castle)?),
        GateCastling => shown(first(&|m| m.gate != 0 && m.special == Special::Castle)?),
        WallStanding => {
            let g = &variant.geometry;
            g.squares().any(|sq| pos.cells[sq] == OFF).then(|| Evidence { in_check, ..Evidence::default() })
        }
        Pass => shown(first(&|m| m.special == Special::Pass)?),
        PassInCheck => (in_check && !moves.iter().any(|m| m.special == Special::Pass))
            .then(|| Evidence { in_check, ..Evidence::default() }),
        Check => in_check.then(|| Evidence { in_check, ..Evidence::default() }),
        EndsGame => shown(first(&|m| {
            let mut next = pos.clone();
            variant.tables.play(&mut next, *m);
            variant.tables.game_over(&next)
        })?),
        DropInCheck | DropRefusedRank | DropRefusedFile => None,
    }
}

/// One line for each case of `variant` that a game from `start` reaches,
/// in [`VariantCase::ALL`]'s order: the case and the moves from `start`.
pub fn motif_lines(
    variant: &Variant,
    start: &Position,
    draw: &mut dyn FnMut(u64) -> u64,
) -> Vec<(VariantCase, Vec<Move>)> {
    let mut wanted = candidates(variant);
    let mut found: Vec<(VariantCase, Vec<Move>)> = Vec::new();
    let mut looked = 0;
    for _ in 0..GAMES {
        let (mut pos, mut line) = (start.clone(), Vec::new());
        for _ in 0..=PLIES {
            let moves = variant.tables.legal_moves(&mut pos);
            wanted.retain(|&case| {
                let holds = evidence(variant, &pos, &moves, case).is_some();
                if holds {
                    found.push((case, line.clone()));
                }
                !holds
            });
            looked += 1;
            if wanted.is_empty() || looked >= POSITIONS || moves.is_empty() || variant.tables.game_over(&pos) {
                break;
            }
            let mv = pick(variant, &pos, &moves, draw);
            variant.tables.play(&mut pos, mv);
            line.push(mv);
        }
        if wanted.is_empty() || looked >= POSITIONS {
            break;
        }
    }
    found.sort_by_key(|(case, _)| VariantCase::ALL.iter().position(|c| c == case));
    found
}

/// How many games, how long each, and how many positions in all a search
/// may look at (a few hundred milliseconds at most, in a debug build too).
const GAMES: usize = 64;
const PLIES: usize = 80;
const POSITIONS: usize = 3000;

/// A random move, captures, promotions, drops and the variant's special
/// moves four times as likely as the others.
fn pick(variant: &Variant, pos: &Position, moves: &[Move], draw: &mut dyn FnMut(u64) -> u64) -> Move {
    let weight = |m: &Move| {
        if variant.tables.is_capture(pos, m) || m.promo != 0 || m.special != Special::None || m.gate != 0 {
            4
        } else {
            1
        }
    };
    let total: u64 = moves.iter().map(weight).sum();
    let mut at = draw(total);
    for m in moves {
        if at < weight(m) {
            return *m;
        }
        at -= weight(m);
    }
    moves[moves.len() - 1]
}

fn in_check(variant: &Variant, pos: &Position) -> bool {
    let royal = pos.royal[pos.side];
    royal != NO_SQUARE && variant.tables.royal_attacked(&mut pos.clone(), royal as usize, pos.side ^ 1)
}

fn gives_check(variant: &Variant, pos: &Position, mv: Move) -> bool {
    let mut next = pos.clone();
    variant.tables.play(&mut next, mv);
    in_check(variant, &next)
}

/// A board promotion (not a drop's kind).
fn is_promotion(m: &Move) -> bool {
    m.promo != 0 && m.special != Special::Drop
}

/// The same step of the same piece, whatever it promotes to.
fn same_step(a: &Move, b: &Move) -> bool {
    (a.from, a.to, a.nvictims, a.victims, a.special, a.gate, a.wall)
        == (b.from, b.to, b.nvictims, b.victims, b.special, b.gate, b.wall)
}

/// Two moves of one step that differ in what they promote to and pass
/// `pair`.
fn promotion_pair(moves: &[Move], pair: impl Fn(&Move, &Move) -> bool) -> Option<Vec<Move>> {
    moves
        .iter()
        .find_map(|a| moves.iter().find(|b| b.promo != a.promo && same_step(a, b) && pair(a, b)).map(|b| vec![*a, *b]))
}

/// The piece moves towards its own side's back rank.
fn moves_back(variant: &Variant, pos: &Position, m: &Move) -> bool {
    let g = &variant.geometry;
    let (from, to) = (g.coords(m.from as usize).1, g.coords(m.to as usize).1);
    if pos.side == 0 {
        to < from
    } else {
        to > from
    }
}

/// A legal drop and a refused one of the same kind: on the same file
/// (`by_file` false: the rank refuses it) or, `by_file`, on the same rank
/// with one of the kind on the refused one's file.
fn refused_drop(variant: &Variant, pos: &Position, moves: &[Move], by_file: bool) -> Option<(Move, Move)> {
    let g = &variant.geometry;
    let us = pos.side;
    let legal: Vec<Move> = moves.iter().copied().filter(|m| m.special == Special::Drop).collect();
    for allowed in &legal {
        let kind = allowed.promo as usize - 1;
        let (file, rank) = g.coords(allowed.to as usize);
        for sq in g.squares() {
            let (f, r) = g.coords(sq);
            let lined_up = if by_file { r == rank && f != file } else { f == file && r != rank };
            if !lined_up || pos.cells[sq] != EMPTY {
                continue;
            }
            let refused = Move::drop(kind, sq);
            if legal.contains(&refused) {
                continue;
            }
            let kin_on_file = || {
                (0..g.height).map(|r| pos.cells[g.cell(f, r)]).any(|c| {
                    c != EMPTY
                        && c != OFF
                        && cell_side(c) == us
                        && cell_kind(c) == kind
                        && !pos.promoted.get(g.cell(f, r)).copied().unwrap_or(false)
                })
            };
            if !by_file || kin_on_file() {
                return Some((*allowed, refused));
            }
        }
    }
    None
}

/// A pawn drop that is not legal here although its square is empty, and
/// that would give mate.
fn drop_mate_refused(variant: &Variant, pos: &Position, moves: &[Move]) -> Option<Move> {
    let pawn = variant.tables.laws.shogi.as_ref()?.pawn_drop_mate?;
    if pos.hands[pos.side].get(pawn).copied().unwrap_or(0) == 0 {
        return None;
    }
    variant.geometry.squares().filter(|&sq| pos.cells[sq] == EMPTY).map(|sq| Move::drop(pawn, sq)).find(|&mv| {
        if moves.contains(&mv) || !moves.iter().any(|m| m.special == Special::Drop && m.promo == mv.promo) {
            return false;
        }
        let mut next = pos.clone();
        variant.tables.play(&mut next, mv);
        in_check(variant, &next) && variant.tables.legal_moves(&mut next).is_empty()
    })
}
