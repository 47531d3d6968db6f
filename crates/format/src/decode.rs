//! Runs a generated codec over bytes and turns `binrw` errors into a
//! [`DecodeError`] naming the offset, table and field.

use alloc::borrow::ToOwned;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::cell::Cell;

use binrw::io::{Cursor, Read, Seek, SeekFrom};
use binrw::{BinRead, BinWrite};

use crate::rt::TooLong;

/// Bytes that do not decode as a spec table says: where, in which table
/// and field, and what was wrong. The file is the caller's to name (this
/// crate sees bytes, not files): the offset counts from the `base` the
/// caller gave, normally the bytes' place in their file.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DecodeError {
    /// Byte offset of the field at fault (of the table, when no one field is).
    pub offset: u64,
    /// Spec table, as `spec/` names it (`ArraySchema`, `FragmentFooter`, ...).
    pub table: String,
    /// Field of that table (snake_case, as in `spec/`); empty when the error
    /// concerns the table as a whole.
    pub field: String,
    /// What was wrong with the bytes.
    pub what: String,
}

impl DecodeError {
    /// An error at `offset` in `table`.`field`.
    pub fn new(offset: u64, table: &str, field: &str, what: impl Into<String>) -> Self {
        DecodeError {
            offset,
            table: table.to_owned(),
            field: field.to_owned(),
            what: what.into(),
        }
    }
}

impl core::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.table)?;
        if !self.field.is_empty() {
            write!(f, ".{}", self.field)?;
        }
        write!(f, ": {}", self.what)
    }
}

impl core::error::Error for DecodeError {}

/// A cursor that remembers where the last read started, so that an
/// unexpected end of data can be placed at the field that hit it.
struct Tracked<'a> {
    inner: Cursor<&'a [u8]>,
    last_read: Cell<u64>,
}

impl Read for Tracked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> binrw::io::Result<usize> {
        self.last_read.set(self.inner.position());
        self.inner.read(buf)
    }
}

impl Seek for Tracked<'_> {
    fn seek(&mut self, pos: SeekFrom) -> binrw::io::Result<u64> {
        self.inner.seek(pos)
    }
}

/// Decodes a `T` from the start of `bytes`, which sit at `base` (offsets in
/// errors count from there). Returns the value and the number of bytes it
/// took.
pub fn decode<T>(
    bytes: &[u8],
    base: u64,
    args: <T as BinRead>::Args<'_>,
) -> Result<(T, u64), DecodeError>
where
    T: BinRead,
{
    let mut reader = Tracked {
        inner: Cursor::new(bytes),
        last_read: Cell::new(0),
    };
    match T::read_options(&mut reader, binrw::Endian::Little, args) {
        Ok(v) => Ok((v, reader.inner.position())),
        Err(e) => Err(convert(
            e,
            base,
            reader.last_read.get(),
            core::any::type_name::<T>(),
        )),
    }
}

/// Decodes a `T` that must take exactly all of `bytes`.
pub fn decode_all<T>(
    bytes: &[u8],
    base: u64,
    args: <T as BinRead>::Args<'_>,
) -> Result<T, DecodeError>
where
    T: BinRead,
{
    let (value, used) = decode::<T>(bytes, base, args)?;
    if used != bytes.len() as u64 {
        return Err(DecodeError::new(
            base + used,
            short_name(core::any::type_name::<T>()),
            "",
            alloc::format!(
                "{} bytes left over after the table",
                bytes.len() as u64 - used
            ),
        ));
    }
    Ok(value)
}

/// Encodes a table (little-endian, as TileDB writes every table), without
/// [`crate::Record::check`]: for the generated code, which computes sizes
/// with it; writers use [`crate::encode`].
pub(crate) fn encode_unchecked<T>(value: &T) -> Vec<u8>
where
    T: BinWrite,
    for<'a> <T as BinWrite>::Args<'a>: Default,
{
    let mut out = Cursor::new(Vec::new());
    value
        .write_options(&mut out, binrw::Endian::Little, Default::default())
        .expect("writing to a Vec cannot fail");
    out.into_inner()
}

fn short_name(type_name: &str) -> &str {
    type_name.rsplit("::").next().unwrap_or(type_name)
}

fn convert(err: binrw::Error, base: u64, last_read: u64, ty: &str) -> DecodeError {
    // The innermost context frame names the field ("Table.field").
    let mut table = short_name(ty).to_string();
    let mut field = String::new();
    let root = match err {
        binrw::Error::Backtrace(bt) => {
            let msg = bt.frames.first().map(|frame| match frame {
                binrw::error::BacktraceFrame::Full { message, .. }
                | binrw::error::BacktraceFrame::Message(message) => message.to_string(),
                binrw::error::BacktraceFrame::Custom(c) => c.to_string(),
            });
            if let Some(msg) = msg {
                if let Some((t, f)) = msg.split_once('.') {
                    table = t.to_string();
                    field = f.to_string();
                }
            }
            *bt.error
        }
        other => other,
    };
    let at = |pos: u64, what: String| DecodeError {
        offset: base + pos,
        table: table.clone(),
        field: field.clone(),
        what,
    };
    match root {
        binrw::Error::Custom { pos, err } => {
            if let Some(t) = err.downcast_ref::<TooLong>() {
                return DecodeError::new(base + pos, t.table, t.field, t.to_string());
            }
            at(pos, err.to_string())
        }
        binrw::Error::AssertFail { pos, message } => {
            if let Some((qual, what)) = message.split_once(": ") {
                if let Some((t, f)) = qual.split_once('.') {
                    return DecodeError::new(base + pos, t, f, what);
                }
            }
            at(pos, message)
        }
        binrw::Error::Io(e) if e.kind() == binrw::io::ErrorKind::UnexpectedEof => {
            at(last_read, "the data ends inside this field".into())
        }
        binrw::Error::NoVariantMatch { pos } => at(
            pos,
            "no variant of the union applies (unknown type code)".into(),
        ),
        other => at(last_read, other.to_string()),
    }
}
