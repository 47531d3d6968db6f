//! The cells a read returns, column by column.

use serde_json::{Map, Value};

use super::field::FieldData;
use crate::array::FieldInfo;
use crate::model::value;

/// A [`Column`] taken apart: the field, every cell's bytes, the var-sized
/// offsets and the validity bytes ([`Column::into_parts`]).
pub type ColumnParts = (FieldInfo, Vec<u8>, Option<Vec<u64>>, Option<Vec<u8>>);

/// One column of a result: a field's values for every cell, back to back.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Column {
    /// The field the values belong to.
    pub field: FieldInfo,
    /// Every cell's bytes, in order (a null cell of a fixed-size layout
    /// holds zeros).
    pub(super) data: Vec<u8>,
    /// Where each cell starts in `data`, then where the last one ends;
    /// `None`: every cell takes the field's cell size.
    pub(super) offsets: Option<Vec<u64>>,
    /// One byte per cell, 0 = null; `None`: no cell is null.
    pub(super) validity: Option<Vec<u8>>,
    pub(super) len: usize,
}

impl Column {
    /// A column from its buffers (see [`Column::data`], [`Column::offsets`],
    /// [`Column::validity`]).
    pub(crate) fn from_parts(
        field: FieldInfo,
        data: Vec<u8>,
        offsets: Option<Vec<u64>>,
        validity: Option<Vec<u8>>,
        len: usize,
    ) -> Self {
        Column {
            field,
            data,
            offsets,
            validity,
            len,
        }
    }

    /// A column of `len` cells of `field` made of a field's unfiltered
    /// data, its buffers moved (no copy); a var-sized field's offsets get
    /// the end of the last cell.
    pub fn from_field_data(field: FieldInfo, data: FieldData, len: usize) -> Self {
        let FieldData {
            values,
            offsets,
            validity,
            ..
        } = data;
        let offsets = offsets.map(|mut o| {
            // Room for one more, not twice as much (a full vector would
            // double its allocation).
            o.reserve_exact(1);
            o.push(values.len() as u64);
            o
        });
        Column::from_parts(field, values, offsets, validity, len)
    }

    /// An empty column of `field`, room for `capacity` cells.
    pub(super) fn new(field: FieldInfo, capacity: usize) -> Self {
        let cell_size = field.cell_size() as usize;
        let var = field.cell_val_num.is_none();
        Column {
            data: Vec::with_capacity(if var { 0 } else { capacity * cell_size }),
            offsets: var.then(|| {
                let mut o = Vec::with_capacity(capacity + 1);
                o.push(0);
                o
            }),
            validity: field.nullable.then(|| Vec::with_capacity(capacity)),
            field,
            len: 0,
        }
    }

    /// A column of `n` cells that all hold `fill` (`None`: null).
    pub(super) fn filled(field: FieldInfo, n: usize, fill: Option<&[u8]>) -> Self {
        let mut c = Column::new(field, 0);
        let cell_size = c.cell_size();
        match (&c.offsets, fill) {
            (None, Some(f)) if f.len() == cell_size => {
                c.data = f.repeat(n);
                c.len = n;
            }
            (None, None) => {
                c.data = vec![0; n * cell_size];
                c.len = n;
            }
            _ => (0..n).for_each(|_| c.push(fill)),
        }
        if fill.is_none() || c.validity.is_some() {
            c.validity = Some(vec![u8::from(fill.is_some()); n]);
        }
        c
    }

    pub(super) fn cell_size(&self) -> usize {
        self.field.cell_size() as usize
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the column holds no cell.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes of cell `i` (`None`: null).
    pub fn get(&self, i: usize) -> Option<&[u8]> {
        assert!(i < self.len, "cell {i} of a column of {}", self.len);
        if self.validity.as_ref().is_some_and(|v| v[i] == 0) {
            return None;
        }
        Some(match &self.offsets {
            Some(o) => &self.data[o[i] as usize..o[i + 1] as usize],
            None => {
                let cs = self.cell_size();
                &self.data[i * cs..(i + 1) * cs]
            }
        })
    }

    /// The values of a fixed-size column viewed in place (no copy) as `T`,
    /// one of zerocopy's unaligned little-endian types
    /// (`zerocopy::byteorder::little_endian::{I32, U64, F64, ..}`, or `u8`,
    /// `i8`), whose size must be the datatype's; `None` for var-sized
    /// columns or a `T` of another size. Null cells hold zeros (see
    /// [`Column::validity`]).
    pub fn values<T>(&self) -> Option<&[T]>
    where
        T: zerocopy::FromBytes + zerocopy::Immutable + zerocopy::KnownLayout + zerocopy::Unaligned,
    {
        if self.offsets.is_some() || std::mem::size_of::<T>() as u64 != self.field.datatype.size() {
            return None;
        }
        <[T] as zerocopy::FromBytes>::ref_from_bytes(&self.data).ok()
    }

    /// Every cell's bytes, back to back.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// Var-sized layout: where each cell starts in [`Column::data`], then
    /// where the last one ends.
    pub fn offsets(&self) -> Option<&[u64]> {
        self.offsets.as_deref()
    }

    /// One byte per cell, 0 = null (`None`: no cell is null).
    pub fn validity(&self) -> Option<&[u8]> {
        self.validity.as_deref()
    }

    /// The column's buffers, moved out (no copy): the field, every cell's
    /// bytes, the var-sized offsets (one more than cells) and the validity
    /// bytes (see [`Column::data`], [`Column::offsets`], [`Column::validity`]).
    pub fn into_parts(self) -> ColumnParts {
        (self.field, self.data, self.offsets, self.validity)
    }

    /// Appends a cell (`None`: null).
    pub(super) fn push(&mut self, cell: Option<&[u8]>) {
        let cell_size = self.cell_size();
        if cell.is_none() && self.validity.is_none() {
            self.validity = Some(vec![1; self.len]);
        }
        if let Some(v) = &mut self.validity {
            v.push(u8::from(cell.is_some()));
        }
        let bytes = match cell {
            Some(b) => b,
            None if self.offsets.is_some() => &[],
            None => {
                self.data.resize(self.data.len() + cell_size, 0);
                self.len += 1;
                return;
            }
        };
        if self.offsets.is_none() && bytes.len() != cell_size {
            // A cell of another size than the schema's (a fragment that
            // names the field with another type, a fill value of another
            // size): the column takes offsets.
            self.offsets = Some(
                (0..=self.len as u64)
                    .map(|i| i * cell_size as u64)
                    .collect(),
            );
        }
        self.data.extend_from_slice(bytes);
        if let Some(o) = &mut self.offsets {
            o.push(self.data.len() as u64);
        }
        self.len += 1;
    }

    /// Overwrites cell `i` of a column of the fixed-size layout with a cell
    /// of the cell size (`None`: null).
    pub(super) fn set_fixed(&mut self, i: usize, cell: Option<&[u8]>) {
        let cs = self.cell_size();
        match cell {
            Some(b) => self.data[i * cs..(i + 1) * cs].copy_from_slice(b),
            None => self.data[i * cs..(i + 1) * cs].fill(0),
        }
        if cell.is_none() && self.validity.is_none() {
            self.validity = Some(vec![1; self.len]);
        }
        if let Some(v) = &mut self.validity {
            v[i] = u8::from(cell.is_some());
        }
    }

    /// Cells `start..end` as a column of their own.
    pub fn slice(&self, start: usize, end: usize) -> Column {
        let (data, offsets) = match &self.offsets {
            Some(o) => {
                let base = o[start];
                (
                    self.data[base as usize..o[end] as usize].to_vec(),
                    Some(o[start..=end].iter().map(|x| x - base).collect()),
                )
            }
            None => {
                let cs = self.cell_size();
                (self.data[start * cs..end * cs].to_vec(), None)
            }
        };
        Column {
            field: self.field.clone(),
            data,
            offsets,
            validity: self.validity.as_ref().map(|v| v[start..end].to_vec()),
            len: end - start,
        }
    }

    /// Sets every cell whose `mask` entry is false to `fill` (`None`: null).
    pub(crate) fn replace_failing(&mut self, mask: &[bool], fill: Option<&[u8]>) {
        if mask.iter().all(|m| *m) {
            return;
        }
        let fixed = self.offsets.is_none() && fill.is_none_or(|f| f.len() == self.cell_size());
        if fixed {
            for (i, _) in mask.iter().enumerate().filter(|(_, m)| !**m) {
                self.set_fixed(i, fill);
            }
            return;
        }
        let mut c = Column::new(self.field.clone(), self.len);
        for (i, m) in mask.iter().enumerate().take(self.len) {
            c.push(if *m { self.get(i) } else { fill });
        }
        *self = c;
    }

    /// The JSON of cell `i`, as `export` prints it.
    pub fn json(&self, i: usize) -> Value {
        match self.get(i) {
            None => Value::Null,
            Some(b)
                if self.field.cell_val_num.is_none() && !value::is_text(self.field.datatype) =>
            {
                Value::Array(value::values(self.field.datatype, b))
            }
            Some(b) => value::cell(self.field.datatype, b),
        }
    }
}

/// The cells a query returned, column by column (dimensions first).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Cells {
    /// One column per field read, dimensions first, in schema order.
    pub columns: Vec<Column>,
    /// How many cells every column holds.
    pub len: usize,
}

impl Cells {
    /// Cells of `len` rows in `columns` (each holding `len` cells).
    pub fn new(columns: Vec<Column>, len: usize) -> Self {
        Cells { columns, len }
    }
}

impl Cells {
    /// The cells whose `mask` entry is true.
    pub fn filter(&self, mask: &[bool]) -> Cells {
        let len = mask.iter().take(self.len).filter(|m| **m).count();
        let columns = self
            .columns
            .iter()
            .map(|c| {
                let mut out = Column::new(c.field.clone(), len);
                for (i, _) in mask.iter().enumerate().take(self.len).filter(|(_, m)| **m) {
                    out.push(c.get(i));
                }
                if c.validity.is_some() && out.validity.is_none() {
                    out.validity = Some(vec![1; len]);
                }
                out
            })
            .collect();
        Cells { columns, len }
    }

    /// The column of field `name`.
    pub fn column(&self, name: &str) -> Option<&Column> {
        self.columns.iter().find(|c| c.field.name == name)
    }

    /// Cells `start..start + len` (clamped to the cells there are).
    pub fn slice(&self, start: usize, len: usize) -> Cells {
        let start = start.min(self.len);
        let end = start.saturating_add(len).min(self.len);
        Cells {
            columns: self.columns.iter().map(|c| c.slice(start, end)).collect(),
            len: end - start,
        }
    }

    /// Cell `i` as a JSON object: dimension names, then attribute names.
    pub fn row(&self, i: usize) -> Value {
        let mut m = Map::new();
        for c in &self.columns {
            m.insert(c.field.name.clone(), c.json(i));
        }
        Value::Object(m)
    }
}

/// An attribute of a dense read while fragments overwrite its cells.
pub(crate) enum DenseColumn {
    /// Cells of the field's cell size, overwritten in place.
    Fixed(Column),
    /// Cells of any size: each cell's place in `arena`, where every write
    /// appends (compacted when overwritten bytes outweigh the live ones).
    Spans {
        field: FieldInfo,
        arena: Vec<u8>,
        spans: Vec<(u64, u64)>,
        valid: Vec<u8>,
        live: u64,
    },
}

impl DenseColumn {
    /// Bytes per cell besides the cells' own while cells have places: a
    /// place, a validity byte, then an offset and a validity byte.
    pub(super) const SPAN_BYTES: u64 = 16 + 1 + 8 + 1;

    pub(crate) fn new(field: FieldInfo, n: usize, fill: Option<&[u8]>) -> Self {
        let cs = field.cell_size() as usize;
        if field.cell_val_num.is_some() && fill.is_none_or(|f| f.len() == cs) {
            return DenseColumn::Fixed(Column::filled(field, n, fill));
        }
        let fill_len = fill.map_or(0, |f| f.len() as u64);
        DenseColumn::Spans {
            field,
            arena: fill.unwrap_or_default().to_vec(),
            spans: vec![(0, fill_len); n],
            valid: vec![u8::from(fill.is_some()); n],
            live: fill_len.saturating_mul(n as u64),
        }
    }

    /// Overwrites cell `i` (`None`: null).
    pub(crate) fn set(&mut self, i: usize, cell: Option<&[u8]>) {
        if let DenseColumn::Fixed(c) = self {
            if cell.is_none_or(|b| b.len() == c.cell_size()) {
                return c.set_fixed(i, cell);
            }
            // A cell of another size (the fragment's schema gives the
            // field another type): the cells take places.
            let cs = c.cell_size() as u64;
            let c = std::mem::replace(c, Column::new(c.field.clone(), 0));
            let n = c.len;
            *self = DenseColumn::Spans {
                spans: (0..n as u64).map(|k| (k * cs, cs)).collect(),
                valid: c.validity.unwrap_or_else(|| vec![1; n]),
                live: c.data.len() as u64,
                arena: c.data,
                field: c.field,
            };
        }
        let DenseColumn::Spans {
            arena,
            spans,
            valid,
            live,
            ..
        } = self
        else {
            unreachable!("fixed columns returned above")
        };
        *live -= spans[i].1;
        let b = cell.unwrap_or_default();
        spans[i] = (arena.len() as u64, b.len() as u64);
        arena.extend_from_slice(b);
        *live += b.len() as u64;
        valid[i] = u8::from(cell.is_some());
        if arena.len() as u64 > live.saturating_mul(2).saturating_add(1 << 20) {
            let mut kept = Vec::with_capacity(*live as usize);
            for s in spans.iter_mut() {
                let start = kept.len() as u64;
                kept.extend_from_slice(&arena[s.0 as usize..(s.0 + s.1) as usize]);
                s.0 = start;
            }
            *arena = kept;
        }
    }

    pub(crate) fn finish(self) -> Column {
        match self {
            DenseColumn::Fixed(c) => c,
            DenseColumn::Spans {
                field,
                arena,
                spans,
                valid,
                ..
            } => {
                let mut c = Column::new(field, spans.len());
                for (s, v) in spans.iter().zip(&valid) {
                    let b = &arena[s.0 as usize..(s.0 + s.1) as usize];
                    c.push((*v != 0).then_some(b));
                }
                c
            }
        }
    }
}
