//! Reads as Arrow record batches: [`record_batches`] streams a query's
//! batches as [`RecordBatch`]es, [`write_ipc`] writes them as an Arrow IPC
//! stream.

use std::io::Write;
use std::sync::Arc;

use arrow_array::types::{
    Date32Type, DurationMicrosecondType, DurationMillisecondType, DurationNanosecondType,
    DurationSecondType, Float32Type, Float64Type, Int16Type, Int32Type, Int64Type, Int8Type,
    TimestampMicrosecondType, TimestampMillisecondType, TimestampNanosecondType,
    TimestampSecondType, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{
    cast::AsArray, Array, ArrayRef, ArrowPrimitiveType, BooleanArray, DictionaryArray,
    FixedSizeBinaryArray, FixedSizeListArray, LargeBinaryArray, LargeListArray, LargeStringArray,
    PrimitiveArray, RecordBatch, RecordBatchOptions, RecordBatchReader,
};
use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{Field, Schema, SchemaRef};

use super::schema::{arrow_field, is_bytes, is_utf8, value_type, EnumerationType};
use super::{Error, Result};
use crate::array::schema::{enumeration_values, read_enumeration_file};
use crate::array::FieldInfo;
use crate::format::Datatype;
use crate::read::{ArrayReader, Batches, Cells, Query};

/// A buffer of `data` for values of `size` bytes aligned to `align`: the
/// vector itself when its allocation is aligned (no copy), else one copy
/// into an aligned buffer. TileDB values are little-endian; on a big-endian
/// machine they are swapped in place first.
fn aligned(mut data: Vec<u8>, size: usize, align: usize) -> Buffer {
    if cfg!(target_endian = "big") && size > 1 {
        data.chunks_exact_mut(size).for_each(<[u8]>::reverse);
    }
    let b = Buffer::from_vec(data);
    if b.as_ptr().align_offset(align) == 0 {
        b
    } else {
        Buffer::from_slice_ref(b.as_slice())
    }
}

fn primitive<T: ArrowPrimitiveType>(
    name: &str,
    data: Vec<u8>,
    nulls: Option<NullBuffer>,
) -> Result<ArrayRef> {
    let size = std::mem::size_of::<T::Native>();
    if !data.len().is_multiple_of(size) {
        return Err(Error::field(
            name,
            format!("{} bytes are not whole {size}-byte values", data.len()),
        ));
    }
    let n = data.len() / size;
    let buf = aligned(data, size, std::mem::align_of::<T::Native>());
    Ok(Arc::new(PrimitiveArray::<T>::try_new(
        ScalarBuffer::new(buf, 0, n),
        nulls,
    )?))
}

/// An array of single values of `dt` from their bytes.
fn values_array(
    name: &str,
    dt: Datatype,
    data: Vec<u8>,
    nulls: Option<NullBuffer>,
) -> Result<ArrayRef> {
    // By the Arrow type the datatype table gives each datatype
    // (`Datatype::arrow_type`, spec/datatypes.toml).
    use arrow_schema::{DataType as A, TimeUnit as U};
    match value_type(dt) {
        A::Int8 => primitive::<Int8Type>(name, data, nulls),
        A::Int16 => primitive::<Int16Type>(name, data, nulls),
        A::Int32 => primitive::<Int32Type>(name, data, nulls),
        A::UInt8 => primitive::<UInt8Type>(name, data, nulls),
        A::UInt16 => primitive::<UInt16Type>(name, data, nulls),
        A::UInt32 => primitive::<UInt32Type>(name, data, nulls),
        A::UInt64 => primitive::<UInt64Type>(name, data, nulls),
        A::Float32 => primitive::<Float32Type>(name, data, nulls),
        A::Float64 => primitive::<Float64Type>(name, data, nulls),
        A::Timestamp(U::Second, _) => primitive::<TimestampSecondType>(name, data, nulls),
        A::Timestamp(U::Millisecond, _) => primitive::<TimestampMillisecondType>(name, data, nulls),
        A::Timestamp(U::Microsecond, _) => primitive::<TimestampMicrosecondType>(name, data, nulls),
        A::Timestamp(U::Nanosecond, _) => primitive::<TimestampNanosecondType>(name, data, nulls),
        A::Duration(U::Second) => primitive::<DurationSecondType>(name, data, nulls),
        A::Duration(U::Millisecond) => primitive::<DurationMillisecondType>(name, data, nulls),
        A::Duration(U::Microsecond) => primitive::<DurationMicrosecondType>(name, data, nulls),
        A::Duration(U::Nanosecond) => primitive::<DurationNanosecondType>(name, data, nulls),
        A::Boolean => Ok(Arc::new(BooleanArray::new(
            data.iter().map(|b| *b != 0).collect::<BooleanBuffer>(),
            nulls,
        ))),
        // DATETIME_DAY: i64 day counts, narrowed to Date32.
        A::Date32 => {
            if !data.len().is_multiple_of(8) {
                return Err(Error::field(name, "day counts are not whole 8-byte values"));
            }
            let days = data
                .chunks_exact(8)
                .map(|c| {
                    let v = i64::from_le_bytes(c.try_into().unwrap_or_default());
                    i32::try_from(v).map_err(|_| {
                        Error::field(name, format!("day {v} does not fit Arrow's Date32"))
                    })
                })
                .collect::<Result<Vec<i32>>>()?;
            Ok(Arc::new(PrimitiveArray::<Date32Type>::try_new(
                ScalarBuffer::from(days),
                nulls,
            )?))
        }
        // INT64 and the other dates and times (Arrow's Int64).
        _ => primitive::<Int64Type>(name, data, nulls),
    }
}

/// Offsets as Arrow takes them, checked (in order, within `data_len`):
/// the vector itself, reinterpreted as `i64`, without a copy.
fn offsets(name: &str, o: Vec<u64>, data_len: usize) -> Result<OffsetBuffer<i64>> {
    let ordered = o.windows(2).all(|w| w[0] <= w[1]);
    if o.is_empty() || !ordered || o.last().is_some_and(|l| *l > data_len as u64) {
        return Err(Error::field(
            name,
            "cell offsets out of order or past the data",
        ));
    }
    // Every offset is at most `data_len`, so below i64::MAX.
    let n = o.len();
    let buf = Buffer::from_vec(o);
    Ok(OffsetBuffer::new(ScalarBuffer::new(buf, 0, n)))
}

/// The Arrow array of one column's cells (`len` of them): see the table
/// in [`crate::arrow`].
pub(crate) fn to_array(
    info: &FieldInfo,
    data: Vec<u8>,
    offs: Option<Vec<u64>>,
    validity: Option<Vec<u8>>,
    len: usize,
) -> Result<ArrayRef> {
    let name = info.name.as_str();
    let dt = info.datatype;
    if validity.as_ref().is_some_and(|v| v.len() != len) {
        return Err(Error::field(
            name,
            "validity of another length than the cells",
        ));
    }
    // A non-nullable field whose column says every cell is valid.
    let validity = validity.filter(|v| info.nullable || v.contains(&0));
    let nulls = validity.map(|v| NullBuffer::new(v.iter().map(|b| *b != 0).collect()));
    let (data, offs) = match (info.cell_val_num, offs) {
        (Some(_), Some(o)) => {
            // Cells of another size in a fixed-size column (see
            // `read::Column::get`): laid out fixed, null cells as zeros.
            let cs = info.cell_size() as usize;
            let mut fixed = Vec::with_capacity(len * cs);
            for i in 0..len {
                let (s, e) = (o.get(i).copied(), o.get(i + 1).copied());
                let cell = s
                    .zip(e)
                    .and_then(|(s, e)| data.get(s as usize..e as usize))
                    .ok_or_else(|| Error::field(name, "cell offsets past the data"))?;
                match cell.len() {
                    n if n == cs => fixed.extend_from_slice(cell),
                    0 if nulls.as_ref().is_some_and(|v| v.is_null(i)) => {
                        fixed.resize(fixed.len() + cs, 0)
                    }
                    n => {
                        return Err(Error::field(
                            name,
                            format!("a cell of {n} bytes in a field of {cs}-byte cells"),
                        ))
                    }
                }
            }
            (fixed, None)
        }
        other => (data, other.1),
    };
    let array: ArrayRef = match (info.cell_val_num, offs) {
        (_, Some(o)) => {
            if o.len() != len + 1 {
                return Err(Error::field(
                    name,
                    "offsets of another length than the cells",
                ));
            }
            if is_bytes(dt) {
                let off = offsets(name, o, data.len())?;
                let values = Buffer::from_vec(data);
                if is_utf8(dt) {
                    Arc::new(LargeStringArray::try_new(off, values, nulls)?)
                } else {
                    Arc::new(LargeBinaryArray::try_new(off, values, nulls)?)
                }
            } else {
                let size = dt.size();
                if o.iter().any(|x| x % size != 0) {
                    return Err(Error::field(name, "a cell is not whole values"));
                }
                let o: Vec<u64> = o.iter().map(|x| x / size).collect();
                let n_values = data.len() / size as usize;
                let off = offsets(name, o, n_values)?;
                let values = values_array(name, dt, data, None)?;
                let item = Arc::new(Field::new("item", value_type(dt), false));
                Arc::new(LargeListArray::try_new(item, off, values, nulls)?)
            }
        }
        (Some(n), None) if is_bytes(dt) => {
            let size = i32::try_from(u64::from(n) * dt.size())
                .map_err(|_| Error::field(name, "cells too large for Arrow"))?;
            Arc::new(FixedSizeBinaryArray::try_new(
                size,
                Buffer::from_vec(data),
                nulls,
            )?)
        }
        (Some(1), None) => values_array(name, dt, data, nulls)?,
        (Some(n), None) => {
            let n =
                i32::try_from(n).map_err(|_| Error::field(name, "cells too large for Arrow"))?;
            let values = values_array(name, dt, data, None)?;
            let item = Arc::new(Field::new("item", value_type(dt), false));
            Arc::new(FixedSizeListArray::try_new(item, n, values, nulls)?)
        }
        (None, None) => return Err(Error::field(name, "a var-sized column without offsets")),
    };
    if array.len() != len {
        return Err(Error::field(
            name,
            format!("{} cells of data for {len} cells", array.len()),
        ));
    }
    Ok(array)
}

/// Integer keys and labels as a dictionary array.
fn dictionary(name: &str, keys: &ArrayRef, labels: &ArrayRef) -> Result<ArrayRef> {
    macro_rules! dict {
        ($($t:ty),*) => {
            $(if let Some(k) = keys.as_primitive_opt::<$t>() {
                return Ok(Arc::new(DictionaryArray::<$t>::try_new(k.clone(), labels.clone())?));
            })*
        };
    }
    dict!(Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type, UInt16Type, UInt32Type, UInt64Type);
    Err(Error::field(
        name,
        format!("an enumeration's keys of Arrow type {}", keys.data_type()),
    ))
}

/// The enumeration of attribute `info`, if it has one: its type and each
/// label's bytes.
pub(crate) fn enumeration_labels(
    reader: &ArrayReader,
    info: &FieldInfo,
) -> Result<Option<(EnumerationType, Vec<Vec<u8>>)>> {
    if info.is_dimension {
        return Ok(None);
    }
    let schema = &reader.schema;
    let Some(attr) = schema
        .attributes
        .iter()
        .find(|a| a.name == info.name.as_bytes())
    else {
        return Ok(None);
    };
    let Some(name) = attr.enumeration_name.as_ref().filter(|n| !n.is_empty()) else {
        return Ok(None);
    };
    let label = String::from_utf8_lossy(name).into_owned();
    let entry = schema
        .enumerations
        .iter()
        .flatten()
        .find(|e| e.name == *name)
        .ok_or_else(|| {
            Error::field(
                &info.name,
                format!("names enumeration {label:?}, which the schema lacks"),
            )
        })?;
    let file_name = String::from_utf8_lossy(&entry.filename).into_owned();
    let path = reader
        .dir
        .enumeration_files()?
        .into_iter()
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy() == file_name)
        })
        .ok_or_else(|| {
            Error::field(
                &info.name,
                format!("the enumeration file {file_name} is missing"),
            )
        })?;
    let e = read_enumeration_file(&reader.dir.storage.open(&path)?, reader.options())?;
    let values = enumeration_values(&e, &path)?;
    let datatype = e.datatype.known().ok_or_else(|| {
        Error::field(
            &info.name,
            format!("an enumeration of unknown datatype {}", e.datatype),
        )
    })?;
    let cell_val_num = (e.cell_val_num != crate::format::VAR_NUM).then_some(e.cell_val_num);
    Ok(Some((
        EnumerationType {
            name: label,
            datatype,
            cell_val_num,
        },
        values.into_iter().map(<[u8]>::to_vec).collect(),
    )))
}

/// The enumeration of attribute `info`, if it has one: its type and labels.
fn enumeration(
    reader: &ArrayReader,
    info: &FieldInfo,
) -> Result<Option<(EnumerationType, ArrayRef)>> {
    let Some((e, values)) = enumeration_labels(reader, info)? else {
        return Ok(None);
    };
    let (datatype, cell_val_num) = (e.datatype, e.cell_val_num);
    let labels_info = FieldInfo {
        name: info.name.clone(),
        idx: info.idx,
        is_dimension: false,
        datatype,
        cell_val_num,
        nullable: false,
        filters: Vec::new(),
    };
    let mut data = Vec::new();
    let mut offs = vec![0u64];
    for v in &values {
        data.extend_from_slice(v);
        offs.push(data.len() as u64);
    }
    let offs = cell_val_num.is_none().then_some(offs);
    let labels = to_array(&labels_info, data, offs, None, values.len())?;
    Ok(Some((e, labels)))
}

/// What a query's cells become: the Arrow schema, the fields, and each
/// enumerated field's labels.
struct Target {
    schema: SchemaRef,
    fields: Vec<FieldInfo>,
    labels: Vec<Option<ArrayRef>>,
}

impl Target {
    fn new(reader: &ArrayReader, q: &Query) -> Result<Self> {
        let fields = reader.result_fields(q)?;
        let mut arrow = Vec::with_capacity(fields.len());
        let mut labels = Vec::with_capacity(fields.len());
        for f in &fields {
            let e = enumeration(reader, f)?;
            arrow.push(arrow_field(f, e.as_ref().map(|(t, _)| t)));
            labels.push(e.map(|(_, l)| l));
        }
        Ok(Target {
            schema: Arc::new(Schema::new(arrow)),
            fields,
            labels,
        })
    }

    fn batch(&self, cells: Cells) -> Result<RecordBatch> {
        let n = cells.len;
        let mut columns = cells.columns;
        let mut out = Vec::with_capacity(self.fields.len());
        for (info, labels) in self.fields.iter().zip(&self.labels) {
            let pos = columns
                .iter()
                .position(|c| c.field.name == info.name)
                .ok_or_else(|| Error::field(&info.name, "missing from the read's cells"))?;
            let col = columns.swap_remove(pos);
            let len = col.len();
            let (field, data, offs, validity) = col.into_parts();
            let field = FieldInfo {
                nullable: info.nullable,
                ..field
            };
            let array = to_array(&field, data, offs, validity, len)?;
            out.push(match labels {
                Some(l) => dictionary(&info.name, &array, l)?,
                None => array,
            });
        }
        let opts = RecordBatchOptions::new().with_row_count(Some(n));
        Ok(RecordBatch::try_new_with_options(
            self.schema.clone(),
            out,
            &opts,
        )?)
    }
}

/// The Arrow schema of the cells a query returns: the dimensions (unless
/// [`Query::skip_coordinates`]), then the attributes.
pub fn arrow_schema(reader: &ArrayReader, q: &Query) -> Result<SchemaRef> {
    Ok(Target::new(reader, q)?.schema)
}

/// The batches of a read as Arrow record batches ([`record_batches`]); an
/// Arrow [`RecordBatchReader`].
pub struct RecordBatches<'a> {
    target: Target,
    batches: Batches<'a>,
}

impl Iterator for RecordBatches<'_> {
    type Item = std::result::Result<RecordBatch, arrow_schema::ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        let cells = self.batches.next()?;
        Some(
            cells
                .map_err(Error::Read)
                .and_then(|c| self.target.batch(c))
                .map_err(|e| arrow_schema::ArrowError::ExternalError(Box::new(e))),
        )
    }
}

impl RecordBatchReader for RecordBatches<'_> {
    fn schema(&self) -> SchemaRef {
        self.target.schema.clone()
    }
}

/// The cells of `q` as Arrow record batches, one per batch of
/// [`ArrayReader::batches`].
///
/// ```
/// use tiledb_codec::ReadOptions;
/// use tiledb_codec::raw::read::{ArrayReader, Query};
///
/// let reader = ArrayReader::open("tests/fixtures/v22/dense_int_1d".as_ref(), &ReadOptions::default())?;
/// let batches = tiledb_codec::raw::arrow::record_batches(&reader, &Query::default())?;
/// let rows: usize = batches.map(|b| b.map(|b| b.num_rows())).sum::<Result<_, _>>()?;
/// assert_eq!(rows, 20);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn record_batches<'a>(reader: &'a ArrayReader, q: &Query) -> Result<RecordBatches<'a>> {
    Ok(RecordBatches {
        target: Target::new(reader, q)?,
        batches: reader.batches(q)?,
    })
}

/// The whole result of `q` as one record batch ([`ArrayReader::read`]).
pub fn record_batch(reader: &ArrayReader, q: &Query) -> Result<RecordBatch> {
    let target = Target::new(reader, q)?;
    target.batch(reader.read(q)?)
}

/// Writes the cells of `q` to `out` as an Arrow IPC stream, batch by
/// batch; returns how many cells it wrote.
pub fn write_ipc(reader: &ArrayReader, q: &Query, out: impl Write) -> Result<u64> {
    let batches = record_batches(reader, q)?;
    let mut w = arrow_ipc::writer::StreamWriter::try_new(out, &batches.schema())?;
    let mut n = 0u64;
    let RecordBatches { target, batches } = batches;
    for cells in batches {
        let b = target.batch(cells?)?;
        n += b.num_rows() as u64;
        w.write(&b)?;
    }
    w.finish()?;
    Ok(n)
}
