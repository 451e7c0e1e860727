//! The hunt's `Rules` for a variant of a `variants.ini` file.
//!
//! Positions are Fairy-Stockfish FENs or SFENs (`startpos` is the
//! variant's start position); moves are printed as Fairy-Stockfish prints
//! them (`e2e4`, `a9a10`; legs through locust victims `e5e6,e6e7`; a pass
//! `e5e5`), and read in that notation or in USI's (`7g7f`, `P*5e`); with
//! `MoveNotation::Iccs`, ranks count from 0 both ways (`h2e2`). Legal
//! moves come sorted by origin square (a1, b1, ..., rank by rank), then
//! destination, then victims.

use super::iccs::{self, MoveNotation};
use super::{dialect, move_hints, rule_hints, usi};
use crate::rules::{squares_of_text, BoardView, Hint, MoveSquares, ReadMoveError, Rules};
use crate::variants::board::Position;
use crate::variants::count::perft;
use crate::variants::moves::vocabulary::{Move, Special};
use crate::variants::variant::definition::{FenError, Variant};
use crate::variants::variant::sfen::is_sfen;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// The legal moves of the last position read from, by their lowercase
/// text: an engine's divide is read line by line, and one Amazons position
/// has 2176 lines, each of which would otherwise generate all the moves.
type MovesByText = Arc<Mutex<Option<(Position, HashMap<String, Move>)>>>;

/// A variant and the path of the file that defines it (for `VariantPath`).
#[derive(Debug, Clone)]
pub struct VariantRules {
    /// The variant played.
    pub variant: Arc<Variant>,
    /// The file that defines it, passed to an engine as `VariantPath`.
    pub path: String,
    /// The square names of moves read and written.
    pub notation: MoveNotation,
    by_text: MovesByText,
}

impl VariantRules {
    /// The rules of `variant`, defined in the file `path`.
    pub fn new(variant: Variant, path: &str) -> VariantRules {
        VariantRules {
            variant: Arc::new(variant),
            path: path.into(),
            notation: MoveNotation::Fairy,
            by_text: MovesByText::default(),
        }
    }

    /// The same rules, reading and writing moves in `notation`.
    pub fn with_notation(self, notation: MoveNotation) -> VariantRules {
        VariantRules { notation, ..self }
    }

    /// A move's text in our notation: USI and ICCS converted, anything
    /// else as it is.
    fn ours<'a>(&self, text: &'a str) -> Cow<'a, str> {
        if self.notation == MoveNotation::Iccs {
            if let Some(t) = iccs::from_iccs(&self.variant.geometry, text) {
                return Cow::Owned(t);
            }
        }
        match usi::from_usi(&self.variant, text) {
            Some(t) => Cow::Owned(t),
            None => Cow::Borrowed(text),
        }
    }

    /// A move's text in the notation chosen (`to_iccs` of ours for ICCS,
    /// `to_usi` for USI; square names in a hint's words change alike).
    fn theirs(&self, text: String) -> String {
        match self.notation {
            MoveNotation::Fairy => text,
            MoveNotation::Iccs => iccs::to_iccs(&self.variant.geometry, &text),
            MoveNotation::Usi => usi::to_usi(&self.variant, &text),
        }
    }

    /// Why `text` (in our notation) is not a legal move here, if a rule says so.
    fn why_not(&self, pos: &Position, text: &str) -> Option<Hint> {
        if self.variant.tables.laws.walling.is_some() {
            return super::wall_hints::why_not(&self.variant, pos, text);
        }
        if self.variant.tables.laws.stones.is_some() {
            if let Some(why) = super::stone_hints::why_not(&self.variant, pos, text) {
                return Some(why);
            }
        }
        if let Some(why) = super::drop_hints::why_not(&self.variant, pos, text) {
            return Some(why);
        }
        if let Some(why) = rule_hints::why_not(&self.variant, pos, text) {
            return Some(why);
        }
        let points = points(&self.variant, text.trim())?;
        if let [from, .., to] = points[..] {
            if let Some(why) = super::palace_hints::why_not(&self.variant, pos, from, to) {
                return Some(why);
            }
            if let Some(why) = super::bound_hints::why_not(&self.variant, pos, from, to) {
                return Some(why);
            }
        }
        move_hints::why_not(&self.variant, pos, &points)
    }

    /// A hint whose square names follow the notation chosen.
    fn their_hint(&self, hint: Hint) -> Hint {
        Hint { text: self.theirs(hint.text), ..hint }
    }

    /// The legal move whose text is `text` (any case), from the moves of
    /// `pos` made once for all the lines of an answer.
    fn by_text(&self, pos: &Position, text: &str) -> Option<Move> {
        let mut cache = self.by_text.lock().unwrap_or_else(PoisonError::into_inner);
        if cache.as_ref().is_none_or(|(seen, _)| seen != pos) {
            let moves = self.legal_moves(pos).into_iter();
            let texts = moves.map(|mv| (self.variant.move_text(pos, mv).to_ascii_lowercase(), mv)).collect();
            *cache = Some((pos.clone(), texts));
        }
        cache.as_ref().and_then(|(_, texts)| texts.get(&text.to_ascii_lowercase()).copied())
    }

    /// A move in Fairy-Stockfish's notation or USI's, or in another
    /// engine's (`Nb1-a3`, `Nb1-a3/H`, `@e2`, `P7g-7f`, `O-O`: see `dialect`).
    fn read_fairy(&self, pos: &Position, text: &str) -> Result<Move, ReadMoveError> {
        if let Some((kingside, gate)) = dialect::castling(text) {
            return self.read_castling(pos, text, kingside, gate);
        }
        let Some(fairy) = dialect::normalise(text) else { return self.read_plain(pos, text) };
        self.read_plain(pos, &fairy).map_err(|e| match e {
            ReadMoveError::Syntax(_) => ReadMoveError::Syntax(text.into()),
            ReadMoveError::Ambiguous(_) => ReadMoveError::Ambiguous(text.into()),
            ReadMoveError::Malformed(why) => ReadMoveError::Malformed(why),
            ReadMoveError::Illegal { canonical, .. } => ReadMoveError::Illegal { text: text.into(), canonical },
        })
    }

    /// Castling written `O-O` / `O-O-O` (also with a gating suffix `/H`):
    /// the legal castling move towards the rook of that side, the king's
    /// file below the rook's for `O-O`, whatever the board (Chess960,
    /// Capablanca).
    fn read_castling(
        &self,
        pos: &Position,
        text: &str,
        kingside: bool,
        gate: Option<char>,
    ) -> Result<Move, ReadMoveError> {
        let g = &self.variant.geometry;
        let file = |cell: u16| g.coords(cell as usize).0;
        let legal = self.legal_moves(pos);
        let found: Vec<Move> = legal
            .into_iter()
            .filter(|m| m.special == Special::Castle && (file(m.to) > file(m.from)) == kingside)
            .filter(|m| {
                let gated = m.gated().map(|(kind, _)| self.variant.pieces[kind].letter.to_ascii_lowercase());
                gated == gate
            })
            .collect();
        match found.as_slice() {
            [mv] => Ok(*mv),
            [] => Err(ReadMoveError::Illegal { text: text.into(), canonical: None }),
            _ => Err(ReadMoveError::Ambiguous(text.into())),
        }
    }

    /// A move in Fairy-Stockfish's notation or USI's.
    fn read_plain(&self, pos: &Position, text: &str) -> Result<Move, ReadMoveError> {
        if usi::is_usi(text) {
            // USI (`7g7f`, `P*5e`): read as the same move in our notation.
            let ours = usi::from_usi(&self.variant, text).ok_or_else(|| ReadMoveError::Syntax(text.into()))?;
            return self.read_plain(pos, &ours).map_err(|e| match e {
                ReadMoveError::Syntax(_) => ReadMoveError::Syntax(text.into()),
                ReadMoveError::Ambiguous(_) => ReadMoveError::Ambiguous(text.into()),
                ReadMoveError::Malformed(why) => ReadMoveError::Malformed(why),
                ReadMoveError::Illegal { .. } => ReadMoveError::Illegal { text: text.into(), canonical: Some(ours) },
            });
        }
        if let Some(mv) = self.by_text(pos, text) {
            return Ok(mv);
        }
        let legal = self.legal_moves(pos);
        if self.variant.tables.laws.walling.is_some() {
            return super::wall_hints::read(&self.variant, pos, &legal, text);
        }
        // Castling written king to rook (`e1h1`) where we write the king's
        // destination (`e1g1`).
        let lower = text.to_ascii_lowercase();
        let g = &self.variant.geometry;
        let mut castling = legal.iter().filter(|m| m.special == Special::Castle);
        if let Some(&mv) = castling.find(|m| lower == format!("{}{}", g.name(m.from as usize), g.name(m.to as usize))) {
            return Ok(mv);
        }
        if let Some((piece, square)) = text.split_once('@') {
            // A drop that is not among the legal ones (an occupied square,
            // a piece not in hand, a forbidden rank).
            // Its canonical text lets the diff list it as an extra move.
            let kind = piece.chars().next().filter(|_| piece.len() == 1).and_then(|c| self.variant.kind_of(c));
            let to = self.variant.geometry.parse_square(square);
            return Err(match (kind, to) {
                (Some(kind), Some(to)) => ReadMoveError::Illegal {
                    text: text.into(),
                    canonical: Some(self.variant.move_text(pos, Move::drop(kind, to))),
                },
                _ => ReadMoveError::Syntax(text.into()),
            });
        }
        let points = points(&self.variant, text).ok_or_else(|| ReadMoveError::Syntax(text.into()))?;
        let (from, to) = (points[0] as u16, *points.last().expect("two points") as u16);
        let mut victims: Vec<u16> = points[1..points.len() - 1].iter().map(|&v| v as u16).collect();
        victims.sort_unstable();
        let legal: Vec<Move> = legal.into_iter().filter(|m| m.promo == 0 && m.special != Special::Castle).collect();
        if let Some(&mv) = legal.iter().find(|m| m.from == from && m.to == to && m.victims() == victims.as_slice()) {
            return Ok(mv);
        }
        // An engine may leave out the legs of a locust move: from-to alone is
        // enough when exactly one legal move has them.
        if victims.is_empty() {
            let same: Vec<&Move> = legal.iter().filter(|m| m.from == from && m.to == to).collect();
            match same.len() {
                1 => return Ok(*same[0]),
                n if n > 1 => return Err(ReadMoveError::Ambiguous(text.into())),
                _ => {}
            }
        }
        let canonical = {
            let g = &self.variant.geometry;
            let mut pts = vec![from as usize];
            pts.extend(victims.iter().map(|&v| v as usize));
            pts.push(to as usize);
            pts.windows(2).map(|w| format!("{}{}", g.name(w[0]), g.name(w[1]))).collect::<Vec<_>>().join(",")
        };
        Err(ReadMoveError::Illegal { text: text.into(), canonical: Some(canonical) })
    }
}

/// Reads `e5e6,e6e7` (also with `-` or `x` between squares) into its
/// points: origin, victims, destination.
fn points(variant: &Variant, text: &str) -> Option<Vec<usize>> {
    let g = &variant.geometry;
    let mut out: Vec<usize> = Vec::new();
    for (i, leg) in text.split(',').enumerate() {
        let cleaned: String = leg.chars().filter(|&c| c != '-' && c != 'x').collect();
        let chars: Vec<char> = cleaned.chars().collect();
        let mut squares = Vec::new();
        let mut j = 0;
        while j < chars.len() {
            let start = j;
            j += 1;
            while j < chars.len() && chars[j].is_ascii_digit() {
                j += 1;
            }
            let s: String = chars[start..j].iter().collect();
            squares.push(g.parse_square(&s)?);
        }
        if squares.len() != 2 {
            return None;
        }
        if i == 0 {
            out.push(squares[0]);
        } else if out.last() != Some(&squares[0]) {
            return None;
        }
        out.push(squares[1]);
    }
    Some(out)
}

impl Rules for VariantRules {
    type Position = Position;
    type Move = Move;
    type PositionError = FenError;

    fn name(&self) -> String {
        self.variant.name.clone()
    }

    fn variant(&self) -> Option<String> {
        Some(self.variant.name.clone())
    }

    fn parse_position(&self, text: &str) -> Result<Position, FenError> {
        if text.trim() == "startpos" {
            if self.variant.start_fen.trim().is_empty() {
                let message =
                    format!("variant {} has an empty startFen: give the position with --fen", self.variant.name);
                return Err(FenError { fen: text.to_string(), message });
            }
            return self.variant.parse_fen(&self.variant.start_fen);
        }
        if is_sfen(text) {
            return self.variant.parse_sfen(text);
        }
        self.variant.parse_fen(text)
    }

    fn position_text(&self, pos: &Position) -> String {
        let fen = self.variant.fen(pos);
        if self.notation == MoveNotation::Usi {
            // SFEN where it says all of the position (no castling rights,
            // en-passant square or check counters), else the FEN.
            let sfen = self.variant.sfen(pos);
            if self.variant.parse_sfen(&sfen).is_ok_and(|back| self.variant.fen(&back) == fen) {
                return sfen;
            }
        }
        fen
    }

    fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        let mut moves = self.variant.tables.legal_moves(&mut pos.clone());
        moves.sort_unstable();
        moves
    }

    fn play(&self, pos: &Position, mv: Move) -> Position {
        let mut next = pos.clone();
        self.variant.tables.play(&mut next, mv);
        next
    }

    fn move_text(&self, pos: &Position, mv: Move) -> String {
        self.theirs(self.variant.move_text(pos, mv))
    }

    fn read_move(&self, pos: &Position, text: &str) -> Result<Move, ReadMoveError> {
        let text = text.trim();
        match self.notation {
            MoveNotation::Fairy => return self.read_fairy(pos, text),
            MoveNotation::Usi => {
                return self.read_fairy(pos, text).map_err(|e| match e {
                    ReadMoveError::Illegal { text, canonical } => {
                        ReadMoveError::Illegal { text, canonical: canonical.map(|c| self.theirs(c)) }
                    }
                    e => e,
                })
            }
            MoveNotation::Iccs => {}
        }
        let ours = iccs::from_iccs(&self.variant.geometry, text).ok_or_else(|| ReadMoveError::Syntax(text.into()))?;
        self.read_fairy(pos, &ours).map_err(|e| match e {
            ReadMoveError::Syntax(_) => ReadMoveError::Syntax(text.into()),
            ReadMoveError::Ambiguous(_) => ReadMoveError::Ambiguous(text.into()),
            ReadMoveError::Malformed(why) => ReadMoveError::Malformed(why),
            ReadMoveError::Illegal { canonical, .. } => {
                ReadMoveError::Illegal { text: text.into(), canonical: canonical.map(|c| self.theirs(c)) }
            }
        })
    }

    fn divide(&self, pos: &Position, depth: u32) -> Vec<(Move, u64)> {
        let mut out = perft::divide(&self.variant, pos, depth);
        out.sort_unstable_by_key(|&(m, _)| m);
        out
    }

    fn perft(&self, pos: &Position, depth: u32) -> u64 {
        perft::perft_parallel(&self.variant, pos, depth)
    }

    fn max_depth(&self) -> u32 {
        crate::perft::MAX_DEPTH
    }

    fn uci_options(&self, _root: &Position) -> Vec<(String, String)> {
        let mut options = Vec::new();
        if !self.path.is_empty() {
            options.push(("VariantPath".into(), self.path.clone()));
        }
        options.push(("UCI_Variant".into(), self.variant.name.clone()));
        options
    }

    fn usi_position(&self, root: &Position) -> Option<String> {
        Some(self.variant.usi_position(root))
    }

    fn usi_move_text(&self, pos: &Position, mv: Move) -> Option<String> {
        Some(usi::to_usi(&self.variant, &self.variant.move_text(pos, mv)))
    }

    fn missing_hint(&self, pos: &Position, mv: Move) -> Option<Hint> {
        if mv.wall != 0 {
            return super::wall_hints::describe(&self.variant, mv).map(|hint| self.their_hint(hint));
        }
        let hint = super::stone_hints::describe(&self.variant, pos, mv)
            .or_else(|| rule_hints::describe_special(&self.variant, mv))
            .or_else(|| super::bound_hints::facing_allowed(&self.variant, pos, mv))
            .or_else(|| super::palace_hints::describe(&self.variant, pos, mv))
            .unwrap_or_else(|| move_hints::describe(&self.variant, pos, mv));
        Some(self.their_hint(hint))
    }

    fn board_view(&self, pos: &Position) -> Option<BoardView> {
        let mut view = super::board_view::board_view(&self.variant, pos);
        if self.notation == MoveNotation::Iccs {
            view.first_rank = 0;
        }
        Some(view)
    }

    fn move_squares(&self, pos: &Position, text: &str) -> Option<MoveSquares> {
        squares_of_text(&super::board_view::board_view(&self.variant, pos), &self.ours(text))
    }

    fn walk_weight(&self, pos: &Position, mv: Move) -> u32 {
        super::fuzz::rare_move(&self.variant, pos, mv).weight()
    }

    fn position_text_differences(
        &self,
        _before: Option<(&Position, Move)>,
        pos: &Position,
        printed: &str,
    ) -> Vec<String> {
        super::fuzz::fen_differences(&self.variant, pos, printed)
    }

    fn extra_hint(&self, pos: &Position, text: &str) -> Option<Hint> {
        self.why_not(pos, &self.ours(text)).map(|hint| self.their_hint(hint))
    }
}
