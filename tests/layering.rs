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
//!   pipe ends the run quietly), never with `print!`/`println!`;
//! - inside `src/variants/` the same holds for its rooms (`board/`,
//!   `rules/`, `moves/`, ...; see `src/variants/mod.rs`): every room has a
//!   layer and imports only lower rooms, the files of a room import each
//!   other in no circle, and no file passes 600 lines.

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
    ("serve", 7),       // our generator as a UCI/USI/xboard engine (chess and variants)
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

fn ident(s: &str) -> String {
    s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect()
}

/// The first name of each path after a `prefix::`: `a` for `a::b`, and `a`,
/// `b` for `{a::x, b}`.
fn first_names(rest: &str) -> Vec<String> {
    let Some(group) = rest.strip_prefix('{') else { return vec![ident(rest)] };
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
}

/// The rooms a file's code refers to through `crate::`.
fn imported_rooms(code: &str) -> BTreeSet<String> {
    let mut rooms = BTreeSet::new();
    let reexport = |name: &str| ROOT_REEXPORTS.iter().find(|(n, _)| *n == name).map(|(_, room)| room.to_string());
    for (at, _) in code.match_indices("crate::") {
        for name in first_names(&code[at + "crate::".len()..]).into_iter().filter(|n| !n.is_empty()) {
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

// ---- The rooms inside src/variants/ (see src/variants/mod.rs) ----

/// Each room of `src/variants/`, lowest first. A new room must be given one
/// here (and in `src/variants/mod.rs` and docs/architecture.md).
const VARIANT_ROOMS: &[(&str, u32)] = &[
    ("betza", 0),   // the XBetza parser and its compiler to leg code
    ("board", 0),   // geometry, the padded mailbox, cell sets, Position
    ("rules", 1),   // the typed rules (Laws), read from variants.ini keys
    ("moves", 2),   // generation: leg interpreter, a file per rule, legality, play
    ("variant", 3), // the variant as a whole, its FEN, variants.ini, the built-ins
    ("count", 4),   // perft and its last-ply counters
    ("hunt", 5),    // what the hunt needs: Rules, hints, fuzz walks, betza show
];

/// What `src/variants/mod.rs` re-exports, and from which room (`crate::variants::Variant`).
const VARIANT_REEXPORTS: &[(&str, &str)] = &[
    ("Position", "board"),
    ("Move", "moves"),
    ("Initial", "variant"),
    ("PieceDef", "variant"),
    ("Variant", "variant"),
];

/// The longest file of `src/variants/`, in lines.
const VARIANT_FILE_LINES: usize = 600;

fn variants_dir() -> PathBuf {
    src().join("variants")
}

/// A file of `src/variants/` by its path from there (`moves/legal.rs`, `moves/mod.rs`).
fn variant_files() -> Vec<String> {
    let mut files = Vec::new();
    rust_files(&variants_dir(), &mut files);
    files.iter().map(|p| p.strip_prefix(variants_dir()).unwrap().to_string_lossy().replace('\\', "/")).collect()
}

fn variant_layer(room: &str) -> u32 {
    VARIANT_ROOMS.iter().find(|(r, _)| *r == room).map(|(_, l)| *l).unwrap_or_else(|| {
        panic!("src/variants/{room} has no layer: give it one in tests/layering.rs (and in src/variants/mod.rs)")
    })
}

/// The module path of a file (`moves/legal.rs` is `[moves, legal]`,
/// `moves/mod.rs` is `[moves]`).
fn module_of(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file.trim_end_matches(".rs").split('/').map(String::from).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The file a module path inside `src/variants/` names: the file of its
/// first two names if there is one (`[moves, legal, Screen]` is
/// `moves/legal.rs`), else the room's `mod.rs` (an item it re-exports).
fn file_of(path: &[String], files: &[String]) -> Option<String> {
    let room = path.first()?;
    if let Some((_, room)) = VARIANT_REEXPORTS.iter().find(|(n, _)| n == room) {
        return Some(format!("{room}/mod.rs"));
    }
    if let Some(name) = path.get(1) {
        for candidate in [format!("{room}/{name}.rs"), format!("{room}/{name}/mod.rs")] {
            if files.contains(&candidate) {
                return Some(candidate);
            }
        }
    }
    let own = format!("{room}/mod.rs");
    files.contains(&own).then_some(own).or_else(|| Some(format!("{room}.rs")))
}

/// The files of `src/variants/` that `code` (of `file`) imports: paths
/// through `crate::variants::`, `super::` (any number), `self::`, and in a
/// `mod.rs` the `use` of its own modules.
fn variant_imports(file: &str, code: &str, files: &[String]) -> BTreeSet<String> {
    let module = module_of(file);
    let mut paths: Vec<Vec<String>> = Vec::new();
    for (at, _) in code.match_indices("crate::variants::") {
        for name in first_names(&code[at + "crate::variants::".len()..]) {
            let rest = &code[at + "crate::variants::".len() + name.len()..];
            let mut path = vec![name.clone()];
            if let Some(after) = rest.strip_prefix("::") {
                path.push(ident(after));
            }
            paths.push(path);
        }
    }
    let bytes = code.as_bytes();
    for (at, _) in code.match_indices("super::") {
        // Only where a path starts (not the second `super` of `super::super`).
        if at >= 2 && &bytes[at - 2..at] == b"::" {
            continue;
        }
        let mut rest = &code[at..];
        let mut up = 0;
        while let Some(r) = rest.strip_prefix("super::") {
            rest = r;
            up += 1;
        }
        let base = &module[..module.len().saturating_sub(up)];
        for name in first_names(rest) {
            let mut path = base.to_vec();
            path.push(name);
            paths.push(path);
        }
    }
    let own_modules = |text: &str| -> Vec<Vec<String>> {
        let mut found = Vec::new();
        for line in text.lines() {
            let line = line.trim_start().trim_start_matches("pub ").trim_start_matches("pub(crate) ");
            if let Some(rest) = line.strip_prefix("use ").map(|r| r.trim_start_matches("self::")) {
                for name in first_names(rest) {
                    found.push(module.iter().cloned().chain([name]).collect());
                }
            }
        }
        found
    };
    if file.ends_with("mod.rs") {
        paths.extend(own_modules(code));
    }
    paths
        .into_iter()
        .filter(|p| p.first().is_some_and(|n| !n.is_empty()))
        .filter_map(|p| file_of(&p, files))
        .filter(|target| target != file && files.contains(target))
        .collect()
}

/// file -> files it imports, for every file of a room (not the house's own
/// `mod.rs`, which declares and re-exports the rooms), unit tests left out.
fn variant_graph() -> BTreeMap<String, BTreeSet<String>> {
    let files = variant_files();
    files
        .iter()
        .filter(|f| f.contains('/'))
        .map(|f| {
            let text = std::fs::read_to_string(variants_dir().join(f)).unwrap();
            (f.clone(), variant_imports(f, &without_unit_tests(&code_only(&text)), &files))
        })
        .collect()
}

fn room_of(file: &str) -> &str {
    file.split('/').next().unwrap()
}

#[test]
fn variant_rooms_import_only_lower_rooms() {
    let mut wrong = Vec::new();
    for (file, targets) in variant_graph() {
        for target in targets {
            let (from, to) = (room_of(&file), room_of(&target));
            if from != to && variant_layer(to) >= variant_layer(from) {
                wrong.push(format!(
                    "src/variants/{file} imports src/variants/{target}: {to}/ (layer {}) from {from}/ (layer {})",
                    variant_layer(to),
                    variant_layer(from)
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports running up or across the rooms of src/variants/ (see its mod.rs):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn variant_files_import_each_other_in_no_circle() {
    let graph = variant_graph();
    fn visit(
        file: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        colour: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match colour.get(file) {
            Some(2) => return None,
            Some(1) => {
                let start = stack.iter().position(|f| f == file).unwrap();
                return Some(stack[start..].iter().cloned().chain([file.to_string()]).collect());
            }
            _ => {}
        }
        colour.insert(file.to_string(), 1);
        stack.push(file.to_string());
        for target in graph.get(file).into_iter().flatten() {
            if let Some(cycle) = visit(target, graph, colour, stack) {
                return Some(cycle);
            }
        }
        stack.pop();
        colour.insert(file.to_string(), 2);
        None
    }
    let mut colour = BTreeMap::new();
    for file in graph.keys() {
        if let Some(cycle) = visit(file, &graph, &mut colour, &mut Vec::new()) {
            panic!("files of src/variants/ import each other in a circle: {}", cycle.join(" -> "));
        }
    }
}

#[test]
fn variant_files_stay_short() {
    let long: Vec<String> = variant_files()
        .into_iter()
        .filter_map(|f| {
            let lines = std::fs::read_to_string(variants_dir().join(&f)).unwrap().lines().count();
            (lines > VARIANT_FILE_LINES).then(|| format!("src/variants/{f}: {lines} lines"))
        })
        .collect();
    assert!(
        long.is_empty(),
        "files of src/variants/ over {VARIANT_FILE_LINES} lines (split them by what they hold):\n{}",
        long.join("\n")
    );
}

#[test]
fn the_variant_checker_sees_imports() {
    // The checks above cannot fail if these helpers see nothing.
    let files: Vec<String> =
        ["moves/legal.rs", "moves/movegen.rs", "moves/mod.rs", "board/mod.rs", "hunt/fuzz.rs", "rules/mod.rs"]
            .map(String::from)
            .to_vec();
    let code = "use super::movegen::Tables;\nuse crate::variants::hunt::fuzz::x;\nuse super::super::board::Side;\n\
                use crate::variants::{rules::Laws, Position};";
    let seen = variant_imports("moves/legal.rs", code, &files);
    let want = ["moves/movegen.rs", "hunt/fuzz.rs", "board/mod.rs", "rules/mod.rs"];
    assert_eq!(seen, want.iter().map(|s| s.to_string()).collect(), "{seen:?}");
    assert_eq!(
        variant_imports("moves/mod.rs", "pub use legal::Screen;\n", &files),
        ["moves/legal.rs".to_string()].into()
    );
    let graph = variant_graph();
    assert!(
        graph["count/perft.rs"].contains("variant/mod.rs") || graph["count/perft.rs"].contains("variant/definition.rs"),
        "{graph:?}"
    );
    assert!(graph["moves/movegen.rs"].contains("moves/pawn_path.rs"), "{graph:?}");
}
