//! Reading the rules from a `variants.ini` section's keys, with
//! Fairy-Stockfish's names and meanings (`src/parser.cpp` of pyffish 0.0.90).

use super::castling::Castling;
use super::drops::Drops;
use super::game_end::{Extinction, Flag};
use super::gates::Cambodian;
use super::laws::Laws;
use super::pawns::PawnLaws;
use super::promotion::{Mandatory, Promotion};
use super::region::Region;
use super::setup;
use super::shogi::{promoted_letter, Shogi};
use crate::variants::board::Geometry;
use std::collections::BTreeMap;

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
    "sittuyinPromotion",
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
    "pieceDemotion",
    "piecePromotionOnCapture",
    "dropPromoted",
    "checking",
    "petrifyOnCaptureTypes",
    "cambodianMoves",
    "gating",
    "seirawanGating",
    "pieceDrops",
    "capturesToHand",
    "dropLoop",
    "firstRankPawnDrops",
    "promotionZonePawnDrops",
    "whiteDropRegion",
    "blackDropRegion",
    "twoBoards",
    "dropNoDoubled",
    "shogiPawnDropMateIllegal",
    "dropNoDoubledCount",
    "mandatoryPiecePromotion",
    "flagPieceSafe",
    "mustDrop",
    "mustDropType",
    "dropOppositeColoredBishop",
    "castlingDroppedPiece",
    "sittuyinRookDrop",
    "soldierPromotionRank",
    "flyingGeneral",
    "diagonalLines",
    "pass",
    "passWhite",
    "passBlack",
    "bikjangRule",
    "dropChecks",
];

/// Keys read here or by a rule family's own `from_keys` (`stones.rs`).
pub fn is_law_key(k: &str) -> bool {
    LAW_KEYS.contains(&k) || super::stones::STONE_KEYS.contains(&k) || super::walls::KEYS.contains(&k)
}

/// A key's error: (line, message).
pub type KeyError = (Option<usize>, String);

/// A `true`/`false` key, `default` when absent.
fn flag(keys: &Keys, k: &str, default: bool) -> Result<bool, KeyError> {
    match keys.get(k).map(|(v, l)| (v.as_str(), *l)) {
        None => Ok(default),
        Some(("true", _)) => Ok(true),
        Some(("false", _)) => Ok(false),
        Some((v, l)) => Err((Some(l), format!("{k} = {v}: not true or false"))),
    }
}

/// Reads the laws from a section's keys; `kind_of` finds a kind by letter.
pub fn from_keys(keys: &Keys, g: &Geometry, kind_of: &dyn Fn(char) -> Option<usize>) -> Result<Laws, KeyError> {
    let get = |k: &str| keys.get(k).map(|(v, l)| (v.as_str(), *l));
    let boolean = |k: &str, default: bool| flag(keys, k, default);
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
    let regions = super::mobility::from_keys(keys, g, kind_of)?;
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
            mobility: match regions.iter().find(|(k, _, _)| *k == kind) {
                Some((_, _, l)) if !betza => {
                    return Err((Some(*l), "a mobility region for the built-in pawn is not implemented".into()))
                }
                Some((_, found, _)) => found.clone(),
                None => [all.clone(), all],
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
            in_place: boolean("sittuyinPromotion", false)?,
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
    }
    laws.bounds = super::bounds::from_keys(
        keys,
        flag(keys, "flyingGeneral", false)?,
        regions,
        laws.pawn.as_ref().filter(|p| p.betza).map(|p| p.kind),
        kind_of,
    )?;
    laws.palace = super::palace::from_keys(keys, g, kind_of)?;
    laws.passing = super::passing::from_keys(&|k, d| flag(keys, k, d))?;
    laws.walling = super::walls::from_keys(keys, g)?;
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
    let seirawan = boolean("seirawanGating", false)?;
    match (boolean("cambodianMoves", false)?, boolean("gating", false)?) {
        (true, true) => laws.cambodian = Some(Cambodian { fers: builtin("fers"), rook: builtin("rook") }),
        (false, false) if !seirawan => {}
        (false, true) if seirawan => laws.seirawan_gating = true,
        (false, false) => {
            return Err((get("seirawanGating").map(|x| x.1), "seirawanGating = true needs gating = true".into()))
        }
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
            safe: boolean("flagPieceSafe", false)?,
        });
        if boolean("flagMove", false)? && boolean("flagPieceSafe", false)? {
            let l = get("flagPieceSafe").map(|x| x.1);
            return Err((l, "flagPieceSafe = true with flagMove = true is not implemented".into()));
        }
    } else if boolean("flagPieceSafe", false)? {
        return Err((get("flagPieceSafe").map(|x| x.1), "flagPieceSafe = true needs a flagPiece".into()));
    }
    if let Some((v, l)) = get("extinctionPieceTypes") {
        let all = v == "*";
        let listed = if all { Vec::new() } else { kinds("extinctionPieceTypes", v, l)? };
        laws.extinction = Some(Extinction {
            groups: listed.iter().map(|&k| 1 << k | promoted_into(keys, k, kind_of)).collect(),
            kinds: listed,
            all,
            count: number("extinctionPieceCount", 0)?,
            opponent_count: number("extinctionOpponentPieceCount", 0)?,
            claim: boolean("extinctionClaim", false)?,
            pseudo_royal: boolean("extinctionPseudoRoyal", false)?,
            duple_check: boolean("dupleCheck", false)?,
        });
    }
    laws.drops = drops(keys, g, &laws, builtin_pawn, kind_of)?;
    laws.stones = super::stones::from_keys(keys, g, &|k, d| flag(keys, k, d))?;
    laws.shogi = shogi(keys, g, &laws, kind_of)?;
    // Fairy-Stockfish tests duple check only among pseudo-royal pieces.
    if boolean("dupleCheck", false)? && !laws.extinction.as_ref().is_some_and(|e| e.pseudo_royal) {
        let l = get("dupleCheck").map(|x| x.1);
        return Err((l, "dupleCheck = true needs extinctionPieceTypes with extinctionPseudoRoyal = true".into()));
    }
    Ok(laws)
}

/// The drop rules (`pieceDrops` and the keys that shape it), read after
/// promotion: a pawn is not dropped in its promotion zone by default.
fn drops(
    keys: &Keys,
    g: &Geometry,
    laws: &Laws,
    pawn: Option<usize>,
    kind_of: &dyn Fn(char) -> Option<usize>,
) -> Result<Option<Drops>, KeyError> {
    let get = |k: &str| keys.get(k).map(|(v, l)| (v.as_str(), *l));
    let boolean = |k: &str, default: bool| flag(keys, k, default);
    let dependent = [
        "capturesToHand",
        "dropLoop",
        "firstRankPawnDrops",
        "promotionZonePawnDrops",
        "mustDrop",
        "dropOppositeColoredBishop",
        "castlingDroppedPiece",
        "sittuyinRookDrop",
    ];
    let piece_drops = boolean("pieceDrops", false)?;
    // Seirawan gating needs the hands without the drops.
    let seirawan = boolean("seirawanGating", false)?;
    if !piece_drops && !seirawan {
        for k in dependent.iter().chain(&["whiteDropRegion", "blackDropRegion"]) {
            if let Some((v, l)) = get(k).filter(|(v, _)| *v != "false") {
                return Err((Some(l), format!("{k} = {v} needs pieceDrops = true")));
            }
        }
        return Ok(None);
    }
    if laws.blast || !laws.petrify.is_empty() {
        let l = get("pieceDrops").or(get("seirawanGating")).map(|x| x.1);
        return Err((l, "pieceDrops = true with explosions or petrification is not implemented".into()));
    }
    let all = Region::ranks(g, &(0..g.height).collect::<Vec<_>>());
    let region = |k: &str| -> Result<Region, KeyError> {
        match get(k) {
            None => Ok(all.clone()),
            Some((v, l)) => Region::parse(g, v).map_err(|e| (Some(l), format!("{k}: {e}"))),
        }
    };
    let cells = [region("whiteDropRegion")?, region("blackDropRegion")?];
    let first_rank = boolean("firstRankPawnDrops", false)?;
    let zone = boolean("promotionZonePawnDrops", false)?;
    let top = g.height - 1;
    let pawn_cells = [0, 1].map(|side| {
        let first = Region::ranks(g, &[if side == 0 { 0 } else { top }]);
        let last = Region::ranks(g, &[if side == 0 { top } else { 0 }]);
        let promotion = laws.promotion.as_ref().map_or(&last, |p| &p.region[side]);
        Region(
            (0..g.cells)
                .map(|c| cells[side].has(c) && (first_rank || !first.has(c)) && (zone || !promotion.has(c)))
                .collect(),
        )
    });
    let (captures_to_hand, demote) = (boolean("capturesToHand", false)?, !boolean("dropLoop", false)?);
    Ok(Some(Drops {
        captures_to_hand,
        demote,
        write_marks: demote && (captures_to_hand || boolean("twoBoards", false)?),
        piece_drops,
        pawn,
        cells,
        pawn_cells,
        setup: setup::from_keys(keys, laws.castling.is_some(), kind_of)?,
        checks: boolean("dropChecks", true)?,
        bound_cells: Vec::new(),
    }))
}

/// Shogi's promotions of pieces (`promotedPieceType` pairs other than
/// the built-in pawn's) and drop rules; `None` without such a promotion.
fn shogi(
    keys: &Keys,
    g: &Geometry,
    laws: &Laws,
    kind_of: &dyn Fn(char) -> Option<usize>,
) -> Result<Option<Shogi>, KeyError> {
    let get = |k: &str| keys.get(k).map(|(v, l)| (v.as_str(), *l));
    let pawn = laws.pawn.as_ref().map(|p| p.kind);
    // A key that only shapes piece promotions: refused without them.
    let refuse = || -> Result<Option<Shogi>, KeyError> {
        for k in ["mandatoryPiecePromotion", "pieceDemotion", "piecePromotionOnCapture", "dropPromoted"] {
            if flag(keys, k, false)? {
                let l = get(k).map(|x| x.1);
                return Err((l, format!("{k} = true without promotedPieceType pairs for pieces is not implemented")));
            }
        }
        Ok(None)
    };
    let pairs = match get("promotedPieceType") {
        Some((v, l)) => Shogi::parse_pairs(v, 64, pawn, kind_of).map_err(|e| (Some(l), e))?,
        None => None,
    };
    // Shogi's drop rules hold without piece promotions too (a crazyhouse
    // section with `dropNoDoubled = p`), as in Fairy-Stockfish.
    let drop_rules = get("dropNoDoubled").is_some_and(|(v, _)| v != "-")
        || (flag(keys, "shogiPawnDropMateIllegal", false)? && keys.contains_key("shogiPawn"));
    let (promotes_to, demotes_to) = match pairs {
        Some(pairs) => pairs,
        None if drop_rules => {
            refuse()?;
            if flag(keys, "immobilityIllegal", false)? {
                let l = get("immobilityIllegal").map(|x| x.1);
                return Err((l, "immobilityIllegal = true with dropNoDoubled or shogiPawnDropMateIllegal and without promotedPieceType pairs for pieces is not implemented".into()));
            }
            (vec![None; 64], vec![None; 64])
        }
        None => return refuse(),
    };
    let region = |k: &str, rank: u8| -> Result<Region, KeyError> {
        match get(k) {
            None => Ok(Region::ranks(g, &[rank])),
            Some((v, l)) => Region::parse(g, v).map_err(|e| (Some(l), format!("{k}: {e}"))),
        }
    };
    let one_kind = |k: &str| -> Result<Option<usize>, KeyError> {
        match get(k) {
            None | Some(("-", _)) => Ok(None),
            Some((v, l)) => {
                let c = v.chars().next().filter(|_| v.chars().count() == 1);
                c.and_then(kind_of).map(Some).ok_or_else(|| (Some(l), format!("{k} = {v}: no piece with that letter")))
            }
        }
    };
    let drop_mate = flag(keys, "shogiPawnDropMateIllegal", false)?;
    let shogi_pawn = keys.get("shogiPawn").and_then(|(v, _)| v.chars().next()).and_then(kind_of);
    Ok(Some(Shogi {
        promotes_to,
        demotes_to,
        region: [region("promotionRegionWhite", g.height - 1)?, region("promotionRegionBlack", 0)?],
        immobility: flag(keys, "immobilityIllegal", false)?,
        stuck: [Vec::new(), Vec::new()],
        ruled: [Vec::new(), Vec::new()],
        no_doubled: one_kind("dropNoDoubled")?,
        doubled_count: match get("dropNoDoubledCount") {
            None => 1,
            Some((v, l)) => v
                .parse()
                .ok()
                .filter(|&n: &u8| n >= 1)
                .ok_or_else(|| (Some(l), format!("dropNoDoubledCount = {v}: not a count from 1 to 255")))?,
        },
        pawn_drop_mate: shogi_pawn.filter(|_| drop_mate),
        mandatory: flag(keys, "mandatoryPiecePromotion", false)?,
        demotion: flag(keys, "pieceDemotion", false)?,
        on_capture: flag(keys, "piecePromotionOnCapture", false)?,
        drop_promoted: flag(keys, "dropPromoted", false)?,
    }))
}

/// The promoted kinds that become `kind` (`promotedPieceType` pairs
/// `a:b` with `b` of `kind`: the promoted `a`), as a mask.
fn promoted_into(keys: &Keys, kind: usize, kind_of: &dyn Fn(char) -> Option<usize>) -> u64 {
    let Some((v, _)) = keys.get("promotedPieceType") else { return 0 };
    v.split_whitespace()
        .filter_map(|pair| pair.split_once(':'))
        .filter(|(_, b)| b.chars().next().and_then(kind_of) == Some(kind))
        .filter_map(|(a, _)| a.chars().next().map(promoted_letter).and_then(kind_of))
        .fold(0, |m, p| m | 1 << p)
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
