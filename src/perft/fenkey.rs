//! `FenKey`: a position in 36 bytes whose byte order is the order of its FEN
//! text, so that sorting keys sorts the work units' lines and equal keys are
//! equal positions.
//!
//! The position is what perft depends on: placement, side to move, castling
//! rights and an e.p. square only where an e.p. capture is legal (so that
//! transpositions merge); no move counters.
//!
//! Layout: bytes 0..32 hold one nibble per square in FEN order (a8, b8, ...,
//! h1; high nibble first); byte 32 the side to move (b = 0, w = 1); bytes
//! 33..36 a big-endian number of the castling field (18 bits) and the e.p.
//! square (5 bits).
//!
//! Why byte order is FEN order: two FENs first differ inside the placement
//! at the first square s where the boards differ. Two pieces there compare
//! by their letters (nibbles 1..=12 in ASCII order). If only one of them has
//! a piece there, the other's FEN has a digit there; when the square before
//! s on its rank is empty, both FENs have a digit there and the one with the
//! piece has the smaller digit (its run ends sooner), so such an empty square
//! is 13, above every piece; when s starts its rank or follows a piece, the
//! digit meets a letter and the digit is smaller, so that empty square is 0.
//! A '/' only ever meets a '/': both boards have then covered the same squares.

use crate::board::{Color, File, Rank, Role, Square};
use crate::movegen::MoveKind;
use crate::position::{back_rank, Position};

/// Bytes of a key.
pub const KEY_BYTES: usize = 36;

/// A position packed into bytes: equal keys, equal positions (pieces, side, castling, e.p.).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FenKey(pub [u8; KEY_BYTES]);

/// An empty square that starts its rank or follows a piece.
const EMPTY_LOW: u8 = 0;
/// An empty square that follows an empty square on its rank.
const EMPTY_HIGH: u8 = 13;
/// Piece letters in ASCII order; a piece's nibble is its index + 1.
const LETTERS: &[u8; 12] = b"BKNPQRbknpqr";
/// Castling letters in ASCII order; a letter's code is its index + 1 (0 pads).
const CASTLING_LETTERS: &[u8; 20] = b"ABCDEFGHKQabcdefghkq";
const CASTLING_BASE: u32 = CASTLING_LETTERS.len() as u32 + 1;

/// White's nibble per role (pawn, knight, bishop, rook, queen, king): the
/// index + 1 of its letter in `LETTERS`; Black's are 6 more.
const ROLE_NIBBLES: [u8; 6] = [4, 3, 1, 6, 5, 2];

/// The position's castling field as FEN writes it (`KQkq`, or Shredder
/// letters in Chess960), each letter's code packed base 21, first letter
/// highest: packed codes compare like the strings.
fn castling_code(pos: &Position) -> u32 {
    let mut letters = Vec::with_capacity(4);
    for color in Color::ALL {
        let king = pos.king(color).file();
        let mut files: Vec<File> = (pos.castling_rooks() & back_rank(color)).into_iter().map(Square::file).collect();
        files.sort_by(|a, b| b.cmp(a)); // king side first, as FEN writes it
        for file in files {
            let c = if pos.is_chess960() {
                file.upper_char()
            } else if file > king {
                'K'
            } else {
                'Q'
            };
            letters.push(if color.is_white() { c } else { c.to_ascii_lowercase() } as u8);
        }
    }
    let mut code = 0;
    for i in 0..4 {
        let letter =
            letters.get(i).map_or(0, |&c| CASTLING_LETTERS.iter().position(|&l| l == c).expect("castling letter") + 1);
        code = code * CASTLING_BASE + letter as u32;
    }
    code
}

/// The e.p. square if an e.p. capture is legal there; 0 for none, else
/// 1 + 2 x file + (rank 6), in the order of the FEN's field.
fn ep_code(pos: &Position) -> u32 {
    let Some(ep) = pos.ep_square() else { return 0 };
    if !pos.legal_moves().iter().any(|m| m.kind() == MoveKind::EnPassant) {
        return 0;
    }
    1 + 2 * ep.file() as u32 + u32::from(ep.rank() == Rank::Sixth)
}

impl FenKey {
    /// The key of a position.
    pub fn new(pos: &Position) -> FenKey {
        let mut nibbles = [EMPTY_LOW; 64];
        for (color, offset) in [(Color::White, 0), (Color::Black, 6)] {
            for role in Role::ALL {
                for sq in pos.pieces(color, role) {
                    // FEN order runs from a8: rank flipped.
                    nibbles[sq.index() ^ 56] = ROLE_NIBBLES[role as usize] + offset;
                }
            }
        }
        for i in 1..64 {
            let follows_empty = i % 8 != 0 && matches!(nibbles[i - 1], EMPTY_LOW | EMPTY_HIGH);
            if nibbles[i] == EMPTY_LOW && follows_empty {
                nibbles[i] = EMPTY_HIGH;
            }
        }
        let mut key = [0u8; KEY_BYTES];
        for (byte, pair) in key.iter_mut().zip(nibbles.chunks_exact(2)) {
            *byte = pair[0] << 4 | pair[1];
        }
        key[32] = u8::from(pos.turn() == Color::White);
        let tail = castling_code(pos) << 5 | ep_code(pos);
        key[33..36].copy_from_slice(&tail.to_be_bytes()[1..]);
        FenKey(key)
    }

    /// The FEN (four fields: no move counters) of the position.
    pub fn to_fen(&self) -> String {
        let mut out = String::with_capacity(80);
        self.write_fen(&mut out);
        out
    }

    /// Appends the FEN (four fields) to `out`.
    pub fn write_fen(&self, out: &mut String) {
        let k = &self.0;
        for rank in 0..8 {
            let mut empty = 0u8;
            for file in 0..8 {
                let i = rank * 8 + file;
                let nibble = if i % 2 == 0 { k[i / 2] >> 4 } else { k[i / 2] & 15 };
                if let 1..=12 = nibble {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(LETTERS[nibble as usize - 1] as char);
                } else {
                    empty += 1;
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if rank < 7 {
                out.push('/');
            }
        }
        out.push_str(if k[32] == 1 { " w " } else { " b " });
        let tail = u32::from_be_bytes([0, k[33], k[34], k[35]]);
        let (mut castling, ep) = (tail >> 5, tail & 31);
        let mut letters = [0u8; 4];
        for slot in letters.iter_mut().rev() {
            *slot = (castling % CASTLING_BASE) as u8;
            castling /= CASTLING_BASE;
        }
        if letters[0] == 0 {
            out.push('-');
        }
        for &c in letters.iter().filter(|&&c| c != 0) {
            out.push(CASTLING_LETTERS[c as usize - 1] as char);
        }
        if ep == 0 {
            out.push_str(" -");
        } else {
            let (file, sixth) = ((ep - 1) / 2, (ep - 1) % 2 == 1);
            out.push(' ');
            out.push(File::new(file as u8).char());
            out.push(if sixth { '6' } else { '3' });
        }
    }

    /// The position back (`chess960` as the root's), ready to search.
    pub fn position(&self, chess960: bool) -> Position {
        let mut pos = Position::from_fen(&self.to_fen()).expect("a key made from a position reads back");
        if chess960 {
            pos.set_chess960(true);
        }
        pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FENS: [&str; 8] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "4k3/8/8/8/8/8/8/4K2R b K - 0 1",
        "7k/8/8/8/8/8/8/K7 b - - 0 1",
    ];

    /// The FEN's first four fields.
    fn four_fields(fen: &str) -> String {
        fen.split(' ').take(4).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn reads_back_as_the_fen() {
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(FenKey::new(&pos).to_fen(), four_fields(fen), "{fen}");
        }
    }

    #[test]
    fn key_order_is_fen_order() {
        // Every pair among the positions one and two plies from these roots.
        let mut fens = Vec::new();
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            for &m in pos.legal_moves().iter() {
                let child = pos.play(m);
                fens.push(child);
                fens.extend(child.legal_moves().iter().map(|&m2| child.play(m2)));
            }
        }
        let mut keyed: Vec<(FenKey, String)> = fens.iter().map(|p| (FenKey::new(p), FenKey::new(p).to_fen())).collect();
        keyed.sort();
        keyed.dedup();
        assert!(keyed.len() > 1000);
        for pair in keyed.windows(2) {
            assert!(pair[0].1 < pair[1].1, "{} !< {}", pair[0].1, pair[1].1);
        }
    }

    #[test]
    fn ep_square_only_where_a_capture_is_legal() {
        // After f7f5 White's e5 pawn can take on f6: the square stays.
        let pos = Position::from_fen("rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2").unwrap();
        let after = pos.play_uci_moves(["f7f5"]).unwrap();
        assert!(FenKey::new(&after).to_fen().ends_with(" f6"));
        // Here the capturing pawn is pinned along the rank: no legal capture, no square.
        let pos = Position::from_fen("8/2p5/8/KP5r/8/8/8/7k b - - 0 1").unwrap().play_uci_moves(["c7c5"]).unwrap();
        assert_eq!(pos.ep_square(), Some(Square::C6), "the generator keeps it (a pawn is beside it)");
        assert_eq!(FenKey::new(&pos).to_fen(), "8/8/8/KPp4r/8/8/8/7k w - -");
    }
}
