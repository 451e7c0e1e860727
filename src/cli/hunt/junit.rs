//! JUnit XML for `suite --junit FILE`, the report format every CI system
//! shows: one `<testsuite>` per suite file, one `<testcase>` per position
//! and depth, with `<failure>` for a wrong count and `<skipped>` for a count
//! left out by `--max-depth` or `--max-nodes`.

use std::fmt::Write;

/// One count of one position.
pub struct Case {
    /// `line 12 depth 3`.
    pub name: String,
    /// Where the case stands in the file: (line, depth).
    pub order: (usize, u32),
    pub seconds: f64,
    pub result: CaseResult,
}

pub enum CaseResult {
    Passed,
    /// A one-line message and the details (the witness).
    Failed {
        message: String,
        details: String,
    },
    Skipped {
        message: String,
    },
    /// The count was not compared (JUnit `error`): `kind` is its type,
    /// `engine-failure` (the engine failed to give it) or `refused-line` (a
    /// line of the suite that could not be read).
    Error {
        kind: &'static str,
        message: String,
    },
}

/// One suite file.
pub struct Suite {
    pub name: String,
    pub cases: Vec<Case>,
}

/// The whole report.
pub fn xml(suites: &[Suite]) -> String {
    let count = |s: &Suite, f: fn(&CaseResult) -> bool| s.cases.iter().filter(|c| f(&c.result)).count();
    let failed = |r: &CaseResult| matches!(r, CaseResult::Failed { .. });
    let skipped = |r: &CaseResult| matches!(r, CaseResult::Skipped { .. });
    let errors = |r: &CaseResult| matches!(r, CaseResult::Error { .. });
    let seconds = |s: &Suite| s.cases.iter().map(|c| c.seconds).sum::<f64>();
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        x,
        "<testsuites name=\"chesstool suite\" tests=\"{}\" failures=\"{}\" skipped=\"{}\" errors=\"{}\" time=\"{:.3}\">",
        suites.iter().map(|s| s.cases.len()).sum::<usize>(),
        suites.iter().map(|s| count(s, failed)).sum::<usize>(),
        suites.iter().map(|s| count(s, skipped)).sum::<usize>(),
        suites.iter().map(|s| count(s, errors)).sum::<usize>(),
        suites.iter().map(seconds).sum::<f64>()
    );
    for s in suites {
        let _ = writeln!(
            x,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3}\">",
            escape(&s.name),
            s.cases.len(),
            count(s, failed),
            count(s, errors),
            count(s, skipped),
            seconds(s)
        );
        for c in &s.cases {
            let head = format!(
                "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3}\"",
                escape(&s.name),
                escape(&c.name),
                c.seconds
            );
            match &c.result {
                CaseResult::Passed => {
                    let _ = writeln!(x, "{head}/>");
                }
                CaseResult::Failed { message, details } => {
                    let _ = writeln!(
                        x,
                        "{head}>\n      <failure type=\"mismatch\" message=\"{}\">{}</failure>\n    </testcase>",
                        escape(message),
                        escape(details).replace("&#10;", "\n")
                    );
                }
                CaseResult::Skipped { message } => {
                    let _ = writeln!(x, "{head}>\n      <skipped message=\"{}\"/>\n    </testcase>", escape(message));
                }
                CaseResult::Error { kind, message } => {
                    let _ = writeln!(
                        x,
                        "{head}>\n      <error type=\"{kind}\" message=\"{}\"/>\n    </testcase>",
                        escape(message)
                    );
                }
            }
        }
        x.push_str("  </testsuite>\n");
    }
    x.push_str("</testsuites>\n");
    x
}

/// Text as XML 1.0 character data or attribute value: the five special
/// characters escaped, characters XML cannot hold replaced.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\t' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_xml_cannot_hold() {
        assert_eq!(escape("a<b & \"c\"\u{1}"), "a&lt;b &amp; &quot;c&quot;\u{fffd}");
        let suites = [Suite {
            name: "x.epd".into(),
            cases: vec![
                Case { name: "line 1 depth 1".into(), order: (1, 1), seconds: 0.0, result: CaseResult::Passed },
                Case {
                    name: "line 1 depth 2".into(),
                    order: (1, 2),
                    seconds: 0.1,
                    result: CaseResult::Failed {
                        message: "counted 3, expected 2".into(),
                        details: "extra: <x>".into(),
                    },
                },
                Case {
                    name: "line 1 depth 3".into(),
                    order: (1, 3),
                    seconds: 0.0,
                    result: CaseResult::Skipped { message: "--max-depth 2".into() },
                },
            ],
        }];
        let x = xml(&suites);
        assert!(x.contains("tests=\"3\" failures=\"1\" skipped=\"1\""), "{x}");
        assert!(x.contains("extra: &lt;x&gt;"), "{x}");
    }
}
