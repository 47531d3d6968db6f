//! Runs a generated codec over bytes and turns `binrw` errors into
//! [`Error::Decode`] naming file, offset, table and field.

use std::cell::Cell;
use std::io::{Cursor, Read, Seek, SeekFrom};
use std::path::Path;

use binrw::{BinRead, BinWrite};

use super::rt::TooLong;
use crate::error::{Error, Result};

/// A cursor that remembers where the last read started, so that an
/// unexpected end of data can be placed at the field that hit it.
struct Tracked<'a> {
    inner: Cursor<&'a [u8]>,
    last_read: Cell<u64>,
}

impl Read for Tracked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.last_read.set(self.inner.position());
        self.inner.read(buf)
    }
}

impl Seek for Tracked<'_> {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        self.inner.seek(pos)
    }
}

/// Decodes a `T` from the start of `bytes`, which sit at `base` in `file`.
/// Returns the value and the number of bytes it took.
pub fn decode<T>(
    bytes: &[u8],
    file: &Path,
    base: u64,
    args: <T as BinRead>::Args<'_>,
) -> Result<(T, u64)>
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
            file,
            base,
            reader.last_read.get(),
            std::any::type_name::<T>(),
        )),
    }
}

/// Decodes a `T` that must take exactly all of `bytes`.
pub fn decode_all<T>(
    bytes: &[u8],
    file: &Path,
    base: u64,
    args: <T as BinRead>::Args<'_>,
) -> Result<T>
where
    T: BinRead,
{
    let (value, used) = decode::<T>(bytes, file, base, args)?;
    if used != bytes.len() as u64 {
        return Err(Error::decode(
            file,
            base + used,
            short_name(std::any::type_name::<T>()),
            "",
            format!(
                "{} bytes left over after the table",
                bytes.len() as u64 - used
            ),
        ));
    }
    Ok(value)
}

/// Encodes a table (little-endian, as TileDB writes every table).
pub fn encode<T>(value: &T) -> Vec<u8>
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

fn convert(err: binrw::Error, file: &Path, base: u64, last_read: u64, ty: &str) -> Error {
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
    match root {
        binrw::Error::Custom { pos, err } => {
            if let Some(t) = err.downcast_ref::<TooLong>() {
                return Error::decode(file, base + pos, t.table, t.field, t.to_string());
            }
            Error::decode(file, base + pos, &table, &field, err.to_string())
        }
        binrw::Error::AssertFail { pos, message } => {
            if let Some((qual, what)) = message.split_once(": ") {
                if let Some((t, f)) = qual.split_once('.') {
                    return Error::decode(file, base + pos, t, f, what);
                }
            }
            Error::decode(file, base + pos, &table, &field, message)
        }
        binrw::Error::Io(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Error::decode(
            file,
            base + last_read,
            &table,
            &field,
            "the data ends inside this field",
        ),
        binrw::Error::NoVariantMatch { pos } => Error::decode(
            file,
            base + pos,
            &table,
            &field,
            "no variant of the union applies (unknown type code)",
        ),
        other => Error::decode(file, base + last_read, &table, &field, other.to_string()),
    }
}
