//! Total lines with a label: `Nodes searched: N`, `Total: N`, `N nodes`.

use super::lines::count;

/// `Nodes searched: N`, `Total: N`, `Nodes: N`, `Leaf nodes = N`, `Leaves:
/// N`, `Perft 5: N`, `perft(5) = N (0.1 s)`, `Perft Complete : N nodes
/// visited in 12ms`, `N nodes`.
pub(super) fn labelled_total(line: &str) -> Option<u64> {
    for (i, c) in line.char_indices() {
        if c != ':' && c != '=' {
            continue;
        }
        let label = line[..i].trim().to_ascii_lowercase();
        let rest = line[i + 1..].trim_start();
        let digits = rest.find(|c: char| !(c.is_ascii_digit() || c == ',' || c == '_')).unwrap_or(rest.len());
        let tail = &rest[digits..];
        let words_ok = !label.is_empty() && label.chars().all(|c| c.is_ascii_alphanumeric() || " ()_-".contains(c));
        let named = ["node", "total", "perft", "leaf", "leaves"]
            .iter()
            .any(|w| label.starts_with(w) || label.contains(&format!(" {w}")));
        let tail_ok = tail.is_empty() || tail.starts_with([' ', '\t', ',', '(', ';']);
        if words_ok && named && tail_ok {
            if let Some(n) = count(rest[..digits].trim_end_matches([',', '_'])) {
                return Some(n);
            }
        }
        // Only the first separator can introduce the count.
        break;
    }
    // `8902 nodes`, `8902 leaf nodes`.
    let mut words = line.split_whitespace();
    let (n, unit) = (words.next()?, words.next()?);
    let unit = unit.to_ascii_lowercase();
    if matches!(unit.as_str(), "nodes" | "leaves" | "leaf") {
        return count(n);
    }
    None
}
