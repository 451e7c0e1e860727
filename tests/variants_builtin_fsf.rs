//! Fairy-Stockfish's built-in variants by name: our perft against its
//! `go perft`, from the start and from random playouts, and constructed
//! positions for each rule. Fairy-Stockfish (pyffish 0.0.90) is the oracle.

mod variants_support;
use chesstool::variants::variant::builtin;
use chesstool::variants::Variant;
use variants_support::*;

/// Positions from seeded random games: every 7th ply and the last.
fn playouts(variant: &Variant, games: usize, plies: usize, seed: u64) -> Vec<String> {
    playout_positions(variant, games, plies, seed, |_, _, ply| ply % 7 == 6)
}

/// (variant, start depth, playout depth).
const EXACT: &[(&str, u32, u32)] = &[
    ("chess", 4, 3),
    ("normal", 4, 3),
    ("fischerandom", 4, 3),
    ("nocastle", 4, 3),
    ("raazuvaa", 4, 3),
    ("torpedo", 4, 3),
    ("armageddon", 4, 3),
    ("capablanca", 4, 2),
    ("caparandom", 4, 2),
    ("gothic", 4, 2),
    ("embassy", 4, 2),
    ("janus", 4, 2),
    ("centaur", 4, 2),
    ("modern", 4, 2),
    ("chancellor", 4, 2),
    ("grand", 3, 2),
    ("tencubed", 3, 2),
    ("shako", 3, 2),
    ("amazon", 4, 3),
    ("almost", 4, 3),
    ("chigorin", 4, 3),
    ("perfect", 4, 3),
    ("hoppelpoppel", 4, 3),
    ("newzealand", 4, 3),
    ("nightrider", 4, 2),
    ("grasshopper", 4, 2),
    ("gardner", 4, 3),
    ("losalamos", 4, 3),
    ("knightmate", 4, 3),
    ("shatranj", 4, 3),
    ("chaturanga", 4, 3),
    ("courier", 4, 3),
    ("makruk", 4, 3),
    ("asean", 4, 3),
    ("ai-wok", 4, 3),
    ("kingofthehill", 4, 3),
    ("racingkings", 4, 3),
    ("3check", 4, 3),
    ("5check", 4, 3),
    ("atomic", 4, 3),
    ("antichess", 4, 3),
    ("suicide", 4, 3),
    ("giveaway", 4, 3),
    ("codrus", 4, 3),
    ("extinction", 4, 3),
    ("kinglet", 4, 3),
    ("coregal", 4, 3),
    ("losers", 4, 3),
    ("threekings", 4, 3),
    ("spartan", 4, 3),
    ("horde", 4, 3),
    ("jesonmor", 4, 2),
    ("misere", 4, 3),
    ("georgian", 4, 3),
    ("sortofalmost", 4, 3),
    ("paradigm", 4, 3),
    ("nocheckatomic", 4, 3),
    ("atomar", 4, 3),
    ("makpong", 4, 3),
    ("troitzky", 3, 2),
    ("omicron", 3, 2),
    ("opulent", 3, 2),
    ("wolf", 3, 2),
    ("shatar", 4, 3),
    ("breakthrough", 4, 3),
    ("fox-and-hounds", 6, 4),
    ("gustav3", 4, 2),
    ("fairy", 4, 3),
    ("berolina", 4, 3),
    ("pawnsideways", 4, 3),
    ("pawnback", 4, 3),
    ("legan", 4, 3),
    ("petrified", 4, 2),
    ("cambodian", 4, 3),
    ("karouk", 4, 3),
];

#[test]
fn builtins_match_fairy_stockfish_from_start_and_playouts() {
    let Some(mut fsf) = Fsf::start() else { return };
    let only = std::env::var("VARIANTS").ok();
    let mut failures = Vec::new();
    for (i, &(name, start_depth, depth)) in EXACT.iter().enumerate() {
        if only.as_ref().is_some_and(|o| !o.split(',').any(|n| n == name)) {
            continue;
        }
        let variant = match builtin::load(name) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let mut result = check(&mut fsf, name, &variant.start_fen, start_depth);
        for fen in playouts(&variant, 5, 120, 11 + i as u64) {
            if result.is_err() {
                break;
            }
            result = check(&mut fsf, name, &fen, depth);
        }
        if let Err(e) = result {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_builtin_builds_and_moves_from_its_start() {
    for (name, description) in builtin::list() {
        assert!(!description.is_empty(), "{name} has no description");
        let v = builtin::load(&name).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut pos = v.parse_fen(&v.start_fen).unwrap();
        assert_eq!(v.fen(&pos).split(' ').next(), v.start_fen.split(' ').next(), "{name}");
        assert!(v.tables.count_legal(&mut pos) > 0, "{name}");
    }
}

/// Constructed positions, one or more per rule: (variant, FEN, depth, the
/// rule and the source that decided it). Fairy-Stockfish counts each too; a
/// disagreement is settled by the published rules, not by copying either.
const RULES: &[Rule] = &[
    // Grand chess (chessvariants.com/large.dir/grand.html): promotion is
    // optional on ranks 8 and 9, compulsory on 10, and only to a piece the
    // side has lost; a pawn that cannot promote on 10 may not go there. Here
    // white has lost a knight and a rook: d9-d10 and d9xc10 promote to those
    // only, c7-c8 may stay a pawn.
    ("grand", "2r6k/3P6/10/2P7/10/10/10/10/1NBQKCAB2/R9 w - - 0 1", 3, "grand promotion to lost pieces"),
    // Grand with nothing lost: every promotion is blocked, a pawn on rank 9
    // is stuck, one on rank 7 steps to 8 unpromoted.
    ("grand", "8k1/3P6/10/2P7/10/10/10/10/1NBQKCABN1/R8R w - - 0 1", 3, "grand: no piece lost, no promotion"),
    // Grand, a lone pawn: all six kinds on rank 10 (the rules' list).
    ("grand", "9k/3P6/10/10/10/10/10/10/4K5/10 w - - 0 1", 3, "grand promotion kinds"),
    // Capablanca's and Gothic's castling (chessvariants.com capablanca.html,
    // gothic): king on f to i (rook to h) or to c (rook to d).
    ("capablanca", "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1", 3, "capablanca castling, king on f"),
    (
        "capablanca",
        "r4k3r/pppppppppp/10/10/10/7n2/PPPPPPPPPP/R4K3R w KQkq - 0 1",
        2,
        "capablanca castling through an attacked square",
    ),
    ("gothic", "r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R b KQkq - 0 1", 3, "gothic castling, black"),
    // Shako (chessvariants.com/large.dir/shako.html): castling on rank 2,
    // king on f to h or d, the rooks from i and b; elephants stand outside.
    ("shako", "c8c/er3k2re/pppppppppp/10/10/10/10/PPPPPPPPPP/ER3K2RE/C8C w KQkq - 0 1", 3, "shako castling on rank 2"),
    // Capablanca random (X-FEN and Shredder-FEN, as chess960): two rooks on
    // one side, the inner one named by its file; both notations, one count.
    ("caparandom", "rr3k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/RR3K3R w BJbj - 0 1", 3, "caparandom, Shredder rights"),
    ("caparandom", "rr3k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/RR3K3R w BKbk - 0 1", 3, "caparandom, X-FEN rights"),
    // Chess960 (FIDE Laws, Guidelines II): king b1 with rook a1, and king g1
    // with rook h1 (castling moves only the rook).
    ("fischerandom", "rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w GAga - 0 1", 3, "chess960, king b1 rook a1"),
    ("fischerandom", "r5kr/pppppppp/8/8/8/8/PPPPPPPP/R5KR w AHah - 0 1", 3, "chess960, king g1 rook h1"),
    // En passant on 10x10 (Shako and Grand: pawns step two from rank 3 or
    // 8 and may be taken in passing): the square is on rank 7 or 4.
    ("shako", "10/5k4/10/10/3pP5/10/10/10/5K4/10 w - d7 0 1", 3, "shako en passant, white takes"),
    ("shako", "10/5k4/10/10/10/3pP5/10/10/5K4/10 b - e4 0 1", 3, "shako en passant, black takes"),
    ("grand", "9k/10/10/10/4Pp4/10/10/10/K9/10 w - f7 0 1", 3, "grand en passant"),
    // Atomic (lichess.org/variant/atomic): a capture explodes every piece but
    // pawns next to it; one that blows up the own king is illegal; touching
    // kings cannot check each other. Re1xe5 would take both kings.
    ("atomic", "8/8/8/3kp3/3K4/8/8/4R3 w - - 0 1", 3, "atomic capture next to both kings"),
    ("atomic", "4k3/4p3/8/8/8/8/8/4RK2 w - - 0 1", 3, "atomic capture that blows up the enemy king"),
    // Antichess (lichess.org/variant/antichess): a capture is compulsory,
    // promotion to king allowed.
    ("antichess", "8/8/8/3p4/4P3/8/1N6/8 w - - 0 1", 4, "antichess forced capture"),
    ("antichess", "1n6/P7/8/8/8/8/8/k6K w - - 0 1", 3, "antichess forced promoting capture"),
    // Three-check (lichess.org/variant/threeCheck): the counter is the checks
    // each side still has to give; the check that uses up the last one ends
    // the game; a side with none left has already won.
    (
        "3check",
        "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1+3 0 1",
        3,
        "3check, white one check from the win",
    ),
    (
        "3check",
        "rnbqkbnr/ppp2ppp/8/3pp3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 1+1 0 1",
        3,
        "3check, both one check from the win",
    ),
    ("3check", "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1+0 0 1", 2, "3check, black has won"),
    // King of the hill (lichess.org/variant/kingOfTheHill): a king on d4, e4,
    // d5 or e5 wins at once.
    ("kingofthehill", "8/8/2k5/8/8/4K3/8/8 w - - 0 1", 4, "king of the hill, both one step away"),
    // Racing kings (lichess.org/variant/racingKings): no checks; a king on
    // rank 8 wins, unless the other king reaches it on the very next move.
    ("racingkings", "8/1k4K1/8/8/8/8/R7/7r w - - 0 1", 3, "racing kings, white one move from rank 8"),
    ("racingkings", "6K1/1k6/8/8/8/8/R7/7r b - - 0 1", 3, "racing kings, black's last chance"),
    // Giveaway (Fairy-Stockfish's giveaway, lichess antichess plus
    // castling; chessvariants.com/diffobjective.dir/giveaway.html): the king
    // is an ordinary piece, so it castles out of and through attacks.
    ("giveaway", "r3k2r/8/8/8/1b6/8/8/R3K2R w KQkq - 0 1", 3, "giveaway castling out of 'check'"),
    ("giveaway", "r3k2r/8/8/8/2b5/8/8/R3K2R w KQkq - 0 1", 3, "giveaway castling through an attack"),
    // Extinction chess (chessvariants.com/winning.dir/extinction.html): a
    // side that has lost all of one kind has lost; the king castles
    // through attacks (it is not royal).
    ("extinction", "r3k2r/8/8/8/1b6/8/8/R3K2R w KQkq - 0 1", 3, "extinction castling, king attacked"),
    ("extinction", "r1bqk3/7p/8/8/8/2n5/P7/RNBQK3 w Qq - 0 1", 3, "extinction: taking the last knight ends the game"),
    // Coregal chess (chessvariants.com/diffobjective.dir/coregal.html):
    // the queens are royal as the king is, so blocking a check with the
    // queen on an attacked square is illegal, and so is promoting to a
    // queen where it would stand attacked.
    ("coregal", "4k3/8/8/8/8/8/3Q4/r3K3 w - - 0 1", 3, "coregal: the queen may not block onto an attacked square"),
    ("coregal", "4k3/P7/8/8/8/5b2/8/4K3 w - - 0 1", 3, "coregal: no promotion to an attacked queen"),
    // Pieces in front of a royal queen, and queens enough that none is royal.
    ("coregal", "7k/8/8/8/q1N1Q2K/8/8/8 w - - 0 1", 3, "coregal: a knight pinned to the queen"),
    ("coregal", "4k3/3b4/8/1N6/3Q4/8/1R6/4K1Q1 w - - 0 1", 3, "coregal: two queens, both royal, a bishop eyeing one"),
    ("coregal", "4k3/8/2q5/8/4B3/8/8/1QQQK3 w - - 0 1", 3, "coregal: three queens, none royal"),
    ("coregal", "4k3/b7/8/1N6/3Q4/8/1R6/4K1Q1 w - - 0 1", 3, "coregal: two royal queens, one attacked"),
    // Makpong (pychess.org/variants/makpong; Fairy-Stockfish's `makpongRule`
    // in `Position::legal`): a king in check may not step out of it; it may
    // take a lone checker; in double check it may not move at all.
    ("makpong", "4k3/8/8/4r3/8/R7/8/4K3 w - - 0 1", 3, "makpong: the checked king may not step away"),
    ("makpong", "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", 3, "makpong: the checked king takes the checker"),
    // Atomar (the rules Fairy-Stockfish cites, chronatog.com atomar-chess-
    // rules.pdf): kings survive explosions, even their own capture's, and
    // may not take each other; here Kxd5 and Rxd5 blow up next to both
    // kings, Kxe5 is illegal. Nocheckatomic from the same position: the
    // kings are blown up.
    ("atomar", "8/8/8/R2qk3/4K3/8/8/8 w - - 0 1", 3, "atomar: kings immune to blasts and to each other"),
    ("nocheckatomic", "8/8/8/R2qk3/4K3/8/8/8 w - - 0 1", 3, "nocheckatomic: blasts take kings"),
    // Shatar (Murray, A History of Chess; Fairy-Stockfish's shatar): a side
    // left with its bare king ends the game (robado), so Rxd2 is a leaf.
    ("shatar", "4k3/8/8/8/8/8/3r4/3RK3 w - - 0 1", 4, "shatar: a bare king ends the game"),
    // Wolf chess (en.wikipedia.org/wiki/Wolf_chess): pawns and sergeants
    // promote on rank 10; the pawn may also become an elephant
    // (Fairy-Stockfish's `promotedPieceType`, printed `+`); a sergeant's
    // first double step may be taken en passant by a pawn.
    ("wolf", "4k3/P7/8/8/8/8/8/8/8/4K3 w - - 0 1", 2, "wolf: pawn promotion, elephant included"),
    ("wolf", "4k3/1S6/8/8/8/8/8/8/8/4K3 w - - 0 1", 3, "wolf: sergeant promotion"),
    ("wolf", "4k3/8/8/8/8/8/p7/8/1S6/4K3 w - - 0 1", 3, "wolf: a sergeant's double step taken en passant"),
    ("wolf", "4k3/1s6/8/P7/8/8/8/8/8/4K3 b - - 0 1", 3, "wolf: black sergeant's double step"),
    // Troitzky chess (chessvariants.com/play/troitzky-chess): walls cut the
    // corners and the promotion squares follow the board's edge (b8).
    (
        "troitzky",
        "****1k****/**6**/*8*/*P7*/10/10/*8*/*8*/**6**/****K1**** w - - 0 1",
        3,
        "troitzky: walls, promotion on b8",
    ),
    // Omicron (chessvariants.com): castling on rank 2 between walls, the
    // king from g to i or e.
    (
        "omicron",
        "w**********w/*cr3k2rc*/*10*/*10*/*10*/*10*/*10*/*10*/*CR3K2RC*/W**********W w KQkq - 0 1",
        3,
        "omicron: castling on rank 2",
    ),
    // Breakthrough and fox and hounds (Fairy-Stockfish's definitions): an
    // ordinary piece on the far rank ends the game.
    ("breakthrough", "8/1P6/8/8/8/8/6p1/8 w - - 0 1", 3, "breakthrough: a pawn on the far rank wins"),
    ("fox-and-hounds", "1h1h1h2/6F1/8/8/8/8/8/8 w - - 0 1", 3, "fox and hounds: the fox on rank 8 wins"),
    // Berolina chess (chessvariants.com/unequal.dir/berolina.html): a pawn
    // steps diagonally forward, two from its first rank, and captures
    // straight ahead; after e7-c5 it may be taken en passant by a pawn that
    // captures onto d6, the square it passed (d5xd6 takes c5). The FEN names
    // the passed square and the pawn, as Fairy-Stockfish writes them.
    ("berolina", "4k3/8/8/2pP4/8/8/8/4K3 w - c5d6 0 2", 3, "berolina en passant after a diagonal double step"),
    ("berolina", "4k3/4p3/8/3P4/8/8/8/4K3 b - - 0 1", 3, "berolina double steps, then en passant"),
    // Pawnsideways and pawnback (arxiv.org/abs/2009.04374, Tomasev et al.):
    // pawns may also step sideways (pawnback: back, but never onto their
    // first rank, and a pawn back on its second rank may step two again);
    // double steps and en passant as in chess.
    ("pawnsideways", "4k3/8/8/8/3pP3/8/8/4K3 b - e3e4 0 1", 3, "pawnsideways en passant"),
    ("pawnsideways", "4k3/4p3/8/3P4/8/8/8/4K3 b - - 0 1", 4, "pawnsideways sideways steps and double step"),
    ("pawnback", "4k3/8/8/8/8/3P4/8/4K3 w - - 0 1", 3, "pawnback: back to rank 2, then a double step"),
    ("pawnback", "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1", 3, "pawnback: never back onto rank 1"),
    // Legan chess (en.wikipedia.org/wiki/Legan_chess): pawns move diagonally
    // towards the opponent's corner, capture orthogonally (up or left for
    // White), and promote on a8-d8 and a5-a7.
    ("legan", "k7/8/8/1P6/8/8/8/7K w - - 0 1", 3, "legan promotion on the a-file"),
    ("legan", "k7/8/8/1P6/p7/8/8/7K w - - 0 1", 3, "legan pawns of both sides"),
    // Petrified (chess.com/variants/petrified): a piece other than a pawn
    // that captures turns to stone, a wall that nothing passes or takes; a
    // king that captured would be stone, so it may not capture: in check
    // from a queen beside it, it must step away; kings may stand side by side.
    ("petrified", "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", 3, "petrified: the king may not take the checking queen"),
    ("petrified", "8/8/8/3k4/3K4/8/8/8 w - - 0 1", 3, "petrified: kings side by side"),
    ("petrified", "4k3/8/8/3q4/8/8/8/R3K2R w KQ - 0 1", 3, "petrified: captures leave walls, castling"),
    ("petrified", "4k3/8/8/8/8/8/3r4/R3K2R w KQ - 0 1", 2, "petrified: castling across an attacked square"),
    // Cambodian chess (en.wikipedia.org/wiki/Makruk, Cambodian chess): the
    // unmoved king may leap as a knight to the rank in front, not out of
    // check; the unmoved met (neang) may step two squares forward. As
    // Fairy-Stockfish decides the details: the met's step lands on an empty
    // square only, and a rook moving onto the unmoved king's file or rank
    // (whatever stands between) takes the leap away.
    ("cambodian", "4k3/8/8/8/8/8/8/3K4 w D - 0 1", 2, "cambodian king leap"),
    ("cambodian", "4k3/8/8/8/8/8/8/r2K4 w D - 0 1", 2, "cambodian king leap refused in check"),
    ("cambodian", "4k3/8/8/8/8/4p3/8/3KM3 w DE - 0 1", 2, "cambodian met double step"),
    ("cambodian", "3rk3/8/8/8/8/8/8/R2KM3 w DEe - 0 1", 3, "cambodian: a rook aimed at the king takes its leap"),
    // Three kings (Fairy-Stockfish's threekings: the commoner is its
    // castling king): a king of three is not royal, so it castles through
    // an attacked square.
    ("threekings", "k3kr1k/8/8/8/8/8/KK6/R3K2R w KQ - 0 1", 3, "threekings: castling through an attack"),
    // Spartan chess (chessvariants.com/rules/spartan-chess): the hoplite
    // (h) steps diagonally forward, captures straight ahead and promotes
    // on rank 1 to a Spartan piece, to a king only while Black has one; with
    // two kings one may be left attacked, not both (duple check); no en
    // passant. Where the page is silent, Fairy-Stockfish's `Position::legal`
    // decides: a lone king in check may be saved by promoting to a second,
    // safe king; a king of two castles through attacks (it is not royal),
    // White's one king does not.
    ("spartan", "4k3/8/8/8/8/8/3h4/K7 b - - 0 1", 3, "spartan: hoplite promotion, a second king allowed"),
    ("spartan", "4k2k/8/8/8/8/8/3h4/K7 b - - 0 1", 3, "spartan: hoplite promotion, no third king"),
    ("spartan", "2k2k2/8/8/8/8/8/8/K1R3R1 b - - 0 1", 3, "spartan: one king may stay attacked, not both"),
    ("spartan", "2k2k2/8/8/8/8/8/8/K1R5 w - - 0 1", 3, "spartan: taking one of two kings"),
    ("spartan", "2k2k2/2h5/8/8/8/8/8/K1R5 b - - 0 1", 3, "spartan: a hoplite shielding one of two kings"),
    ("spartan", "2k2k2/2h2h2/8/8/8/8/8/K1R2R2 b - - 0 1", 3, "spartan: a hoplite shielding each king"),
    ("spartan", "5k2/2h5/8/8/8/8/8/K1R2R2 b - - 0 1", 2, "spartan: a lone king in check from a rook"),
    ("spartan", "4k3/8/8/8/4R3/8/3h4/K7 b - - 0 1", 3, "spartan: a lone king in check, a second king promoted"),
    ("spartan", "r3k2r/8/1k6/8/8/8/8/K4R2 b kq - 0 1", 3, "spartan: castling with two kings, through an attack"),
    ("spartan", "4k3/8/8/8/8/8/5c2/R3K2R w KQ - 0 1", 3, "spartan: White's one king castles not through an attack"),
    // Kar Ouk (chessvariants.org/zillions/khmer-chesskar-ouk): the first
    // check wins, so a position after a check has no moves.
    ("karouk", "4k3/8/8/8/8/8/8/R2K4 w - - 1+1 0 1", 3, "karouk: the first check wins"),
];

#[test]
fn constructed_positions_match_fairy_stockfish() {
    let Some(mut fsf) = Fsf::start() else { return };
    let failures = on_rules(&mut fsf, RULES, &mut check);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The per-side keys spartan uses, in a file of one's own: Fairy-Stockfish
/// reads the same file. Black's hoplites promote (to a queen only), White's
/// pawns may not take en passant, Black's may.
#[test]
fn per_side_keys_in_a_variants_file_match_fairy_stockfish() {
    let Some(fsf) = fairy_stockfish() else { return };
    let path = std::env::temp_dir().join(format!("chesstool-hoplites-{}.ini", std::process::id()));
    let ini =
        "[hoplites:chess]\ncustomPiece1 = h:fmFfcWimA\npromotionPawnTypesBlack = h\npromotionPieceTypesBlack = q\n\
               enPassantRegionWhite = -\nstartFen = rnbqkbnr/hhhhpppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n";
    std::fs::write(&path, ini).unwrap();
    let fens = ["startpos", "4k3/2p5/8/3P4/8/8/1h6/4K3 b - - 0 1", "4k3/8/8/8/2p5/8/1h1P4/4K3 w - - 0 1"];
    for fen in fens {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_chesstool"))
            .args(["divide", "--variant", "hoplites", "--variant-path", path.to_str().unwrap(), "--depth", "3"])
            .args(["--fen", fen, "--bisect", "--engine-uci", fsf.to_str().unwrap()])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success() && stdout.contains("match at depth 3"), "{fen}: {stdout}");
    }
    let _ = std::fs::remove_file(&path);
}
