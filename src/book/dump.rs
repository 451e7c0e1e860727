//! A book as text: the document's parenthesised form, and PGN with
//! variations.
//!
//! Parenthesised form: each move in book order, `(` before a move that has
//! another choice after its line, `)` after a move whose line ends; `?` after
//! a move to recognise but not play, `{open}` (etc.) for style tags, and
//! `@N` for a transposition pointer to the node at byte N.

use super::format::RawBook;
use super::tree::{move_at, move_byte_offset, DecodeError, DecodeErrorKind, Style, Tree};
use crate::{Move, Position};

/// How moves are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notation {
    /// Standard algebraic notation (`Nf3`).
    San,
    /// UCI long algebraic notation (`g1f3`).
    Uci,
}

/// The parenthesised form, wrapped at `width` columns.
pub fn parenthesised(raw: &RawBook, notation: Notation, width: usize) -> Result<String, DecodeError> {
    let mut out = Wrapper::new(width);
    let mut line: Vec<Position> = vec![Position::startpos()];
    for (i, node) in raw.nodes.iter().enumerate() {
        line.truncate(node.ply as usize);
        let before = line[node.ply as usize - 1];
        let mv = move_at(&before, node.index).ok_or_else(|| DecodeError {
            offset: move_byte_offset(raw, i as u32),
            node: i as u32,
            kind: DecodeErrorKind::IndexOutOfRange { index: node.index, count: before.legal_moves().len() },
        })?;
        let mut token = String::new();
        if node.has_sibling() {
            token.push('(');
        }
        token.push_str(&match notation {
            Notation::San => before.san(mv),
            Notation::Uci => mv.to_uci(before.is_chess960()),
        });
        if node.avoid() {
            token.push('?');
        }
        let style = Style(node.style());
        if !style.is_empty() {
            token.push_str(&format!("{{{}}}", style.names().join(",")));
        }
        if let Some(target) = node.pointer() {
            token.push_str(&format!("@{}", raw.nodes[target as usize].offset));
        }
        if !node.has_children() {
            token.push(')');
        }
        out.push(&token);
        line.push(before.play(mv));
    }
    Ok(out.finish())
}

enum Step {
    /// The choices after a node.
    Line(u32, Position),
    Move(u32, Position),
    Open,
    Close,
}

/// The tree as one PGN game with variations: the first choice of every
/// position is the main line, the others its variations. A transposition
/// pointer becomes a comment naming the line where the moves go on.
pub fn pgn(tree: &Tree, width: usize) -> String {
    let mut out = String::new();
    for (name, value) in [
        ("Event", "chesstool book"),
        ("Site", "?"),
        ("Date", "????.??.??"),
        ("Round", "?"),
        ("White", "?"),
        ("Black", "?"),
        ("Result", "*"),
    ] {
        out.push_str(&format!("[{name} \"{value}\"]\n"));
    }
    out.push('\n');
    let parents = tree.parents();
    let mut text = Wrapper::new(width);
    let mut need_number = true;
    let mut stack = vec![Step::Line(Tree::ROOT, *tree.root_position())];
    while let Some(step) = stack.pop() {
        match step {
            Step::Line(id, pos) => {
                let children = tree.children(id);
                let Some((&main, alternatives)) = children.split_first() else { continue };
                stack.push(Step::Line(main, pos.play(tree.node(main).mv)));
                for &alt in alternatives.iter().rev() {
                    stack.push(Step::Close);
                    stack.push(Step::Line(alt, pos.play(tree.node(alt).mv)));
                    stack.push(Step::Move(alt, pos));
                    stack.push(Step::Open);
                }
                stack.push(Step::Move(main, pos));
            }
            Step::Move(id, pos) => {
                let node = tree.node(id);
                if pos.turn().is_white() {
                    text.push(&format!("{}.", pos.fullmoves()));
                } else if need_number {
                    text.push(&format!("{}...", pos.fullmoves()));
                }
                need_number = false;
                let mut san = pos.san(node.mv);
                if !node.play {
                    san.push('?');
                }
                text.push(&san);
                if !node.style.is_empty() {
                    text.push(&format!("{{[%style {}]}}", node.style.names().join(" ")));
                    need_number = true;
                }
                if let Some(target) = node.link {
                    let line = tree.line_with(&parents, target);
                    let shown = super::tree::format_line(tree.root_position(), &line);
                    text.push(&format!("{{transposition: the line goes on after {shown}}}"));
                    need_number = true;
                }
            }
            Step::Open => {
                text.push("(");
                need_number = true;
            }
            Step::Close => {
                text.push(")");
                need_number = true;
            }
        }
    }
    text.push("*");
    out.push_str(&text.finish());
    out
}

/// Joins tokens with spaces (none after `(` or before `)`) into lines of at
/// most `width` columns where tokens allow.
struct Wrapper {
    width: usize,
    out: String,
    line_len: usize,
    glue: bool,
}

impl Wrapper {
    fn new(width: usize) -> Wrapper {
        Wrapper { width: width.max(1), out: String::new(), line_len: 0, glue: true }
    }

    fn push(&mut self, token: &str) {
        let glued = self.glue || token == ")";
        if !glued {
            if self.line_len + 1 + token.len() > self.width {
                self.out.push('\n');
                self.line_len = 0;
            } else {
                self.out.push(' ');
                self.line_len += 1;
            }
        }
        self.out.push_str(token);
        self.line_len += token.len();
        self.glue = token == "(";
    }

    fn finish(mut self) -> String {
        if !self.out.is_empty() {
            self.out.push('\n');
        }
        self.out
    }
}

/// Moves in UCI for messages.
pub fn uci_line(moves: &[Move]) -> String {
    moves.iter().map(|m| m.to_uci(false)).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::pgn::read_pgn;
    use crate::book::write::encode;

    /// The document's example tree, as PGN (with 1. c4 after it for its "etc.").
    const SPRACKLEN: &str =
        "1. e4 (1. d4 Nf6 (1... d5 2. c4 (2. Nf3) c6 (2... e6 3. Nc3) (2... dxc4) 3. Nf3) (1... f5) \
        2. c4 g6 (2... e6 3. Nc3 (3. Nf3) Bb4) 3. Nc3) (1. c4) e5 (1... c5 2. Nf3 d6 (2... Nc6) 3. d4) (1... e6) \
        2. Nf3 (2. f4) Nc6 (2... Nf6) 3. Bb5 (3. Bc4) a6 *";

    #[test]
    fn the_documents_tree() {
        let mut tree = Tree::new();
        read_pgn(SPRACKLEN.as_bytes(), &mut tree).unwrap();
        let (bytes, sizes) = encode(&tree).unwrap();
        assert_eq!((sizes.nodes, sizes.extension_bytes()), (34, 0));
        let raw = RawBook::parse(&bytes).unwrap();
        let text = parenthesised(&raw, Notation::San, usize::MAX).unwrap();
        assert_eq!(
            text.trim(),
            "(e4 (e5 (Nf3 (Nc6 (Bb5 a6) Bc4) Nf6) f4) (c5 Nf3 (d6 d4) Nc6) e6) \
             (d4 (Nf6 c4 (g6 Nc3) e6 (Nc3 Bb4) Nf3) (d5 (c4 (c6 Nf3) (e6 Nc3) dxc4) Nf3) f5) c4)"
        );
    }

    #[test]
    fn pgn_round_trip() {
        let mut tree = Tree::new();
        read_pgn(b"1. e4 e5 (1... c5?) 2. Nf3 {[%style open]} Nc6 (2... d6 3. d4) 3. Bb5 *\n1. d4 *", &mut tree)
            .unwrap();
        let text = pgn(&tree, 200);
        let mut back = Tree::new();
        read_pgn(text.as_bytes(), &mut back).unwrap();
        assert!(back.same_as(&tree), "{text}\n{}", pgn(&back, 200));
        assert!(
            text.contains("1. e4 (1. d4) 1... e5 (1... c5?) 2. Nf3 {[%style open]} 2... Nc6 (2... d6 3. d4) 3. Bb5 *"),
            "{text}"
        );
    }
}
