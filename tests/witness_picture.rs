//! The witness as a picture: `divide --svg FILE` and `suite --svg DIR` write
//! well-formed SVG that holds the board and the missing and extra moves, the
//! text report shows the board as a diagram, and the output-file policy
//! (`--force`, inputs refused) holds. Chess through examples/buggy_engine,
//! TicTacChess and a 10x10 variant through pasted divides.

use assert_cmd::Command;
use std::path::Path;
use std::time::Duration;

mod common;
use common::{buggy_engine, TempDir};

/// CPW's position 3: with `ep-pin`, the engine lets Black capture e.p. f4e3
/// after e2e4 although that opens the fourth rank to the rook b4.
const POSITION3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";

fn chesstool() -> Command {
    let mut cmd = Command::cargo_bin("chesstool").unwrap();
    cmd.timeout(Duration::from_secs(60));
    cmd
}

fn ep_pin_engine() -> String {
    format!("{} --bug ep-pin", buggy_engine().display())
}

/// A small XML well-formedness check: tags nest and close, attributes are
/// quoted, `&` starts an entity; and, where python3 is installed, its parser agrees.
fn assert_well_formed(svg: &str, path: &Path) {
    let mut stack: Vec<String> = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find('<') {
        let text = &rest[..start];
        for (i, _) in text.match_indices('&') {
            let entity = &text[i..text[i..].find(';').map_or(text.len(), |e| i + e + 1)];
            assert!(["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"].contains(&entity), "bad entity {entity:?}");
        }
        let end = rest[start..].find('>').expect("an unclosed tag") + start;
        let tag = &rest[start + 1..end];
        assert_eq!(tag.matches('"').count() % 2, 0, "unbalanced quotes in <{tag}>");
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop().as_deref(), Some(name.trim()), "</{name}> closes the wrong element");
        } else if !tag.ends_with('/') && !tag.starts_with('?') && !tag.starts_with('!') {
            stack.push(tag.split_whitespace().next().unwrap_or("").to_string());
        }
        rest = &rest[end + 1..];
    }
    assert!(stack.is_empty(), "unclosed elements {stack:?}");
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    if let Ok(out) = std::process::Command::new("python3")
        .args(["-c", "import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])"])
        .arg(path)
        .output()
    {
        assert!(out.status.success(), "python3's XML parser: {}", String::from_utf8_lossy(&out.stderr));
    }
}

/// Runs `cmd` with `--svg path`, which must find a difference (exit 1).
/// Returns its standard output and the SVG, checked to be well formed.
fn mismatch_with_svg(cmd: &mut Command, path: &Path) -> (String, String) {
    let out = cmd.arg("--svg").arg(path).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let svg = std::fs::read_to_string(path).unwrap();
    assert_well_formed(&svg, path);
    (String::from_utf8_lossy(&out.stdout).into_owned(), svg)
}

#[test]
fn divide_bisect_draws_the_witness_and_shows_a_diagram() {
    let dir = TempDir::new("divide-svg");
    let svg_path = dir.0.join("witness.svg");
    let (text, svg) = mismatch_with_svg(
        chesstool().args([
            "divide",
            "--fen",
            POSITION3,
            "--depth",
            "3",
            "--bisect",
            "-q",
            "--engine-uci",
            &ep_pin_engine(),
        ]),
        &svg_path,
    );
    // The diagram: Black to move after e2e4, the e.p. square in parentheses,
    // and the squares the hint names: the rook on b4 whose line the capture
    // opens, the pawn it takes and the king it exposes.
    assert!(text.contains("  4  . (R) .  . (P) p  . (k)\n"), "{text}");
    assert!(text.contains("  3  .  .  .  . (.) .  .  .\n"), "{text}");
    assert!(text.contains("Black to move") && text.contains("( ): e3 en passant square"), "{text}");
    assert!(text.contains("b4 attacking piece"), "{text}");
    assert!(svg.contains("path: e2e4"), "{svg}");
    assert!(svg.contains("extra: f4e3 (leaves the king in check"), "{svg}");
    assert!(svg.contains("from the rook on b4") && svg.contains("attacking piece"), "{svg}");
    assert!(svg.contains("url(#head-extra)") && svg.contains("stroke-dasharray"), "{svg}");
    assert!(svg.contains("en passant square") && svg.contains("Black to move"), "{svg}");
    // The 10 pieces of the witness, each a glyph (U+265A to U+265F).
    assert_eq!(svg.chars().filter(|c| ('\u{265a}'..='\u{265f}').contains(c)).count(), 10);

    // The same file again needs --force; with it, the file is replaced.
    let again = || {
        let mut cmd = chesstool();
        cmd.args(["divide", "--fen", POSITION3, "--depth", "3", "--bisect", "-q", "--engine-uci", &ep_pin_engine()]);
        cmd.arg("--svg").arg(&svg_path);
        cmd
    };
    let out = again().output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the file exists (--force replaces it)"));
    let out = again().arg("--force").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn the_svg_file_policy_and_usage() {
    let dir = TempDir::new("svg-policy");
    let paste = dir.file("paste.txt", b"e1e2: 1\ne1d1: 1\nd2f1: 1\n");
    let fen = "4k3/8/8/8/1b6/8/3N4/4K2r w - - 0 1";
    // The pasted divide is an input: never overwritten, not even with --force.
    let out = chesstool()
        .args(["divide", "--fen", fen, "--depth", "1", "--force", "--against"])
        .arg(&paste)
        .arg("--svg")
        .arg(&paste)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is also an input"));
    // Without an engine there is nothing to draw.
    let out = chesstool().args(["divide", "--depth", "1", "--svg", "x.svg"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--svg needs an engine"));
    // `--svg -` writes the picture instead of the report; not with --json.
    let out = chesstool()
        .args(["divide", "--fen", fen, "--depth", "1", "--svg", "-", "--against"])
        .arg(&paste)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let svg = String::from_utf8(out.stdout).unwrap();
    let svg_path = dir.file("stdout.svg", svg.as_bytes());
    assert_well_formed(&svg, &svg_path);
    // Missing and extra moves, each with its hint; the check and the pin marked.
    assert!(svg.contains("missing: e1f2 (king move out of check)"), "{svg}");
    assert!(svg.contains("extra: d2f1 (leaves the king in check"), "{svg}");
    assert!(svg.contains("url(#head-missing)") && svg.contains("url(#head-extra)"));
    for mark in ["king in check", "checking piece", "pinned piece", "pinning piece"] {
        assert!(svg.contains(mark), "{mark}");
    }
    let out = chesstool()
        .args(["divide", "--fen", fen, "--depth", "1", "--svg", "-", "--json", "--against"])
        .arg(&paste)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn suite_draws_one_picture_per_failing_position() {
    let dir = TempDir::new("suite-svg");
    // The first position of the shipped tricky suite (counts from Stockfish):
    // White's b5 pawn may not take c6 e.p. (the rook h5 would see the king a5).
    let tricky = std::fs::read_to_string(common::suite_path("tricky.epd")).unwrap();
    let first = tricky.lines().find(|l| !l.starts_with('#') && !l.trim().is_empty()).unwrap();
    let fen = first.split(';').next().unwrap().trim();
    let suite = dir.file("ep.epd", format!("{fen} ;D1 4 ;D2 56\n").as_bytes());
    let svg_dir = dir.0.join("pictures");
    let out = chesstool()
        .args(["suite", "-q", "--engine-uci", &ep_pin_engine()])
        .arg(&suite)
        .arg("--svg")
        .arg(&svg_dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("    6  .  . (.) .  .  .  .  .\n"), "{text}");
    let path = svg_dir.join("ep-line1.svg");
    let svg = std::fs::read_to_string(&path).unwrap();
    assert_well_formed(&svg, &path);
    assert!(svg.contains("extra: b5c6"), "{svg}");
    // Without an engine there is no witness to draw.
    let out = chesstool().arg("suite").arg(&suite).arg("--svg").arg(&svg_dir).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn tictacchess_and_a_ten_by_ten_variant_are_drawn_with_hands_and_checks() {
    let dir = TempDir::new("games-svg");
    // TicTacChess: our divide of the position by hand has B@c2 and a1c1;
    // the paste lacks them and has two illegal moves instead.
    let pos = "4/2n1/1N2/R2P Bpbr w";
    let mut paste = String::new();
    for m in ["B@a2", "B@a3", "B@a4", "B@b1", "B@b3", "B@b4", "B@c1", "B@c4", "B@d2", "B@d3", "B@d4"] {
        paste.push_str(&format!("{m}: 1\n"));
    }
    for m in ["a1a2", "a1a3", "a1a4", "a1b1", "b2a4", "b2c4", "b2d3", "d1d2", "B@b2", "b2c3"] {
        paste.push_str(&format!("{m}: 1\n"));
    }
    let paste = dir.file("ttc.txt", paste.as_bytes());
    let svg_path = dir.0.join("ttc.svg");
    let (text, svg) = mismatch_with_svg(
        chesstool().args(["tictacchess", "divide", "--pos", pos, "--depth", "1", "-q", "--against"]).arg(&paste),
        &svg_path,
    );
    assert!(text.contains("White to move; in hand: White B, Black pbr"), "{text}");
    for text in ["missing: B@c2", "missing: a1c1", "extra: B@b2", "extra: b2c3", "White's hand", "Black's hand"] {
        assert!(svg.contains(text), "{text}: {svg}");
    }

    // A 10x10 variant: the archbishop f3 checks the king e1, whose legal moves
    // are e1f1 and e1f2 (by hand: d1, d2, e2 are attacked, f3 guards them).
    let ini = dir.file(
        "v.ini",
        b"[grand10]\nmaxFile = 10\nmaxRank = 10\nking = k\nrook = r\nknight = n\ncustomPiece1 = a:BN\n\
          startFen = 4k5/10/10/10/10/10/10/5a4/2N7/R3K4R w - - 0 1\n",
    );
    let paste = dir.file("v.txt", b"e1f1: 1\ne1e2: 1\n");
    let svg_path = dir.0.join("v.svg");
    let (text, svg) = mismatch_with_svg(
        chesstool()
            .args(["divide", "--variant", "grand10", "--variant-path"])
            .arg(&ini)
            .args(["--depth", "1", "-q", "--against"])
            .arg(&paste),
        &svg_path,
    );
    assert!(text.contains(" 10  .  .  .  .  k  .  .  .  .  .\n"), "{text}");
    // The extra move's hint names the square it leaves attacked and the attacker: both marked.
    assert!(text.contains("e1e2 (leaves its king on e2 attacked by the customPiece1 (BN) on f3)"), "{text}");
    assert!(
        text.contains("( ): e1 king in check, e2 attacked square, f3 checking piece and attacking piece"),
        "{text}"
    );
    assert!(svg.contains("missing: e1f2") && svg.contains("extra: e1e2"), "{svg}");
    assert!(svg.contains(">10</text>") && svg.contains(">j</text>"), "ranks to 10, files to j");
}

/// Xiangqi's palaces and river: `+` on the empty palace squares of the
/// diagram, shaded palaces with their diagonals and a river band in the
/// picture. Our only move is d1d2 (by hand: c1 is outside the palace, and
/// on e1 the generals would face each other); the paste has d1c1 instead.
#[test]
fn xiangqi_witnesses_show_the_palaces_and_the_river() {
    let dir = TempDir::new("xiangqi-svg");
    let paste = dir.file("x.txt", b"d1c1: 1\n");
    let svg_path = dir.0.join("x.svg");
    let (text, svg) = mismatch_with_svg(
        chesstool()
            .args(["divide", "--variant", "xiangqi", "--fen", "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"])
            .args(["--depth", "1", "-q", "--against"])
            .arg(&paste),
        &svg_path,
    );
    assert!(text.contains("  1  .  .  .  K  +  +  .  .  .\n"), "{text}");
    assert!(text.contains(" 10  .  .  .  +  k  +  .  .  .\n"), "{text}");
    assert!(text.contains("+: the palace; the river runs between ranks 5 and 6"), "{text}");
    assert!(text.contains("the general may not leave the palace"), "{text}");
    for part in ["#e3c58a", "<title>river</title>", "shaded: the palace", "missing: d1d2"] {
        assert!(svg.contains(part), "{part}: {svg}");
    }
}

/// An Amazons paste with one move of the 2176: at most 24 missing moves
/// are drawn and outlined, and the legend says how many more there are.
#[test]
fn a_witness_with_thousands_of_moves_draws_two_dozen() {
    let dir = TempDir::new("amazons-svg");
    let paste = dir.file("a.txt", b"d1d2,d2d3: 1\n");
    let svg_path = dir.0.join("a.svg");
    let (text, svg) = mismatch_with_svg(
        chesstool().args(["divide", "--variant", "amazons", "--depth", "1", "-q", "--against"]).arg(&paste),
        &svg_path,
    );
    assert!(svg.contains("and 2151 more missing, 0 more extra moves, not drawn"), "{svg}");
    assert_eq!(svg.matches("missing: ").count(), 24, "{svg}");
    assert!(text.contains("j4j6,j6j5"), "the text report lists every move");
    let marks = text.lines().find(|l| l.trim_start().starts_with("( ):")).unwrap_or_default();
    assert!(marks.matches(',').count() < 24, "{marks}");
}
