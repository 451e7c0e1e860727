//! A saved divide output (`--against FILE`, `-` for standard input): answers
//! exactly one question, the position and depth it was made for.

use super::output::{parse_divide, DivideFormat};
use super::{Divide, Divider, EngineError, Line};

/// A divide read once from a file or standard input.
#[derive(Debug, Clone)]
pub struct SavedDivide {
    name: String,
    divide: Divide,
    answered: bool,
}

impl SavedDivide {
    /// Parses `text` (read from `name`). Unreadable text is an input error.
    pub fn parse(name: &str, text: &str, format: DivideFormat) -> Result<SavedDivide, EngineError> {
        let divide = parse_divide(text, format).map_err(|e| EngineError::Input(format!("{name}: {e}")))?;
        Ok(SavedDivide { name: name.to_string(), divide, answered: false })
    }
}

impl Divider for SavedDivide {
    fn name(&self) -> String {
        self.name.clone()
    }

    /// The saved divide, the first time; a saved file cannot answer a second
    /// question (bisection needs a live engine).
    fn divide(&mut self, _line: &Line, _depth: u32) -> Result<Divide, EngineError> {
        if self.answered {
            return Err(EngineError::Input(format!(
                "{}: a saved divide answers only for its own position and depth; use --engine-uci or --engine-script to descend",
                self.name
            )));
        }
        self.answered = true;
        Ok(self.divide.clone())
    }
}
