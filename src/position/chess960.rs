//! The 960 Chess960 start positions in Scharnagl's numbering (0 to 959;
//! 518 is the standard start position), the numbering engines and
//! python-chess (`chess.Board.from_chess960_pos`) use.

use super::Position;

/// Where the two knights stand among the five squares left after the
/// bishops and the queen, by the number's last digit (Scharnagl's table).
const KNIGHTS: [(usize, usize); 10] = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];

/// The back rank of start position `n` (`RNBQKBNR` for 518), files a to h;
/// `None` past 959.
pub fn chess960_back_rank(n: u32) -> Option<[char; 8]> {
    if n > 959 {
        return None;
    }
    let n = n as usize;
    let mut rank = [' '; 8];
    // A light-squared bishop on b, d, f or h; a dark-squared one on a, c, e or g.
    rank[2 * (n % 4) + 1] = 'B';
    rank[2 * (n / 4 % 4)] = 'B';
    let empty = |rank: &[char; 8]| -> Vec<usize> { (0..8).filter(|&f| rank[f] == ' ').collect() };
    let n = n / 16;
    rank[empty(&rank)[n % 6]] = 'Q';
    let (a, b) = KNIGHTS[n / 6];
    let free = empty(&rank);
    rank[free[a]] = 'N';
    rank[free[b]] = 'N';
    // Rook, king, rook on the three squares left, in that order.
    for (f, piece) in empty(&rank).into_iter().zip(['R', 'K', 'R']) {
        rank[f] = piece;
    }
    Some(rank)
}

/// The FEN of start position `n`, castling in Shredder-FEN (`HAha` for 518);
/// `None` past 959.
pub fn chess960_start_fen(n: u32) -> Option<String> {
    let white: String = chess960_back_rank(n)?.iter().collect();
    let black = white.to_lowercase();
    let rooks: Vec<char> =
        white.char_indices().filter(|&(_, c)| c == 'R').map(|(i, _)| (b'A' + i as u8) as char).collect();
    let castling: String =
        [rooks[1], rooks[0], rooks[1].to_ascii_lowercase(), rooks[0].to_ascii_lowercase()].iter().collect();
    Some(format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {castling} - 0 1"))
}

/// Start position `n` as a Chess960 position; `None` past 959.
pub fn chess960_start(n: u32) -> Option<Position> {
    let mut pos = Position::from_fen(&chess960_start_fen(n)?).ok()?;
    pos.set_chess960(true);
    Some(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_numbers() {
        // Scharnagl's table (Chess Programming Wiki, "Chess960 Positions").
        assert_eq!(chess960_start_fen(518).unwrap(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
        assert_eq!(chess960_back_rank(0).unwrap().iter().collect::<String>(), "BBQNNRKR");
        assert_eq!(chess960_back_rank(959).unwrap().iter().collect::<String>(), "RKRNNQBB");
        assert!(chess960_start(960).is_none());
        let all: std::collections::HashSet<[char; 8]> = (0..960).filter_map(chess960_back_rank).collect();
        assert_eq!(all.len(), 960);
    }
}
