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

/// The built-in variant `name`; an unknown name lists the near names.
pub fn load(name: &str) -> Result<Variant, IniError> {
    let names = file().names();
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
    fn unknown_names_list_near_ones() {
        let e = load("capablance").unwrap_err().to_string();
        assert!(e.contains("capablanca"), "{e}");
    }
}
