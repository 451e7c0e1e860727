//! The end of every command's `--help`: two or three real command lines and
//! the guide page to read next (`chesstool docs PAGE`, built into the
//! binary), as ripgrep's and hyperfine's help end. The unit test below
//! parses every example; tests/help_examples.rs runs the ones that need no
//! engine from a checkout (`suites/`, `tests/`, `data/`).

/// The examples of one command.
pub struct Examples {
    /// The command's path below `chesstool` (`book probe`).
    pub path: &'static str,
    /// The page of the guide (`chesstool docs PAGE`).
    pub page: &'static str,
    /// Command lines; `sh` syntax, a FEN in double quotes.
    pub lines: &'static [&'static str],
}

/// Every command, parents included, with its examples.
pub const EXAMPLES: &[Examples] = &[
    Examples {
        path: "divide",
        page: "divide",
        lines: &[
            "chesstool divide --depth 2 --fen \"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\"",
            "chesstool divide --depth 3 --against tests/fixtures/pastes/sf_startpos_d3.txt",
            "chesstool divide --depth 5 --engine-uci stockfish --bisect --svg witness.svg",
        ],
    },
    Examples {
        path: "perft",
        page: "perft-and-bench",
        lines: &[
            "chesstool perft --depth 5",
            "chesstool perft --depth 4 --fen \"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1\" --stats",
            "chesstool perft --variant capablanca --depth 3 --json",
        ],
    },
    Examples {
        path: "perft split",
        page: "distributed",
        lines: &["chesstool perft split --split-ply 3 --depth 5 --unit-size 2000 -o units"],
    },
    Examples {
        path: "perft unit",
        page: "distributed",
        lines: &["chesstool perft unit units/unit-000000.txt -o units/unit-000000.out --quiet"],
    },
    Examples {
        path: "perft merge",
        page: "distributed",
        lines: &["chesstool perft merge units/manifest.json units/unit-000000.out"],
    },
    Examples {
        path: "suite",
        page: "suite",
        lines: &[
            "chesstool suite suites/standard.epd --max-nodes 100000 --quiet",
            "chesstool suite suites/standard.epd --engine-uci stockfish --junit report.xml --svg witnesses",
        ],
    },
    Examples {
        path: "fuzz",
        page: "fuzz",
        lines: &[
            "chesstool fuzz --engine-uci stockfish --positions 2000 --seed 1",
            "chesstool fuzz --engine-script ./perftree.sh --seconds 60 --junit fuzz.xml",
            "chesstool fuzz --variant capablanca --engine-uci fairy-stockfish --positions 1000",
        ],
    },
    Examples {
        path: "bench",
        page: "perft-and-bench",
        lines: &["chesstool bench --quick --threads 1", "chesstool bench --threads 1 --against-uci stockfish"],
    },
    Examples {
        path: "butterfly-plot",
        page: "tools",
        lines: &["chesstool butterfly-plot a1 h8", "chesstool butterfly-plot --history --depth 3 0 63 --svg heat.svg"],
    },
    Examples {
        path: "rotated-dump",
        page: "tools",
        lines: &["chesstool rotated-dump --fen startpos", "chesstool rotated-dump --square e4"],
    },
    Examples {
        path: "magic-search",
        page: "tools",
        lines: &["chesstool magic-search --verify data/packed_magics.json", "chesstool magic-search --threads 2"],
    },
    Examples {
        path: "completions",
        page: "guide",
        lines: &[
            "chesstool completions bash > ~/.local/share/bash-completion/completions/chesstool",
            "chesstool completions zsh > _chesstool",
        ],
    },
    Examples { path: "man", page: "guide", lines: &["chesstool man > chesstool.1", "chesstool man | man -l -"] },
    Examples {
        path: "moves",
        page: "book",
        lines: &["chesstool moves --moves e4 e5", "chesstool moves --fen \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\" --json"],
    },
    Examples {
        path: "book",
        page: "book",
        lines: &[
            "chesstool book build tests/data/book/repertoire.pgn -o rep.book",
            "chesstool book probe rep.book --moves c4 e6",
            "chesstool book export-polyglot rep.book -o rep.bin",
        ],
    },
    Examples {
        path: "book build",
        page: "book",
        lines: &[
            "chesstool book build tests/data/book/repertoire.pgn tests/data/book/lines.txt -o rep.book --force",
            "chesstool book build tests/data/book/lines.txt -o lines.book --force",
        ],
    },
    Examples {
        path: "book dump",
        page: "book",
        lines: &["chesstool book dump rep.book", "chesstool book dump rep.book --pgn"],
    },
    Examples {
        path: "book probe",
        page: "book",
        lines: &["chesstool book probe rep.book --moves c4 e6 d4 d5", "chesstool book probe rep.book --json"],
    },
    Examples { path: "book verify", page: "book", lines: &["chesstool book verify rep.book"] },
    Examples {
        path: "book import-polyglot",
        page: "book",
        lines: &["chesstool book import-polyglot rep.bin -o back.book --force"],
    },
    Examples {
        path: "book export-polyglot",
        page: "book",
        lines: &["chesstool book export-polyglot rep.book -o rep.bin --force"],
    },
    Examples {
        path: "betza",
        page: "variants",
        lines: &["chesstool betza compile RmasR", "chesstool betza show mRcpR --board 10x10"],
    },
    Examples {
        path: "betza compile",
        page: "variants",
        lines: &["chesstool betza compile RmasR", "chesstool betza compile --json mRcpR"],
    },
    Examples {
        path: "betza show",
        page: "variants",
        lines: &[
            "chesstool betza show mRcpR --fen \"8/4x3/8/4X3/4T3/8/8/8 w - - 0 1\"",
            "chesstool betza show nN --square b1 --svg horse.svg --force",
        ],
    },
    Examples {
        path: "tictacchess",
        page: "tictacchess",
        lines: &["chesstool tictacchess perft --depth 4", "chesstool tictacchess play --side b"],
    },
    Examples {
        path: "tictacchess perft",
        page: "tictacchess",
        lines: &["chesstool tictacchess perft --depth 4", "chesstool tictacchess perft --depth 3 --moves N@b2 --json"],
    },
    Examples {
        path: "tictacchess divide",
        page: "tictacchess",
        lines: &[
            "chesstool tictacchess divide --depth 2 --moves N@b2",
            "chesstool tictacchess divide --depth 4 --engine-script ./ttc-engine --bisect",
        ],
    },
    Examples {
        path: "tictacchess solve",
        page: "tictacchess",
        lines: &[
            "chesstool tictacchess solve --pos \"R3/1B2/2N1/4 Ppnbr w\"",
            "chesstool tictacchess solve --table ttc.tbl",
        ],
    },
    Examples {
        path: "tictacchess play",
        page: "tictacchess",
        lines: &["chesstool tictacchess play", "chesstool tictacchess play --side b --table ttc.tbl"],
    },
    Examples {
        path: "tictacchess fuzz",
        page: "tictacchess",
        lines: &["chesstool tictacchess fuzz --engine-script ./ttc-engine --positions 3000 --seed 1"],
    },
    Examples { path: "variant", page: "variants", lines: &["chesstool variant list", "chesstool variant list --json"] },
    Examples {
        path: "variant list",
        page: "variants",
        lines: &["chesstool variant list", "COLUMNS=80 chesstool variant list"],
    },
    Examples {
        path: "engine",
        page: "engine",
        lines: &[
            "printf 'position startpos moves e2e4\\ngo perft 2\\n' | chesstool engine",
            "printf 'xboard\\nprotover 2\\nvariant crazyhouse\\nperft 2\\nquit\\n' | chesstool engine",
        ],
    },
    Examples {
        path: "docs",
        page: "guide",
        lines: &["chesstool docs", "chesstool docs divide", "chesstool docs formats/epd | less"],
    },
];

/// The examples of the command at `path`, if it has any.
pub fn of(path: &str) -> Option<&'static Examples> {
    EXAMPLES.iter().find(|e| e.path == path)
}

/// Ends the `--help` of every command below `cmd` with its examples and
/// its guide page.
pub fn with_examples(cmd: clap::Command) -> clap::Command {
    add(cmd, "")
}

fn add(mut cmd: clap::Command, path: &str) -> clap::Command {
    let names: Vec<String> = cmd.get_subcommands().map(|s| s.get_name().to_string()).collect();
    for name in names.into_iter().filter(|n| n != "help") {
        let below = if path.is_empty() { name.clone() } else { format!("{path} {name}") };
        cmd = cmd.mut_subcommand(name, |sub| add(sub, &below));
    }
    match of(path) {
        Some(e) => {
            let lines: Vec<String> = e.lines.iter().map(|l| format!("  {l}")).collect();
            cmd.after_long_help(format!(
                "Examples:\n{}\n\nGuide: `chesstool docs {}` (the page {} of the user guide, built in)",
                lines.join("\n"),
                e.page,
                page_file(e.page)
            ))
        }
        None => cmd,
    }
}

/// The page's file in the source: `docs/divide.md`.
fn page_file(page: &str) -> String {
    if page == "guide" {
        "docs/README.md".to_string()
    } else {
        format!("docs/{page}.md")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words of an example as a shell passes them, up to a redirection
    /// or pipe, without a leading `NAME=value`.
    fn words(line: &str) -> Vec<String> {
        let mut out = chesstool::engines::split_command(line).expect("an example quotes like a shell");
        let start = out.iter().position(|w| w == "chesstool").expect("an example runs chesstool");
        out.drain(start..).take_while(|w| w != ">" && w != "|").collect()
    }

    #[test]
    fn every_command_has_examples_that_parse_and_a_page_that_exists() {
        let top = super::super::command();
        let mut paths = Vec::new();
        let mut stack: Vec<(String, &clap::Command)> =
            top.get_subcommands().map(|s| (s.get_name().to_string(), s)).collect();
        while let Some((path, cmd)) = stack.pop() {
            stack.extend(cmd.get_subcommands().map(|s| (format!("{path} {}", s.get_name()), s)));
            paths.push(path);
        }
        for path in paths.iter().filter(|p| !p.ends_with("help")) {
            let e = of(path).unwrap_or_else(|| panic!("`chesstool {path}` has no examples"));
            assert!(super::super::docs::page(e.page).is_some(), "{path}: no page {}", e.page);
            assert!(!e.lines.is_empty() && e.lines.len() <= 3, "{path}: one to three examples");
            for line in e.lines {
                let w = words(line);
                assert_eq!(w[1..=path.split(' ').count()].join(" "), *path, "{line}: not an example of {path}");
                if let Err(err) = super::super::command().try_get_matches_from(&w) {
                    panic!("{line}: {err}");
                }
            }
        }
        for e in EXAMPLES {
            assert!(paths.iter().any(|p| p == e.path), "examples for a command that does not exist: {}", e.path);
        }
    }
}
