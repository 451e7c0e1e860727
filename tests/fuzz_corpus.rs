//! Replays every committed fuzz corpus file (`fuzz/corpus/TARGET/*`) through
//! the same checks the fuzz targets run (`fuzz/src/checks`), on the stable
//! toolchain: what fuzzing found stays fixed without nightly or libFuzzer.

#[path = "../fuzz/src/checks/mod.rs"]
mod checks;

use std::path::Path;

#[test]
fn every_corpus_file_passes_its_check() {
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
