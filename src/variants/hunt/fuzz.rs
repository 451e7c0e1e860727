//! What a variant gives `chesstool fuzz`: the bias of its random walks
//! toward its rare rules, by the shared table of `rules::RareMove`
//! (captures and locust victims, e.p., pawn rushes, promotions, castling,
//! checks, the game ends of its laws), and the reading of an engine's FEN
//! (Fairy-Stockfish's `d`) by meaning.

use crate::rules::{field_differences, RareMove};
use crate::variants::board::{cell_kind, cell_side, Position, EMPTY, NO_SQUARE, OFF};
use crate::variants::moves::vocabulary::{Move, Special};
use crate::variants::variant::definition::Variant;

/// What makes `mv` rare in `pos`.
pub fn rare_move(variant: &Variant, pos: &Position, mv: Move) -> RareMove {
    let tables = &variant.tables;
    let us = pos.side;
    let them = us ^ 1;
    let (from, to) = (mv.from as usize, mv.to as usize);
    let castling = mv.special == Special::Castle;
    let enemy_on = |sq: usize| variant.side_on(pos, sq) == Some(them);
    let takes = !castling && from != to && enemy_on(to);
    let rights = |side: usize, sq: usize| pos.castle[side].contains(&(sq as u16));
    let royal = pos.royal[us] != NO_SQUARE && from == pos.royal[us] as usize;
    let promoted = mv.promotion().filter(|_| mv.special != Special::Drop).map(|k| variant.pieces[k].letter);
    let mut next = pos.clone();
    tables.play(&mut next, mv);
    let enemy_royal = next.royal[them];
    RareMove {
        capture: takes || mv.nvictims > 0,
        en_passant: mv.special == Special::EnPassant,
        allows_en_passant: mv.special == Special::PawnRush && enemy_pawn_beside(variant, pos, to),
        promotion: promoted == Some('Q'),
        underpromotion: promoted.is_some_and(|l| l != 'Q'),
        castling,
        loses_castling: !castling
            && (rights(us, from) || rights(them, to) || (royal && pos.castle[us].iter().any(|&r| r != NO_SQUARE))),
        takes_castling_rook: takes && rights(them, to),
        check: enemy_royal != NO_SQUARE && tables.royal_attacked(&mut next, enemy_royal as usize, us),
        king_near_check: royal && tables.royal_attacked(&mut pos.clone(), from, them),
        ends_game: tables.game_over(&next),
        drop: mv.special == Special::Drop,
        captures_promoted: takes && pos.promoted.get(to) == Some(&true),
    }
}

/// Where the engine's FEN `printed` of `pos` differs from ours, by meaning:
/// castling in any notation naming the same rooks; the e.p. square as we
/// write it or `-` when no e.p. capture is legal (or a makruk counting
/// limit where we have `-`). The clocks are not compared: our variant
/// positions keep none.
pub fn fen_differences(variant: &Variant, pos: &Position, printed: &str) -> Vec<String> {
    let ours = variant.fen(pos);
    let our_fields: Vec<&str> = ours.split_whitespace().collect();
    let mut names = vec!["board", "side to move", "castling", "en passant"];
    if variant.tables.laws.check_counting {
        names.push("checks");
    }
    names.extend(["halfmove clock", "fullmove number"]);
    let mut fields: Vec<String> = printed.split_whitespace().map(str::to_string).collect();
    if fields.len() == our_fields.len() {
        let n = fields.len();
        for i in [n - 2, n - 1] {
            fields[i] = our_fields[i].to_string();
        }
        let mut probe = our_fields.clone();
        probe[2] = &fields[2];
        if variant.parse_fen(&probe.join(" ")).is_ok_and(|p| p.castle == pos.castle) {
            fields[2] = our_fields[2].to_string();
        }
        let no_ep_capture =
            || !variant.tables.legal_moves(&mut pos.clone()).iter().any(|m| m.special == Special::EnPassant);
        if fields[3] == "-" && no_ep_capture() {
            fields[3] = our_fields[3].to_string();
        }
        // While makruk's counting runs, Fairy-Stockfish writes the counting
        // limit in this field (a number, never a square); counting is not
        // part of the moves.
        if our_fields[3] == "-" && fields[3].bytes().all(|b| b.is_ascii_digit()) {
            fields[3] = our_fields[3].to_string();
        }
    }
    field_differences(&ours, &fields.join(" "), &names)
}

/// True if an enemy pawn stands beside `sq` on its rank (a pawn that has
/// just rushed to `sq` may be taken en passant).
fn enemy_pawn_beside(variant: &Variant, pos: &Position, sq: usize) -> bool {
    let Some(pawn) = variant.tables.laws.pawn.as_ref().map(|p| p.kind) else { return false };
    let g = &variant.geometry;
    let (file, rank) = g.coords(sq);
    [file.checked_sub(1), Some(file + 1)].into_iter().flatten().filter(|&f| f < g.width).any(|f| {
        let cell = pos.cells[g.cell(f, rank)];
        cell != EMPTY && cell != OFF && cell_side(cell) != pos.side && cell_kind(cell) == pawn
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;
    use crate::variants::hunt::variant_rules::VariantRules;
    use crate::variants::variant::builtin;

    fn rare(variant: &str, fen: &str, text: &str) -> RareMove {
        let rules = VariantRules::new(builtin::load(variant).unwrap(), "");
        let pos = rules.parse_position(fen).unwrap();
        let mv = rules.read_move(&pos, text).unwrap();
        rare_move(&rules.variant, &pos, mv)
    }

    #[test]
    fn a_variants_rare_moves_are_told_apart() {
        let plain = RareMove::default();
        let capa = "r4k3r/1P8/10/10/4p5/10/3P6/R4K3R w KQkq - 0 1";
        assert_eq!(rare("capablanca", capa, "d2d4"), RareMove { allows_en_passant: true, ..plain });
        assert_eq!(rare("capablanca", capa, "b7b8a"), RareMove { underpromotion: true, ..plain });
        let b7a8q = rare("capablanca", capa, "b7a8q");
        assert!(b7a8q.capture && b7a8q.promotion && b7a8q.takes_castling_rook && b7a8q.loses_castling, "{b7a8q:?}");
        assert_eq!(rare("capablanca", capa, "f1i1"), RareMove { castling: true, ..plain });
        assert!(rare("capablanca", capa, "a1a8").check);
        assert_eq!(rare("capablanca", capa, "d2d3"), plain);
        // The third check ends a game of 3check.
        let three = "4k3/8/8/8/8/8/8/R3K3 w - - 1+3 0 1";
        let last = rare("3check", three, "a1a8");
        assert!(last.check && last.ends_game, "{last:?}");
        // Crazyhouse: a drop, and a capture of a promoted piece (into the hand as a pawn).
        let zh = "4k3/8/8/8/8/8/R6q~/4K3[N] w - - 0 1";
        assert_eq!(rare("crazyhouse", zh, "N@c3"), RareMove { drop: true, ..plain });
        let back = rare("crazyhouse", zh, "a2h2");
        assert!(back.capture && back.captures_promoted && !back.drop, "{back:?}");
    }

    #[test]
    fn a_variants_fen_is_compared_by_meaning() {
        let rules = VariantRules::new(builtin::load("3check").unwrap(), "");
        let pos = rules.parse_position("startpos").unwrap();
        let pos = rules.play(&pos, rules.read_move(&pos, "d2d4").unwrap());
        let fen = |ep: &str, checks: &str, clocks: &str| {
            format!("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq {ep} {checks} {clocks}")
        };
        // No e.p. capture is legal: `-` is right too; the clocks are ours alone.
        assert!(fen_differences(&rules.variant, &pos, &fen("-", "3+3", "0 1")).is_empty());
        assert!(fen_differences(&rules.variant, &pos, &fen("d3", "3+3", "5 9")).is_empty());
        assert_eq!(
            fen_differences(&rules.variant, &pos, &fen("e3", "2+3", "0 1")),
            ["en passant: engine e3, ours d3", "checks: engine 2+3, ours 3+3"]
        );
        let kept = fen_differences(&rules.variant, &pos, &fen("-", "3+3", "0 1").replace("KQkq", "Qkq"));
        assert_eq!(kept, ["castling: engine Qkq, ours KQkq"]);
        // Makruk's counting limit where the e.p. square would be (as
        // Fairy-Stockfish prints it once no pawns are left).
        let makruk = VariantRules::new(builtin::load("makruk").unwrap(), "");
        let bare = "2s5/2m5/4M3/1m5k/8/R1m2K2/4S3/6N1 w - - 0 1";
        let pos = makruk.parse_position(bare).unwrap();
        let printed = "2s5/2m5/4M3/1m5k/8/R1m2K2/4S3/6N1 w - 128 0 7";
        assert!(fen_differences(&makruk.variant, &pos, printed).is_empty());
    }
}
