//! Writes from Arrow record batches: [`ArrowTarget::columns`] turns a
//! [`RecordBatch`] into the writer's columns, [`write_batch`] hands them to
//! a [`FragmentWriter`], and [`import_batches`] / [`import_file`] import
//! record batches (Arrow IPC, Parquet) the way NDJSON and CSV are imported:
//! every cell checked, one fragment, nothing committed on error.
//!
//! Columns are found by name. An Arrow column may have the type a read
//! gives the field ([`super::field_type`]) or a near one: any string or
//! binary type for text and blobs, `List`/`LargeList` for var-sized
//! fields, `Date32` and `Time32`/`Time64` widened to 64 bits, timestamps of
//! any time zone; an enumerated attribute takes a dictionary (labels looked
//! up in the enumeration) or its plain integer keys.

use std::path::Path;

use arrow_array::cast::AsArray;
use arrow_array::types::Date32Type;
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::DataType;
use serde_json::Value;

use super::read::enumeration_labels;
use super::schema::{is_bytes, value_type};
use super::{Error, Result};
use crate::array::FieldInfo;
use crate::format::{ArrayType, Datatype};
use crate::read::ArrayReader;
use crate::write::import::{import_source, CellSource, ImportOptions, ImportSummary, InField};
use crate::write::{Column, FragmentWriter, WriteError, WriteResult};
use crate::ReadOptions;

/// An array's fields as record batches are written into them: every
/// dimension and attribute, with the labels of enumerated attributes.
#[derive(Debug, Clone)]
pub struct ArrowTarget {
    fields: Vec<FieldInfo>,
    labels: Vec<Option<Vec<Vec<u8>>>>,
    dense: bool,
}

impl ArrowTarget {
    /// The fields of the array `reader` opened.
    pub fn new(reader: &ArrayReader) -> Result<Self> {
        let fields = reader.result_fields(&crate::read::Query::default())?;
        let mut labels = Vec::with_capacity(fields.len());
        for f in &fields {
            labels.push(enumeration_labels(reader, f)?.map(|(_, l)| l));
        }
        Ok(ArrowTarget {
            fields,
            labels,
            dense: reader.schema.array_type == ArrayType::Dense,
        })
    }

    /// The columns of `batch` as the writer takes them: for a dense array
    /// its attributes, for a sparse one its dimensions and attributes
    /// (`with_dimensions` takes the dimensions of dense arrays too).
    pub fn columns(&self, batch: &RecordBatch, with_dimensions: bool) -> Result<Vec<Column>> {
        let schema = batch.schema();
        for f in schema.fields() {
            if !self.fields.iter().any(|x| &x.name == f.name()) {
                return Err(Error::field(f.name(), "not a field of the array"));
            }
        }
        let mut out = Vec::new();
        for (info, labels) in self.fields.iter().zip(&self.labels) {
            if info.is_dimension && self.dense && !with_dimensions {
                continue;
            }
            let array = batch
                .column_by_name(&info.name)
                .ok_or_else(|| Error::field(&info.name, "missing from the record batch"))?;
            out.push(to_column(info, array, labels.as_deref())?);
        }
        Ok(out)
    }
}

/// Hands the cells of `batch` to `writer` (see [`ArrowTarget::columns`]):
/// a dense writer takes the attributes in row-major order of its
/// rectangle, a sparse one dimensions and attributes in any order.
pub fn write_batch(
    writer: &mut FragmentWriter,
    target: &ArrowTarget,
    batch: &RecordBatch,
) -> Result<()> {
    let cols = target.columns(batch, false)?;
    writer.write(&cols)?;
    Ok(())
}

/// Little-endian bytes of `n` native values (swapped on big-endian
/// machines).
fn le_bytes(raw: &[u8], size: usize) -> Vec<u8> {
    let mut v = raw.to_vec();
    if cfg!(target_endian = "big") && size > 1 {
        v.chunks_exact_mut(size).for_each(<[u8]>::reverse);
    }
    v
}

/// Whether Arrow values of `ty` are stored exactly as TileDB `dt` values.
fn same_layout(ty: &DataType, dt: Datatype) -> bool {
    let want = value_type(dt);
    match (ty, &want) {
        (DataType::Timestamp(a, _), DataType::Timestamp(b, _)) => a == b,
        (DataType::Time64(a), DataType::Duration(b)) => a == b,
        (DataType::Date64, _) => dt == Datatype::DatetimeMs,
        _ => *ty == want,
    }
}

/// The bytes of every value of a flat array of values of `dt` (nulls as
/// whatever Arrow holds there).
fn flat_values(name: &str, a: &dyn Array, dt: Datatype) -> Result<Vec<u8>> {
    let ty = a.data_type();
    if dt == Datatype::Bool {
        let b = a
            .as_boolean_opt()
            .ok_or_else(|| Error::field(name, format!("Arrow type {ty} for BOOL values")))?;
        return Ok(b.values().iter().map(u8::from).collect());
    }
    let widen32 = |v: &[i32]| v.iter().flat_map(|x| i64::from(*x).to_le_bytes()).collect();
    match ty {
        DataType::Date32 if dt == Datatype::DatetimeDay => {
            return Ok(widen32(a.as_primitive::<Date32Type>().values()))
        }
        DataType::Time32(u) if value_type(dt) == DataType::Duration(*u) => {
            let d = a.to_data();
            let v: &[i32] = &d.buffer::<i32>(0)[..a.len()];
            return Ok(widen32(v));
        }
        _ => {}
    }
    if !same_layout(ty, dt) {
        return Err(Error::field(
            name,
            format!(
                "Arrow type {ty} for {} values (expected {})",
                dt.name(),
                value_type(dt)
            ),
        ));
    }
    let size = dt.size() as usize;
    let d = a.to_data();
    let buf = d
        .buffers()
        .first()
        .ok_or_else(|| Error::field(name, "an array without values"))?;
    let start = d.offset() * size;
    let raw = buf
        .as_slice()
        .get(start..start + a.len() * size)
        .ok_or_else(|| Error::field(name, "values past the array's buffer"))?;
    Ok(le_bytes(raw, size))
}

/// Cell `i` of a var-sized (or byte string) array as its TileDB bytes.
fn var_cell(name: &str, a: &dyn Array, dt: Datatype, i: usize) -> Result<Vec<u8>> {
    Ok(match a.data_type() {
        DataType::Utf8 => a.as_string::<i32>().value(i).as_bytes().to_vec(),
        DataType::LargeUtf8 => a.as_string::<i64>().value(i).as_bytes().to_vec(),
        DataType::Utf8View => a.as_string_view().value(i).as_bytes().to_vec(),
        DataType::Binary => a.as_binary::<i32>().value(i).to_vec(),
        DataType::LargeBinary => a.as_binary::<i64>().value(i).to_vec(),
        DataType::BinaryView => a.as_binary_view().value(i).to_vec(),
        DataType::FixedSizeBinary(_) => a.as_fixed_size_binary().value(i).to_vec(),
        DataType::List(_) => flat_values(name, &a.as_list::<i32>().value(i), dt)?,
        DataType::LargeList(_) => flat_values(name, &a.as_list::<i64>().value(i), dt)?,
        DataType::FixedSizeList(..) => flat_values(name, &a.as_fixed_size_list().value(i), dt)?,
        ty => {
            return Err(Error::field(
                name,
                format!("Arrow type {ty} for var-sized {} cells", dt.name()),
            ))
        }
    })
}

/// Dictionary cells as enumeration indexes of the attribute's datatype.
fn dictionary_keys(info: &FieldInfo, a: &dyn Array, labels: &[Vec<u8>]) -> Result<Vec<u8>> {
    let name = info.name.as_str();
    let d = a
        .as_any_dictionary_opt()
        .ok_or_else(|| Error::field(name, "not a dictionary"))?;
    let values = d.values();
    let mut index = Vec::with_capacity(values.len());
    // The values that are no label, as the error shows them.
    let mut unknown: Vec<(usize, Value)> = Vec::new();
    for j in 0..values.len() {
        let label = if values.is_null(j) {
            None
        } else {
            let (shown, b) = match values.data_type() {
                DataType::FixedSizeList(..) | DataType::List(_) | DataType::LargeList(_) => {
                    // Labels of numbers: their values' bytes.
                    let child = match values.data_type() {
                        DataType::FixedSizeList(f, _)
                        | DataType::List(f)
                        | DataType::LargeList(f) => f.data_type().clone(),
                        _ => unreachable!(),
                    };
                    let dt =
                        super::schema::tiledb_type(&arrow_schema::Field::new("", child, false))?.0;
                    (dt, var_cell(name, values.as_ref(), dt, j)?)
                }
                ty if ty.is_primitive() => {
                    let dt = super::schema::tiledb_type(&arrow_schema::Field::new(
                        "",
                        ty.clone(),
                        false,
                    ))?
                    .0;
                    let all = flat_values(name, values.as_ref(), dt)?;
                    let s = dt.size() as usize;
                    (dt, all[j * s..(j + 1) * s].to_vec())
                }
                _ => (
                    Datatype::StringUtf8,
                    var_cell(name, values.as_ref(), Datatype::Blob, j)?,
                ),
            };
            let found = labels.iter().position(|l| *l == b);
            if found.is_none() {
                unknown.push((j, crate::model::value::cell(shown, &b)));
            }
            found
        };
        index.push(label);
    }
    let keys = d.normalized_keys();
    let size = info.datatype.size() as usize;
    let mut out = Vec::with_capacity(keys.len() * size);
    for (i, k) in keys.iter().enumerate() {
        let idx = if a.is_valid(i) {
            index.get(*k).copied().flatten().ok_or_else(|| {
                let label = unknown.iter().find(|(j, _)| j == k).map(|(_, v)| v);
                let label = label.map_or_else(|| "a null".to_string(), |v| v.to_string());
                Error::field(
                    name,
                    format!("cell {i}: {label} is not a label of the attribute's enumeration"),
                )
            })?
        } else {
            0
        };
        let bytes = (idx as u64).to_le_bytes();
        if bytes[size..].iter().any(|b| *b != 0)
            || (size < 8 && bytes[size - 1] & 0x80 != 0 && info.datatype.is_signed())
        {
            return Err(Error::field(
                name,
                format!("index {idx} does not fit {}", info.datatype.name()),
            ));
        }
        out.extend_from_slice(&bytes[..size]);
    }
    Ok(out)
}

/// One Arrow array as the writer's column of field `info`.
pub(crate) fn to_column(
    info: &FieldInfo,
    a: &ArrayRef,
    labels: Option<&[Vec<u8>]>,
) -> Result<Column> {
    let name = info.name.as_str();
    let n = a.len();
    let nulls = a.logical_nulls();
    let null_count = nulls.as_ref().map_or(0, |b| b.null_count());
    if null_count > 0 && !info.nullable {
        return Err(Error::field(
            name,
            format!("{null_count} nulls in a field that is not nullable"),
        ));
    }
    let validity = info.nullable.then(|| {
        (0..n)
            .map(|i| u8::from(nulls.as_ref().is_none_or(|b| b.is_valid(i))))
            .collect::<Vec<u8>>()
    });
    let dt = info.datatype;
    let mut col = match info.cell_val_num {
        None => {
            let mut data = Vec::new();
            let mut starts = Vec::with_capacity(n);
            for i in 0..n {
                starts.push(data.len() as u64);
                if a.is_valid(i) {
                    data.extend_from_slice(&var_cell(name, a.as_ref(), dt, i)?);
                }
            }
            Column::var(name, data, starts)
        }
        Some(cvn) => {
            let cs = info.cell_size() as usize;
            let data = match (a.data_type(), labels) {
                (DataType::Dictionary(..), Some(l)) => dictionary_keys(info, a.as_ref(), l)?,
                (DataType::FixedSizeList(_, k), _) => {
                    if u32::try_from(*k).ok() != Some(cvn) {
                        return Err(Error::field(
                            name,
                            format!("lists of {k} values for cells of {cvn}"),
                        ));
                    }
                    let l = a.as_fixed_size_list();
                    let k = *k as usize;
                    let child = l.values().slice(l.offset() * k, n * k);
                    flat_values(name, &child, dt)?
                }
                // Byte strings of the cell size; lists of `cvn` values
                // (Parquet gives fixed-size lists back as lists).
                (
                    DataType::FixedSizeBinary(_)
                    | DataType::Utf8
                    | DataType::LargeUtf8
                    | DataType::Binary
                    | DataType::LargeBinary
                    | DataType::Utf8View
                    | DataType::BinaryView,
                    _,
                ) if is_bytes(dt) => per_cell(name, a.as_ref(), dt, cs)?,
                (DataType::List(_) | DataType::LargeList(_), _) => {
                    per_cell(name, a.as_ref(), dt, cs)?
                }
                _ if cvn == 1 => flat_values(name, a.as_ref(), dt)?,
                (ty, _) => {
                    return Err(Error::field(
                        name,
                        format!("Arrow type {ty} for cells of {cvn} {} values", dt.name()),
                    ))
                }
            };
            if data.len() != n * cs {
                return Err(Error::field(name, "cells of another size than the field's"));
            }
            Column::fixed(name, data)
        }
    };
    col.validity = validity;
    Ok(col)
}

/// Fixed-size cells of `cs` bytes copied one at a time (null cells as
/// zeros).
fn per_cell(name: &str, a: &dyn Array, dt: Datatype, cs: usize) -> Result<Vec<u8>> {
    let n = a.len();
    let mut data = Vec::with_capacity(n * cs);
    for i in 0..n {
        if a.is_valid(i) {
            let b = var_cell(name, a, dt, i)?;
            if b.len() != cs {
                return Err(Error::field(
                    name,
                    format!("cell {i} has {} bytes, the field's cells {cs}", b.len()),
                ));
            }
            data.extend_from_slice(&b);
        } else {
            data.resize(data.len() + cs, 0);
        }
    }
    Ok(data)
}

/// Cells of record batches, one at a time, for [`import_source`].
struct BatchCells<I> {
    batches: I,
    target: ArrowTarget,
    /// The current batch's columns, in the order of the import's fields.
    columns: Vec<Column>,
    len: usize,
    next: usize,
    row: u64,
}

fn cell_of(c: &Column, i: usize, cell_size: usize) -> Option<Vec<u8>> {
    if c.validity.as_ref().is_some_and(|v| v[i] == 0) {
        return None;
    }
    Some(match &c.offsets {
        Some(o) => {
            let e = o.get(i + 1).map_or(c.data.len(), |e| *e as usize);
            c.data[o[i] as usize..e].to_vec()
        }
        None => c.data[i * cell_size..(i + 1) * cell_size].to_vec(),
    })
}

impl<I: Iterator<Item = Result<RecordBatch>>> CellSource for BatchCells<I> {
    fn next_cell(&mut self, fields: &[InField]) -> WriteResult<Option<(u64, Vec<(Vec<u8>, u8)>)>> {
        while self.next == self.len {
            let Some(batch) = self.batches.next() else {
                return Ok(None);
            };
            let batch = batch.map_err(|e| WriteError::Input {
                line: self.row + 1,
                field: String::new(),
                what: e.to_string(),
            })?;
            let cols = self
                .target
                .columns(&batch, true)
                .map_err(|e| WriteError::Input {
                    line: self.row + 1,
                    field: String::new(),
                    what: e.to_string(),
                })?;
            // In the order of the import's fields.
            let mut ordered = Vec::with_capacity(fields.len());
            for f in fields {
                let c =
                    cols.iter()
                        .find(|c| c.name == f.name)
                        .ok_or_else(|| WriteError::Input {
                            line: self.row + 1,
                            field: f.name.clone(),
                            what: "missing from the record batch".into(),
                        })?;
                ordered.push(c.clone());
            }
            self.columns = ordered;
            self.len = batch.num_rows();
            self.next = 0;
        }
        let i = self.next;
        self.next += 1;
        self.row += 1;
        let mut cell = Vec::with_capacity(fields.len());
        for (f, c) in fields.iter().zip(&self.columns) {
            let cs = (f.datatype.size() * u64::from(f.cell_val_num.unwrap_or(1))) as usize;
            cell.push(f.check(cell_of(c, i, cs), None, self.row)?);
        }
        Ok(Some((self.row, cell)))
    }
}

/// Imports record batches into the array at `array` (created from
/// `schema_json`, the JSON [`crate::write::import()`] takes, if missing) as
/// one fragment, checking every cell as the NDJSON import does (errors
/// name the row, counted from 1, as their line).
pub fn import_batches(
    array: &Path,
    schema_json: Option<&Value>,
    batches: impl Iterator<Item = Result<RecordBatch>>,
    opts: &ImportOptions,
) -> Result<ImportSummary> {
    let read_opts = ReadOptions {
        encryption_key: opts.write.encryption_key.or(opts.create.encryption_key),
        ..ReadOptions::default()
    };
    let make = |_: &[InField]| -> WriteResult<BatchCells<_>> {
        let reader = ArrayReader::open(array, &read_opts)?;
        let target =
            ArrowTarget::new(&reader).map_err(|e| WriteError::Unsupported(e.to_string()))?;
        Ok(BatchCells {
            batches,
            target,
            columns: Vec::new(),
            len: 0,
            next: 0,
            row: 0,
        })
    };
    Ok(import_source(array, schema_json, make, opts)?)
}

/// The formats of record batch files [`import_file`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputFormat {
    /// An Arrow IPC stream or file (told apart by the file's magic bytes).
    ArrowIpc,
    /// A Parquet file.
    Parquet,
}

/// Imports the record batches of an Arrow IPC (stream or file) or Parquet
/// file into the array at `array`; see [`import_batches`].
pub fn import_file(
    array: &Path,
    schema_json: Option<&Value>,
    input: &Path,
    format: InputFormat,
    opts: &ImportOptions,
) -> Result<ImportSummary> {
    let io = |e: std::io::Error| Error::Write(WriteError::io(input, e));
    let file = std::fs::File::open(input).map_err(io)?;
    match format {
        InputFormat::Parquet => {
            let reader =
                parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file)?
                    .build()?;
            import_batches(array, schema_json, reader.map(|b| Ok(b?)), opts)
        }
        InputFormat::ArrowIpc => {
            let mut magic = [0u8; 6];
            let is_file = {
                use std::io::Read;
                let mut f = std::fs::File::open(input).map_err(io)?;
                f.read(&mut magic).map_err(io)? == 6 && &magic == b"ARROW1"
            };
            if is_file {
                let r = arrow_ipc::reader::FileReader::try_new(file, None)?;
                import_batches(array, schema_json, r.map(|b| Ok(b?)), opts)
            } else {
                let r =
                    arrow_ipc::reader::StreamReader::try_new(std::io::BufReader::new(file), None)?;
                import_batches(array, schema_json, r.map(|b| Ok(b?)), opts)
            }
        }
    }
}
