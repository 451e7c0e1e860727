//! A user's `variants.ini`: read on top of Fairy-Stockfish's built-ins (as
//! its `VariantPath`), so that a section may use a built-in as its template
//! and a name the file does not define may be a built-in. The built-ins are
//! read through the same reader (`ini.rs`), never the reverse.

use super::builtin;
use super::definition::Variant;
use super::ini::{IniError, IniFile};

/// Reads the text of a user's file (`path` only names it in messages); its
/// sections may use the built-ins as templates.
pub fn parse(path: &str, text: &str) -> Result<IniFile, IniError> {
    Ok(IniFile::parse(path, text)?.over(builtin::file()))
}

/// Reads `path` and builds the variant `name`.
pub fn load(path: &str, name: &str) -> Result<Variant, IniError> {
    parse(path, &read_capped(path)?)?.variant(name)
}

/// The text of a variants.ini file, within its line and size caps.
fn read_capped(path: &str) -> Result<String, IniError> {
    let input = crate::input::Input::open(std::path::Path::new(path));
    input.and_then(|i| i.text(crate::input::VARIANTS_INI)).map_err(|e| IniError {
        path: crate::input::quote(path),
        line: None,
        message: e.reason(),
    })
}

/// As Fairy-Stockfish's `VariantPath`: the file's variants come on top of
/// the built-ins, so a name the file does not define may be a built-in.
pub fn load_with_builtins(path: &str, name: &str) -> Result<Variant, IniError> {
    let file = parse(path, &read_capped(path)?)?;
    if !file.names().iter().any(|n| n == name) && builtin::file().names().iter().any(|n| n == name) {
        return builtin::load(name);
    }
    file.variant(name)
}
