//! Total lines: with a label (`Nodes searched: N`, `Total: N`, `N nodes`,
//! `Raw nodes for depth 3: N`) and the forms that name their depth (a
//! depth table's ` 3   8902  0.00  5598742.14nps`, `Depth 3: 8902 nodes
//! searched.`, `info .result 8902 positions`).

use super::lines::count;

/// `Nodes searched: N`, `Total: N`, `Nodes: N`, `Leaf nodes = N`, `Leaves:
/// N`, `Perft 5: N`, `perft(5) = N (0.1 s)`, `Perft Complete : N nodes
/// visited in 12ms`, `N nodes`, `Raw nodes for depth 3: N`, `total
/// moves=N`; with the depth where the label names one (`Perft 5`,
/// `perft(5)`, `depth 5`). Speeds (`Nodes per second: N`) are no totals.
pub(super) fn labelled_total(line: &str) -> Option<(u64, Option<u32>)> {
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
            .any(|w| label.starts_with(w) || label.match_indices(w).any(|(at, _)| label[..at].ends_with(' ')));
        let speed = ["second", "nps", "speed", "rate", "time"].iter().any(|w| label.contains(w));
        let tail_ok = tail.is_empty() || tail.starts_with([' ', '\t', ',', '(', ';']);
        if words_ok && named && !speed && tail_ok {
            if let Some(n) = count(rest[..digits].trim_end_matches([',', '_'])) {
                return Some((n, label_depth(&label)));
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
        return count(n).map(|n| (n, None));
    }
    None
}

/// The depth a total's label names: `perft 5`, `perft(5)`, `raw nodes for
/// depth 5`.
fn label_depth(label: &str) -> Option<u32> {
    let words: Vec<&str> =
        label.split(|c: char| c.is_whitespace() || "()".contains(c)).filter(|w| !w.is_empty()).collect();
    words.windows(2).find_map(|w| match w {
        ["perft" | "depth", n] => n.parse().ok(),
        _ => None,
    })
}

/// Totals that name their depth in other words than a label: a depth
/// table's line `%2d nodes secs nps` (Sjaak II: ` 3   8902  0.00
/// 5598742.14nps`), `Depth 3: 8902 nodes searched.`, and `info .result
/// 8902 positions` (no depth).
pub(super) fn depth_total(line: &str) -> Option<(u64, Option<u32>)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if let ["info", ".result", n, "positions" | "nodes", ..] = words.as_slice() {
        return count(n).map(|n| (n, None));
    }
    if let Some((head, rest)) = line.split_once(':') {
        let head: Vec<&str> = head.split_whitespace().collect();
        let rest: Vec<&str> = rest.split_whitespace().collect();
        if let ([d, n], [count_text, unit, ..]) = (head.as_slice(), rest.as_slice()) {
            let unit = unit.to_ascii_lowercase();
            let unit_ok = ["nodes", "leaves", "leaf", "positions"].contains(&unit.trim_end_matches(['.', ',']));
            if d.eq_ignore_ascii_case("depth") && unit_ok {
                return Some((count(count_text)?, Some(n.parse().ok()?)));
            }
        }
    }
    depth_table_line(&words)
}

/// ` 3       8902  0.00   5598742.14nps` (also with `nps` apart).
fn depth_table_line(words: &[&str]) -> Option<(u64, Option<u32>)> {
    let (d, n, secs, speed) = match words {
        [d, n, secs, speed] => (*d, *n, *secs, strip_nps(speed)?),
        [d, n, secs, speed, unit] if unit.eq_ignore_ascii_case("nps") => (*d, *n, *secs, *speed),
        _ => return None,
    };
    let decimal =
        |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit() || c == '.') && s.parse::<f64>().is_ok();
    if d.len() > 3 || !d.chars().all(|c| c.is_ascii_digit()) || !decimal(secs) || !decimal(speed) {
        return None;
    }
    Some((count(n)?, Some(d.parse().ok()?)))
}

fn strip_nps(word: &str) -> Option<&str> {
    let cut = word.len().checked_sub(3)?;
    word.get(cut..).filter(|u| u.eq_ignore_ascii_case("nps")).map(|_| &word[..cut])
}
