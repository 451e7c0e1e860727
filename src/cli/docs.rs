//! `chesstool completions SHELL` and `chesstool man`: generated from the same
//! clap definitions as the parser, so they cannot drift from it; and
//! `chesstool docs PAGE`: the user guide, built into the binary, so that a
//! `cargo install` user has it too (every `--help` names its page).

use super::common::print_text;
use super::Outcome;
use anyhow::Result;
use clap_complete::Shell;

#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh or fish.
    #[arg(value_enum)]
    pub shell: ShellArg,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShellArg {
    Bash,
    Zsh,
    Fish,
}

#[derive(clap::Args, Debug)]
pub struct ManArgs {}

#[derive(clap::Args, Debug)]
pub struct DocsArgs {
    /// The page (`divide`, `formats/epd`, ...); without it, the list of pages.
    #[arg(value_name = "PAGE")]
    pub page: Option<String>,
}

/// The pages of the user guide (docs/ of the source), by name: the file's
/// path below docs/ without `.md`; `guide` is docs/README.md. The pages for
/// developers (architecture, performance, fuzzing) stay in the repository.
pub const PAGES: &[(&str, &str)] = &[
    ("guide", include_str!("../../docs/README.md")),
    ("perft-and-bench", include_str!("../../docs/perft-and-bench.md")),
    ("divide", include_str!("../../docs/divide.md")),
    ("engines", include_str!("../../docs/engines.md")),
    ("engine", include_str!("../../docs/engine.md")),
    ("suite", include_str!("../../docs/suite.md")),
    ("fuzz", include_str!("../../docs/fuzz.md")),
    ("variants", include_str!("../../docs/variants.md")),
    ("tictacchess", include_str!("../../docs/tictacchess.md")),
    ("book", include_str!("../../docs/book.md")),
    ("distributed", include_str!("../../docs/distributed.md")),
    ("tools", include_str!("../../docs/tools.md")),
    ("json", include_str!("../../docs/json.md")),
    ("formats/epd", include_str!("../../docs/formats/epd.md")),
    ("formats/pasted-divide", include_str!("../../docs/formats/pasted-divide.md")),
    ("formats/usi", include_str!("../../docs/formats/usi.md")),
    ("formats/variants-ini", include_str!("../../docs/formats/variants-ini.md")),
    ("formats/book", include_str!("../../docs/formats/book.md")),
    ("formats/tictacchess", include_str!("../../docs/formats/tictacchess.md")),
    ("formats/work-units", include_str!("../../docs/formats/work-units.md")),
];

/// The text of a page: by its name, or by its file name (`divide.md`,
/// `docs/formats/epd.md`), as the guide's own links write it.
pub fn page(name: &str) -> Option<&'static str> {
    let name = name.trim().trim_start_matches("docs/").trim_end_matches(".md");
    let name = if name == "README" { "guide" } else { name };
    PAGES.iter().find(|(n, _)| *n == name).map(|(_, text)| *text)
}

/// `chesstool docs`: the list of pages; `chesstool docs PAGE`: the page, as Markdown.
pub fn docs(args: DocsArgs) -> Result<Outcome> {
    let Some(name) = args.page else {
        let mut list =
            String::from("The user guide (`chesstool docs PAGE` prints a page; its links name other pages):\n");
        for (name, text) in PAGES {
            let title = text.lines().next().unwrap_or_default().trim_start_matches("# ");
            list.push_str(&format!("  {name:<22} {title}\n"));
        }
        print_text(&list)?;
        return Ok(Outcome::Success);
    };
    match page(&name) {
        Some(text) => print_text(text)?,
        None => {
            let names: Vec<&str> = PAGES.iter().map(|(n, _)| *n).collect();
            return Err(super::usage_error(
                format!("PAGE: no page {:?} in the guide", super::common::clip(&name)),
                Some(format!("the pages: {}", names.join(", "))),
            ));
        }
    }
    Ok(Outcome::Success)
}

pub fn completions(args: CompletionsArgs) -> Result<Outcome> {
    let shell = match args.shell {
        ShellArg::Bash => Shell::Bash,
        ShellArg::Zsh => Shell::Zsh,
        ShellArg::Fish => Shell::Fish,
    };
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut super::command(), "chesstool", &mut script);
    print_text(&String::from_utf8_lossy(&script))?;
    Ok(Outcome::Success)
}

/// One page: the overview, then every command with its options, then the
/// exit codes.
pub fn man(_args: ManArgs) -> Result<Outcome> {
    let cmd = super::command();
    let mut page = Vec::new();
    let top = clap_mangen::Man::new(cmd.clone());
    top.render_title(&mut page)?;
    top.render_name_section(&mut page)?;
    top.render_synopsis_section(&mut page)?;
    top.render_description_section(&mut page)?;
    page.extend_from_slice(b".SH COMMANDS\n");
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        let about = sub.get_about().map(|a| a.to_string()).unwrap_or_default();
        page.extend_from_slice(format!(".TP\n\\fB{}\\fR\n{}\n", sub.get_name(), roff_text(&about)).as_bytes());
    }
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        let name = format!("chesstool {}", sub.get_name());
        let man = clap_mangen::Man::new(sub.clone().bin_name(name.clone()));
        let mut part = Vec::new();
        man.render_synopsis_section(&mut part)?;
        man.render_description_section(&mut part)?;
        man.render_options_section(&mut part)?;
        // Each command's sections become subsections of one section per command.
        page.extend_from_slice(format!(".SH \"{}\"\n", name.to_uppercase()).as_bytes());
        for line in String::from_utf8_lossy(&part).lines() {
            let line = line.strip_prefix(".SH ").map_or(line.to_string(), |rest| format!(".SS {rest}"));
            page.extend_from_slice(line.as_bytes());
            page.push(b'\n');
        }
    }
    page.extend_from_slice(EXIT_STATUS.as_bytes());
    top.render_version_section(&mut page)?;
    // Each clap_mangen part repeats the page's preamble (two string definitions): once is enough.
    let mut seen = 0;
    let page: String = String::from_utf8_lossy(&page)
        .lines()
        .filter(|l| {
            !l.contains(".ds Aq") || {
                seen += 1;
                seen <= 2
            }
        })
        .map(|l| format!("{l}\n"))
        .collect();
    print_text(&page)?;
    Ok(Outcome::Success)
}

/// Text safe in a roff paragraph: no line starts with a control character.
fn roff_text(text: &str) -> String {
    text.replace('\\', "\\e").replace('-', "\\-").lines().map(|l| format!("\\&{l}")).collect::<Vec<_>>().join("\n")
}

const EXIT_STATUS: &str = ".SH \"EXIT STATUS\"
.TP
0
success: every count matched
.TP
1
a mismatch was found (a suite count, an engine's divide, a magic collision)
.TP
2
usage or input error (bad argument, FEN, EPD line, file)
.TP
3
an external engine failed (crash, hang past \\-\\-timeout, garbage output)
.PP
Every error is one line on standard error starting with \\fBerror:\\fR, with at most one
\\fBhint:\\fR line. With \\fB\\-\\-json\\fR, standard output holds one JSON document also on failure:
{\"status\": \"error\", \"error\": {\"kind\": \"usage\"|\"input\"|\"engine\"|\"internal\", \"message\": ...}}.
";
