//! Variant definitions in Fairy-Stockfish's `variants.ini` format.
//!
//! Sections are `[name]` or `[name:template]` (the template an earlier
//! section of the same file, else a built-in variant), lines `key = value`,
//! comments `;` or `#`. Without a template a section starts, as in
//! Fairy-Stockfish, with no pieces and the chess start position (which then
//! fails: it has pawns). Read here: `maxFile`, `maxRank`, `startFen`,
//! `customPieceN = letter:BETZA`, `king = k`, `king = k:BETZA`, `king = -`,
//! the letters of Fairy-Stockfish's built-in pieces that are plain Betza
//! (`knight = n`, `rook = -`, ...), the rule keys of `laws` (pawns,
//! promotion, castling, game ends), and keys that do not change the moves
//! (piece values, game results). Any other key, and a rule switched on that
//! is not implemented, is an error that names it: nothing is silently
//! ignored.

use super::definition::{Initial, PieceDef, Variant, VariantError};
use crate::variants::rules;
use std::collections::BTreeMap;

/// An error in a `variants.ini` file, with its line when it has one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}{}: {message}", line.map(|l| format!(" line {l}")).unwrap_or_default())]
pub struct IniError {
    /// The file the error is in (`<built-in>` for the built-in variants).
    pub path: String,
    /// The 1-based line, when the error is on one.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

/// Fairy-Stockfish's built-in pieces whose moves are plain Betza there:
/// (key, default letter, Betza).
pub const BUILTIN_PIECES: &[(&str, char, &str)] = &[
    ("knight", 'n', "N"),
    ("bishop", 'b', "B"),
    ("rook", 'r', "R"),
    ("queen", 'q', "Q"),
    ("fers", 'f', "F"),
    ("alfil", 'a', "A"),
    ("fersAlfil", 'e', "FA"),
    ("silver", 's', "FfW"),
    ("aiwok", 'a', "RNF"),
    ("bers", 'd', "RF"),
    ("archbishop", 'a', "BN"),
    ("chancellor", 'c', "RN"),
    ("amazon", 'a', "QN"),
    ("knibis", 'h', "mNcB"),
    ("biskni", 'h', "mBcN"),
    ("kniroo", 'h', "mNcR"),
    ("rookni", 'h', "mRcN"),
    ("shogiPawn", 'p', "fW"),
    ("lance", 'l', "fR"),
    ("shogiKnight", 'n', "fN"),
    ("gold", 'g', "WfF"),
    ("dragon", 'd', "RF"),
    ("dragonHorse", 'h', "BW"),
    ("clobber", 'p', "cW"),
    ("breakthrough", 'p', "fmWfF"),
    ("immobile", 'p', ""),
    ("cannon", 'c', "mRcpR"),
    ("horse", 'h', "nN"),
    ("elephant", 'e', "nA"),
    ("banner", 'a', "RcpRnN"),
    ("wazir", 'w', "W"),
    // Sideways only from `soldierPromotionRank` on (`rules::Bounds`).
    ("soldier", 'p', "fsW"),
    ("commoner", 'm', "K"),
    ("centaur", 'c', "KN"),
    ("pawn", 'p', "fmWfcF"),
    // The Janggi cannon's screen and victim may not be cannons, and the
    // elephant's leap is blocked at both cells it passes (`rules::Palace`).
    ("janggiCannon", 'c', "pR"),
    ("janggiElephant", 'e', "nZ"),
];

/// Built-in pieces with rules beyond their Betza in Fairy-Stockfish.
const UNSUPPORTED_PIECES: &[(&str, &str)] = &[];

/// Keys that do not change the legal moves (game results, evaluation, display).
const IGNORED_KEYS: &[&str] = &[
    "pieceValueMg",
    "pieceValueEg",
    "nMoveRule",
    "nMoveRuleTypes",
    "nMoveRuleTypesWhite",
    "nMoveRuleTypesBlack",
    "nFoldRule",
    "nFoldValue",
    "nFoldValueAbsolute",
    "stalemateValue",
    "checkmateValue",
    "materialCounting",
    "countingRule",
    "pieceToCharTable",
    "variantTemplate",
    "extinctionValue",
    "extinctionClaim",
    "description",
    // Shatar's mate rule decides only who has won a mate (by a knight
    // alone, or without a "shak" in the checks, it is no win), not the moves.
    "shatarMateRule",
    // Xiangqi's bans on perpetual check and chasing need the game's
    // history: a position's moves, and so perft, are the same without them.
    "perpetualCheckIllegal",
    "chasingRule",
    // Who wins a stalemate (by the stones on the board), not the moves.
    "stalematePieceCount",
    // Janggi's (modern) ban on repeating a position needs the game's
    // history too: Fairy-Stockfish's `go perft` counts the same without it.
    "moveRepetitionIllegal",
];

/// Rule keys whose default (false) is what we implement: `false` is fine,
/// anything else is an error.
const FALSE_ONLY_KEYS: &[&str] = &["wallOrMove"];

#[derive(Debug, Clone)]
struct Section {
    name: String,
    template: Option<String>,
    line: usize,
    /// key -> (value, line)
    keys: BTreeMap<String, (String, usize)>,
}

/// The sections of a file, in order.
#[derive(Debug, Clone)]
pub struct IniFile {
    path: String,
    sections: Vec<Section>,
    /// A file whose sections serve as templates too (the built-ins).
    base: Option<&'static IniFile>,
}

impl IniFile {
    /// Reads the text of a file (`path` only names it in messages).
    pub fn parse(path: &str, text: &str) -> Result<IniFile, IniError> {
        let err = |line: usize, message: String| IniError { path: path.into(), line: Some(line), message };
        let mut sections: Vec<Section> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            let line = raw.trim();
            if line.is_empty() || line.starts_with(';') || line.starts_with('#') {
                continue;
            }
            if let Some(rest) = line.strip_prefix('[') {
                let inner = rest
                    .strip_suffix(']')
                    .ok_or_else(|| err(line_no, format!("section header {line:?} has no closing ']'")))?;
                let (name, template) = match inner.split_once(':') {
                    Some((n, t)) => (n.trim(), Some(t.trim().to_string())),
                    None => (inner.trim(), None),
                };
                if name.is_empty() {
                    return Err(err(line_no, "a section with no name".into()));
                }
                if let Some(prev) = sections.iter().find(|s| s.name == name) {
                    return Err(err(line_no, format!("variant {name:?} is already defined at line {}", prev.line)));
                }
                sections.push(Section { name: name.into(), template, line: line_no, keys: BTreeMap::new() });
                continue;
            }
            let Some(section) = sections.last_mut() else {
                return Err(err(line_no, format!("{line:?} before the first [section]")));
            };
            let (key, value) =
                line.split_once('=').ok_or_else(|| err(line_no, format!("{line:?} is not `key = value`")))?;
            let key = key.trim().to_string();
            if key.is_empty() {
                return Err(err(line_no, "a line with no key".into()));
            }
            if let Some((_, prev)) = section.keys.get(&key) {
                return Err(err(line_no, format!("key {key:?} is already set at line {prev}")));
            }
            section.keys.insert(key, (value.trim().to_string(), line_no));
        }
        Ok(IniFile { path: path.into(), sections, base: None })
    }

    /// The file with the sections of `base` as templates too (a user's
    /// file on top of the built-ins).
    pub fn over(self, base: &'static IniFile) -> IniFile {
        IniFile { base: Some(base), ..self }
    }

    /// The value of `key` in section `name` (with its templates').
    pub fn value(&self, name: &str, key: &str) -> Option<String> {
        self.resolved(name, 0).ok()?.get(key).map(|(v, _)| v.clone())
    }

    /// The names of the variants in the file.
    pub fn names(&self) -> Vec<String> {
        self.sections.iter().map(|s| s.name.clone()).collect()
    }

    /// The keys of a section with its templates' keys under them.
    fn resolved(&self, name: &str, depth: usize) -> Result<BTreeMap<String, (String, usize)>, IniError> {
        let section = self.sections.iter().find(|s| s.name == name).ok_or_else(|| IniError {
            path: self.path.clone(),
            line: None,
            message: format!("no variant {name:?} (the file defines: {})", self.names().join(", ")),
        })?;
        let mut keys = BTreeMap::new();
        if let Some(template) = &section.template {
            let known = self.sections.iter().position(|s| &s.name == template);
            let own = self.sections.iter().position(|s| s.name == name);
            match known {
                Some(t) if t < own.unwrap_or(0) && depth < 32 => keys = self.resolved(template, depth + 1)?,
                None if self.base.is_some_and(|base| base.names().contains(template)) => {
                    keys = self.base.expect("a base file").resolved(template, depth + 1)?
                }
                _ => {
                    return Err(IniError {
                        path: self.path.clone(),
                        line: Some(section.line),
                        message: format!(
                            "template {template:?}: neither an earlier section of this file nor a built-in variant \
                             (chesstool variant list)"
                        ),
                    })
                }
            }
        }
        keys.extend(section.keys.clone());
        Ok(keys)
    }

    /// Builds the variant `name`.
    pub fn variant(&self, name: &str) -> Result<Variant, IniError> {
        let keys = self.resolved(name, 0)?;
        let err = |line: Option<usize>, message: String| IniError { path: self.path.clone(), line, message };
        let get = |k: &str| keys.get(k).map(|(v, l)| (v.as_str(), *l));
        let board_dim = |key: &str, default: u8, files: bool| -> Result<u8, IniError> {
            let Some((v, l)) = get(key) else { return Ok(default) };
            let n = if files && v.len() == 1 && v.as_bytes()[0].is_ascii_lowercase() {
                Some(v.as_bytes()[0] - b'a' + 1)
            } else {
                v.parse::<u8>().ok()
            };
            n.filter(|n| (1..=16).contains(n))
                .ok_or_else(|| err(Some(l), format!("{key} = {v}: not a board size from 1 to 16")))
        };
        let width = board_dim("maxFile", 8, true)?;
        let height = board_dim("maxRank", 8, false)?;

        // The pieces: Fairy-Stockfish's chess base, then the keys.
        // A section without a template starts with no pieces at all (as
        // Fairy-Stockfish's parser resets them): every piece is declared.
        let mut pieces: Vec<(String, char, String, Option<usize>)> = Vec::new();
        let mut king: Option<(char, String)> = None;
        let mut start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string();
        let mut start_line = None;
        let mut initial = Initial::Ranks(1, 6);
        for (key, (value, line)) in &keys {
            let line = Some(*line);
            let bool_value = || match value.as_str() {
                "true" => Ok(true),
                "false" => Ok(false),
                v => Err(err(line, format!("{key} = {v}: not true or false"))),
            };
            let letter_of = |v: &str| -> Result<Option<(char, String)>, IniError> {
                if v == "-" {
                    return Ok(None);
                }
                let mut chars = v.chars();
                let c = chars.next().filter(|c| c.is_ascii_alphabetic()).ok_or_else(|| {
                    err(line, format!("{key} = {v}: the value must start with a piece letter (or be -)"))
                })?;
                let rest: String = chars.collect();
                let betza = match rest.strip_prefix(':') {
                    Some(b) => b.to_string(),
                    None if rest.is_empty() => String::new(),
                    None => return Err(err(line, format!("{key} = {v}: expected letter:BETZA"))),
                };
                Ok(Some((c.to_ascii_lowercase(), betza)))
            };
            match key.as_str() {
                "maxFile" | "maxRank" => {}
                "startFen" => {
                    start_fen = value.clone();
                    start_line = line;
                }
                "doubleStep" => {
                    initial = if bool_value()? { Initial::Ranks(1, 6) } else { Initial::Nowhere };
                }
                "king" => {
                    king = match letter_of(value)? {
                        None => None,
                        Some((c, b)) if b.is_empty() => Some((c, "K".into())),
                        Some((c, b)) => Some((c, b)),
                    };
                }
                k if k.starts_with("customPiece") => {
                    let n: usize =
                        k["customPiece".len()..].parse().ok().filter(|n| (1..=25).contains(n)).ok_or_else(|| {
                            err(line, format!("{k}: custom pieces are customPiece1 to customPiece25"))
                        })?;
                    if let Some((c, betza)) = letter_of(value)? {
                        if betza.is_empty() {
                            return Err(err(line, format!("{k} = {value}: missing Betza (letter:BETZA)")));
                        }
                        pieces.push((k.to_string(), c, betza, Some(n)));
                    }
                }
                k if UNSUPPORTED_PIECES.iter().any(|&(n, _)| n == k) => {
                    pieces.retain(|p| p.0 != k);
                    if letter_of(value)?.is_some() {
                        let why = UNSUPPORTED_PIECES.iter().find(|&&(n, _)| n == k).map(|p| p.1).unwrap_or("");
                        pieces.push((k.to_string(), value.chars().next().unwrap_or('?'), format!("!{why}"), None));
                    }
                }
                k if BUILTIN_PIECES.iter().any(|&(n, _, _)| n == k) => {
                    let (_, _, betza) = *BUILTIN_PIECES.iter().find(|&&(n, _, _)| n == k).expect("listed");
                    pieces.retain(|p| p.0 != k);
                    if let Some((c, extra)) = letter_of(value)? {
                        if !extra.is_empty() {
                            return Err(err(
                                line,
                                format!("{k} = {value}: only custom pieces and the king take a Betza"),
                            ));
                        }
                        pieces.push((k.to_string(), c, betza.to_string(), None));
                    }
                }
                k if IGNORED_KEYS.contains(&k) || rules::is_law_key(k) => {}
                // Read by `laws` (`rules::Bounds`, the Betza pawn's own).
                k if k.starts_with("mobilityRegion") => {}
                k if FALSE_ONLY_KEYS.contains(&k) => {
                    if bool_value()? {
                        return Err(err(line, format!("{k} = true: that rule is not implemented")));
                    }
                }
                k => {
                    return Err(err(line, format!("key {k:?} changes rules that are not implemented (or is unknown)")));
                }
            }
        }
        // The pawn of the chess base stays a pawn: fine unless it is on the board.
        let fen_board = start_fen.split_whitespace().next().unwrap_or("").to_string();
        let mut defs = Vec::new();
        for (name, letter, betza, _) in &pieces {
            if let Some(why) = betza.strip_prefix('!') {
                if fen_board.contains(letter.to_ascii_lowercase()) || fen_board.contains(letter.to_ascii_uppercase()) {
                    let l = keys.get(name.as_str()).map(|x| x.1).or(start_line);
                    return Err(err(
                        l,
                        format!("{name} ({letter}) is on the board in startFen: {why} (remove it with `{name} = -`)"),
                    ));
                }
                continue;
            }
            defs.push(
                PieceDef::new(*letter, name, betza)
                    .map_err(|e| err(keys.get(name.as_str()).map(|x| x.1), format!("{name}: {e}")))?,
            );
        }
        let royal = match king {
            Some((c, betza)) => {
                defs.push(
                    PieceDef::new(c, "king", &betza)
                        .map_err(|e| err(keys.get("king").map(|x| x.1), format!("king: {e}")))?,
                );
                Some(defs.len() - 1)
            }
            None => None,
        };
        if let Some((v, l)) = keys.get("promotedPieceType") {
            promoted_kinds(&mut defs, v).map_err(|m| err(Some(*l), m))?;
        }
        let geometry = crate::variants::board::Geometry::new(width, height);
        let kind_of = |c: char| defs.iter().position(|d| d.letter == c.to_ascii_uppercase());
        let laws = rules::from_keys(&keys, &geometry, &kind_of).map_err(|(line, message)| err(line, message))?;
        Variant::new(name, width, height, defs, royal, &start_fen, initial, laws).map_err(|e| {
            let line = match &e {
                VariantError::Other(m) if m.starts_with("startFen") => start_line,
                _ => None,
            };
            err(line, e.to_string())
        })
    }
}

/// Shogi's promoted pieces (`promotedPieceType = p:g s:g`): for each pair
/// but the built-in pawn's, a kind of its own with the moves of the kind
/// it promotes to, lettered `rules::promoted_letter` (a tokin is not a
/// gold: captured, it goes to the hand as a pawn).
fn promoted_kinds(defs: &mut Vec<PieceDef>, text: &str) -> Result<(), String> {
    for pair in text.split_whitespace() {
        let bad = || format!("promotedPieceType: {pair:?} is not letter:letter of this variant");
        let (a, b) = pair.split_once(':').ok_or_else(bad)?;
        let find = |t: &str| {
            let c = t.chars().next().filter(|_| t.chars().count() == 1)?;
            defs.iter().position(|d| d.letter == c.to_ascii_uppercase())
        };
        let (base, target) = (find(a).ok_or_else(bad)?, find(b).ok_or_else(bad)?);
        if defs[base].name == "pawn" {
            continue;
        }
        let letter = rules::promoted_letter(defs[base].letter);
        // A custom piece's name says nothing: the promoted one is named by
        // its letter as the FEN writes it (`+E`, shoshogi's crown prince).
        let name = if defs[base].name.starts_with("customPiece") {
            format!("+{}", defs[base].letter)
        } else {
            format!("+{}", defs[base].name)
        };
        let def = PieceDef::new(letter, &name, &defs[target].betza.clone()).map_err(|e| format!("{name}: {e}"))?;
        defs.push(def);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(text: &str) -> Result<Variant, IniError> {
        crate::variants::variant::user_ini::parse("v.ini", text)?.variant("v")
    }

    #[test]
    fn per_side_pawn_keys_are_read_for_their_side() {
        let v = build(
            "[v:chess]\ncustomPiece1 = h:fmFfcWimA\npromotionPawnTypesBlack = h\nenPassantRegion = -\n\
             enPassantRegionBlack = *3\n",
        )
        .unwrap();
        let h = v.kind_of('h').unwrap();
        let laws = &v.tables.laws;
        assert_eq!(laws.promotion.as_ref().unwrap().other_pawn_kinds, [0, 1 << h]);
        let pawn = laws.pawn.as_ref().unwrap();
        assert!(pawn.ep_region[0].is_empty());
        assert!(pawn.ep_region[1].has(v.geometry.parse_square("e3").unwrap()));
    }

    #[test]
    fn duple_check_needs_pseudo_royal_pieces_and_per_side_promotion_a_pawn() {
        let e = build("[v:chess]\ndupleCheck = true\n").unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
        assert!(e.message.contains("extinctionPseudoRoyal"), "{e}");
        let no_pawns = "[v:chess]\npawn = -\ncustomPiece1 = h:fW\npromotionPawnTypesWhite = h\n\
                        startFen = 4k3/8/8/8/8/8/8/4K3 w - - 0 1\n";
        let e = build(no_pawns).unwrap_err();
        assert_eq!(e.line, Some(4), "{e}");
        assert!(e.message.contains("without pawns"), "{e}");
    }
}
