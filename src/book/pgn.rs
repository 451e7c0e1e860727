//! Reading PGN into a book tree: tags, move numbers, SAN (UCI and long
//! algebraic are accepted too), variations (RAV, nested), comments (`{...}`,
//! `; ...`), `%` escape lines, NAGs and results. Several games merge into one
//! tree. A move marked `?` or `??` (or `$2`, `$4`) is recognised but not
//! played; a comment `[%style open|closed|gambit]` tags the move before it.
//!
//! Why not the `pgn-reader` crate: it is GPL-3.0 (this project is MIT) and it
//! brings a second chess library (shakmaty) to parse SAN that we already read.

use super::tree::{NodeId, Style, Tree};
use crate::chess::notation;
use crate::{Move, Position};

/// Why a PGN file cannot become a book, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("game {game}{at} (line {line}): {message}")]
pub struct PgnError {
    /// 1-based game number.
    pub game: usize,
    /// 1-based line in the file.
    pub line: usize,
    /// `, move 12... "Nxe5"` when a move is at fault.
    pub at: String,
    /// What is wrong.
    pub message: String,
}

/// What a PGN file held.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PgnSummary {
    /// Games read.
    pub games: usize,
    /// Moves read (a move that was already in the tree counts again).
    pub moves: usize,
}

/// Reads every game of `input` into `tree`.
pub fn read_pgn(input: &[u8], tree: &mut Tree) -> Result<PgnSummary, PgnError> {
    let mut reader = Reader { lexer: Lexer { input, pos: 0, line: 1 }, tree, summary: PgnSummary::default() };
    reader.run()?;
    Ok(reader.summary)
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token<'a> {
    /// `[Name "value"]`.
    Tag(String, String),
    Comment(&'a [u8]),
    Open,
    Close,
    Nag(u32),
    /// A move, a move number, a result or an annotation glyph.
    Symbol(&'a str),
}

struct Lexer<'a> {
    input: &'a [u8],
    pos: usize,
    line: usize,
}

fn is_symbol_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"_+#=:-/.*!?".contains(&b)
}

impl<'a> Lexer<'a> {
    fn error(&self, message: impl Into<String>) -> (usize, String) {
        (self.line, message.into())
    }

    fn bump(&mut self) -> Option<u8> {
        let b = *self.input.get(self.pos)?;
        self.pos += 1;
        if b == b'\n' {
            self.line += 1;
        }
        Some(b)
    }

    fn skip_line(&mut self) {
        while let Some(b) = self.bump() {
            if b == b'\n' {
                break;
            }
        }
    }

    /// The next token, or `None` at the end.
    fn next(&mut self) -> Result<Option<Token<'a>>, (usize, String)> {
        loop {
            let at_line_start = self.pos == 0 || self.input[self.pos - 1] == b'\n';
            let Some(&b) = self.input.get(self.pos) else { return Ok(None) };
            match b {
                b'%' if at_line_start => self.skip_line(),
                b';' => self.skip_line(),
                _ if b.is_ascii_whitespace() => {
                    self.bump();
                }
                b'{' => {
                    let (start, line) = (self.pos + 1, self.line);
                    loop {
                        match self.bump() {
                            Some(b'}') => return Ok(Some(Token::Comment(&self.input[start..self.pos - 1]))),
                            Some(_) => {}
                            None => return Err((line, "a comment `{` is never closed".to_string())),
                        }
                    }
                }
                b'[' => return self.tag().map(Some),
                b'(' => {
                    self.bump();
                    return Ok(Some(Token::Open));
                }
                b')' => {
                    self.bump();
                    return Ok(Some(Token::Close));
                }
                b'$' => {
                    self.bump();
                    let start = self.pos;
                    while self.input.get(self.pos).is_some_and(u8::is_ascii_digit) {
                        self.pos += 1;
                    }
                    let digits = std::str::from_utf8(&self.input[start..self.pos]).unwrap_or("");
                    let nag = digits.parse().map_err(|_| self.error(format!("bad NAG `${digits}`")))?;
                    return Ok(Some(Token::Nag(nag)));
                }
                _ if is_symbol_byte(b) => {
                    let start = self.pos;
                    while self.input.get(self.pos).copied().is_some_and(is_symbol_byte) {
                        self.pos += 1;
                    }
                    // Symbol bytes are ASCII.
                    let text = std::str::from_utf8(&self.input[start..self.pos]).expect("ASCII");
                    return Ok(Some(Token::Symbol(text)));
                }
                _ => {
                    let shown =
                        if b.is_ascii_graphic() { format!("{:?}", b as char) } else { format!("byte 0x{b:02x}") };
                    return Err(self.error(format!("unexpected {shown} in the moves")));
                }
            }
        }
    }

    /// `[Name "value"]` on one line.
    fn tag(&mut self) -> Result<Token<'a>, (usize, String)> {
        let line = self.line;
        let start = self.pos;
        let mut in_string = false;
        let mut escaped = false;
        let mut value = Vec::new();
        let mut name = Vec::new();
        self.bump();
        loop {
            let Some(b) = self.bump() else { return Err((line, "a tag `[` is never closed".into())) };
            if b == b'\n' {
                return Err((line, "a tag `[` is not closed on its line".into()));
            }
            if in_string {
                match (escaped, b) {
                    (false, b'\\') => escaped = true,
                    (false, b'"') => in_string = false,
                    _ => {
                        value.push(b);
                        escaped = false;
                    }
                }
            } else {
                match b {
                    b'"' => in_string = true,
                    b']' => break,
                    _ if b.is_ascii_alphanumeric() || b == b'_' => name.push(b),
                    _ if b.is_ascii_whitespace() => {}
                    _ => {
                        let text = String::from_utf8_lossy(&self.input[start..self.pos]);
                        return Err((line, format!("malformed tag {text:?}")));
                    }
                }
            }
        }
        Ok(Token::Tag(String::from_utf8_lossy(&name).into_owned(), String::from_utf8_lossy(&value).into_owned()))
    }
}

/// Where the reader stands in the tree.
#[derive(Clone, Copy)]
struct Place {
    node: NodeId,
    pos: Position,
}

struct Reader<'a, 't> {
    lexer: Lexer<'a>,
    tree: &'t mut Tree,
    summary: PgnSummary,
}

/// One game being read.
struct Game {
    number: usize,
    cur: Place,
    /// The place before the last move (where a variation of it starts), and
    /// the last move's node.
    prev: Option<(Place, NodeId)>,
    variations: Vec<(Place, Option<(Place, NodeId)>)>,
    started_moves: bool,
}

impl Reader<'_, '_> {
    fn fail(&self, game: usize, line: usize, message: impl Into<String>) -> PgnError {
        PgnError { game, line, at: String::new(), message: message.into() }
    }

    fn new_game(&mut self) -> Game {
        self.summary.games += 1;
        let root = Place { node: Tree::ROOT, pos: *self.tree.root_position() };
        Game { number: self.summary.games, cur: root, prev: None, variations: Vec::new(), started_moves: false }
    }

    fn run(&mut self) -> Result<(), PgnError> {
        let mut game: Option<Game> = None;
        loop {
            let number = game.as_ref().map_or(self.summary.games + 1, |g| g.number);
            let token = self.lexer.next().map_err(|(line, m)| self.fail(number, line, m))?;
            let line = self.lexer.line;
            let Some(token) = token else { break };
            // A tag after moves starts the next game (a missing result).
            if matches!(token, Token::Tag(..)) && game.as_ref().is_some_and(|g| g.started_moves) {
                let g = game.take().expect("checked");
                self.end_game(&g, line)?;
            }
            if let Token::Symbol("1-0" | "0-1" | "1/2-1/2" | "*") = token {
                if let Some(g) = game.take() {
                    self.end_game(&g, line)?;
                }
                continue;
            }
            let g = match game.as_mut() {
                Some(g) => g,
                None => game.insert(self.new_game()),
            };
            match token {
                Token::Tag(name, value) => self.tag(g, line, &name, &value)?,
                Token::Comment(text) => self.comment(g, line, text)?,
                Token::Nag(n) => {
                    if matches!(n, 2 | 4) {
                        self.mark_avoid(g, line)?;
                    }
                }
                Token::Open => {
                    let Some((before, _)) = g.prev else {
                        return Err(self.fail(g.number, line, "a variation `(` before any move it could replace"));
                    };
                    g.variations.push((g.cur, g.prev));
                    g.cur = before;
                    g.prev = None;
                    g.started_moves = true;
                }
                Token::Close => {
                    let Some((cur, prev)) = g.variations.pop() else {
                        return Err(self.fail(g.number, line, "`)` closes no variation"));
                    };
                    g.cur = cur;
                    g.prev = prev;
                }
                Token::Symbol(text) => self.symbol(g, line, text)?,
            }
        }
        if let Some(g) = game {
            self.end_game(&g, self.lexer.line)?;
        }
        Ok(())
    }

    fn end_game(&mut self, g: &Game, line: usize) -> Result<(), PgnError> {
        if !g.variations.is_empty() {
            return Err(self.fail(
                g.number,
                line,
                format!("{} variation(s) `(` not closed at the end of the game", g.variations.len()),
            ));
        }
        Ok(())
    }

    fn tag(&mut self, g: &mut Game, line: usize, name: &str, value: &str) -> Result<(), PgnError> {
        if g.started_moves {
            return Err(self.fail(g.number, line, format!("tag [{name}] among the moves")));
        }
        if name.eq_ignore_ascii_case("FEN") {
            let pos =
                Position::from_fen(value).map_err(|e| self.fail(g.number, line, format!("[FEN {value:?}]: {e}")))?;
            if !super::tree::same_position(&pos, self.tree.root_position()) {
                return Err(self.fail(
                    g.number,
                    line,
                    format!("[FEN {value:?}]: a book starts from the standard start position"),
                ));
            }
        }
        Ok(())
    }

    fn comment(&mut self, g: &mut Game, line: usize, text: &[u8]) -> Result<(), PgnError> {
        let text = String::from_utf8_lossy(text);
        let Some(start) = text.find("[%style") else { return Ok(()) };
        let rest = &text[start + 7..];
        let Some(end) = rest.find(']') else {
            return Err(self.fail(g.number, line, "`[%style` without its `]`"));
        };
        let Some((_, node)) = g.prev else {
            return Err(self.fail(g.number, line, "`[%style ...]` before any move"));
        };
        for name in rest[..end].split([' ', ',']).filter(|s| !s.is_empty()) {
            let style = Style::from_name(name).ok_or_else(|| {
                self.fail(g.number, line, format!("unknown style {name:?} (known: {})", Style::NAMES.join(", ")))
            })?;
            self.tree.node_mut(node).style.0 |= style.0;
        }
        Ok(())
    }

    fn mark_avoid(&mut self, g: &Game, line: usize) -> Result<(), PgnError> {
        let Some((_, node)) = g.prev else {
            return Err(self.fail(g.number, line, "an annotation before any move"));
        };
        self.tree.node_mut(node).play = false;
        Ok(())
    }

    fn symbol(&mut self, g: &mut Game, line: usize, text: &str) -> Result<(), PgnError> {
        g.started_moves = true;
        // A move number (`12.`, `12...`), possibly stuck to the move (`12.e4`).
        let text = match text.find(|c: char| !c.is_ascii_digit()) {
            Some(i) if i > 0 && text[i..].starts_with('.') => text[i..].trim_start_matches('.'),
            None => return Ok(()), // a bare number
            _ => text,
        };
        if text.is_empty() {
            return Ok(());
        }
        // Annotation glyphs on their own apply to the move before.
        if text.bytes().all(|b| b == b'!' || b == b'?') {
            if text == "?" || text == "??" {
                self.mark_avoid(g, line)?;
            }
            return Ok(());
        }
        let (mv, avoid) = read_move(&g.cur.pos, text).map_err(|message| PgnError {
            game: g.number,
            line,
            at: format!(", move {} {text:?}", move_number(&g.cur.pos)),
            message,
        })?;
        let before = g.cur;
        let node = self.tree.add_move(before.node, mv, !avoid);
        g.prev = Some((before, node));
        g.cur = Place { node, pos: before.pos.play(mv) };
        self.summary.moves += 1;
        Ok(())
    }
}

/// `12.` for White's move, `12...` for Black's.
pub fn move_number(pos: &Position) -> String {
    format!("{}{}", pos.fullmoves(), if pos.turn().is_white() { "." } else { "..." })
}

/// Reads one move in SAN, UCI or long algebraic notation; a trailing `?` or
/// `??` marks it "recognise but do not play" (`?!`, `!?`, `!` do not).
pub fn read_move(pos: &Position, text: &str) -> Result<(Move, bool), String> {
    let body = text.trim_end_matches(['!', '?']);
    let glyph = &text[body.len()..];
    let avoid = glyph == "?" || glyph == "??";
    let mv = notation::read_move(pos, body).map_err(|e| e.to_string())?;
    Ok((mv, avoid))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(pgn: &str) -> Result<Tree, PgnError> {
        let mut tree = Tree::new();
        read_pgn(pgn.as_bytes(), &mut tree)?;
        Ok(tree)
    }

    fn lines(tree: &Tree) -> Vec<String> {
        let mut out = Vec::new();
        tree.for_each(|id, _| {
            if tree.children(id).is_empty() {
                let marks: String = tree.line_to(id).iter().map(|m| m.to_uci(false)).collect::<Vec<_>>().join(" ");
                out.push(marks);
            }
        });
        out
    }

    #[test]
    fn variations_comments_nags_and_games_merge() {
        let pgn = "[Event \"x\"]\n[White \"a \\\"b\\\"\"]\n\n1. e4 {best} e5 (1... c5 2. Nf3 (2. c3) d6) 2. Nf3 $1 Nc6 ; rest\n\
                   % escape\n3. Bb5 1-0\n\n[Event \"y\"]\n1.e4 e5 2.Nf3 Nf6 *\n1. d4 d5 *";
        let tree = read(pgn).unwrap();
        assert_eq!(
            lines(&tree),
            ["e2e4 e7e5 g1f3 b8c6 f1b5", "e2e4 e7e5 g1f3 g8f6", "e2e4 c7c5 g1f3 d7d6", "e2e4 c7c5 c2c3", "d2d4 d7d5"]
        );
    }

    #[test]
    fn question_marks_avoid() {
        let tree = read("1. e4 e5 2. Qh5?? (2. Nf3) Nc6 3. Bc4 Nf6? $4 4. Qxf7# *").unwrap();
        let mut avoided = Vec::new();
        tree.for_each(|id, pos| {
            if !tree.node(id).play {
                avoided.push(pos.san(tree.node(id).mv));
            }
        });
        assert_eq!(avoided, ["Qh5", "Nf6"]);
    }

    #[test]
    fn errors_name_game_move_and_line() {
        let err = read("1. e4 e5 *\n\n1. e4 e5\n2. Nf3 Nf6 3. Bb7 *").unwrap_err();
        assert_eq!((err.game, err.line), (2, 4));
        assert_eq!(err.to_string(), "game 2, move 3. \"Bb7\" (line 4): \"Bb7\" is not legal here");
        assert!(read("1. e4 (").unwrap_err().message.contains("not closed"));
        assert!(read("1. e4 e5 ) *").unwrap_err().message.contains("closes no variation"));
        assert!(read("( 1. e4 *").unwrap_err().message.contains("before any move"));
        assert!(read("1. e4 {open").unwrap_err().message.contains("never closed"));
        assert!(read("[FEN \"8/8/8/8/8/8/8/K1k5 w - - 0 1\"]\n1. Kb2 *")
            .unwrap_err()
            .message
            .contains("standard start"));
        assert!(read("1. e4 \u{1} *").unwrap_err().message.contains("byte 0x01"));
    }

    #[test]
    fn style_tags() {
        let tree = read("1. e4 e5 2. f4 {[%style gambit, open]} *").unwrap();
        let mut styles = Vec::new();
        tree.for_each(|id, _| styles.push(tree.node(id).style.names()));
        assert_eq!(styles, [vec![], vec![], vec!["open", "gambit"]]);
    }
}
