//! The solved table on disk: a 32-byte header (magic, number of states,
//! FNV-1a hash of the values) and one byte per state. Probing reads single
//! bytes, so a question costs a few reads; every probe also checks that the
//! byte is a value and agrees with the bytes of the position's successors,
//! which catches a damaged file around the question.

use super::index::{state_of, Indexer, STATES};
use super::{Solution, Value, DRAW};
use crate::tictacchess::position::Position;
use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 16] = b"chesstool-ttc-v1";
const HEADER: u64 = 32;

/// Why a table file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// Not `#[source]`: the message already holds it, and a chain would
    /// print it twice.
    #[error("{path}: {error}")]
    Io {
        /// The file (the table, or the temporary file it is written to).
        path: PathBuf,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// The table file could not be created.
    #[error("{path}: cannot create the table ({tmp}): {error}")]
    Create {
        /// The table's path.
        path: PathBuf,
        /// The temporary file written first.
        tmp: PathBuf,
        /// The operating system's error.
        error: std::io::Error,
    },
    #[error(
        "{0}: not a chesstool TicTacChess table (its header does not start with {MAGIC:?})",
        MAGIC = "chesstool-ttc-v1"
    )]
    /// The file is not a chesstool TicTacChess table; holds its path.
    Foreign(PathBuf),
    /// The file has the wrong size.
    #[error("{path}: the table is {got} bytes, a complete one is {expected} (truncated or damaged)")]
    Size {
        /// The table's path.
        path: PathBuf,
        /// Its size in bytes.
        got: u64,
        /// The size of a complete table.
        expected: u64,
    },
    /// The table holds an impossible value.
    #[error("{path}: the table is corrupt at {what}")]
    Corrupt {
        /// The table's path.
        path: PathBuf,
        /// Where, or what is wrong.
        what: String,
    },
}

fn fnv(bytes: &[u8]) -> u64 {
    // Eight interleaved lanes keep the hash of 1.2 GB fast.
    let mut lanes = [0xcbf2_9ce4_8422_2325u64; 8];
    let chunks = bytes.chunks_exact(8);
    let tail = chunks.remainder();
    for c in chunks {
        for (l, &b) in lanes.iter_mut().zip(c) {
            *l = (*l ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    let mut h = lanes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &l| (h ^ l).wrapping_mul(0x100_0000_01b3));
    for &b in tail {
        h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// Writes a solved table (to a temporary file renamed at the end, so a
/// crash never leaves a half table under the name).
pub fn write(path: &Path, solution: &Solution) -> Result<(), TableError> {
    TableWriter::create(path)?.finish(solution)
}

/// A table being written: a new temporary file beside `path`, made before
/// the long solve so that an unwritable place fails at once. Its name
/// (`.NAME.tmp-PID`) is new (never an existing file, which is left alone),
/// and it is removed unless `finish` renames it to `path`.
pub struct TableWriter {
    path: PathBuf,
    tmp: PathBuf,
    file: Option<File>,
}

impl TableWriter {
    /// Starts writing a table to a temporary file beside `path`.
    pub fn create(path: &Path) -> Result<TableWriter, TableError> {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
        let file = File::create_new(&tmp).map_err(|error| TableError::Create {
            path: path.to_path_buf(),
            tmp: tmp.clone(),
            error,
        })?;
        Ok(TableWriter { path: path.to_path_buf(), tmp, file: Some(file) })
    }

    /// Writes the table and renames it to its name.
    pub fn finish(mut self, solution: &Solution) -> Result<(), TableError> {
        let io = |error| TableError::Io { path: self.tmp.clone(), error };
        let file = self.file.take().expect("finish runs once");
        let mut w = BufWriter::with_capacity(1 << 22, file);
        w.write_all(MAGIC).map_err(io)?;
        w.write_all(&STATES.to_le_bytes()).map_err(io)?;
        w.write_all(&fnv(&solution.bytes).to_le_bytes()).map_err(io)?;
        w.write_all(&solution.bytes).map_err(io)?;
        w.into_inner().map_err(|e| io(e.into_error()))?.sync_all().map_err(io)?;
        std::fs::rename(&self.tmp, &self.path).map_err(|error| TableError::Io { path: self.path.clone(), error })?;
        self.tmp = PathBuf::new();
        Ok(())
    }
}

impl Drop for TableWriter {
    fn drop(&mut self) {
        if !self.tmp.as_os_str().is_empty() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// A table file opened for probing.
pub struct TableFile {
    path: PathBuf,
    file: File,
    indexer: Indexer,
}

impl TableFile {
    /// Opens a table, checking its header and size.
    pub fn open(path: &Path) -> Result<TableFile, TableError> {
        let io = |source| TableError::Io { path: path.to_path_buf(), error: source };
        let mut file = File::open(path).map_err(io)?;
        let mut header = [0u8; HEADER as usize];
        let got = file.metadata().map_err(io)?.len();
        if got < HEADER || file.read_exact(&mut header).is_err() || &header[..16] != MAGIC {
            return Err(TableError::Foreign(path.to_path_buf()));
        }
        let states = u64::from_le_bytes(header[16..24].try_into().expect("8 bytes"));
        let expected = HEADER + STATES;
        if states != STATES || got != expected {
            return Err(TableError::Size { path: path.to_path_buf(), got, expected });
        }
        Ok(TableFile { path: path.to_path_buf(), file, indexer: Indexer::new() })
    }

    fn byte(&self, index: u64) -> Result<u8, TableError> {
        let mut b = [0u8; 1];
        read_at(&self.file, &mut b, HEADER + index)
            .map_err(|error| TableError::Io { path: self.path.clone(), error })?;
        Ok(b[0])
    }

    fn value_at(&self, index: u64) -> Result<Value, TableError> {
        let b = self.byte(index)?;
        Value::from_byte(b).ok_or_else(|| TableError::Corrupt {
            path: self.path.clone(),
            what: format!("state {index} (byte {b:#04x} is not a value)"),
        })
    }

    /// The value of a position, checked against its successors.
    pub fn value(&self, pos: &Position) -> Result<Value, TableError> {
        let (m, o) = state_of(pos);
        let v = self.value_at(self.indexer.index(m, o))?;
        let derived = self.derive(pos)?;
        if derived != v {
            return Err(TableError::Corrupt {
                path: self.path.clone(),
                what: format!("{pos} (stored {v:?}, its successors say {derived:?})"),
            });
        }
        Ok(v)
    }

    /// Each legal move with the value of the position it leads to (for the
    /// side to move there).
    pub fn children(&self, pos: &Position) -> Result<Vec<(crate::tictacchess::Move, Value)>, TableError> {
        let mut out = Vec::new();
        for &m in pos.legal_moves().iter() {
            let child = pos.play(m);
            let (a, b) = state_of(&child);
            out.push((m, self.value_at(self.indexer.index(a, b))?));
        }
        Ok(out)
    }

    fn derive(&self, pos: &Position) -> Result<Value, TableError> {
        if pos.winner().is_some() {
            return Ok(Value::Loss(0));
        }
        let children = self.children(pos)?;
        Ok(children.iter().map(|&(_, v)| v.before()).max_by_key(|v| v.score()).unwrap_or(Value::Loss(0)))
    }
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(not(unix))]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    use std::io::{Seek, SeekFrom};
    let mut f = file.try_clone()?;
    f.seek(SeekFrom::Start(offset))?;
    f.read_exact(buf)
}

/// Checks the whole file's hash (seconds, not milliseconds).
pub fn check_hash(path: &Path) -> Result<(), TableError> {
    let io = |source| TableError::Io { path: path.to_path_buf(), error: source };
    let data = std::fs::read(path).map_err(io)?;
    let stored = u64::from_le_bytes(data[24..32].try_into().expect("8 bytes"));
    if fnv(&data[HEADER as usize..]) != stored || data[HEADER as usize..].iter().any(|&b| b != DRAW && b >= 0x80) {
        return Err(TableError::Corrupt {
            path: path.to_path_buf(),
            what: "its hash (the values were changed)".into(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_temporary_file_is_new_and_removed_unless_finished() {
        let dir = std::env::temp_dir().join(format!("ttc-writer-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // Files a plain `with_extension` name would have overwritten stay.
        let keep = dir.join("keep.partial");
        std::fs::write(&keep, "notes\n").unwrap();
        let table = dir.join("keep.tbl");
        let writer = TableWriter::create(&table).unwrap();
        assert!(writer.tmp.exists() && writer.tmp != keep);
        // A second writer of the same name in this process must not reuse it.
        assert!(matches!(TableWriter::create(&table), Err(TableError::Create { .. })));
        let tmp = writer.tmp.clone();
        drop(writer);
        assert!(!tmp.exists());
        assert!(!table.exists());
        assert_eq!(std::fs::read_to_string(&keep).unwrap(), "notes\n");
        let err = TableWriter::create(&dir.join("no/such/dir/t.tbl")).err().unwrap().to_string();
        assert!(err.contains("t.tbl: cannot create the table") && err.matches("os error").count() == 1, "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
