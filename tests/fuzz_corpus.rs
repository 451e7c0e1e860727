//! Replays every committed fuzz corpus file (`fuzz/corpus/TARGET/*`) through
//! the same checks the fuzz targets run (`tests/fuzz_checks`), on the stable
//! toolchain: what fuzzing found stays fixed without nightly or libFuzzer.

#[path = "fuzz_checks/mod.rs"]
mod checks;

use std::path::Path;

/// The corpora are in the repository, not in the crate's package: there the
/// tests say so and pass (unless CI, which runs from a checkout).
fn corpora_here() -> bool {
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus").is_dir();
    if !here {
        assert!(std::env::var_os("CI").is_none(), "fuzz/corpus is missing, but CI runs from a checkout");
        eprintln!("note: skipping, fuzz/corpus is not here (the crate's package leaves the corpora out)");
    }
    here
}

#[test]
fn every_corpus_file_passes_its_check() {
    if !corpora_here() {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    let mut replayed = 0;
    for &(name, check) in checks::TARGETS {
        let dir = root.join(name);
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e} (every target keeps a corpus)", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "{}: an empty corpus", dir.display());
        for file in files {
            let data = std::fs::read(&file).unwrap();
            let outcome = std::panic::catch_unwind(|| check(&data));
            assert!(outcome.is_ok(), "{name}: {} fails its check", file.display());
            replayed += 1;
        }
    }
    assert!(replayed >= 10 * checks::TARGETS.len(), "only {replayed} corpus files");
}

#[test]
fn every_target_has_a_corpus_and_no_corpus_lacks_a_target() {
    if !corpora_here() {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus");
    let mut dirs: Vec<String> =
        std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    dirs.sort();
    let mut names: Vec<String> = checks::TARGETS.iter().map(|(n, _)| n.to_string()).collect();
    names.sort();
    assert_eq!(dirs, names);
    for name in &names {
        let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/fuzz_targets").join(format!("{name}.rs"));
        assert!(target.exists(), "{}: no fuzz target", target.display());
    }
}

/// libFuzzer writes what it finds (`crash-*`, `timeout-*`, `oom-*`, `leak-*`,
/// `slow-unit-*`) where it runs, at the top of `fuzz/`: such a file belongs
/// in the corpus of its target, where this test replays it, and
/// docs/fuzzing.md counts the files replayed.
#[test]
fn no_fuzz_finding_is_left_outside_a_corpus_and_the_guide_counts_them() {
    if !corpora_here() {
        return;
    }
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let stray: Vec<String> = std::fs::read_dir(&fuzz)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| ["crash-", "timeout-", "oom-", "leak-", "slow-unit-"].iter().any(|p| n.starts_with(p)))
        .collect();
    assert!(stray.is_empty(), "fuzz/ holds findings outside a corpus: {stray:?}");
    let total: usize = std::fs::read_dir(fuzz.join("corpus"))
        .unwrap()
        .map(|d| std::fs::read_dir(d.unwrap().path()).unwrap().count())
        .sum();
    let guide = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/fuzzing.md")).unwrap();
    let said = format!("replays all {total} committed files");
    assert!(guide.contains(&said), "docs/fuzzing.md should say {said:?}");
}
