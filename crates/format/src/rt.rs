//! Run-time helpers the generated codecs call.
//!
//! The generated `binrw` structs read every length- or count-prefixed field
//! through these functions, so that a length read from a file is checked
//! against the bytes actually left in the stream *before* anything is
//! allocated (the wasmparser habit: never trust a count).

use alloc::boxed::Box;
use alloc::sync::Arc;
use alloc::vec;
use alloc::vec::Vec;

use binrw::io::{Read, Seek, SeekFrom};
use binrw::{BinRead, BinResult, Endian};

/// Per-dimension coordinate sizes, in schema order: the byte width of one
/// coordinate value, or 0 for a var-sized dimension. Tables whose layout
/// depends on the dimensions (MBRs, non-empty domains, footers) import it.
pub type Dims = Arc<[u64]>;

/// A length or count read from a file that the stream cannot hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooLong {
    pub table: &'static str,
    pub field: &'static str,
    /// Bytes the field declares it needs (at least).
    pub needed: u128,
    /// Bytes left in the stream at the field.
    pub available: u64,
}

impl core::fmt::Display for TooLong {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{}.{} declares {} bytes but only {} remain",
            self.table, self.field, self.needed, self.available
        )
    }
}

fn remaining<R: Read + Seek>(reader: &mut R) -> BinResult<(u64, u64)> {
    let pos = reader.stream_position()?;
    let end = reader.seek(SeekFrom::End(0))?;
    reader.seek(SeekFrom::Start(pos))?;
    Ok((pos, end.saturating_sub(pos)))
}

fn check<R: Read + Seek>(
    reader: &mut R,
    needed: u128,
    table: &'static str,
    field: &'static str,
) -> BinResult<()> {
    let (pos, available) = remaining(reader)?;
    if needed > u128::from(available) {
        return Err(binrw::Error::Custom {
            pos,
            err: Box::new(TooLong {
                table,
                field,
                needed,
                available,
            }),
        });
    }
    Ok(())
}

/// The most bytes a list reserves before its elements decode. A count is
/// checked against the bytes left, but an element may be far larger in
/// memory than its smallest encoding, and lists nest (condition trees,
/// R-tree levels): a list grows past this only as its elements decode.
const MAX_PREALLOC_BYTES: usize = 64 << 10;

/// The capacity to reserve for `count` elements of `T`.
fn initial_capacity<T>(count: u64) -> usize {
    let most = MAX_PREALLOC_BYTES / core::mem::size_of::<T>().max(1);
    usize::try_from(count).map_or(most, |c| c.min(most))
}

/// Reads `len` bytes, after checking that the stream holds them.
pub fn bytes<R: Read + Seek>(
    reader: &mut R,
    _endian: Endian,
    (len, table, field): (u64, &'static str, &'static str),
) -> BinResult<Vec<u8>> {
    check(reader, u128::from(len), table, field)?;
    let mut buf = vec![0u8; len as usize];
    reader.read_exact(&mut buf)?;
    Ok(buf)
}

/// Reads `count` elements of at least `min_size` bytes each, after checking
/// that the stream can hold that many.
pub fn list<R, T, A>(
    reader: &mut R,
    endian: Endian,
    (count, min_size, args, table, field): (u64, u64, A, &'static str, &'static str),
) -> BinResult<Vec<T>>
where
    R: Read + Seek,
    A: Clone,
    T: for<'a> BinRead<Args<'a> = A>,
{
    check(
        reader,
        u128::from(count) * u128::from(min_size),
        table,
        field,
    )?;
    let mut items = Vec::with_capacity(initial_capacity::<T>(count));
    for _ in 0..count {
        items.push(T::read_options(reader, endian, args.clone())?);
    }
    Ok(items)
}

/// Reads one element per item of `each`, element `i` with arguments
/// `(each[i],)` (an MBR reads one range per dimension, each with the
/// dimension's coordinate size).
pub fn list_each<R, T, E>(
    reader: &mut R,
    endian: Endian,
    (each, min_size, table, field): (Arc<[E]>, u64, &'static str, &'static str),
) -> BinResult<Vec<T>>
where
    R: Read + Seek,
    E: Clone,
    T: for<'a> BinRead<Args<'a> = (E,)>,
{
    check(
        reader,
        each.len() as u128 * u128::from(min_size),
        table,
        field,
    )?;
    let mut items = Vec::with_capacity(initial_capacity::<T>(each.len() as u64));
    for e in each.iter() {
        items.push(T::read_options(reader, endian, (e.clone(),))?);
    }
    Ok(items)
}

/// Serializes a byte string as text when it is UTF-8, as numbers otherwise.
#[cfg(feature = "serde")]
pub fn serialize_text<S: serde::Serializer>(value: &[u8], s: S) -> Result<S::Ok, S::Error> {
    match core::str::from_utf8(value) {
        Ok(text) => s.serialize_str(text),
        Err(_) => s.collect_seq(value.iter()),
    }
}

/// [`serialize_text`] for a field that a version gate may leave absent.
#[cfg(feature = "serde")]
pub fn serialize_opt_text<S: serde::Serializer>(
    value: &Option<Vec<u8>>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match value {
        Some(v) => serialize_text(v, s),
        None => s.serialize_none(),
    }
}

/// `a` when `cond` holds, else `b`: the spec's "if version >= N then X else Y".
pub fn pick<T>(cond: bool, a: T, b: T) -> T {
    if cond {
        a
    } else {
        b
    }
}

/// Width in bytes of one value of a datatype; 0 for a code the format
/// does not define (the semantic layer reports those).
pub fn datatype_size(datatype: super::Datatype) -> u64 {
    datatype.size()
}

/// [`bytes`] for a field behind a version gate or condition.
pub fn opt_bytes<R: Read + Seek>(
    reader: &mut R,
    endian: Endian,
    (present, len, table, field): (bool, u64, &'static str, &'static str),
) -> BinResult<Option<Vec<u8>>> {
    present
        .then(|| bytes(reader, endian, (len, table, field)))
        .transpose()
}

/// [`list`] for a field behind a version gate or condition.
pub fn opt_list<R, T, A>(
    reader: &mut R,
    endian: Endian,
    (present, count, min_size, args, table, field): (bool, u64, u64, A, &'static str, &'static str),
) -> BinResult<Option<Vec<T>>>
where
    R: Read + Seek,
    A: Clone,
    T: for<'a> BinRead<Args<'a> = A>,
{
    present
        .then(|| list(reader, endian, (count, min_size, args, table, field)))
        .transpose()
}

/// Reads elements until the stream ends (each element must consume bytes).
pub fn list_to_end<R, T, A>(
    reader: &mut R,
    endian: Endian,
    (args, _table, _field): (A, &'static str, &'static str),
) -> BinResult<Vec<T>>
where
    R: Read + Seek,
    A: Clone,
    T: for<'a> BinRead<Args<'a> = A>,
{
    let mut items = Vec::new();
    loop {
        let (pos, left) = remaining(reader)?;
        if left == 0 {
            return Ok(items);
        }
        items.push(T::read_options(reader, endian, args.clone())?);
        if reader.stream_position()? == pos {
            return Ok(items);
        }
    }
}

/// A line of a text file, without its terminating `\n` (which must be there).
pub fn line<R: Read + Seek>(
    reader: &mut R,
    _endian: Endian,
    (table, field): (&'static str, &'static str),
) -> BinResult<Vec<u8>> {
    let start = reader.stream_position()?;
    let mut out = Vec::new();
    let mut byte = [0u8; 1];
    loop {
        if reader.read(&mut byte)? == 0 {
            return Err(binrw::Error::Custom {
                pos: start,
                err: Box::new(TooLong {
                    table,
                    field,
                    needed: out.len() as u128 + 1,
                    available: out.len() as u64,
                }),
            });
        }
        if byte[0] == b'\n' {
            return Ok(out);
        }
        out.push(byte[0]);
    }
}

/// Whether a byte string ends with a suffix (for conditions on file names).
pub fn ends_with(value: &[u8], suffix: &str) -> bool {
    value.ends_with(suffix.as_bytes())
}

/// Writes a [`line`] back with its `\n`.
// binrw's `write_with` hands the field over as `&Vec<u8>`.
#[allow(clippy::ptr_arg)]
pub fn write_line<W: binrw::io::Write + Seek>(
    value: &Vec<u8>,
    writer: &mut W,
    _endian: Endian,
    _args: (),
) -> BinResult<()> {
    writer.write_all(value)?;
    writer.write_all(b"\n")?;
    Ok(())
}
