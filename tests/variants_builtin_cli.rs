//! `--variant NAME` without a variants file, built-in templates, `variant
//! list`, and FENs that do not fit the variant, from the outside.

mod variants_support;
use assert_cmd::Command;
use predicates::prelude::*;
use variants_support::*;

fn chesstool() -> Command {
    Command::cargo_bin("chesstool").expect("binary")
}

#[test]
fn chess_by_name_gives_the_published_count() {
    // 8902: the published perft(3) of the chess start position.
    chesstool()
        .args(["perft", "--variant", "chess", "--depth", "3"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Nodes: 8902 "));
}

#[test]
fn variant_list_names_the_builtins() {
    let out = chesstool().args(["variant", "list", "--json"]).assert().success();
    let doc: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let names: Vec<&str> = doc["variants"].as_array().unwrap().iter().map(|v| v["name"].as_str().unwrap()).collect();
    for name in ["chess", "capablanca", "grand", "shako", "makruk", "3check"] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    chesstool().args(["variant", "list"]).assert().success().stdout(predicate::str::contains("capablanca"));
}

#[test]
fn an_unknown_name_lists_the_near_names() {
    chesstool()
        .args(["perft", "--variant", "capablance", "--depth", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("capablanca"));
}

#[test]
fn fens_that_do_not_fit_name_the_field() {
    let cases = [
        ("chess", "rnbbqkbnnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBBQKBNNR w KQkq - 0 1", "rank 8 has 10 squares"),
        ("grand", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "ranks"),
        ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1", "check-counter"),
        ("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "en passant"),
        ("nocastle", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "castling"),
    ];
    for (name, fen, field) in cases {
        chesstool()
            .args(["perft", "--variant", name, "--depth", "1", "--fen", fen])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(field));
    }
}

#[test]
fn a_builtin_template_in_a_variants_file_matches_fairy_stockfish() {
    let Some(fsf) = fairy_stockfish() else { return };
    let path = std::env::temp_dir().join(format!("chesstool-mycapa-{}.ini", std::process::id()));
    std::fs::write(&path, "[mycapa:capablanca]\npromotionPieceTypes = q\ncastlingKingsideFile = h\n").unwrap();
    // Near promotion and castling: Fairy-Stockfish reads the same file.
    let fen = "r4k3r/1P8/10/10/10/10/10/R4K3R w KQkq - 0 1";
    for name in ["mycapa", "capablanca"] {
        chesstool()
            .args(["divide", "--variant", name, "--variant-path", path.to_str().unwrap(), "--depth", "3"])
            .args(["--fen", fen, "--bisect", "--engine-uci", fsf.to_str().unwrap()])
            .assert()
            .success()
            .stdout(predicate::str::contains("match at depth 3"));
    }
    let _ = std::fs::remove_file(&path);
}
