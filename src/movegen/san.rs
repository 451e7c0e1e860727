//! Standard algebraic notation (SAN) of our legal moves, as PGN writes it:
//! the piece letter (none for pawns), the shortest disambiguation (file, else
//! rank, else both), `x` for a capture (a pawn capture starts with its file),
//! the destination, `=Q` for a promotion, `O-O` / `O-O-O` for castling (in
//! Chess960 too: the side of the castling rook), then `+` for check or `#`
//! for mate.

use super::Move;
use crate::board::Role;
use crate::position::{is_kingside, Position};

impl Position {
    /// The SAN of `m`, which must be legal here, with `+` or `#`.
    pub fn san(&self, m: Move) -> String {
        let mut san = self.san_without_check(m);
        let after = self.play(m);
        if after.is_check() {
            san.push(if after.count_legal() == 0 { '#' } else { '+' });
        }
        san
    }

    /// The SAN of the legal move `m` without the check or mate mark.
    pub fn san_without_check(&self, m: Move) -> String {
        if m.is_castling() {
            return if is_kingside(m.from(), m.to()) { "O-O" } else { "O-O-O" }.to_string();
        }
        let (from, to) = (m.from(), m.to());
        let role = self.role_at(from).expect("a legal move starts on a piece");
        let capture = m.is_en_passant() || self.by_color(!self.turn()).contains(to);
        let mut san = String::with_capacity(8);
        if role == Role::Pawn {
            if capture {
                san.push(from.file().char());
            }
        } else {
            san.push(role.char().to_ascii_uppercase());
            // Other pieces of the same kind that can also go to `to`.
            let rivals: Vec<Move> = self
                .legal_moves()
                .iter()
                .copied()
                .filter(|o| {
                    !o.is_castling() && o.to() == to && o.from() != from && self.role_at(o.from()) == Some(role)
                })
                .collect();
            if !rivals.is_empty() {
                let file_shared = rivals.iter().any(|o| o.from().file() == from.file());
                let rank_shared = rivals.iter().any(|o| o.from().rank() == from.rank());
                if !file_shared {
                    san.push(from.file().char());
                } else if !rank_shared {
                    san.push(from.rank().char());
                } else {
                    san.push(from.file().char());
                    san.push(from.rank().char());
                }
            }
        }
        if capture {
            san.push('x');
        }
        san.push_str(&to.to_string());
        if let Some(promoted) = m.promotion_role() {
            san.push('=');
            san.push(promoted.char().to_ascii_uppercase());
        }
        san
    }
}

#[cfg(test)]
mod tests {
    use crate::Position;

    fn san_of(fen: &str, uci: &str) -> String {
        let pos = Position::from_fen(fen).unwrap();
        pos.san(pos.parse_uci(uci).unwrap())
    }

    #[test]
    fn pieces_captures_promotions_castling() {
        assert_eq!(san_of("startpos", "g1f3"), "Nf3");
        assert_eq!(san_of("startpos", "e2e4"), "e4");
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        assert_eq!(san_of(kiwipete, "e1g1"), "O-O");
        assert_eq!(san_of(kiwipete, "e1c1"), "O-O-O");
        assert_eq!(san_of(kiwipete, "d5e6"), "dxe6");
        assert_eq!(san_of(kiwipete, "e5f7"), "Nxf7");
        assert_eq!(san_of(kiwipete, "f3h3"), "Qxh3");
        let promo = "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1";
        assert_eq!(san_of(promo, "g2h1q"), "gxh1=Q");
        assert_eq!(san_of(promo, "g2g1n"), "g1=N+");
        assert_eq!(san_of(promo, "g2g1q"), "g1=Q");
        let ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
        assert_eq!(san_of(ep, "e5f6"), "exf6");
    }

    #[test]
    fn disambiguation_by_file_then_rank_then_both() {
        let two_rooks = "4k3/8/8/8/8/8/8/R4RK1 w - - 0 1";
        assert_eq!(san_of(two_rooks, "a1c1"), "Rac1");
        let stacked = "4k3/8/8/R7/8/8/8/R5K1 w - - 0 1";
        assert_eq!(san_of(stacked, "a1a3"), "R1a3");
        let three_queens = "4k3/8/8/8/8/8/Q1Q5/Q6K w - - 0 1";
        assert_eq!(san_of(three_queens, "a2b1"), "Qa2b1");
        // A pinned rival does not count.
        let pinned = "4k3/4r3/8/8/8/8/4R3/2R1K3 w - - 0 1";
        assert_eq!(san_of(pinned, "c1c2"), "Rc2");
    }

    #[test]
    fn check_and_mate_marks() {
        assert_eq!(san_of("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4"), "Qh4#");
        assert_eq!(san_of("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1"), "O-O-O+");
        assert_eq!(san_of("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "h1h8"), "Rh8+");
    }

    #[test]
    fn chess960_castling_names_the_rook_side() {
        let fen = "k7/8/8/8/8/8/8/4RK1R w H - 0 1";
        assert_eq!(san_of(fen, "f1h1"), "O-O");
    }
}
