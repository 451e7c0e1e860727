//! Fairy-Stockfish's built-in variants as data: `builtin.ini`, read by our
//! own `variants.ini` reader. A user's file may use them as templates.

use super::definition::Variant;
use super::ini::{IniError, IniFile};
use std::sync::OnceLock;

/// The name the built-in file goes by in messages.
pub const PATH: &str = "<built-in>";

/// The text of the built-in definitions.
pub const TEXT: &str = include_str!("builtin.ini");

/// The built-in definitions, parsed once.
pub fn file() -> &'static IniFile {
    static FILE: OnceLock<IniFile> = OnceLock::new();
    FILE.get_or_init(|| IniFile::parse(PATH, TEXT).expect("the built-in variants parse"))
}

/// Fairy-Stockfish's other built-ins (pyffish 0.0.90), each with the rule
/// chesstool lacks for it: a user who names one learns why it is refused.
const NOT_SUPPORTED: &[(&str, &str)] = &[
    ("ataxx", "Ataxx's cloning and flipping moves"),
    ("clobber", "moves that must capture, with no king (Clobber)"),
    ("clobber10", "moves that must capture, with no king (Clobber)"),
    ("flipello", "placing and flipping stones (Othello)"),
    ("flipello10", "placing and flipping stones (Othello)"),
    ("flipersi", "placing and flipping stones (Othello)"),
];

/// The built-in variant `name`; an unknown name lists the near names, and
/// one of Fairy-Stockfish's that chesstool lacks says what it needs.
pub fn load(name: &str) -> Result<Variant, IniError> {
    let names = file().names();
    if let Some((_, needs)) = NOT_SUPPORTED.iter().find(|(n, _)| *n == name) {
        let message = format!(
            "{name:?} is a Fairy-Stockfish built-in that chesstool does not support yet: it needs {needs} \
             (chesstool variant list shows the supported ones)"
        );
        return Err(IniError { path: PATH.into(), line: None, message });
    }
    if !names.iter().any(|n| n == name) {
        let near = near_names(name, &names);
        let message = if near.is_empty() {
            format!("no built-in variant {name:?} (chesstool variant list shows them)")
        } else {
            format!("no built-in variant {name:?}; did you mean {}?", near.join(", "))
        };
        return Err(IniError { path: PATH.into(), line: None, message });
    }
    file().variant(name)
}

/// The names and descriptions of the built-ins, in file order.
pub fn list() -> Vec<(String, String)> {
    file()
        .names()
        .into_iter()
        .map(|n| {
            let d = file().value(&n, "description").unwrap_or_default();
            (n, d)
        })
        .collect()
}

/// Names within a small edit distance of `name`, or sharing its start.
fn near_names(name: &str, names: &[String]) -> Vec<String> {
    let lower = name.to_ascii_lowercase();
    let mut scored: Vec<(usize, &String)> = names
        .iter()
        .map(|n| (distance(&lower, &n.to_ascii_lowercase()), n))
        .filter(|(d, n)| *d <= 2 + lower.len() / 4 || n.starts_with(&lower) || lower.starts_with(n.as_str()))
        .collect();
    scored.sort();
    scored.into_iter().take(5).map(|(_, n)| n.clone()).collect()
}

/// Levenshtein distance.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for j in 0..b.len() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != b[j])).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsupported_builtins_say_what_they_need_and_are_not_in_the_file() {
        let e = load("ataxx").unwrap_err().to_string();
        assert!(e.contains("does not support yet: it needs Ataxx"), "{e}");
        let names = file().names();
        for (name, _) in NOT_SUPPORTED {
            assert!(!names.iter().any(|n| n == name), "{name} is both supported and not");
        }
    }

    #[test]
    fn unknown_names_list_near_ones() {
        let e = load("capablance").unwrap_err().to_string();
        assert!(e.contains("capablanca"), "{e}");
    }
}
