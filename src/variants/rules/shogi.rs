//! Shogi-style promotion of pieces other than the pawn
//! (`promotedPieceType = p:g s:g b:h r:d`, in `promotionRegionWhite` /
//! `promotionRegionBlack`, optional when a move starts or ends there) and
//! the shogi drop rules (`dropNoDoubled`, `shogiPawnDropMateIllegal`,
//! `immobilityIllegal`), as Fairy-Stockfish's `variant.h` names them.
//!
//! A promoted piece is a kind of its own (a tokin is not a gold: captured,
//! it joins the hand as a pawn), made by the `variants.ini` reader with
//! the moves of the kind it promotes to and the letter `promoted_letter`;
//! the FEN writes it `+P`, a move that promotes ends in `+`, one that
//! turns a promoted piece back (`pieceDemotion`) in `-`.

use super::region::Region;

/// The letter of the kind that the piece of letter `base` promotes to: a
/// circled letter (`Ⓟ` for `P`), never typed, read and written `+P`.
pub fn promoted_letter(base: char) -> char {
    let offset = (base.to_ascii_uppercase() as u32).wrapping_sub('A' as u32);
    if offset < 26 {
        char::from_u32(0x24B6 + offset).unwrap_or('?')
    } else {
        '?'
    }
}

/// Per kind, the kind it promotes to; per kind, the kind it was.
pub type PromotionPairs = (Vec<Option<usize>>, Vec<Option<usize>>);

/// Shogi's promotions and drop rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shogi {
    /// Per kind, the kind it may promote to.
    pub promotes_to: Vec<Option<usize>>,
    /// Per kind, the kind it was before promoting (a promoted kind).
    pub demotes_to: Vec<Option<usize>>,
    /// Per side, the promotion zone.
    pub region: [Region; 2],
    /// A piece may not stay (or be dropped) where it could never move
    /// again (`immobilityIllegal`).
    pub immobility: bool,
    /// Per side and kind: the cells from which the kind has no move on an
    /// empty board (filled by `Variant::new` from the tables).
    pub stuck: [Vec<Region>; 2],
    /// Per side and kind: does a drop rule refuse or add a drop of the
    /// kind (stuck cells under `immobility`, the `no_doubled` kind, a kind
    /// with a promoted side under `drop_promoted`)? Filled with `stuck`
    /// (`Shogi::ruled_drops`); the others' drops are the empty cells.
    pub ruled: [Vec<bool>; 2],
    /// No drop of this kind on a file with one of that side's already
    /// (`dropNoDoubled`, nifu).
    pub no_doubled: Option<usize>,
    /// How many of the `no_doubled` kind a file may hold before no more
    /// may be dropped there (`dropNoDoubledCount`, 1 in shogi, 2 in tori).
    pub doubled_count: u8,
    /// A drop of this kind that mates is illegal (`shogiPawnDropMateIllegal`).
    pub pawn_drop_mate: Option<usize>,
    /// A piece that may promote must, on a move that starts or ends in its
    /// zone (`mandatoryPiecePromotion`: euroshogi, tori shogi).
    pub mandatory: bool,
    /// A promoted piece may turn back where a piece may promote
    /// (`pieceDemotion`: Kyoto's and Micro's pieces flip, written `a1a2-`).
    pub demotion: bool,
    /// Pieces promote (and turn back) only when they capture
    /// (`piecePromotionOnCapture`: Micro shogi).
    pub on_capture: bool,
    /// A piece in hand may be dropped either side up (`dropPromoted`:
    /// `+N@c3`); the hand holds the unpromoted kind.
    pub drop_promoted: bool,
}

impl Shogi {
    /// The `ruled` kinds per side, read from the rules and `stuck`.
    pub fn ruled_drops(&self) -> [Vec<bool>; 2] {
        [0, 1].map(|side| {
            (0..self.promotes_to.len())
                .map(|kind| {
                    self.no_doubled == Some(kind)
                        || (self.drop_promoted && self.promotes_to[kind].is_some())
                        || (self.immobility && self.stuck[side].get(kind).is_some_and(|r| !r.is_empty()))
                })
                .collect()
        })
    }

    /// The promotions of `promotedPieceType` (`a:b` pairs) but those of
    /// `pawn` (the built-in pawn's, read with the pawn's laws); `None`
    /// without one. `Err`: the text of a bad pair.
    pub fn parse_pairs(
        text: &str,
        kinds: usize,
        pawn: Option<usize>,
        kind_of: &dyn Fn(char) -> Option<usize>,
    ) -> Result<Option<PromotionPairs>, String> {
        let mut up = vec![None; kinds];
        let mut down = vec![None; kinds];
        let mut any = false;
        for pair in text.split_whitespace() {
            let bad = || format!("promotedPieceType: {pair:?} is not letter:letter of this variant");
            let (a, b) = pair.split_once(':').ok_or_else(bad)?;
            let (mut a, mut b) = (a.chars(), b.chars());
            let (Some(a), None, Some(_), None) = (a.next(), a.next(), b.next(), b.next()) else { return Err(bad()) };
            let base = kind_of(a).ok_or_else(bad)?;
            if Some(base) == pawn {
                continue;
            }
            let promoted = kind_of(promoted_letter(a)).ok_or_else(bad)?;
            up[base] = Some(promoted);
            down[promoted] = Some(base);
            any = true;
        }
        Ok(any.then_some((up, down)))
    }
}
