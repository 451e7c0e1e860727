//! Fairy-Stockfish's FEN for the variants: ranks from the top with
//! multi-digit empty counts and `*` walls, the side to move, castling
//! (`KQkq`, Shredder and X-FEN file letters), the en-passant square, the
//! check counters of check-counting variants (`3+3`), then the clocks.

use super::definition::{FenError, Variant};
use crate::variants::board::{
    cell_kind, cell_side, piece_cell, Position, Side, BLACK, EMPTY, MAX_SIZE, NO_SQUARE, OFF, WHITE,
};
use crate::variants::rules::{promoted_letter, Castling};

/// Fairy-Stockfish's built-in piece types in its order (`src/types.h`),
/// by our names: its hands are written from the last to the first.
const FSF_TYPE_ORDER: &[&str] = &[
    "pawn",
    "knight",
    "bishop",
    "rook",
    "queen",
    "fers",
    "alfil",
    "fersAlfil",
    "silver",
    "aiwok",
    "bers",
    "archbishop",
    "chancellor",
    "amazon",
    "knibis",
    "biskni",
    "kniroo",
    "rookni",
    "shogiPawn",
    "lance",
    "shogiKnight",
    "gold",
    "dragonHorse",
    "clobber",
    "breakthrough",
    "immobile",
    "cannon",
    "janggiCannon",
    "soldier",
    "horse",
    "elephant",
    "janggiElephant",
    "banner",
    "wazir",
    "commoner",
    "centaur",
    "king",
];

pub(super) fn side_name(side: Side) -> &'static str {
    if side == WHITE {
        "white"
    } else {
        "black"
    }
}

/// The squares a rank of the board field covers: its empty counts and one
/// for every other character.
fn rank_squares(rank: &str) -> usize {
    let mut total = 0;
    let mut digits = String::new();
    for c in rank.chars().chain(std::iter::once('/')) {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        total += digits.parse::<usize>().unwrap_or(0);
        digits.clear();
        if c != '/' && c != '~' {
            total += 1;
        }
    }
    total
}

impl Variant {
    /// Reads a FEN of this variant; each error names the field.
    pub fn parse_fen(&self, text: &str) -> Result<Position, FenError> {
        let err = |message: String| FenError { fen: text.to_string(), message };
        let mut fields: Vec<&str> = text.split_whitespace().collect();
        if fields.is_empty() {
            return Err(err("empty".into()));
        }
        let laws = &self.tables.laws;
        // The check counters sit after the en-passant field.
        let mut counters = None;
        if fields.len() > 4 && fields[4].contains('+') {
            if !laws.check_counting {
                return Err(err(format!("check-counter field {:?}: {} does not count checks", fields[4], self.name)));
            }
            counters = Some(fields.remove(4));
        }
        // Fairy-Stockfish skips the castling and en-passant fields when a
        // number follows the side to move (Ataxx's `P5p/7/7/7/7/7/p5P w 0 1`).
        if fields.get(2).is_some_and(|f| f.starts_with(|c: char| c.is_ascii_digit())) {
            fields.splice(2..2, ["-", "-"]);
        }
        if let Some(rest) = fields.get(6) {
            return Err(err(format!("unexpected text after the fullmove number: {rest:?}")));
        }
        let mut pos = self.parse_board(fields[0]).map_err(err)?;
        pos.side = match fields.get(1).copied().unwrap_or("w") {
            "w" | "W" => WHITE,
            "b" | "B" => BLACK,
            other => return Err(err(format!("bad side to move {other:?}, expected 'w' or 'b'"))),
        };
        if let Some(&castling) = fields.get(2) {
            self.parse_castling(&mut pos, castling).map_err(|m| err(format!("castling field {castling:?}: {m}")))?;
        }
        if let Some(&ep) = fields.get(3) {
            let plain_pawn = laws.pawn.as_ref().is_some_and(|p| !p.betza);
            if ep != "-" && plain_pawn && self.geometry.parse_square(ep).is_none() {
                return Err(err(format!("bad en passant field {ep:?}, expected '-' or a square like e3")));
            }
            self.parse_ep(&mut pos, ep).map_err(|m| err(format!("en passant field {ep:?}: {m}")))?;
        }
        if laws.check_counting {
            pos.checks = [1, 1];
            if let Some(c) = counters {
                let parse = |s: &str| s.parse::<u8>().ok().filter(|&n| n <= 99);
                let (w, b) = c.split_once('+').unwrap_or(("", ""));
                match (parse(w), parse(b)) {
                    (Some(w), Some(b)) => pos.checks = [w, b],
                    _ => {
                        return Err(err(format!(
                            "check-counter field {c:?} is not W+B (checks each side still has to give)"
                        )))
                    }
                }
            }
        }
        self.check_bounds(&pos).map_err(err)?;
        let (us, them) = (pos.side, pos.side ^ 1);
        if self.royal.is_some() && pos.royal[them] != NO_SQUARE && !laws.blast_kings_touch(&pos, &self.geometry) {
            let royal = pos.royal[them] as usize;
            if self.tables.attacked(&mut pos, royal, us) {
                return Err(err(format!("illegal position: the side not to move ({}) is in check", side_name(them))));
            }
        }
        for (i, name, number) in [(4, "halfmove clock", "a number"), (5, "fullmove number", "a positive number")] {
            if let Some(&f) = fields.get(i) {
                if f.parse::<u32>().is_err() {
                    return Err(err(format!("bad {name} {f:?}, expected {number}")));
                }
            }
        }
        // The cell sets that count pawn moves by shifts, if they will.
        pos.index_cells(self.tables.unroyal_pawn(&pos));
        Ok(pos)
    }

    /// The board field.
    fn parse_board(&self, board: &str) -> Result<Position, String> {
        let g = &self.geometry;
        let mut pos = Position::empty(g);
        let drops = self.tables.laws.drops.is_some();
        if drops {
            pos.open_hands(self.pieces.len());
        }
        // The hand: `[PNbq]` after the board, or a rank more (`.../PNbq`).
        let (board, hand) = match board.split_once('[') {
            Some((b, rest)) => {
                let hand = rest.strip_suffix(']').ok_or_else(|| format!("hand field [{rest}: no closing ']'"))?;
                (b, Some(hand))
            }
            None if drops && board.split('/').count() == g.height as usize + 1 => {
                let (b, hand) = board.rsplit_once('/').expect("a '/'");
                (b, Some(hand))
            }
            None => (board, None),
        };
        if let Some(hand) = hand {
            self.parse_hand(&mut pos, hand)?;
        }
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != g.height as usize {
            let s = if ranks.len() == 1 { "" } else { "s" };
            return Err(format!("board field has {} rank{s}, expected {}", ranks.len(), g.height));
        }
        let wide = |rank_name: usize, rank_text: &str| {
            format!("rank {rank_name} has {} squares, expected {}", rank_squares(rank_text), g.width)
        };
        let shogi = self.tables.laws.shogi.is_some();
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = g.height as usize - 1 - i;
            let rank_name = rank + 1;
            let mut file = 0usize;
            // Shogi: the next piece is a promoted one (`+P`).
            let mut plus = false;
            let chars: Vec<char> = rank_text.chars().collect();
            let mut j = 0;
            while j < chars.len() {
                let c = chars[j];
                if c.is_ascii_digit() {
                    let start = j;
                    while j < chars.len() && chars[j].is_ascii_digit() {
                        j += 1;
                    }
                    let digits: String = chars[start..j].iter().collect();
                    let n: usize = digits
                        .parse()
                        .ok()
                        .filter(|&n| n > 0 && n <= MAX_SIZE as usize)
                        .ok_or_else(|| format!("rank {rank_name}: bad empty count {digits:?}"))?;
                    file += n;
                    if file > g.width as usize {
                        return Err(wide(rank_name, rank_text));
                    }
                    continue;
                }
                if c == '~' && drops && file > 0 && j > 0 && chars[j - 1].is_ascii_alphabetic() {
                    // The piece just placed is a promoted one.
                    pos.promoted[g.cell(file as u8 - 1, rank as u8)] = true;
                    j += 1;
                    continue;
                }
                if c == '+' && shogi && !plus {
                    plus = true;
                    j += 1;
                    continue;
                }
                if c == '+' || c == '~' {
                    return Err(format!("rank {rank_name}: promoted pieces ('{c}') are not implemented"));
                }
                if file >= g.width as usize {
                    return Err(wide(rank_name, rank_text));
                }
                let sq = g.cell(file as u8, rank as u8);
                if c == '*' {
                    pos.raise_wall(sq);
                } else {
                    let kind = self
                        .kind_of(c)
                        .filter(|_| c.is_ascii_alphabetic())
                        .ok_or_else(|| format!("rank {rank_name}: {c:?} is not a piece of {}", self.name))?;
                    let kind = if std::mem::take(&mut plus) {
                        self.kind_of(promoted_letter(c))
                            .ok_or_else(|| format!("rank {rank_name}: +{c} is not a promoted piece of {}", self.name))?
                    } else {
                        kind
                    };
                    let side = if c.is_ascii_uppercase() { WHITE } else { BLACK };
                    let is_royal = self.royal == Some(kind);
                    if is_royal && pos.royal[side] != NO_SQUARE {
                        return Err(if self.pieces[kind].name == "king" {
                            format!("illegal position: {} has more than one king", side_name(side))
                        } else {
                            format!("two {} royal pieces", side_name(side))
                        });
                    }
                    pos.put(sq, piece_cell(kind, side), is_royal);
                }
                file += 1;
                j += 1;
            }
            if file != g.width as usize {
                let s = if file == 1 { "" } else { "s" };
                return Err(format!("rank {rank_name} has {file} square{s}, expected {}", g.width));
            }
        }
        if let Some(royal) = self.royal {
            for side in [WHITE, BLACK] {
                // A set-up variant's king may wait in hand (placement).
                let held = pos.hands[side].get(royal).is_some_and(|&n| n > 0);
                if pos.royal[side] == NO_SQUARE && !self.royal_optional[side] && !held {
                    let piece = &self.pieces[royal];
                    return Err(if piece.name == "king" {
                        format!("illegal position: no {} king", side_name(side))
                    } else {
                        format!("no {} royal piece ({})", side_name(side), piece.letter)
                    });
                }
            }
        }
        Ok(pos)
    }

    /// The hand field (`PNbq`, `-` or empty): each letter a piece of the
    /// variant, White's upper case.
    fn parse_hand(&self, pos: &mut Position, hand: &str) -> Result<(), String> {
        if self.tables.laws.drops.is_none() {
            return Err(format!("hand field [{hand}]: {} has no hands (no drops)", self.name));
        }
        for c in hand.chars().filter(|&c| c != '-') {
            if c.is_ascii_digit() {
                return Err(format!("hand field [{hand}]: counts are not FEN, repeat the letter ({c:?})"));
            }
            let kind = self
                .kind_of(c)
                .filter(|_| c.is_ascii_alphabetic())
                .ok_or_else(|| format!("hand field [{hand}]: {c:?} is not a piece of {}", self.name))?;
            let set_up = self.tables.laws.drops.as_ref().and_then(|d| d.setup.as_ref()).is_some_and(|s| s.must_drop);
            if self.royal == Some(kind) && !set_up {
                return Err(format!("hand field [{hand}]: the royal piece {c:?} cannot be in hand"));
            }
            let side = if c.is_ascii_uppercase() { WHITE } else { BLACK };
            let count = &mut pos.hands[side][kind];
            *count = count.checked_add(1).ok_or_else(|| format!("hand field [{hand}]: more than 255 of {c:?}"))?;
        }
        Ok(())
    }

    /// The hand field as Fairy-Stockfish writes it: `[...]`, White's
    /// pieces first, each side's kinds in the reverse of Fairy-Stockfish's
    /// piece-type order (`FSF_TYPE_ORDER`; other pieces first).
    fn hand_text(&self, pos: &Position) -> String {
        let rank = |kind: usize| {
            let name = self.pieces[kind].name.as_str();
            FSF_TYPE_ORDER.iter().position(|&n| n == name).unwrap_or(FSF_TYPE_ORDER.len() + kind)
        };
        let mut kinds: Vec<usize> = (0..self.pieces.len()).collect();
        kinds.sort_by_key(|&k| std::cmp::Reverse(rank(k)));
        let mut out = String::from("[");
        for side in [WHITE, BLACK] {
            for &kind in &kinds {
                let letter = self.pieces[kind].letter;
                let letter = if side == WHITE { letter } else { letter.to_ascii_lowercase() };
                let n = pos.hands[side].get(kind).copied().unwrap_or(0);
                out.extend(std::iter::repeat_n(letter, n as usize));
            }
        }
        out.push(']');
        out
    }

    /// Is `cell` a piece of `side` that castles as the rook?
    pub(super) fn is_castling_rook(&self, pos: &Position, cell: usize, side: Side) -> bool {
        let Some(c) = &self.tables.laws.castling else { return false };
        let v = pos.cells[cell];
        v != EMPTY && v != OFF && cell_side(v) == side && c.rook_kinds.contains(&cell_kind(v))
    }

    /// The castling field: `KQkq` (the outermost rook on that side of the
    /// king), file letters (Shredder, X-FEN), or `-`.
    fn parse_castling(&self, pos: &mut Position, field: &str) -> Result<(), String> {
        if field == "-" {
            return Ok(());
        }
        let g = &self.geometry;
        if self.tables.laws.cambodian.is_some() {
            return self.parse_gates(pos, field);
        }
        let Some(c) = &self.tables.laws.castling else {
            return Err(format!("{} has no castling (write -)", self.name));
        };
        let gating = self.tables.laws.seirawan_gating;
        for ch in field.chars() {
            if gating && self.parse_gate_letter(pos, ch)? {
                continue;
            }
            let side = if ch.is_ascii_uppercase() { WHITE } else { BLACK };
            let rank = if side == WHITE { c.rank } else { g.height - 1 - c.rank };
            let king = match self.tables.plain_castling_king() {
                Some(kind) => self.plain_castling_king_cell(pos, side, kind, rank, c),
                None => pos.royal[side],
            };
            // Only the rank: Fairy-Stockfish castles from wherever the king
            // stands on it (Capablanca's king starts on f1).
            let king_ok = king != NO_SQUARE && g.coords(king as usize).1 == rank;
            if !king_ok {
                return Err(format!("right '{ch}' given but the {} king is not on its back rank", side_name(side)));
            }
            let king = king as usize;
            let kf = g.coords(king).0;
            let files: Vec<u8> = match ch.to_ascii_uppercase() {
                'K' => (kf + 1..g.width).rev().collect(),
                'Q' => (0..kf).collect(),
                l if l.is_ascii_uppercase() && ((l as u8 - b'A') < g.width) => vec![l as u8 - b'A'],
                _ => return Err(format!("'{ch}' is not K, Q or a file letter")),
            };
            let rook = files.into_iter().map(|f| g.cell(f, rank)).find(|&sq| self.is_castling_rook(pos, sq, side));
            let Some(rook) = rook else {
                return Err(format!("right '{ch}' has no {} rook for it on the back rank", side_name(side)));
            };
            pos.castle[side][usize::from(rook < king)] = rook as u16;
            if self.tables.plain_castling_king().is_some() {
                pos.castle_king[side] = king as u16;
            }
        }
        if gating {
            self.castling_gates(pos);
        }
        Ok(())
    }

    /// A castling king that is not royal: the one of its kind on the
    /// castling rank, or with several, the one on the king's file (Chess960:
    /// the a-most), as Fairy-Stockfish's FEN reader picks it.
    fn plain_castling_king_cell(&self, pos: &Position, side: Side, kind: usize, rank: u8, c: &Castling) -> u16 {
        let g = &self.geometry;
        let kings: Vec<usize> = (0..g.width)
            .map(|f| g.cell(f, rank))
            .filter(|&sq| {
                let v = pos.cells[sq];
                v != EMPTY && v != OFF && cell_side(v) == side && cell_kind(v) == kind
            })
            .collect();
        match kings.as_slice() {
            [one] => *one as u16,
            [first, ..] if c.chess960 => *first as u16,
            _ => kings.into_iter().find(|&sq| g.coords(sq).0 == c.king_file).map_or(NO_SQUARE, |sq| sq as u16),
        }
    }

    /// The en-passant field: the square a pawn of the side not to move has
    /// just passed over with a double step.
    fn parse_ep(&self, pos: &mut Position, field: &str) -> Result<(), String> {
        if field == "-" {
            return Ok(());
        }
        let g = &self.geometry;
        let Some(pawn) = &self.tables.laws.pawn else {
            return Err(format!("{} has no pawns (write -)", self.name));
        };
        if pawn.betza {
            return self.parse_betza_ep(pos, field);
        }
        let sq = g.parse_square(field).ok_or_else(|| "not a square of this board".to_string())?;
        let them = pos.side ^ 1;
        let up = if them == WHITE { g.stride as isize } else { -(g.stride as isize) };
        let (origin, landed) = ((sq as isize - up) as usize, (sq as isize + up) as usize);
        let v = pos.cells[landed];
        let pawn_there = v != EMPTY && v != OFF && cell_side(v) == them && cell_kind(v) == pawn.kind;
        let pawn_rush = pawn_there && pawn.double_step[them].has(origin);
        // Or another piece's two-square initial move (wolf's sergeant).
        let rushes = &self.tables.laws.initial_rushes;
        let other_rush = v != EMPTY
            && v != OFF
            && cell_side(v) == them
            && rushes
                .get(them)
                .is_some_and(|list| list.binary_search(&(cell_kind(v) as u16, origin as u16, landed as u16)).is_ok());
        if pos.cells[sq] != EMPTY || pos.cells[origin] != EMPTY || !(pawn_rush || other_rush) {
            return Err(format!(
                "no {} pawn can have passed over {field} with a double step just now",
                side_name(them)
            ));
        }
        pos.ep = sq as u16;
        Ok(())
    }

    /// Cambodian first-move rights in the castling field: file letters
    /// (`DEde`), each on its side's back rank, where a piece of that side
    /// stands (Fairy-Stockfish's gates); `K` and `Q` name the king's file.
    fn parse_gates(&self, pos: &mut Position, field: &str) -> Result<(), String> {
        let g = &self.geometry;
        for ch in field.chars() {
            let side = if ch.is_ascii_uppercase() { WHITE } else { BLACK };
            let rank = if side == WHITE { 0 } else { g.height - 1 };
            let file = match ch.to_ascii_uppercase() {
                'K' | 'Q' if pos.royal[side] != NO_SQUARE && g.coords(pos.royal[side] as usize).1 == rank => {
                    g.coords(pos.royal[side] as usize).0
                }
                l if l.is_ascii_uppercase() && (l as u8 - b'A') < g.width => l as u8 - b'A',
                _ => return Err(format!("'{ch}' is not a file letter of this board")),
            };
            let v = pos.cells[g.cell(file, rank)];
            if v == EMPTY || v == OFF || cell_side(v) != side {
                return Err(format!("'{ch}': no {} piece on {}", side_name(side), g.name(g.cell(file, rank))));
            }
            pos.gates[side] |= 1 << file;
        }
        Ok(())
    }

    /// A Betza pawn's en-passant field, as Fairy-Stockfish writes it: the
    /// square passed over and the pawn that passed (`c5d6` after Berolina's
    /// e7-c5), either alone, or the empty square alone.
    fn parse_betza_ep(&self, pos: &mut Position, field: &str) -> Result<(), String> {
        let g = &self.geometry;
        let them = pos.side ^ 1;
        let mut rest = field;
        while !rest.is_empty() {
            let len = 1 + rest[1..].find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len() - 1);
            let name = &rest[..len];
            rest = &rest[len..];
            let sq = g.parse_square(name).ok_or_else(|| format!("{name:?} is not a square of this board"))?;
            let v = pos.cells[sq];
            if v == EMPTY && pos.ep == NO_SQUARE {
                pos.ep = sq as u16;
            } else if v != EMPTY && v != OFF && cell_side(v) == them && pos.ep_victim == NO_SQUARE {
                pos.ep_victim = sq as u16;
            } else {
                return Err(format!(
                    "{name}: neither the empty square a {} pawn passed over nor that pawn",
                    side_name(them)
                ));
            }
        }
        Ok(())
    }

    /// The position as Fairy-Stockfish writes it (clocks `0 1`).
    pub fn fen(&self, pos: &Position) -> String {
        let g = &self.geometry;
        let write_marks = self.tables.laws.drops.as_ref().is_some_and(|d| d.write_marks);
        let mut out = String::new();
        for rank in (0..g.height).rev() {
            let mut empty = 0;
            for file in 0..g.width {
                let cell = pos.cells[g.cell(file, rank)];
                if cell == EMPTY {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                if cell == OFF {
                    out.push('*');
                    continue;
                }
                let mut kind = cell_kind(cell);
                let shogi_base = self.tables.laws.shogi.as_ref().and_then(|s| s.demotes_to[kind]);
                if let Some(base) = shogi_base {
                    out.push('+');
                    kind = base;
                }
                let letter = self.pieces[kind].letter;
                out.push(if cell_side(cell) == WHITE { letter } else { letter.to_ascii_lowercase() });
                if write_marks && shogi_base.is_none() && pos.promoted[g.cell(file, rank)] {
                    out.push('~');
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        // Free drops (Ataxx) have no hand to write.
        let free = self.tables.laws.stones.as_ref().is_some_and(|s| s.free_drops);
        if self.tables.laws.drops.is_some() && !free {
            out.push_str(&self.hand_text(pos));
        }
        out.push_str(if pos.side == WHITE { " w " } else { " b " });
        let chess960 = self.tables.laws.castling.as_ref().is_some_and(|c| c.chess960);
        let mut castling = String::new();
        for side in [WHITE, BLACK] {
            for wing in 0..2 {
                let rook = pos.castle[side][wing];
                if rook == NO_SQUARE {
                    continue;
                }
                let c = if chess960 {
                    (b'a' + g.coords(rook as usize).0) as char
                } else if wing == 0 {
                    'k'
                } else {
                    'q'
                };
                castling.push(if side == WHITE { c.to_ascii_uppercase() } else { c });
            }
        }
        if self.tables.laws.cambodian.is_some() {
            for (side, base) in [(WHITE, b'A'), (BLACK, b'a')] {
                castling.extend((0..g.width).filter(|f| pos.gates[side] >> f & 1 == 1).map(|f| (base + f) as char));
            }
        }
        if self.tables.laws.seirawan_gating {
            castling = self.gating_castling_text(pos);
        }
        out.push_str(if castling.is_empty() { "-" } else { &castling });
        out.push(' ');
        let mut ep = [pos.ep, pos.ep_victim];
        ep.sort_unstable();
        let ep: String = ep.iter().filter(|&&sq| sq != NO_SQUARE).map(|&sq| g.name(sq as usize)).collect();
        out.push_str(if ep.is_empty() { "-" } else { &ep });
        if self.tables.laws.check_counting {
            out.push_str(&format!(" {}+{}", pos.checks[WHITE], pos.checks[BLACK]));
        }
        out.push_str(" 0 1");
        out
    }
}
