//! Importing cells into an array: NDJSON (one object per cell: dimension
//! names, then attribute names, values as [`crate::read::export`] writes
//! them) or CSV (a header line of field names, then one line per cell;
//! lists as JSON, null as an empty field). The array is created if missing;
//! every cell is checked (datatype, domain, missing fields, nulls) with
//! errors naming the line and the field; the cells become one fragment.
//! Nothing is committed on error (an array this call created is removed).

use std::io::BufRead;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::array::directory::ArrayDirectory;
use crate::array::schema::dimension_datatype;
use crate::array::schema::read_schema;
use crate::array::FieldInfo;
use crate::format::hierarchy;
use crate::format::{ArraySchema, ArrayType, Datatype};
use crate::model::{CurrentDomain, Schema};
use crate::ReadOptions;

use super::error::{WriteError, WriteResult};
use super::fragment::{Column, FragmentInfo, FragmentWriter, WriteOptions};
use super::order::{int_value, Coord, GlobalOrder};
use super::schema::{build_schema, create_array_listed, CreateOptions};
use super::sort::{CellSorter, SortField};
use super::util;
use crate::model::value::from_json::{cell_bytes, csv_value};

/// The format of the cells to import.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellFormat {
    /// One JSON object per line.
    Ndjson,
    /// A header line of field names, then one line per cell.
    Csv,
}

/// What an import did.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ImportSummary {
    /// The array imported into.
    pub array: PathBuf,
    /// Whether the array was created by this import.
    pub created: bool,
    /// Cells read from the input.
    pub cells: u64,
    /// The fragment written (none for an input without cells).
    pub fragment: Option<FragmentInfo>,
}

/// How to import.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct ImportOptions {
    /// How to create the array, when the import creates it.
    pub create: CreateOptions,
    /// How to write the fragment.
    pub write: WriteOptions,
    /// Cells per batch handed to the fragment writer.
    pub batch: Option<usize>,
}

impl ImportOptions {
    /// The array's encryption key: `write.encryption_key`, or
    /// `create.encryption_key` (the same key, if both are given).
    fn key(&self) -> WriteResult<Option<[u8; 32]>> {
        match (self.create.encryption_key, self.write.encryption_key) {
            (Some(c), Some(w)) if c != w => Err(WriteError::Unsupported(
                "two different encryption keys (create and write options)".into(),
            )),
            (c, w) => Ok(w.or(c)),
        }
    }

    fn read_options(&self) -> WriteResult<ReadOptions> {
        Ok(ReadOptions {
            encryption_key: self.key()?,
            ..ReadOptions::default()
        })
    }
}

/// Imports `cells` into the array at `array` (created from `schema_json`
/// if missing) as one fragment.
pub fn import(
    array: &Path,
    schema_json: &Value,
    cells: impl BufRead,
    format: CellFormat,
) -> WriteResult<ImportSummary> {
    import_with(array, schema_json, cells, format, &ImportOptions::default())
}

fn array_exists(array: &Path) -> bool {
    array.join(hierarchy::SCHEMA).is_dir() || array.join(hierarchy::LEGACY_SCHEMA).is_file()
}

/// The latest schema of an existing array.
fn existing_schema(array: &Path, opts: &ReadOptions) -> WriteResult<ArraySchema> {
    let dir = ArrayDirectory::open(array)?;
    let path = dir.latest_schema().ok_or_else(|| WriteError::Array {
        path: array.to_path_buf(),
        what: "the array has no schema".into(),
    })?;
    Ok(read_schema(&path, opts)?)
}

/// The enumerations are the array's: the JSON may name them only (as
/// `schema_json` does), so they are left out of comparisons.
fn without_enumerations(mut v: Value) -> Value {
    if let Some(m) = v.as_object_mut() {
        m.remove("enumerations");
        if let Some(Value::Array(attrs)) = m.get_mut("attributes") {
            for a in attrs {
                if let Some(a) = a.as_object_mut() {
                    a.remove("enumeration");
                }
            }
        }
    }
    v
}

/// The schema of `table` as far as its JSON can say it, for comparison:
/// no version, no enumerations (the JSON may name them only), no fill value
/// validity, no dimension labels (arrays are created without them), a
/// dimension with the coordinate filters as one without its own, an empty
/// current domain as none.
fn comparable(table: &ArraySchema, path: &Path) -> WriteResult<Schema> {
    let mut table = table.clone();
    if let Some(e) = table.enumerations.as_mut() {
        e.clear();
    }
    let mut s = Schema::from_table(&table, &[], path)?;
    s.version = 0;
    s.dimension_labels.clear();
    for a in &mut s.attributes {
        a.enumeration = None;
        a.fill_value_valid = false;
    }
    for d in &mut s.dimensions {
        if d.filters.as_ref() == Some(&s.coords_filters) {
            d.filters = None;
        }
    }
    if s.current_domain == Some(CurrentDomain::Empty) {
        s.current_domain = None;
    }
    Ok(s)
}

/// Fails unless `schema_json` describes the schema of the existing array
/// (format version and enumeration values aside): both are compared as
/// typed schemas, the given one laid out in the array's format version.
fn check_same_schema(array: &Path, schema_json: &Value, opts: &ReadOptions) -> WriteResult<()> {
    let existing = existing_schema(array, opts)?;
    let given = build_schema(&without_enumerations(schema_json.clone()))?
        .to_table(existing.array_version)?;
    if comparable(&existing, array)? != comparable(&given, array)? {
        return Err(WriteError::Array {
            path: array.to_path_buf(),
            what: "the array already exists, with a different schema".into(),
        });
    }
    Ok(())
}

/// [`import`] with options. If the array exists, `schema_json` must be
/// its schema (see [`import_into`] to import without one).
pub fn import_with(
    array: &Path,
    schema_json: &Value,
    cells: impl BufRead,
    format: CellFormat,
    opts: &ImportOptions,
) -> WriteResult<ImportSummary> {
    import_source(
        array,
        Some(schema_json),
        |f| Records::new(cells, format, f),
        opts,
    )
}

/// Imports `cells` into the existing array at `array`, with its schema, as
/// one fragment.
pub fn import_into(
    array: &Path,
    cells: impl BufRead,
    format: CellFormat,
    opts: &ImportOptions,
) -> WriteResult<ImportSummary> {
    import_source(array, None, |f| Records::new(cells, format, f), opts)
}

/// Where the cells of an import come from: one cell at a time, each
/// field's bytes and validity (checked with [`InField::check`]), in the
/// order of the fields.
pub(crate) trait CellSource {
    /// The next cell, with the line (or row, counted from 1) it came from.
    #[allow(clippy::type_complexity)]
    fn next_cell(&mut self, fields: &[InField]) -> WriteResult<Option<(u64, Vec<(Vec<u8>, u8)>)>>;
}

/// Imports the cells of the source `make` gives for the array's fields into
/// the array at `array` as one fragment: created from `schema_json` if
/// missing (removed again on error), else checked against it where given.
pub(crate) fn import_source<S: CellSource>(
    array: &Path,
    schema_json: Option<&Value>,
    make: impl FnOnce(&[InField]) -> WriteResult<S>,
    opts: &ImportOptions,
) -> WriteResult<ImportSummary> {
    let key = opts.key()?;
    let mut exists = array_exists(array);
    // What this process created (the array's files and folders, relative
    // to it), and so may remove again if the import fails.
    let mut made: Option<Vec<PathBuf>> = None;
    match (exists, schema_json) {
        (true, Some(s)) => check_same_schema(array, s, &opts.read_options()?)?,
        (true, None) => {}
        (false, None) => {
            return Err(WriteError::Array {
                path: array.to_path_buf(),
                what: "not an array (give a schema to create it)".into(),
            })
        }
        (false, Some(s)) => {
            let schema = build_schema(s)?;
            let create = CreateOptions {
                encryption_key: key,
                ..opts.create
            };
            match create_array_listed(array, &schema, &create) {
                Ok((_, files)) => made = Some(files),
                // Another process created it meanwhile: with the same
                // schema this is a second writer into it, else refused.
                // Its files are never touched.
                Err(_) if array_exists(array) => {
                    if let Err(different) = check_same_schema(array, s, &opts.read_options()?) {
                        return Err(match different {
                            WriteError::Array { .. } => WriteError::Array {
                                path: array.to_path_buf(),
                                what: "already exists (created by another writer at the same \
                                       time), with a different schema"
                                    .into(),
                            },
                            other => other,
                        });
                    }
                    exists = true;
                }
                Err(e) => return Err(e),
            }
        }
    }
    match run_import(array, make, opts) {
        Ok((cells, fragment)) => Ok(ImportSummary {
            array: array.to_path_buf(),
            created: !exists,
            cells,
            fragment,
        }),
        Err(e) => {
            if let Some(files) = made {
                retract(array, &files);
            }
            Err(e)
        }
    }
}

/// Removes the array this process created, if it still holds nothing but
/// what this process made: it is first renamed aside (so that no other
/// writer adds to it unseen), then listed; anything else in it (another
/// writer's fragment) and it is renamed back and left alone.
fn retract(array: &Path, made: &[PathBuf]) {
    let Some(name) = array.file_name() else {
        return;
    };
    let aside = array.with_file_name(format!(
        ".{}.tiledb-codec-retract-{}",
        name.to_string_lossy(),
        util::random_label()
    ));
    if std::fs::rename(array, &aside).is_err() {
        return;
    }
    let ours = util::tree(&aside).is_ok_and(|t| t.iter().all(|p| made.contains(p)));
    if ours {
        let _ = std::fs::remove_dir_all(&aside);
    } else {
        // Back in place; should another array have taken the name in the
        // meantime, the folder stays aside, whole.
        let _ = util::rename_dir_into_place(&aside, array);
    }
}

/// A field of the input.
pub(crate) struct InField {
    pub(crate) name: String,
    pub(crate) datatype: Datatype,
    pub(crate) cell_val_num: Option<u32>,
    pub(crate) nullable: bool,
    pub(crate) is_dim: bool,
    /// Dimensions: domain bounds (fixed-size dimensions).
    bounds: Option<(Coord<'static>, Coord<'static>)>,
}

impl InField {
    fn sort_field(&self) -> SortField {
        SortField {
            cell_size: (self.datatype.size() * u64::from(self.cell_val_num.unwrap_or(1))) as usize,
            var: self.cell_val_num.is_none(),
            nullable: self.nullable,
        }
    }

    /// The bytes and validity of one cell's value.
    fn convert(&self, v: &Value, line: u64) -> WriteResult<(Vec<u8>, u8)> {
        if v.is_null() {
            return self.check(None, Some(v), line);
        }
        let b =
            cell_bytes(self.datatype, self.cell_val_num, v).map_err(|what| WriteError::Input {
                line,
                field: self.name.clone(),
                what,
            })?;
        self.check(Some(b), Some(v), line)
    }

    /// One cell's bytes (`None`: null) checked against the field (nulls,
    /// the domain), as the bytes and validity the writer takes; errors show
    /// `value` where given.
    pub(crate) fn check(
        &self,
        cell: Option<Vec<u8>>,
        value: Option<&Value>,
        line: u64,
    ) -> WriteResult<(Vec<u8>, u8)> {
        let what = if self.is_dim {
            "dimension"
        } else {
            "attribute"
        };
        let err = |what: String| WriteError::Input {
            line,
            field: self.name.clone(),
            what,
        };
        let Some(b) = cell else {
            if !self.nullable {
                return Err(err(format!("null in a non-nullable {what}")));
            }
            let zeros = self.sort_field();
            let b = if zeros.var {
                Vec::new()
            } else {
                vec![0; zeros.cell_size]
            };
            return Ok((b, 0));
        };
        if self
            .cell_val_num
            .is_some_and(|_| b.len() != self.sort_field().cell_size)
        {
            return Err(err(format!(
                "{} bytes for a cell of {}",
                b.len(),
                self.sort_field().cell_size
            )));
        }
        if let Some((lo, hi)) = self.bounds {
            let order_dim = match self.datatype {
                Datatype::Float32 => Coord::F32(f32::from_le_bytes(b[..4].try_into().unwrap())),
                Datatype::Float64 => Coord::F64(f64::from_le_bytes(b[..8].try_into().unwrap())),
                dt => Coord::Int(int_value(dt, &b)),
            };
            let nan = matches!(order_dim, Coord::F32(f) if f.is_nan())
                || matches!(order_dim, Coord::F64(f) if f.is_nan());
            if nan || order_dim.order(&lo).is_lt() || order_dim.order(&hi).is_gt() {
                let show = |c: Coord| match c {
                    Coord::Int(i) => i.to_string(),
                    Coord::F32(f) => f.to_string(),
                    Coord::F64(f) => f.to_string(),
                    Coord::Str(_) => String::new(),
                };
                let shown = value.map_or_else(|| show(order_dim), Value::to_string);
                return Err(err(format!(
                    "{shown} is outside the domain [{}, {}]",
                    show(lo),
                    show(hi)
                )));
            }
        }
        Ok((b, 1))
    }
}

pub(crate) fn in_fields(schema: &ArraySchema) -> WriteResult<Vec<InField>> {
    let order = GlobalOrder::new(schema);
    let mut out = Vec::new();
    for (j, d) in schema.domain.dimensions.iter().enumerate() {
        let name = String::from_utf8_lossy(&d.name).into_owned();
        let dt = dimension_datatype(schema, d).known().ok_or_else(|| {
            WriteError::Unsupported(format!("dimension {name:?}: unknown datatype"))
        })?;
        let o = &order.dims[j];
        out.push(InField {
            name,
            datatype: dt,
            cell_val_num: (!o.var).then_some(1),
            nullable: false,
            is_dim: true,
            bounds: o.lo.zip(o.hi),
        });
    }
    for a in &schema.attributes {
        let name = String::from_utf8_lossy(&a.name).into_owned();
        let info = FieldInfo::lookup(schema, &name).ok_or_else(|| {
            WriteError::Unsupported(format!("attribute {name:?}: unknown datatype"))
        })?;
        out.push(InField {
            name,
            datatype: info.datatype,
            cell_val_num: info.cell_val_num,
            nullable: info.nullable,
            is_dim: false,
            bounds: None,
        });
    }
    Ok(out)
}

/// Reads records: NDJSON objects or CSV rows, as field values in schema
/// order, with the line each starts on.
struct Records<R: BufRead> {
    input: R,
    format: CellFormat,
    line: u64,
    /// CSV: the position of each schema field in a row.
    columns: Vec<usize>,
    header_len: usize,
}

fn csv_split(record: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = record.chars().peekable();
    let mut quoted = false;
    let mut was_quoted = false;
    while let Some(c) = chars.next() {
        if quoted {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    cur.push('"');
                    chars.next();
                } else {
                    quoted = false;
                }
            } else {
                cur.push(c);
            }
        } else if c == '"' && cur.is_empty() && !was_quoted {
            quoted = true;
            was_quoted = true;
        } else if c == ',' {
            out.push(std::mem::take(&mut cur));
            was_quoted = false;
        } else if was_quoted {
            return Err("text after a closing quote".into());
        } else {
            cur.push(c);
        }
    }
    if quoted {
        return Err("a quoted field does not end".into());
    }
    out.push(cur);
    Ok(out)
}

impl<R: BufRead> Records<R> {
    /// Records of `input`, the CSV header read.
    fn new(input: R, format: CellFormat, fields: &[InField]) -> WriteResult<Self> {
        let mut r = Records {
            input,
            format,
            line: 0,
            columns: Vec::new(),
            header_len: 0,
        };
        r.header(fields)?;
        Ok(r)
    }

    fn read_line(&mut self) -> WriteResult<Option<String>> {
        let mut s = String::new();
        let n = self
            .input
            .read_line(&mut s)
            .map_err(|e| WriteError::Input {
                line: self.line + 1,
                field: String::new(),
                what: format!("cannot read: {e}"),
            })?;
        if n == 0 {
            return Ok(None);
        }
        self.line += 1;
        while s.ends_with('\n') || s.ends_with('\r') {
            s.pop();
        }
        Ok(Some(s))
    }

    /// A CSV record: a line, joined with the next ones while a quote is open.
    fn csv_record(&mut self) -> WriteResult<Option<(u64, String)>> {
        let Some(mut rec) = self.read_line()? else {
            return Ok(None);
        };
        let start = self.line;
        while rec.chars().filter(|c| *c == '"').count() % 2 == 1 {
            match self.read_line()? {
                Some(more) => {
                    rec.push('\n');
                    rec.push_str(&more);
                }
                None => break,
            }
        }
        Ok(Some((start, rec)))
    }

    fn header(&mut self, fields: &[InField]) -> WriteResult<()> {
        if self.format != CellFormat::Csv {
            return Ok(());
        }
        let Some((line, h)) = self.csv_record()? else {
            return Ok(());
        };
        let names = csv_split(&h).map_err(|what| WriteError::Input {
            line,
            field: String::new(),
            what,
        })?;
        for n in &names {
            if !fields.iter().any(|f| &f.name == n) {
                return Err(WriteError::Input {
                    line,
                    field: n.clone(),
                    what: "not a field of the schema".into(),
                });
            }
            if names.iter().filter(|x| *x == n).count() > 1 {
                return Err(WriteError::Input {
                    line,
                    field: n.clone(),
                    what: "named twice in the header".into(),
                });
            }
        }
        for f in fields {
            let kind = if f.is_dim { "dimension" } else { "attribute" };
            let pos = names
                .iter()
                .position(|n| n == &f.name)
                .ok_or_else(|| WriteError::Input {
                    line,
                    field: f.name.clone(),
                    what: format!("missing {kind} in the header"),
                })?;
            self.columns.push(pos);
        }
        self.header_len = names.len();
        Ok(())
    }

    /// The next cell: its line and one value per field.
    fn next(&mut self, fields: &[InField]) -> WriteResult<Option<(u64, Vec<Value>)>> {
        loop {
            match self.format {
                CellFormat::Ndjson => {
                    let Some(l) = self.read_line()? else {
                        return Ok(None);
                    };
                    if l.trim().is_empty() {
                        continue;
                    }
                    let line = self.line;
                    let mut m = ndjson_object(&l).map_err(|(field, what)| WriteError::Input {
                        line,
                        field,
                        what,
                    })?;
                    let mut vals = Vec::with_capacity(fields.len());
                    for f in fields {
                        match m.remove(&f.name) {
                            Some(v) => vals.push(v),
                            None => {
                                let kind = if f.is_dim { "dimension" } else { "attribute" };
                                return Err(WriteError::Input {
                                    line,
                                    field: f.name.clone(),
                                    what: format!("missing {kind}"),
                                });
                            }
                        }
                    }
                    if let Some(k) = Map::keys(&m).next() {
                        return Err(WriteError::Input {
                            line,
                            field: k.clone(),
                            what: "not a field of the schema".into(),
                        });
                    }
                    return Ok(Some((line, vals)));
                }
                CellFormat::Csv => {
                    let Some((line, rec)) = self.csv_record()? else {
                        return Ok(None);
                    };
                    if rec.is_empty() {
                        continue;
                    }
                    let row = csv_split(&rec).map_err(|what| WriteError::Input {
                        line,
                        field: String::new(),
                        what,
                    })?;
                    if row.len() != self.header_len {
                        return Err(WriteError::Input {
                            line,
                            field: String::new(),
                            what: format!(
                                "{} fields, the header has {}",
                                row.len(),
                                self.header_len
                            ),
                        });
                    }
                    let vals = fields
                        .iter()
                        .zip(&self.columns)
                        .map(|(f, &i)| {
                            let s = &row[i];
                            if s.is_empty()
                                && (f.nullable || !crate::model::value::is_text(f.datatype))
                            {
                                Value::Null
                            } else {
                                csv_value(f.datatype, s)
                            }
                        })
                        .collect();
                    return Ok(Some((line, vals)));
                }
            }
        }
    }
}

impl<R: BufRead> CellSource for Records<R> {
    fn next_cell(&mut self, fields: &[InField]) -> WriteResult<Option<(u64, Vec<(Vec<u8>, u8)>)>> {
        let Some((line, vals)) = self.next(fields)? else {
            return Ok(None);
        };
        let conv = fields
            .iter()
            .zip(&vals)
            .map(|(f, v)| f.convert(v, line))
            .collect::<WriteResult<_>>()?;
        Ok(Some((line, conv)))
    }
}

/// Column buffers for one batch of cells.
struct Batch {
    cols: Vec<Column>,
    nullable: Vec<bool>,
    var: Vec<bool>,
    len: usize,
}

impl Batch {
    fn new(fields: &[&InField]) -> Self {
        Batch {
            cols: fields
                .iter()
                .map(|f| Column {
                    name: f.name.clone(),
                    data: Vec::new(),
                    offsets: f.cell_val_num.is_none().then(Vec::new),
                    validity: f.nullable.then(Vec::new),
                })
                .collect(),
            nullable: fields.iter().map(|f| f.nullable).collect(),
            var: fields.iter().map(|f| f.cell_val_num.is_none()).collect(),
            len: 0,
        }
    }

    fn push(&mut self, cell: &[(&[u8], u8)]) {
        for (i, (c, (b, v))) in self.cols.iter_mut().zip(cell).enumerate() {
            if self.var[i] {
                c.offsets.as_mut().unwrap().push(c.data.len() as u64);
            }
            c.data.extend_from_slice(b);
            if self.nullable[i] {
                c.validity.as_mut().unwrap().push(*v);
            }
        }
        self.len += 1;
    }

    fn take(&mut self) -> Vec<Column> {
        self.len = 0;
        self.cols
            .iter_mut()
            .map(|c| Column {
                name: c.name.clone(),
                data: std::mem::take(&mut c.data),
                offsets: c.offsets.as_mut().map(std::mem::take),
                validity: c.validity.as_mut().map(std::mem::take),
            })
            .collect()
    }
}

fn run_import<S: CellSource>(
    array: &Path,
    make: impl FnOnce(&[InField]) -> WriteResult<S>,
    opts: &ImportOptions,
) -> WriteResult<(u64, Option<FragmentInfo>)> {
    let schema = existing_schema(array, &opts.read_options()?)?;
    let write_opts = WriteOptions {
        encryption_key: opts.key()?,
        ..opts.write.clone()
    };
    let fields = in_fields(&schema)?;
    let n_dim = schema.domain.dimensions.len();
    let batch_cells = opts.batch.unwrap_or(1 << 16).max(1);
    let mut records = make(&fields)?;
    if schema.array_type == ArrayType::Sparse {
        return import_sparse(array, &mut records, &fields, batch_cells, write_opts);
    }
    // Dense: sort the cells row-major (bounded memory), check they fill
    // their bounding box, then write the box.
    let mut sort_fields: Vec<SortField> = fields.iter().map(InField::sort_field).collect();
    sort_fields.push(SortField {
        cell_size: 8,
        var: false,
        nullable: false,
    });
    let order = GlobalOrder::new(&schema).row_major_cells();
    let mut sorter = CellSorter::new(
        order,
        sort_fields,
        n_dim,
        write_opts.sort_memory,
        write_opts
            .scratch_dir
            .clone()
            .unwrap_or_else(|| array.to_path_buf()),
    );
    let mut bbox: Vec<Option<(i128, i128)>> = vec![None; n_dim];
    let mut count = 0u64;
    while let Some((line, conv)) = records.next_cell(&fields)? {
        for (d, b) in bbox.iter_mut().enumerate() {
            let c = int_value(fields[d].datatype, &conv[d].0);
            *b = Some(match *b {
                None => (c, c),
                Some((lo, hi)) => (lo.min(c), hi.max(c)),
            });
        }
        let line_bytes = line.to_le_bytes();
        let mut view: Vec<(&[u8], u8)> = conv.iter().map(|(b, v)| (b.as_slice(), *v)).collect();
        view.push((&line_bytes, 1));
        sorter.push(&view)?;
        count += 1;
    }
    if count == 0 {
        return Ok((0, None));
    }
    let rect: Vec<(i128, i128)> = bbox.into_iter().map(Option::unwrap).collect();
    let mut writer = FragmentWriter::dense(array, &rect, write_opts)?;
    let attr_refs: Vec<&InField> = fields[n_dim..].iter().collect();
    let mut batch = Batch::new(&attr_refs);
    let mut expected: Vec<i128> = rect.iter().map(|(lo, _)| *lo).collect();
    let mut prev: Option<(Vec<i128>, u64)> = None;
    let mut done = false;
    let show = |c: &[i128]| {
        let parts: Vec<String> = fields[..n_dim]
            .iter()
            .zip(c)
            .map(|(f, v)| format!("{}={v}", f.name))
            .collect();
        parts.join(", ")
    };
    let mut pending_err: Option<WriteError> = None;
    let dim_names = fields[..n_dim]
        .iter()
        .map(|f| f.name.as_str())
        .collect::<Vec<_>>()
        .join(",");
    // A dense write must fill its bounding box: `at` is the first cell missing.
    let missing = |at: &[i128]| WriteError::Input {
        line: 0,
        field: dim_names.clone(),
        what: format!(
            "the cells do not fill their bounding box: the cell ({}) is missing",
            show(at)
        ),
    };
    sorter
        .for_each(|cell| {
            let coords: Vec<i128> = (0..n_dim)
                .map(|d| int_value(fields[d].datatype, cell[d].0))
                .collect();
            let line = u64::from_le_bytes(cell[cell.len() - 1].0.try_into().unwrap());
            if let Some((p, pline)) = &prev {
                if *p == coords {
                    return Err(WriteError::Input {
                        line,
                        field: dim_names.clone(),
                        what: format!(
                        "the cell ({}) is also on line {pline}; a dense write takes each cell once",
                        show(&coords)
                    ),
                    });
                }
            }
            if done || coords != expected {
                return Err(missing(&expected));
            }
            // The next cell of the box in row-major order.
            let mut d = n_dim;
            loop {
                if d == 0 {
                    done = true;
                    break;
                }
                d -= 1;
                if expected[d] < rect[d].1 {
                    expected[d] += 1;
                    break;
                }
                expected[d] = rect[d].0;
            }
            prev = Some((coords, line));
            batch.push(&cell[n_dim..cell.len() - 1]);
            if batch.len >= batch_cells {
                if let Err(e) = writer.write(&batch.take()) {
                    pending_err = Some(e);
                    return Err(WriteError::Unsupported("stopped".into()));
                }
            }
            Ok(())
        })
        .map_err(|e| pending_err.take().unwrap_or(e))?;
    if !done {
        return Err(missing(&expected));
    }
    if batch.len > 0 {
        writer.write(&batch.take())?;
    }
    let info = writer.finish()?;
    Ok((count, Some(info)))
}

/// Writes the cells of `records` into one sparse fragment of `array`, a
/// batch of `batch_cells` cells at a time (none: no fragment).
fn import_sparse<S: CellSource>(
    array: &Path,
    records: &mut S,
    fields: &[InField],
    batch_cells: usize,
    write_opts: WriteOptions,
) -> WriteResult<(u64, Option<FragmentInfo>)> {
    let mut writer: Option<FragmentWriter> = None;
    let refs: Vec<&InField> = fields.iter().collect();
    let mut batch = Batch::new(&refs);
    let mut count = 0u64;
    while let Some((_, conv)) = records.next_cell(fields)? {
        let view: Vec<(&[u8], u8)> = conv.iter().map(|(b, v)| (b.as_slice(), *v)).collect();
        batch.push(&view);
        count += 1;
        if batch.len >= batch_cells {
            if writer.is_none() {
                writer = Some(FragmentWriter::sparse(array, write_opts.clone())?);
            }
            writer.as_mut().unwrap().write(&batch.take())?;
        }
    }
    if batch.len > 0 {
        if writer.is_none() {
            writer = Some(FragmentWriter::sparse(array, write_opts.clone())?);
        }
        writer.as_mut().unwrap().write(&batch.take())?;
    }
    let info = match writer {
        Some(w) => Some(w.finish()?),
        None => None,
    };
    Ok((count, info))
}

/// One NDJSON line as a JSON object whose keys are all different (serde's
/// own map keeps the last of a repeated key without a word). The error is
/// the field at fault (empty for the line) and what is wrong.
fn ndjson_object(line: &str) -> Result<Map<String, Value>, (String, String)> {
    use serde::de::{DeserializeSeed, Error as _, MapAccess, Visitor};

    struct Unique<'a>(&'a mut Option<String>);

    impl<'de> DeserializeSeed<'de> for Unique<'_> {
        type Value = Map<String, Value>;
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_map(self)
        }
    }

    impl<'de> Visitor<'de> for Unique<'_> {
        type Value = Map<String, Value>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
            let mut m = Map::new();
            while let Some(k) = a.next_key::<String>()? {
                let v: Value = a.next_value()?;
                if m.contains_key(&k) {
                    *self.0 = Some(k);
                    return Err(A::Error::custom("a key given twice"));
                }
                m.insert(k, v);
            }
            Ok(m)
        }
    }

    let mut twice = None;
    let mut de = serde_json::Deserializer::from_str(line);
    let parsed = Unique(&mut twice)
        .deserialize(&mut de)
        .and_then(|m| de.end().map(|()| m));
    parsed.map_err(|e| match twice.take() {
        Some(k) => (k, "given twice in one cell".to_string()),
        None if e.is_data() => (String::new(), "expected a JSON object".to_string()),
        None => (String::new(), format!("malformed JSON: {e}")),
    })
}
