//! A saved divide output (`--against FILE`, `-` for standard input), read as
//! people paste it: answers exactly one question, the position and depth it
//! was made for. What it skipped on the way is kept for the report; a total
//! that contradicts the moves above it is an input error.

use super::output::{read_answer, read_answer_at, DivideFormat, ParseOutputError, Skipped};
use super::{clip, Divide, Divider, EngineError, Line};
use crate::rules::Rules;

/// A divide read once from a file or standard input.
#[derive(Debug, Clone)]
pub struct SavedDivide {
    name: String,
    divide: Divide,
    skipped: Skipped,
    format: DivideFormat,
    answered: bool,
    /// The text as read, to name the line of a move that cannot be used.
    text: String,
}

impl SavedDivide {
    /// Parses `text` (read from `name`) by the rules of every answer
    /// (`output::read_answer`); text that breaks one is an input error.
    pub fn parse(name: &str, text: &str, format: DivideFormat) -> Result<SavedDivide, EngineError> {
        SavedDivide::parse_at(name, text, format, None)
    }

    /// As `parse`, for the asked `depth`: of a paste with several
    /// iterations (Sjaak II's depth tables), the block of that depth
    /// (`output::read_answer_at`), read as a live answer is.
    pub fn parse_at(
        name: &str,
        text: &str,
        format: DivideFormat,
        depth: Option<u32>,
    ) -> Result<SavedDivide, EngineError> {
        let read = match depth {
            Some(depth) => read_answer_at(text, format, depth),
            None => read_answer(text, format),
        };
        let parsed = read.map_err(|e| {
            let hint = matches!(e, ParseOutputError::TotalNotSum { .. })
                .then(|| "was the paste cut, or are two outputs mixed?".to_string());
            EngineError::BadText { name: clip(name), source: Box::new(e), hint }
        })?;
        let divide = parsed.divide;
        Ok(SavedDivide {
            name: name.to_string(),
            divide,
            skipped: parsed.skipped,
            format: parsed.format,
            answered: false,
            text: text.to_string(),
        })
    }

    /// The divide as read.
    pub fn divide(&self) -> &Divide {
        &self.divide
    }

    /// What was skipped as not divide data.
    pub fn skipped(&self) -> Skipped {
        self.skipped
    }

    /// The format that read it.
    pub fn format(&self) -> DivideFormat {
        self.format
    }
}

impl<R: Rules> Divider<R> for SavedDivide {
    fn name(&self) -> String {
        self.name.clone()
    }

    /// The saved divide, the first time; a saved file cannot answer a second
    /// question (bisection needs a live engine).
    fn divide(&mut self, _line: &Line<R>, _depth: u32) -> Result<Divide, EngineError> {
        if self.answered {
            return Err(EngineError::Input(format!(
                "{}: a saved divide answers only for its own position and depth; use --engine-uci or --engine-script to descend",
                self.name
            )));
        }
        self.answered = true;
        Ok(self.divide.clone())
    }

    fn skipped(&self) -> Option<Skipped> {
        Some(self.skipped)
    }

    fn user_text_at(&self, printed: &str) -> Option<String> {
        Some(match line_of(&self.text, printed) {
            Some(n) => format!("{}: line {n}", clip(&self.name)),
            None => clip(&self.name),
        })
    }
}

/// The number of the first line whose first word is `mv` (`a2a9: 1`,
/// `a2a9 1`), counting from 1.
fn line_of(text: &str, mv: &str) -> Option<usize> {
    let first_word =
        |l: &str| l.split(|c: char| c == ':' || c.is_whitespace()).find(|w| !w.is_empty()).map(str::to_string);
    text.lines().position(|l| first_word(l).as_deref() == Some(mv)).map(|i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_total_that_contradicts_the_moves_gives_both_numbers() {
        let err = SavedDivide::parse("paste", "e2e4: 20\nd2d4: 20\n\nNodes searched: 8902\n", DivideFormat::Auto)
            .unwrap_err()
            .to_string();
        assert!(err.contains("8902") && err.contains("(40)"), "{err}");
        let ok = SavedDivide::parse("paste", "e2e4: 20\nd2d4: 20\n\nNodes searched: 40\n", DivideFormat::Auto).unwrap();
        assert_eq!(ok.divide().nodes(), 40);
    }

    #[test]
    fn a_move_is_found_on_its_line() {
        assert_eq!(line_of("info x\na2a3: 1\n  a2a9 1\n", "a2a9"), Some(3));
        assert_eq!(line_of("a2a3: 1\n", "a2a9"), None);
    }
}
