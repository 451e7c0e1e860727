//! The divide layouts by name.

use super::super::clip;
use std::fmt;
use std::str::FromStr;

/// Which divide layout to expect.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum DivideFormat {
    /// Try every format, keep the first that reads the whole output.
    #[default]
    Auto,
    /// `e2e4: 20` lines (Stockfish, Fairy-Stockfish).
    Stockfish,
    /// `e2e4 20` lines, a blank line and the total (perftree).
    Perftree,
    /// `move 1 : e2e4 : 20` lines (Weiss, VICE).
    Weiss,
    /// `e2e4 - 20` lines.
    Dash,
    /// A total alone, no per-move counts.
    Total,
}

impl DivideFormat {
    /// Every format but `Auto`, in the order `Auto` tries them.
    pub const CONCRETE: [DivideFormat; 5] =
        [DivideFormat::Stockfish, DivideFormat::Weiss, DivideFormat::Dash, DivideFormat::Perftree, DivideFormat::Total];

    /// The format's name as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            DivideFormat::Auto => "auto",
            DivideFormat::Stockfish => "stockfish",
            DivideFormat::Perftree => "perftree",
            DivideFormat::Weiss => "weiss",
            DivideFormat::Dash => "dash",
            DivideFormat::Total => "total",
        }
    }
}

impl DivideFormat {
    /// The layout of a move line, for messages: `` `e2e4: 20` ``; for
    /// `Auto`, every layout read.
    pub fn layouts(self) -> &'static str {
        match self {
            DivideFormat::Auto => {
                "the layouts read are `e2e4: 20`, `e2e4 20`, `move 1 : e2e4 : 20`, `e2e4 - 20`, \
                 each with a total line, or a total alone"
            }
            DivideFormat::Stockfish => "the layout is `e2e4: 20` and `Nodes searched: N`",
            DivideFormat::Perftree => "the layout is `e2e4 20`, a blank line and the total",
            DivideFormat::Weiss => "the layout is `move 1 : e2e4 : 20` and a total line",
            DivideFormat::Dash => "the layout is `e2e4 - 20` and `Total: N`",
            DivideFormat::Total => "the layout is a total alone (`Nodes searched: N`, `N`)",
        }
    }
}

impl fmt::Display for DivideFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for DivideFormat {
    type Err = String;
    fn from_str(s: &str) -> Result<DivideFormat, String> {
        let lower = s.to_ascii_lowercase();
        let alias = match lower.as_str() {
            "fairy-stockfish" | "fairy" | "sf" => "stockfish",
            "plain" => "perftree",
            "vice" => "weiss",
            "totals" | "total-only" => "total",
            other => other,
        };
        std::iter::once(DivideFormat::Auto).chain(DivideFormat::CONCRETE).find(|f| f.name() == alias).ok_or_else(|| {
            format!("unknown divide format {:?} (auto, stockfish, perftree, weiss, dash, total)", clip(s))
        })
    }
}
