//! The architecture, checked from the code's imports (see
//! docs/architecture.md, "Layers and rooms"):
//! - every room of the library (a folder or file directly under `src/`) has a
//!   layer, and an import (`use crate::...`, `crate::...` paths, and the
//!   root's re-exports such as `crate::Position`) only ever goes down to a
//!   lower layer: never up, never sideways to another room of the same layer
//!   (the games never use each other, nor the tools the games), and the hunt
//!   (`engines`, `verify`) reaches the games only through `rules`;
//! - so the rooms form no cycle (checked on its own as well);
//! - the library neither prints nor exits: no `print!`, `println!`,
//!   `eprint!`, `eprintln!`, `dbg!`, `std::process::exit`, `io::stdout` or
//!   `io::stderr` outside `src/main.rs` and `src/cli/`;
//! - the binary writes standard output with `writeln!(out, ...)?` (a closed
//!   pipe ends the run quietly), never with `print!`/`println!`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each room's layer, lowest first. A new room must be given one here.
const LAYERS: &[(&str, u32)] = &[
    ("input", 0),       // bounded reading of files and standard input; quoting input in messages
    ("board", 0),       // squares, bitboards, pieces, the move vocabulary
    ("attacks", 1),     // reference walker, magic and rotated lookups
    ("position", 2),    // Position, FEN, make move
    ("movegen", 3),     // legal moves, UCI
    ("perft", 4),       // the perft drivers
    ("tools", 5),       // butterfly, rotated dump, magic numbers
    ("rules", 5),       // the trait through which the hunt serves every game
    ("chess", 6),       // games: each on the shared layers, never on another game
    ("variants", 6),    //
    ("tictacchess", 6), //
    ("book", 7),        // chess opening books: on chess (SAN, the move order)
    ("engines", 7),     // anything that can divide (knows games only through rules)
    ("verify", 8),      // diff, bisection, suites
];

/// Downward imports that are still forbidden: the hunt (engines, verify)
/// knows the games only through `rules`.
const FORBIDDEN: &[(&str, &str)] = &[
    ("engines", "chess"),
    ("verify", "chess"),
    ("engines", "variants"),
    ("engines", "tictacchess"),
    ("engines", "book"),
    ("verify", "variants"),
    ("verify", "tictacchess"),
    ("verify", "book"),
];

/// Rooms that are the crate root, not a room.
const ROOT_FILES: &[&str] = &["lib"];

/// What the crate root re-exports, and from which room (`crate::Position`).
const ROOT_REEXPORTS: &[(&str, &str)] = &[
    ("Bitboard", "board"),
    ("ByColor", "board"),
    ("Color", "board"),
    ("File", "board"),
    ("Piece", "board"),
    ("Rank", "board"),
    ("Role", "board"),
    ("Square", "board"),
    ("Move", "board"),
    ("MoveList", "board"),
    ("Position", "position"),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The library's files with their rooms (`src/perft/fast/count.rs` is in `perft`).
fn library_files() -> Vec<(String, PathBuf)> {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    files
        .into_iter()
        .filter_map(|path| {
            let rel = path.strip_prefix(src()).unwrap();
            let first = rel.components().next().unwrap().as_os_str().to_string_lossy().into_owned();
            let room = first.trim_end_matches(".rs").to_string();
            (room != "cli" && room != "main" && !ROOT_FILES.contains(&room.as_str())).then_some((room, path))
        })
        .collect()
}

/// The text without comments, string and char literals (so that a doc
/// comment saying `println!` or a string "crate::x" is not code).
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            i += 2;
            while i < b.len() && !b[i..].starts_with(b"*/") {
                i += 1;
            }
            i += 2;
        } else if b[i] == b'r' && (b[i + 1..].starts_with(b"\"") || b[i + 1..].starts_with(b"#")) {
            // Raw string r"..." or r#"..."#.
            let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
            if b.get(i + 1 + hashes) != Some(&b'"') {
                out.push('r');
                i += 1;
                continue;
            }
            let end: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
            i += 2 + hashes;
            while i < b.len() && !b[i..].starts_with(&end) {
                i += 1;
            }
            i += end.len();
            out.push_str("\"\"");
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && b.get(i + 2) == Some(&b'\'') {
            i += 3;
            out.push_str("' '");
        } else if b[i] == b'\'' && b.get(i + 1) == Some(&b'\\') {
            i += 2;
            while i < b.len() && b[i] != b'\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// The rooms a file's code refers to through `crate::`.
fn imported_rooms(code: &str) -> BTreeSet<String> {
    let mut rooms = BTreeSet::new();
    let reexport = |name: &str| ROOT_REEXPORTS.iter().find(|(n, _)| *n == name).map(|(_, room)| room.to_string());
    let ident = |s: &str| -> String { s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect() };
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        let names: Vec<String> = if let Some(group) = rest.strip_prefix('{') {
            // `crate::{a::b, Position}`: the first name of every top-level item.
            let mut depth = 0;
            let inner: String = group
                .chars()
                .take_while(|&c| {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => return false,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    true
                })
                .collect();
            let mut items = Vec::new();
            let (mut depth, mut start) = (0, 0);
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        items.push(ident(inner[start..i].trim()));
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            items.push(ident(inner[start..].trim()));
            items
        } else {
            vec![ident(rest)]
        };
        for name in names.into_iter().filter(|n| !n.is_empty()) {
            if let Some(room) = reexport(&name) {
                rooms.insert(room);
            } else if name.chars().next().is_some_and(|c| c.is_lowercase()) {
                rooms.insert(name);
            }
        }
    }
    rooms
}

/// The code before a file's `#[cfg(test)]` module: unit tests may drive
/// generic code with a game (the hunt's tests use chess), the code may not.
fn without_unit_tests(code: &str) -> String {
    code.split("#[cfg(test)]").next().unwrap_or("").to_string()
}

fn layer(room: &str) -> u32 {
    LAYERS.iter().find(|(r, _)| *r == room).map(|(_, l)| *l).unwrap_or_else(|| {
        panic!("src/{room} has no layer: give it one in tests/layering.rs (and in docs/architecture.md)")
    })
}

/// room -> rooms it imports, with a file that does it.
fn room_graph() -> BTreeMap<String, BTreeMap<String, PathBuf>> {
    let mut graph: BTreeMap<String, BTreeMap<String, PathBuf>> = BTreeMap::new();
    for (room, path) in library_files() {
        let code = without_unit_tests(&code_only(&std::fs::read_to_string(&path).unwrap()));
        let entry = graph.entry(room.clone()).or_default();
        for target in imported_rooms(&code) {
            if target != room {
                entry.entry(target).or_insert_with(|| path.clone());
            }
        }
    }
    graph
}

#[test]
fn imports_only_go_down_the_layers() {
    let mut wrong = Vec::new();
    for (room, targets) in room_graph() {
        for (target, file) in targets {
            if FORBIDDEN.contains(&(room.as_str(), target.as_str())) {
                wrong.push(format!(
                    "{} imports the game {target} from {room}: the hunt knows games only through rules",
                    file.strip_prefix(src()).unwrap().display()
                ));
            } else if layer(&target) >= layer(&room) {
                wrong.push(format!(
                    "{} imports {target} (layer {}) from {room} (layer {})",
                    file.strip_prefix(src()).unwrap().display(),
                    layer(&target),
                    layer(&room)
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports running up or across the layers (see docs/architecture.md):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn rooms_form_no_cycle() {
    let graph = room_graph();
    // Depth-first search with colours: grey on the stack, black done.
    fn visit<'a>(
        room: &'a str,
        graph: &'a BTreeMap<String, BTreeMap<String, PathBuf>>,
        colour: &mut BTreeMap<&'a str, u8>,
        stack: &mut Vec<&'a str>,
    ) -> Option<Vec<String>> {
        match colour.get(room) {
            Some(2) => return None,
            Some(1) => {
                let start = stack.iter().position(|r| *r == room).unwrap();
                return Some(stack[start..].iter().chain([&room]).map(|r| r.to_string()).collect());
            }
            _ => {}
        }
        colour.insert(room, 1);
        stack.push(room);
        for target in graph.get(room).into_iter().flat_map(|t| t.keys()) {
            if let Some(cycle) = visit(target, graph, colour, stack) {
                return Some(cycle);
            }
        }
        stack.pop();
        colour.insert(room, 2);
        None
    }
    let mut colour = BTreeMap::new();
    for room in graph.keys() {
        if let Some(cycle) = visit(room, &graph, &mut colour, &mut Vec::new()) {
            panic!("the rooms form a cycle (see docs/architecture.md): {}", cycle.join(" -> "));
        }
    }
}

/// Where in `code` any of `needles` is used, as `file:line: needle`.
fn uses(path: &Path, needles: &[&str]) -> Vec<String> {
    let code = code_only(&std::fs::read_to_string(path).unwrap());
    let mut found = Vec::new();
    for (n, line) in code.lines().enumerate() {
        for needle in needles {
            let hit = line.match_indices(needle).any(|(at, _)| {
                // A whole name: `println!` but not `writeln!`, `eprintln!` apart from `println!`.
                !line[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_')
            });
            if hit {
                found.push(format!("{}:{}: {needle}", path.strip_prefix(src()).unwrap().display(), n + 1));
            }
        }
    }
    found
}

#[test]
fn the_library_neither_prints_nor_exits() {
    let needles = ["print!", "println!", "eprint!", "eprintln!", "dbg!", "process::exit", "io::stdout", "io::stderr"];
    let found: Vec<String> = library_files().iter().flat_map(|(_, path)| uses(path, &needles)).collect();
    assert!(
        found.is_empty(),
        "the library prints or exits (only the binary may; see docs/architecture.md):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_binary_writes_stdout_with_writeln() {
    let mut files = vec![src().join("main.rs")];
    rust_files(&src().join("cli"), &mut files);
    let found: Vec<String> = files.iter().flat_map(|path| uses(path, &["print!", "println!", "dbg!"])).collect();
    assert!(found.is_empty(), "print!/println! abort on a closed pipe; use writeln!(out, ...)?:\n{}", found.join("\n"));
}

#[test]
fn the_checker_sees_imports_and_prints() {
    // The checks above cannot fail if these helpers see nothing.
    let code = code_only(
        "use crate::{board::Square, Position};\n// crate::verify\nlet s = \"crate::engines\";\nprintln!(\"x\");",
    );
    assert_eq!(imported_rooms(&code), ["board", "position"].iter().map(|s| s.to_string()).collect());
    assert!(code.contains("println!") && !code.contains("verify") && !code.contains("engines"));
    let graph = room_graph();
    assert!(graph["perft"].contains_key("position"), "{graph:?}");
    assert!(graph["verify"].contains_key("engines"), "{graph:?}");
}
