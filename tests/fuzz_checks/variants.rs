//! Fairy variants: `variants.ini`, Betza notation and their FENs.

use super::text;
use chesstool::rules::Rules;
use chesstool::variants::betza::compile::compile;
use chesstool::variants::hunt::VariantRules;
use chesstool::variants::variant::user_ini;

/// Betza notation: what compiles also shows on a board; what parses and
/// compiles agree on being readable.
pub fn betza(data: &[u8]) {
    let Some(s) = text(data, 128) else { return };
    let parsed = chesstool::variants::betza::parse::parse(s);
    let compiled = compile(s);
    if compiled.is_ok() {
        assert!(parsed.is_ok(), "{s:?} compiles but does not parse");
        let _ = chesstool::variants::hunt::betza_show::show(s, 8, 8, Some("d4"), None);
        let _ = chesstool::variants::hunt::betza_show::show(s, 12, 10, Some("a1"), None);
    }
}

/// A `variants.ini` (text starting with `[`, a section) or a FEN for one
/// of three rule sets (a first line naming it, then the FEN).
pub fn variants(data: &[u8]) {
    if data.first() == Some(&b'[') {
        variants_ini(data);
    } else {
        variant_fen(data);
    }
}

/// A `variants.ini` that reads: each variant that builds has a start
/// position that writes back to a FEN reading the same, and every legal
/// move of it reads back from its text.
fn variants_ini(data: &[u8]) {
    let Some(s) = text(data, 8 << 10) else { return };
    let Ok(file) = user_ini::parse("fuzz.ini", s) else { return };
    for name in file.names().into_iter().take(4) {
        let Ok(variant) = file.variant(&name) else { continue };
        let rules = VariantRules::new(variant, "fuzz.ini");
        let Ok(pos) = rules.parse_position("startpos") else { continue };
        position_round_trip(&rules, &pos);
    }
}

/// A FEN of the variant `rules` round-trips and its moves read back.
fn position_round_trip(rules: &VariantRules, pos: &<VariantRules as Rules>::Position) {
    let fen = rules.position_text(pos);
    let again = rules.parse_position(&fen).unwrap_or_else(|e| panic!("{fen:?} does not read back: {e:?}"));
    assert_eq!(rules.position_text(&again), fen, "{fen:?} is not a fixed point");
    let moves = rules.legal_moves(pos);
    for &m in moves.iter().take(256) {
        let text = rules.move_text(pos, m);
        let read = rules.read_move(pos, &text);
        assert!(read.is_ok(), "{fen}: move {text:?} does not read back: {read:?}");
        let _ = rules.play(pos, m);
    }
}

/// A FEN for a few built-in rule sets: what reads writes back the same.
fn variant_fen(data: &[u8]) {
    let Some(s) = text(data, 512) else { return };
    let (head, fen) = s.split_once('\n').unwrap_or(("", s));
    let ini = match head.trim() {
        "capablanca" => "[capablanca]\nmaxFile = j\nchancellor = c\narchbishop = a\nstartFen = rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1\n",
        "shogi" => "[mini]\nmaxFile = 5\nmaxRank = 5\nstartFen = 4k/5/5/5/K4 w - - 0 1\n",
        _ => "[chess2]\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n",
    };
    let Ok(file) = user_ini::parse("fuzz.ini", ini) else { return };
    let Some(name) = file.names().into_iter().next() else { return };
    let Ok(variant) = file.variant(&name) else { return };
    let rules = VariantRules::new(variant, "fuzz.ini");
    if let Ok(pos) = rules.parse_position(fen) {
        position_round_trip(&rules, &pos);
    }
}
