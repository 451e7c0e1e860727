//! Moves matched by meaning, not by string: a move as some engine printed it
//! (UCI with the promotion letter in any case, castling as `e1g1` or `e1h1`,
//! long algebraic with a piece letter or a hyphen such as `Nb1c3`, `Ng1-f3`,
//! `e2-e4`, SAN, `O-O`) resolved against our legal moves of the position.
//!
//! A move whose meaning does not need the board (long algebraic, castling)
//! can be "not legal here" with a UCI form. So can a SAN move that matches
//! no legal move but exactly one pseudo-legal move of the side to move
//! (`Ng8` while in check: the one knight that could go there): that is the
//! move it means, an extra move of the engine. SAN that matches no piece
//! move, or several, and a piece letter that names the wrong piece, cannot
//! be read at all, so the hunt treats them as unreadable, not as extra moves.

use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks};
use crate::board::{Color, File, Rank, Role, Square};
use crate::position::is_kingside;
use crate::rules::clip;
use crate::rules::ReadMoveError;
use crate::{Move, Position};

/// Finds the legal move of `pos` that `text` means.
pub fn read_move(pos: &Position, text: &str) -> Result<Move, ReadMoveError> {
    let t = strip_annotations(text.trim());
    // `+Nc3-c4`: a promoted piece's mark (Sjaak II prints it in every game).
    let t = t.strip_prefix('+').filter(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase())).unwrap_or(t);
    let unreadable = || ReadMoveError::Illegal { text: clip(text), canonical: None };
    if t.is_empty() {
        return Err(ReadMoveError::Syntax(clip(text)));
    }
    if let Some(kingside) = castling_side(t) {
        return pos
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.is_castling() && is_kingside(m.from(), m.to()) == kingside)
            .ok_or_else(|| ReadMoveError::Illegal { text: clip(text), canonical: castling_uci(pos, kingside) });
    }
    if let Some(long) = LongMove::parse(t) {
        // A piece letter that names another piece than the one standing
        // there makes the text contradict itself: unreadable, not extra.
        if let Some(role) = long.role {
            if pos.piece_at(long.from).is_some_and(|p| p.role != role || p.color != pos.turn()) {
                return Err(unreadable());
            }
        }
        let uci = long.uci();
        return pos
            .parse_uci(&uci)
            .map_err(|_| ReadMoveError::Illegal { text: clip(text), canonical: Some(uci.clone()) });
    }
    if let Some(san) = San::parse(t) {
        let found: Vec<Move> = pos.legal_moves().iter().copied().filter(|&m| san.matches(pos, m)).collect();
        return match found.as_slice() {
            [m] => Ok(*m),
            [] => match san.pseudo_legal(pos).as_slice() {
                [m] => Err(ReadMoveError::Illegal { text: clip(text), canonical: Some(m.to_uci(pos.is_chess960())) }),
                [] => Err(unreadable()),
                _ => Err(ReadMoveError::Ambiguous(clip(text))),
            },
            _ => Err(ReadMoveError::Ambiguous(clip(text))),
        };
    }
    Err(ReadMoveError::Syntax(clip(text)))
}

/// The UCI form of a move written in long notation, without a board
/// (`Nb1-c3` -> `b1c3`, `a7a8Q` -> `a7a8q`); `None` for SAN and castling.
pub fn uci_form(text: &str) -> Option<String> {
    LongMove::parse(strip_annotations(text.trim())).map(|m| m.uci())
}

/// Drops check marks, annotation glyphs and an `e.p.` suffix.
fn strip_annotations(t: &str) -> &str {
    let t = t.trim_end_matches(['+', '#', '!', '?']).trim_end();
    let t = t.strip_suffix("e.p.").or_else(|| t.strip_suffix("ep")).map_or(t, str::trim_end);
    t.trim_end_matches(['+', '#', '!', '?'])
}

fn castling_side(t: &str) -> Option<bool> {
    match t {
        "O-O" | "0-0" | "o-o" => Some(true),
        "O-O-O" | "0-0-0" | "o-o-o" => Some(false),
        _ => None,
    }
}

/// `e1g1` for a castling move written `O-O` that is not legal, if the king
/// stands where castling starts.
fn castling_uci(pos: &Position, kingside: bool) -> Option<String> {
    let king = pos.king(pos.turn());
    let target = Square::from_coords(if kingside { File::G } else { File::C }, king.rank());
    Some(format!("{king}{target}"))
}

/// `[piece] from [-x:] to [=][promotion]`.
struct LongMove {
    role: Option<Role>,
    from: Square,
    to: Square,
    promotion: Option<Role>,
}

impl LongMove {
    fn parse(t: &str) -> Option<LongMove> {
        let b = t.as_bytes();
        let mut i = 0;
        let role = match b.first() {
            Some(c) if b"KQRBNP".contains(c) => {
                i = 1;
                Role::from_char(*c as char)
            }
            _ => None,
        };
        let from = Square::parse(t.get(i..i + 2)?)?;
        i += 2;
        if matches!(b.get(i), Some(b'-' | b'x' | b':')) {
            i += 1;
        }
        let to = Square::parse(t.get(i..i + 2)?)?;
        i += 2;
        if b.get(i) == Some(&b'=') {
            i += 1;
        }
        let promotion = match &b[i..] {
            [] => None,
            [c] => Some(promotion_role(*c as char)?),
            _ => return None,
        };
        Some(LongMove { role, from, to, promotion })
    }

    fn uci(&self) -> String {
        let mut s = format!("{}{}", self.from, self.to);
        if let Some(r) = self.promotion {
            s.push(r.char());
        }
        s
    }
}

fn promotion_role(c: char) -> Option<Role> {
    match Role::from_char(c.to_ascii_lowercase()) {
        Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) => Some(r),
        _ => None,
    }
}

/// Standard algebraic notation: `Nf3`, `exd5`, `Rad1`, `R1a3`, `Qh4xe1`, `e8=Q`.
struct San {
    role: Role,
    file: Option<File>,
    rank: Option<Rank>,
    to: Square,
    promotion: Option<Role>,
}

impl San {
    fn parse(t: &str) -> Option<San> {
        let mut s = t;
        // Promotion: `=Q`, `=q` or a trailing piece letter after the square.
        let mut promotion = None;
        if let Some((head, p)) = s.rsplit_once('=') {
            promotion = Some(promotion_role(single_char(p)?)?);
            s = head;
        } else if s.len() >= 3
            && s.ends_with(|c: char| "QRBNqrbn".contains(c))
            && s[..s.len() - 1].ends_with(|c: char| ('1'..='8').contains(&c))
        {
            promotion = Some(promotion_role(s.chars().last()?)?);
            s = &s[..s.len() - 1];
        }
        let to = Square::parse(s.get(s.len().checked_sub(2)?..)?)?;
        let mut head = &s[..s.len() - 2];
        let role = match head.chars().next() {
            Some(c @ ('K' | 'Q' | 'R' | 'B' | 'N' | 'P')) => {
                head = &head[1..];
                Role::from_char(c)?
            }
            _ => Role::Pawn,
        };
        let head = head.strip_suffix(['x', ':']).unwrap_or(head);
        let (mut file, mut rank) = (None, None);
        for c in head.chars() {
            if let (Some(f), None, None) = (File::from_char(c), file, rank) {
                file = Some(f);
            } else if let (Some(r), None) = (Rank::from_char(c), rank) {
                rank = Some(r);
            } else {
                return None;
            }
        }
        if promotion.is_some() && role != Role::Pawn {
            return None;
        }
        Some(San { role, file, rank, to, promotion })
    }

    /// The moves of the side to move that this SAN names by the pieces'
    /// rules alone, legal or not (the king's safety is not asked): a piece
    /// of its kind on its file and rank that reaches `to` (a pawn by a push,
    /// a double push, a capture or e.p.), not onto its own side or a king.
    fn pseudo_legal(&self, pos: &Position) -> Vec<Move> {
        let us = pos.turn();
        let occ = pos.occupied();
        if pos.by_color(us).contains(self.to) || pos.pieces(!us, Role::King).contains(self.to) {
            return Vec::new();
        }
        let last = if us == Color::White { Rank::Eighth } else { Rank::First };
        if (self.role == Role::Pawn && self.to.rank() == last) != self.promotion.is_some() {
            return Vec::new();
        }
        let mut out = Vec::new();
        for from in pos.pieces(us, self.role) {
            if self.file.is_some_and(|f| from.file() != f) || self.rank.is_some_and(|r| from.rank() != r) {
                continue;
            }
            let reaches = match self.role {
                Role::Knight => knight_attacks(from).contains(self.to),
                Role::Bishop => bishop_attacks(from, occ).contains(self.to),
                Role::Rook => rook_attacks(from, occ).contains(self.to),
                Role::Queen => queen_attacks(from, occ).contains(self.to),
                Role::King => king_attacks(from).contains(self.to),
                Role::Pawn => {
                    let step: i32 = if us == Color::White { 8 } else { -8 };
                    let start = if us == Color::White { Rank::Second } else { Rank::Seventh };
                    let ahead = from.offset(step);
                    if pawn_attacks(us, from).contains(self.to) {
                        if pos.ep_square() == Some(self.to) {
                            out.push(Move::en_passant(from, self.to));
                            continue;
                        }
                        pos.by_color(!us).contains(self.to)
                    } else if ahead == Some(self.to) {
                        !occ.contains(self.to)
                    } else {
                        from.rank() == start
                            && from.offset(2 * step) == Some(self.to)
                            && ahead.is_some_and(|a| !occ.contains(a))
                            && !occ.contains(self.to)
                    }
                }
            };
            if reaches {
                out.push(match self.promotion {
                    Some(r) => Move::promotion(from, self.to, r),
                    None => Move::normal(from, self.to),
                });
            }
        }
        out
    }

    fn matches(&self, pos: &Position, m: Move) -> bool {
        !m.is_castling()
            && m.to() == self.to
            && m.promotion_role() == self.promotion
            && pos.piece_at(m.from()).map(|p| p.role) == Some(self.role)
            && self.file.is_none_or(|f| m.from().file() == f)
            && self.rank.is_none_or(|r| m.from().rank() == r)
    }
}

fn single_char(s: &str) -> Option<char> {
    let mut it = s.chars();
    match (it.next(), it.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    const PROMO: &str = "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1";

    fn uci(fen: &str, text: &str) -> String {
        let pos = Position::from_fen(fen).unwrap();
        read_move(&pos, text).map(|m| m.to_uci(pos.is_chess960())).unwrap_or_else(|e| format!("ERR {e}"))
    }

    #[test]
    fn every_notation_of_the_same_move() {
        let start = "startpos";
        for text in ["b1c3", "Nb1c3", "Nb1-c3", "Nc3", "Nbc3", "b1-c3"] {
            assert_eq!(uci(start, text), "b1c3", "{text}");
        }
        for text in ["e2e4", "e2-e4", "e4", "Pe2e4", "e4!?"] {
            assert_eq!(uci(start, text), "e2e4", "{text}");
        }
        for text in ["e1g1", "e1h1", "O-O", "0-0", "Ke1g1"] {
            assert_eq!(uci(KIWIPETE, text), "e1g1", "{text}");
        }
        for text in ["e1c1", "e1a1", "O-O-O", "0-0-0+"] {
            assert_eq!(uci(KIWIPETE, text), "e1c1", "{text}");
        }
        for text in ["g2h1q", "g2h1Q", "g2xh1=Q", "gxh1=Q", "gxh1=q", "gxh1Q", "g2h1=Q+"] {
            assert_eq!(uci(PROMO, text), "g2h1q", "{text}");
        }
        assert_eq!(uci(PROMO, "b7a8N"), "ERR \"b7a8N\" is not legal here");
        assert_eq!(uci("startpos", "Nb1d2"), "ERR \"Nb1d2\" is not legal here");
        assert_eq!(uci("startpos", "Bb1c3"), "ERR \"Bb1c3\" is not legal here");
    }

    #[test]
    fn only_moves_readable_without_the_board_have_a_canonical_form() {
        let pos = Position::startpos();
        let canonical = |text: &str| match read_move(&pos, text) {
            Err(ReadMoveError::Illegal { canonical, .. }) => canonical,
            other => panic!("{text}: {other:?}"),
        };
        // Well-formed and unambiguous: the engine's extra move, in UCI.
        assert_eq!(canonical("Nb1d2").as_deref(), Some("b1d2"));
        assert_eq!(canonical("e2e5").as_deref(), Some("e2e5"));
        // SAN that matches nothing, or a piece letter naming the wrong piece:
        // we cannot tell which move was meant.
        assert_eq!(canonical("Nd5"), None);
        assert_eq!(canonical("Bb1c3"), None);
        assert!(matches!(read_move(&pos, "hello"), Err(ReadMoveError::Syntax(_))));
        let two = Position::from_fen("4k3/8/8/8/8/8/8/R4RK1 w - - 0 1").unwrap();
        assert!(matches!(read_move(&two, "Rc1"), Err(ReadMoveError::Ambiguous(_))));
        // A ten-megabyte "move" is quoted short.
        let long = "x".repeat(10_000_000);
        assert!(read_move(&pos, &long).unwrap_err().to_string().len() < 200);
    }

    #[test]
    fn en_passant_and_disambiguation() {
        let ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
        assert_eq!(uci(ep, "exf6"), "e5f6");
        assert_eq!(uci(ep, "exf6 e.p."), "e5f6");
        assert_eq!(uci(ep, "e5f6ep"), "e5f6");
        let rooks = "4k3/8/8/8/8/8/8/R3K2R w - - 0 1";
        assert!(uci(rooks, "Rd1").starts_with("ERR") || uci(rooks, "Rd1") == "a1d1");
        assert_eq!(uci(rooks, "Rf1"), "h1f1");
        let two = "4k3/8/8/8/8/8/8/R4RK1 w - - 0 1";
        assert!(uci(two, "Rc1").contains("ambiguous"));
        assert_eq!(uci(two, "Rac1"), "a1c1");
        assert_eq!(uci(two, "Rab1"), "a1b1");
        assert!(uci(two, "Re1").starts_with("ERR") && uci(two, "Re1").contains("ambiguous"));
    }

    #[test]
    fn chess960_castling_both_ways() {
        let fen = "k7/8/8/8/8/8/8/4RK1R w H - 0 1";
        let pos = Position::from_fen(fen).unwrap();
        assert!(pos.is_chess960());
        assert_eq!(uci(fen, "f1h1"), "f1h1");
        assert_eq!(uci(fen, "O-O"), "f1h1");
        assert_eq!(uci(fen, "f1g1"), "f1g1");
        assert!(!read_move(&pos, "f1g1").unwrap().is_castling());
    }

    #[test]
    fn uci_form_without_a_board() {
        assert_eq!(uci_form("Ng1-f3").as_deref(), Some("g1f3"));
        assert_eq!(uci_form("a7a8Q").as_deref(), Some("a7a8q"));
        assert_eq!(uci_form("Nf3"), None);
    }
}
