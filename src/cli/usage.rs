//! Usage errors in one line and at most one hint line, naming the option,
//! instead of clap's usage block; and the JSON error document for them when
//! `--json` is among the arguments.

use clap::error::{ContextKind, ContextValue, ErrorKind};
use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

/// `error: MESSAGE` and `hint: HINT` on stderr.
pub fn print_error(message: &str, hint: Option<&str>) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "error: {message}");
    if let Some(hint) = hint {
        let _ = writeln!(err, "hint: {hint}");
    }
}

/// Reports a failed parse: help and version as clap prints them, every
/// usage error as one line (plus a hint), exit 2.
pub fn report_clap_error(e: clap::Error, args: &[OsString]) -> ExitCode {
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            return ExitCode::from(2);
        }
        _ => {}
    }
    let (message, hint) = describe(&e, args);
    if wants_json(args) {
        super::print_error_document("usage", &message);
    }
    print_error(&message, hint.as_deref());
    ExitCode::from(2)
}

/// An option that takes a value, followed by another option of the same
/// command (`perft --depth --json`): since every one-value option accepts a
/// value starting with `-` (`--depth -1` is refused by the range check,
/// naming the option), clap would take `--json` as the depth. Returns the
/// usage error, before clap reads the words.
pub fn option_taken_as_value(top: &clap::Command, args: &[OsString]) -> Option<String> {
    let words: Vec<&str> = args.iter().skip(1).map(|a| a.to_str().unwrap_or("")).take_while(|a| *a != "--").collect();
    let mut cmd = top;
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        i += 1;
        if let Some(sub) = cmd.get_subcommands().find(|s| s.get_name() == word) {
            cmd = sub;
            continue;
        }
        let option = if let Some(long) = word.strip_prefix("--") {
            cmd.get_arguments().find(|a| a.get_long() == Some(long))
        } else if word.len() == 2 && word.starts_with('-') {
            cmd.get_arguments().find(|a| a.get_short().map(String::from).as_deref() == Some(&word[1..]))
        } else {
            None
        };
        let Some(option) = option.filter(|a| a.get_action().takes_values() && !a.is_positional()) else {
            continue;
        };
        let Some(next) = words.get(i) else { break };
        i += 1;
        let name = next.strip_prefix("--").map(|n| n.split('=').next().unwrap_or(n));
        let is_option = name.is_some_and(|n| n == "help" || cmd.get_arguments().any(|a| a.get_long() == Some(n)));
        if is_option && option.get_num_args().is_none_or(|n| n.min_values() > 0) {
            return Some(format!(
                "{word} needs a value, and {next} is an option (write {word}=VALUE for a value that starts with --)"
            ));
        }
    }
    None
}

/// A usage error found before clap parses: one line, exit 2 (and the JSON
/// error document when `--json` is among the words).
pub fn report_message(message: &str, args: &[OsString]) -> ExitCode {
    if wants_json(args) {
        super::print_error_document("usage", message);
    }
    print_error(message, None);
    ExitCode::from(2)
}

/// The option as the user typed it: `--depth <N>` becomes `--depth`.
fn option_name(e: &clap::Error) -> Option<String> {
    match e.get(ContextKind::InvalidArg)? {
        ContextValue::String(s) => Some(s.split(' ').next().unwrap_or(s).to_string()),
        ContextValue::Strings(v) => Some(v.join(", ")),
        _ => None,
    }
}

fn string(e: &clap::Error, kind: ContextKind) -> Option<String> {
    match e.get(kind)? {
        ContextValue::String(s) => Some(s.clone()),
        ContextValue::Strings(v) => v.first().cloned(),
        _ => None,
    }
}

fn strings(e: &clap::Error, kind: ContextKind) -> Vec<String> {
    match e.get(kind) {
        Some(ContextValue::Strings(v)) => v.clone(),
        Some(ContextValue::String(s)) => vec![s.clone()],
        _ => Vec::new(),
    }
}

/// The one-line message and the hint for a clap error.
fn describe(e: &clap::Error, args: &[OsString]) -> (String, Option<String>) {
    let option = option_name(e).unwrap_or_else(|| "argument".to_string());
    let value = string(e, ContextKind::InvalidValue).map(|v| super::common::clip(&v)).unwrap_or_default();
    match e.kind() {
        ErrorKind::ValueValidation => {
            let why = std::error::Error::source(e).map_or_else(|| format!("{value:?} is not valid"), |s| s.to_string());
            (format!("{option}: {why}"), None)
        }
        ErrorKind::InvalidValue => {
            let valid = strings(e, ContextKind::ValidValue);
            let message = if value.is_empty() {
                format!("{option} needs a value")
            } else if valid.is_empty() {
                format!("{option}: {value:?} is not valid")
            } else {
                format!("{option}: {value:?} is not one of {}", valid.join(", "))
            };
            (message, string(e, ContextKind::SuggestedValue).map(|s| format!("did you mean {s:?}?")))
        }
        ErrorKind::UnknownArgument => {
            let arg = string(e, ContextKind::InvalidArg).map(|a| super::common::clip(&a)).unwrap_or_default();
            let hint = fen_hint(&arg, args)
                .or_else(|| string(e, ContextKind::SuggestedArg).map(|s| format!("did you mean {s}?")));
            (format!("unexpected argument '{arg}'"), hint)
        }
        ErrorKind::InvalidSubcommand => {
            let sub = string(e, ContextKind::InvalidSubcommand).unwrap_or_default();
            let hint = string(e, ContextKind::SuggestedSubcommand)
                .map(|s| format!("did you mean '{s}'?"))
                .or_else(|| Some("`chesstool --help` lists the commands".to_string()));
            (format!("unknown command '{}'", super::common::clip(&sub)), hint)
        }
        ErrorKind::MissingRequiredArgument => {
            let missing = strings(e, ContextKind::InvalidArg);
            (format!("missing {}", missing.join(", ")), None)
        }
        ErrorKind::MissingSubcommand => ("missing a command".to_string(), Some("`chesstool --help` lists them".into())),
        // A word after options where a subcommand may stand (`perft --fen 8/.. w`).
        ErrorKind::ArgumentConflict if string(e, ContextKind::InvalidSubcommand).is_some() => {
            let word = string(e, ContextKind::InvalidSubcommand).map(|a| super::common::clip(&a)).unwrap_or_default();
            (format!("unexpected argument '{word}'"), fen_hint(&word, args))
        }
        ErrorKind::ArgumentConflict => {
            let other = strings(e, ContextKind::PriorArg);
            let others = other.iter().map(|o| o.split(' ').next().unwrap_or(o)).collect::<Vec<_>>().join(", ");
            if others == option {
                (format!("{option} is given twice"), None)
            } else {
                (format!("{option} cannot be used with {others}"), None)
            }
        }
        ErrorKind::TooManyValues => (format!("{option}: one value too many: {value:?}"), None),
        ErrorKind::TooFewValues | ErrorKind::WrongNumberOfValues => (format!("{option}: wrong number of values"), None),
        ErrorKind::NoEquals => (format!("{option} needs `=` before its value"), None),
        ErrorKind::InvalidUtf8 => (format!("{option}: the value is not valid UTF-8"), None),
        _ => {
            // Anything else: clap's first line, without its prefix.
            let rendered = e.render().to_string();
            let first = rendered.lines().next().unwrap_or("invalid arguments");
            (first.trim_start_matches("error: ").to_string(), None)
        }
    }
}

/// For an unquoted FEN (`--fen rnbqkbnr/... w KQkq - 0 1`): the FEN's other
/// fields arrive as unexpected arguments. Shows the command quoted.
fn fen_hint(arg: &str, args: &[OsString]) -> Option<String> {
    let looks_like_fen_field = matches!(arg, "w" | "b" | "-")
        || arg.chars().all(|c| c.is_ascii_digit())
        || arg.chars().all(|c| "KQkqABCDEFGHabcdefgh-".contains(c))
        || (arg.len() == 2 && arg.as_bytes()[0].is_ascii_lowercase() && arg.as_bytes()[1].is_ascii_digit());
    let args: Vec<String> = args.iter().map(|a| a.to_string_lossy().into_owned()).collect();
    let at = args.iter().position(|a| a == "--fen")?;
    if !looks_like_fen_field {
        return None;
    }
    let fields: Vec<&str> =
        args[at + 1..].iter().take_while(|a| !a.starts_with("--")).take(6).map(String::as_str).collect();
    let example = if fields.len() > 1 { fields.join(" ") } else { "8/8/8/8/8/8/8/K1k5 w - - 0 1".to_string() };
    Some(format!("a FEN has spaces: quote it, e.g. --fen \"{}\"", super::common::clip(&example)))
}

/// Whether the arguments ask for one JSON document on stdout (read from the
/// raw words, since they did not parse).
fn wants_json(args: &[OsString]) -> bool {
    let words: Vec<&str> = args.iter().map(|a| a.to_str().unwrap_or("")).take_while(|a| *a != "--").collect();
    let to_file = words.windows(2).any(|w| (w[0] == "-o" || w[0] == "--output") && w[1] != "-");
    words.contains(&"--json")
        || (!to_file && (words.contains(&"--format=json") || words.windows(2).any(|w| w == ["--format", "json"])))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<OsString> {
        s.split(' ').map(OsString::from).collect()
    }

    #[test]
    fn unquoted_fen_gets_a_hint_with_the_command_quoted() {
        let args = words("chesstool perft --fen 8/8/8/8/8/8/8/K1k5 w - - 0 1 --depth 2");
        let hint = fen_hint("w", &args).unwrap();
        assert_eq!(hint, "a FEN has spaces: quote it, e.g. --fen \"8/8/8/8/8/8/8/K1k5 w - - 0 1\"");
        assert_eq!(fen_hint("--bogus", &args), None);
        assert_eq!(fen_hint("w", &words("chesstool perft --depth 2 w")), None);
    }

    #[test]
    fn an_option_is_not_taken_as_the_value_of_another() {
        let cmd = super::super::command();
        let taken = |s: &str| option_taken_as_value(&cmd, &words(s));
        assert_eq!(
            taken("chesstool perft --depth --json").as_deref(),
            Some(
                "--depth needs a value, and --json is an option (write --depth=VALUE for a value that starts with --)"
            )
        );
        assert!(taken("chesstool perft -d --fen x").is_some_and(|m| m.starts_with("-d needs a value")));
        assert_eq!(taken("chesstool perft --depth -1 --json"), None);
        assert_eq!(taken("chesstool perft --depth 2 --json"), None);
        assert_eq!(taken("chesstool perft --json --depth 2"), None);
    }

    #[test]
    fn json_is_read_from_the_raw_words() {
        assert!(wants_json(&words("chesstool perft --json --depth x")));
        assert!(wants_json(&words("chesstool magic-search --format json --threads x")));
        assert!(!wants_json(&words("chesstool magic-search --format json -o f.json --threads x")));
        assert!(!wants_json(&words("chesstool perft --depth x")));
    }
}
