//! The rules of a variant beyond its pieces' moves: pawns (double steps,
//! en passant), promotion, castling and the game ends that change the move
//! list. Read from `variants.ini` keys with Fairy-Stockfish's names and
//! meanings (`src/variant.h`, `src/parser.cpp` of pyffish 0.0.90); the
//! generator reads this struct, never the variant's name.

use crate::variants::board::Geometry;
use std::collections::BTreeMap;

/// A set of cells of one board (indexed by mailbox cell).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Region(pub Vec<bool>);

impl Region {
    /// Is the cell in the region?
    #[inline]
    pub fn has(&self, cell: usize) -> bool {
        self.0.get(cell).copied().unwrap_or(false)
    }

    /// Is the region empty?
    pub fn is_empty(&self) -> bool {
        !self.0.iter().any(|&b| b)
    }

    /// Every cell of these 0-based ranks.
    pub fn ranks(g: &Geometry, ranks: &[u8]) -> Region {
        let mut cells = vec![false; g.cells];
        for sq in g.squares() {
            cells[sq] = ranks.contains(&g.coords(sq).1);
        }
        Region(cells)
    }

    /// Reads Fairy-Stockfish's region text: `*8` (a rank), `a*` (a file),
    /// `d4` (a square), separated by spaces; `-` is empty.
    pub fn parse(g: &Geometry, text: &str) -> Result<Region, String> {
        let mut cells = vec![false; g.cells];
        for symbol in text.split_whitespace() {
            if symbol == "-" {
                break;
            }
            let bad = || format!("{symbol:?} is not a rank (*8), file (a*) or square (d4) of this board");
            if let Some(rank) = symbol.strip_prefix('*') {
                let r: u8 = rank.parse().ok().filter(|r| (1..=g.height).contains(r)).ok_or_else(bad)?;
                for f in 0..g.width {
                    cells[g.cell(f, r - 1)] = true;
                }
            } else if let Some(file) = symbol.strip_suffix('*') {
                let f = file.bytes().next().filter(|_| file.len() == 1).ok_or_else(bad)?;
                let f = f.to_ascii_lowercase().wrapping_sub(b'a');
                if f >= g.width {
                    return Err(bad());
                }
                for r in 0..g.height {
                    cells[g.cell(f, r)] = true;
                }
            } else {
                cells[g.parse_square(symbol).ok_or_else(bad)?] = true;
            }
        }
        Ok(Region(cells))
    }
}

/// Pawns: which kind, where they may step two, whether they take en passant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PawnLaws {
    /// The pawn's kind (index into the variant's pieces).
    pub kind: usize,
    /// Cells from which a pawn may step two, per side.
    pub double_step: [Region; 2],
    /// Cells from which a pawn may step three, per side.
    pub triple_step: [Region; 2],
    /// Where a pawn of each side may capture en passant (its destination).
    pub ep_region: [Region; 2],
    /// The pawn is a piece given in Betza (`pawnTypes`): its double step is
    /// an `i` move of the Betza, and it takes en passant with its
    /// capture-only moves.
    pub betza: bool,
    /// A Betza pawn may take en passant (`e` in its Betza, or `pawnTypes`).
    pub takes_ep: bool,
    /// A Betza pawn's steps that only its `i` moves make (on an empty
    /// board), per side and origin cell: (destination, the square passed
    /// over or `NO_SQUARE`). Filled in when the variant is built.
    pub rushes: Rushes,
    /// Where a pawn of each side may move to (`mobilityRegion...`).
    pub mobility: [Region; 2],
}

/// A Betza pawn's rush table: per side, per origin cell, (destination, the
/// square passed over or `NO_SQUARE`).
pub type Rushes = [Vec<Vec<(u16, u16)>>; 2];

/// Whether a pawn reaching the promotion region must promote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mandatory {
    /// Every move into the region promotes (chess).
    Always,
    /// A pawn may stay a pawn, except where it could never move again
    /// (Grand: `mandatoryPawnPromotion = false`, `immobilityIllegal = true`).
    UnlessStuck,
    /// A pawn may stay a pawn anywhere.
    Never,
}

/// Promotion of pawns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Promotion {
    /// Where a pawn promotes, per side.
    pub region: [Region; 2],
    /// The kinds a pawn may become, per side.
    pub kinds: [Vec<usize>; 2],
    /// Must it promote?
    pub mandatory: Mandatory,
    /// Per kind: at most this many on the board after promoting (0: no
    /// limit). Grand's "only to a piece that has been captured".
    pub limit: Vec<u8>,
    /// Per side, kinds besides the pawn that promote as it does, a mask
    /// (`promotionPawnTypes`: wolf's sergeant; `promotionPawnTypesBlack`:
    /// spartan's hoplite).
    pub other_pawn_kinds: [u64; 2],
    /// One more kind the pawn may become, printed `+`
    /// (`promotedPieceType = p:e`: wolf's elephant).
    pub pawn_piece_promotion: Option<usize>,
}

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

/// Reaching a region wins (king of the hill, racing kings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flag {
    /// The kind that must reach it.
    pub kind: usize,
    /// The region, per side.
    pub region: [Region; 2],
    /// Racing kings: Black may still reach the flag after White did.
    pub flag_move: bool,
}

/// Losing every piece of some kinds ends the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extinction {
    /// The kinds counted, each on its own.
    pub kinds: Vec<usize>,
    /// `*`: all pieces counted together (Shatranj's bare king).
    pub all: bool,
    /// The game ends when a side has at most this many of a kind...
    pub count: u8,
    /// ...and its opponent at least this many.
    pub opponent_count: u8,
    /// The side to move may claim (it needs one more of the opponent's).
    pub claim: bool,
    /// The last pieces of a kind (at most `count + 1`) are pseudo-royal:
    /// no move may leave one attacked (Coregal's queens); the game then
    /// never ends by extinction.
    pub pseudo_royal: bool,
    /// With pseudo-royal pieces: a move may leave some of the side's
    /// extinction pieces attacked, but not all of them (`dupleCheck`:
    /// spartan's two kings).
    pub duple_check: bool,
}

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
}

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

/// The keys of a section (with its templates'), `key -> (value, line)`.
pub type Keys = BTreeMap<String, (String, usize)>;

/// Keys read here.
pub const LAW_KEYS: &[&str] = &[
    "doubleStep",
    "pawnTypes",
    "promotionPawnTypes",
    "promotionPawnTypesWhite",
    "promotionPawnTypesBlack",
    "doubleStepRegionWhite",
    "doubleStepRegionBlack",
    "tripleStepRegionWhite",
    "tripleStepRegionBlack",
    "enPassantRegion",
    "enPassantRegionWhite",
    "enPassantRegionBlack",
    "promotionRegionWhite",
    "promotionRegionBlack",
    "promotionPieceTypes",
    "promotionPieceTypesWhite",
    "promotionPieceTypesBlack",
    "mandatoryPawnPromotion",
    "immobilityIllegal",
    "promotionLimit",
    "castling",
    "castlingKingsideFile",
    "castlingQueensideFile",
    "castlingKingFile",
    "castlingRank",
    "castlingRookPieces",
    "castlingKingPiece",
    "chess960",
    "checkCounting",
    "flagPiece",
    "flagRegion",
    "flagRegionWhite",
    "flagRegionBlack",
    "flagMove",
    "extinctionPieceTypes",
    "extinctionPieceCount",
    "extinctionOpponentPieceCount",
    "extinctionClaim",
    "extinctionPseudoRoyal",
    "dupleCheck",
    "mustCapture",
    "blastOnCapture",
    "blastImmuneTypes",
    "mutuallyImmuneTypes",
    "makpongRule",
    "promotedPieceType",
    "checking",
    "petrifyOnCaptureTypes",
    "cambodianMoves",
    "gating",
];

/// A key's error: (line, message).
pub type KeyError = (Option<usize>, String);

/// Reads the laws from a section's keys; `kind_of` finds a kind by letter.
pub fn from_keys(keys: &Keys, g: &Geometry, kind_of: &dyn Fn(char) -> Option<usize>) -> Result<Laws, KeyError> {
    let get = |k: &str| keys.get(k).map(|(v, l)| (v.as_str(), *l));
    let boolean = |k: &str, default: bool| -> Result<bool, KeyError> {
        match get(k) {
            None => Ok(default),
            Some(("true", _)) => Ok(true),
            Some(("false", _)) => Ok(false),
            Some((v, l)) => Err((Some(l), format!("{k} = {v}: not true or false"))),
        }
    };
    let region = |k: &str, default: Region| -> Result<Region, KeyError> {
        match get(k) {
            None => Ok(default),
            Some((v, l)) => Region::parse(g, v).map_err(|e| (Some(l), format!("{k}: {e}"))),
        }
    };
    let kinds = |k: &str, text: &str, l: usize| -> Result<Vec<usize>, KeyError> {
        text.chars()
            .filter(|c| *c != '-')
            .map(|c| kind_of(c).ok_or_else(|| (Some(l), format!("{k} = {text}: no piece with letter {c}"))))
            .collect()
    };
    let file = |k: &str, default: u8| -> Result<u8, KeyError> {
        match get(k) {
            None => Ok(default),
            Some((v, l)) => v
                .bytes()
                .next()
                .filter(|b| v.len() == 1 && b.is_ascii_lowercase() && b - b'a' < g.width)
                .map(|b| b - b'a')
                .ok_or_else(|| (Some(l), format!("{k} = {v}: not a file of this board"))),
        }
    };
    let number = |k: &str, default: u8| -> Result<u8, KeyError> {
        match get(k) {
            None => Ok(default),
            Some((v, l)) => v.parse().map_err(|_| (Some(l), format!("{k} = {v}: not a number"))),
        }
    };
    let top = g.height - 1;
    let mut laws = Laws::default();
    let builtin_pawn = keys.get("pawn").and_then(|(v, _)| v.chars().next()).filter(|&c| c != '-').and_then(kind_of);
    let betza_pawn = betza_pawn(keys, kind_of, builtin_pawn)?;
    let pawn_kind = betza_pawn.map(|(kind, _)| kind).or(builtin_pawn);
    if let Some(kind) = pawn_kind {
        let betza = betza_pawn.is_some_and(|(k, _)| Some(k) != builtin_pawn);
        let double = boolean("doubleStep", true)? && !betza;
        let none = Region(vec![false; g.cells]);
        let all = Region(vec![true; g.cells]);
        let (w, b) = if double {
            (Region::ranks(g, &[1]), Region::ranks(g, &[top.saturating_sub(1)]))
        } else {
            (none.clone(), none.clone())
        };
        laws.pawn = Some(PawnLaws {
            kind,
            double_step: [region("doubleStepRegionWhite", w)?, region("doubleStepRegionBlack", b)?],
            triple_step: [region("tripleStepRegionWhite", none.clone())?, region("tripleStepRegionBlack", none)?],
            ep_region: {
                let both = region("enPassantRegion", all.clone())?;
                [region("enPassantRegionWhite", both.clone())?, region("enPassantRegionBlack", both)?]
            },
            betza,
            takes_ep: betza_pawn.is_some_and(|(_, e)| e),
            rushes: [Vec::new(), Vec::new()],
            mobility: match mobility(keys, g, kind, kind_of)? {
                Some(_) if !betza => {
                    return Err((None, "a mobility region for the built-in pawn is not implemented".into()))
                }
                found => found.unwrap_or([all.clone(), all]),
            },
        });
        let (_, l) = keys.get("pawn").map(|(v, l)| (v, *l)).unwrap_or((&String::new(), 0));
        let default_kinds = match get("promotionPieceTypes") {
            Some((v, l)) => kinds("promotionPieceTypes", v, l)?,
            None => "qrbn".chars().filter_map(kind_of).collect(),
        };
        let per_side = |k: &str| -> Result<Vec<usize>, KeyError> {
            match get(k) {
                Some((v, l)) => kinds(k, v, l),
                None => Ok(default_kinds.clone()),
            }
        };
        let mut limit = vec![0u8; 64];
        if let Some((v, l)) = get("promotionLimit") {
            for item in v.split_whitespace() {
                let bad = || (Some(l), format!("promotionLimit: {item:?} is not letter:count"));
                let (c, n) = item.split_once(':').ok_or_else(bad)?;
                let c = c.chars().next().ok_or_else(bad)?;
                let kind = kind_of(c).ok_or_else(bad)?;
                limit[kind] = n.parse().map_err(|_| bad())?;
            }
        }
        let mandatory = match (boolean("mandatoryPawnPromotion", true)?, boolean("immobilityIllegal", false)?) {
            (true, _) => Mandatory::Always,
            (false, true) => Mandatory::UnlessStuck,
            (false, false) => Mandatory::Never,
        };
        let _ = l;
        let mut other_pawn_kinds = [0u64; 2];
        if let Some((v, l)) = get("promotionPawnTypes") {
            let listed = kinds("promotionPawnTypes", v, l)?;
            if !listed.contains(&kind) {
                let why = "promotionPawnTypes without the pawn is not implemented";
                return Err((Some(l), format!("promotionPawnTypes = {v}: {why}")));
            }
            other_pawn_kinds = [mask_without(&listed, kind); 2];
        }
        // Per side, as Fairy-Stockfish's parser: the kinds that promote as
        // the pawn for that side. The built-in pawn promotes whether listed
        // or not (its moves are generated as the pawn's).
        for (side, key) in ["promotionPawnTypesWhite", "promotionPawnTypesBlack"].into_iter().enumerate() {
            if let Some((v, l)) = get(key) {
                other_pawn_kinds[side] = mask_without(&kinds(key, v, l)?, kind);
            }
        }
        let mut pawn_piece_promotion = None;
        if let Some((v, l)) = get("promotedPieceType") {
            let bad = || (Some(l), format!("promotedPieceType = {v}: only `pawn:kind` (p:e) is implemented"));
            let (a, b) = v.split_once(':').ok_or_else(bad)?;
            let one = |t: &str| t.trim().chars().next().filter(|_| t.trim().len() == 1).and_then(kind_of);
            if one(a) != Some(kind) || v.split_whitespace().count() != 1 {
                return Err(bad());
            }
            pawn_piece_promotion = Some(one(b).ok_or_else(bad)?);
        }
        laws.promotion = Some(Promotion {
            region: [
                region("promotionRegionWhite", Region::ranks(g, &[top]))?,
                region("promotionRegionBlack", Region::ranks(g, &[0]))?,
            ],
            kinds: [per_side("promotionPieceTypesWhite")?, per_side("promotionPieceTypesBlack")?],
            mandatory,
            limit,
            other_pawn_kinds,
            pawn_piece_promotion,
        });
        let explicit = get("doubleStepRegionWhite").is_some() || get("doubleStepRegionBlack").is_some();
        if double && explicit {
            let pawn = laws.pawn.as_ref().expect("set above");
            laws.initial_region = Some(pawn.double_step.clone());
        }
    }
    if laws.pawn.is_none() {
        let side_keys = ["promotionPawnTypesWhite", "promotionPawnTypesBlack"];
        let listed =
            |(k, (v, _)): &(&String, &(String, usize))| side_keys.contains(&k.as_str()) && v.chars().any(|c| c != '-');
        if let Some((k, (_, l))) = keys.iter().find(listed) {
            return Err((Some(*l), format!("{k} in a variant without pawns is not implemented")));
        }
        if let Some((k, (_, l))) =
            keys.range("mobilityRegion".to_string()..).find(|(k, _)| k.starts_with("mobilityRegion"))
        {
            return Err((Some(*l), format!("{k}: a mobility region is implemented for the pawn only")));
        }
    }
    if boolean("castling", true)? {
        let rook_kinds = match get("castlingRookPieces") {
            Some((v, l)) => kinds("castlingRookPieces", v, l)?,
            None => kind_of('r').into_iter().collect(),
        };
        let rank = number("castlingRank", 1)?.saturating_sub(1);
        laws.castling = Some(Castling {
            kingside_file: file("castlingKingsideFile", 6.min(g.width - 1))?,
            queenside_file: file("castlingQueensideFile", 2.min(g.width - 1))?,
            king_file: file("castlingKingFile", 4.min(g.width - 1))?,
            rank,
            rook_kinds,
            king_kind: match get("castlingKingPiece") {
                Some((v, l)) => Some(
                    v.chars()
                        .next()
                        .and_then(kind_of)
                        .ok_or_else(|| (Some(l), format!("castlingKingPiece = {v}: no piece with that letter")))?,
                ),
                None => None,
            },
            chess960: boolean("chess960", false)?,
        });
    }
    laws.check_counting = boolean("checkCounting", false)?;
    laws.must_capture = boolean("mustCapture", false)?;
    laws.blast = boolean("blastOnCapture", false)?;
    laws.no_checks = !boolean("checking", true)?;
    let mask = |k: &str| -> Result<u64, KeyError> {
        let Some((v, l)) = get(k) else { return Ok(0) };
        Ok(kinds(k, v, l)?.into_iter().fold(0, |m, kind| m | 1 << kind))
    };
    laws.blast_immune = mask("blastImmuneTypes")?;
    laws.mutually_immune = mask("mutuallyImmuneTypes")?;
    laws.makpong = boolean("makpongRule", false)?;
    let builtin = |key: &str| keys.get(key).and_then(|(v, _)| v.chars().next()).and_then(kind_of);
    match (boolean("cambodianMoves", false)?, boolean("gating", false)?) {
        (true, true) => laws.cambodian = Some(Cambodian { fers: builtin("fers"), rook: builtin("rook") }),
        (false, false) => {}
        (c, _) => {
            let (k, l) = if c { ("cambodianMoves", get("cambodianMoves")) } else { ("gating", get("gating")) };
            let other = if c { "gating = true" } else { "cambodianMoves = true" };
            return Err((l.map(|x| x.1), format!("{k} = true without {other} is not implemented")));
        }
    }
    if let Some((v, l)) = get("petrifyOnCaptureTypes") {
        laws.petrify = kinds("petrifyOnCaptureTypes", v, l)?;
    }
    if let Some((v, l)) = get("flagPiece") {
        let kind = v
            .chars()
            .next()
            .and_then(kind_of)
            .ok_or_else(|| (Some(l), format!("flagPiece = {v}: no piece with that letter")))?;
        let both = region("flagRegion", Region(vec![false; g.cells]))?;
        laws.flag = Some(Flag {
            kind,
            region: [region("flagRegionWhite", both.clone())?, region("flagRegionBlack", both)?],
            flag_move: boolean("flagMove", false)?,
        });
    }
    if let Some((v, l)) = get("extinctionPieceTypes") {
        let all = v == "*";
        laws.extinction = Some(Extinction {
            kinds: if all { Vec::new() } else { kinds("extinctionPieceTypes", v, l)? },
            all,
            count: number("extinctionPieceCount", 0)?,
            opponent_count: number("extinctionOpponentPieceCount", 0)?,
            claim: boolean("extinctionClaim", false)?,
            pseudo_royal: boolean("extinctionPseudoRoyal", false)?,
            duple_check: boolean("dupleCheck", false)?,
        });
    }
    // Fairy-Stockfish tests duple check only among pseudo-royal pieces.
    if boolean("dupleCheck", false)? && !laws.extinction.as_ref().is_some_and(|e| e.pseudo_royal) {
        let l = get("dupleCheck").map(|x| x.1);
        return Err((l, "dupleCheck = true needs extinctionPieceTypes with extinctionPseudoRoyal = true".into()));
    }
    Ok(laws)
}

/// The kinds of `listed` but `pawn`, as a mask.
fn mask_without(listed: &[usize], pawn: usize) -> u64 {
    listed.iter().filter(|&&k| k != pawn).fold(0, |m, k| m | 1 << k)
}

/// The pawn given by `pawnTypes` or `promotionPawnTypes` (Fairy-Stockfish's
/// keys for a custom piece that is the pawn), and whether it takes en
/// passant (`pawnTypes`, or an `e` in its Betza). A `promotionPawnTypes`
/// that lists the built-in pawn names other kinds that promote as it does
/// (wolf's sergeant), not a Betza pawn.
fn betza_pawn(
    keys: &Keys,
    kind_of: &dyn Fn(char) -> Option<usize>,
    builtin_pawn: Option<usize>,
) -> Result<Option<(usize, bool)>, KeyError> {
    for key in ["pawnTypes", "promotionPawnTypes"] {
        let Some((v, l)) = keys.get(key) else { continue };
        if key == "promotionPawnTypes" && builtin_pawn.is_some() && v.chars().any(|c| kind_of(c) == builtin_pawn) {
            continue;
        }
        let mut letters = v.chars().filter(|&c| c != '-');
        let Some(c) = letters.next() else { continue };
        if letters.next().is_some() {
            return Err((Some(*l), format!("{key} = {v}: more than one pawn kind is not implemented")));
        }
        let kind = kind_of(c).ok_or_else(|| (Some(*l), format!("{key} = {v}: no piece with letter {c}")))?;
        let betza_has_e = keys.iter().any(|(k, (value, _))| {
            k.starts_with("customPiece") && value.starts_with(c) && value.get(2..).is_some_and(|b| b.contains('e'))
        });
        return Ok(Some((kind, key == "pawnTypes" || betza_has_e)));
    }
    Ok(None)
}

/// `mobilityRegionWhiteCustomPiece1 = *2 *3 ...`: where the pawn may move
/// (a region for any other piece is not implemented).
fn mobility(
    keys: &Keys,
    g: &Geometry,
    pawn: usize,
    kind_of: &dyn Fn(char) -> Option<usize>,
) -> Result<Option<[Region; 2]>, KeyError> {
    let mut found: Option<[Region; 2]> = None;
    for (key, (value, line)) in keys.range("mobilityRegion".to_string()..) {
        let Some(rest) = key.strip_prefix("mobilityRegion") else { break };
        let (side, name) = match (rest.strip_prefix("White"), rest.strip_prefix("Black")) {
            (Some(n), _) => (0, n),
            (_, Some(n)) => (1, n),
            _ => return Err((Some(*line), format!("{key}: not mobilityRegionWhite... or mobilityRegionBlack..."))),
        };
        let mut piece = name.to_string();
        if let Some(first) = piece.get_mut(0..1) {
            first.make_ascii_lowercase();
        }
        let letter = keys.get(&piece).and_then(|(v, _)| v.chars().next());
        if letter.and_then(kind_of) != Some(pawn) {
            return Err((Some(*line), format!("{key}: a mobility region is implemented for the pawn only")));
        }
        let region = Region::parse(g, value).map_err(|e| (Some(*line), format!("{key}: {e}")))?;
        let all = Region(vec![true; g.cells]);
        found.get_or_insert_with(|| [all.clone(), all])[side] = region;
    }
    Ok(found)
}
