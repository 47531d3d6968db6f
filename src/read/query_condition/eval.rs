//! Evaluation on columns of cells, and tiles skipped by their metadata.

use super::ast::*;
use super::bind::*;
use crate::array::FieldInfo;
use crate::error::{Error, Result};
use crate::format::{with_native, Datatype};
use crate::read::column::{Cells, Column};

/// A little-endian number read from a cell.
pub(super) trait Num: Copy + PartialOrd {
    const SIZE: usize;
    fn read(b: &[u8]) -> Self;
}

macro_rules! num {
    ($($t:ty),*) => {$(
        impl Num for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn read(b: &[u8]) -> Self {
                let mut a = [0u8; std::mem::size_of::<$t>()];
                a.copy_from_slice(&b[..Self::SIZE]);
                <$t>::from_le_bytes(a)
            }
        }
    )*};
}
num!(i8, u8, i16, u16, i32, u32, i64, u64, f32, f64);

/// The cells of a column, each as its bytes (null cells included, as
/// stored).
pub(super) fn for_each_cell(col: &Column, mut f: impl FnMut(usize, &[u8])) {
    let data = col.data();
    match col.offsets() {
        Some(o) => {
            for (i, w) in o.windows(2).take(col.len()).enumerate() {
                let (s, e) = (w[0] as usize, w[1] as usize);
                f(i, data.get(s..e.max(s)).unwrap_or_default());
            }
        }
        None => {
            let size = col.field.cell_size() as usize;
            if size == 0 {
                return;
            }
            for (i, c) in data.chunks_exact(size).take(col.len()).enumerate() {
                f(i, c);
            }
        }
    }
}

/// `pred` of each cell's first value of type `T`, into `out`; cells too
/// short for one hold false.
pub(super) fn numeric<T: Num>(col: &Column, out: &mut [bool], pred: impl Fn(T) -> bool) {
    if col.offsets().is_none() && col.field.cell_size() as usize == T::SIZE {
        // The common case: a column of one fixed-size value per cell.
        for (o, c) in out.iter_mut().zip(col.data().chunks_exact(T::SIZE)) {
            *o = pred(T::read(c));
        }
        return;
    }
    for_each_cell(col, |i, c| out[i] = c.len() >= T::SIZE && pred(T::read(c)));
}

pub(super) fn compare<T: Num>(col: &Column, out: &mut [bool], op: Op, v: T) {
    match op {
        Op::Lt => numeric(col, out, |x: T| x < v),
        Op::Le => numeric(col, out, |x: T| x <= v),
        Op::Gt => numeric(col, out, |x: T| x > v),
        Op::Ge => numeric(col, out, |x: T| x >= v),
        Op::Eq => numeric(col, out, |x: T| x == v),
        Op::Ne => numeric(col, out, |x: T| x != v),
    }
}

/// Whether `ord` (a cell against the value) satisfies `op`.
pub(super) fn holds(op: Op, ord: std::cmp::Ordering) -> bool {
    use std::cmp::Ordering::*;
    match op {
        Op::Lt => ord == Less,
        Op::Le => ord != Greater,
        Op::Gt => ord == Greater,
        Op::Ge => ord != Less,
        Op::Eq => ord == Equal,
        Op::Ne => ord != Equal,
    }
}

impl BoundCondition {
    /// The fields the condition reads, as the schema describes them.
    pub fn fields(&self) -> &[FieldInfo] {
        &self.fields
    }

    pub(super) fn column<'a>(&self, cells: &'a Cells, i: usize) -> Result<&'a Column> {
        let field = &self.fields[i];
        let col = cells.column(&field.name).ok_or_else(|| Error::Condition {
            text: self.text.clone(),
            what: format!("the cells hold no column {}", field.name),
        })?;
        if col.field.datatype != field.datatype || col.len() != cells.len {
            return Err(Error::Condition {
                text: self.text.clone(),
                what: format!(
                    "column {} holds {} {} cells; the condition was bound to {} {} cells",
                    field.name,
                    col.len(),
                    datatype_name(col.field.datatype),
                    cells.len,
                    datatype_name(field.datatype)
                ),
            });
        }
        Ok(col)
    }

    /// For each cell of `cells` (which hold a column for every field the
    /// condition names), whether the condition holds.
    pub fn evaluate(&self, cells: &Cells) -> Result<Vec<bool>> {
        self.eval(&self.tree, cells)
    }

    pub(super) fn eval(&self, node: &Bound, cells: &Cells) -> Result<Vec<bool>> {
        let n = cells.len;
        let mut out = vec![false; n];
        match node {
            Bound::And(kids) | Bound::Or(kids) => {
                let and = matches!(node, Bound::And(_));
                out.fill(and);
                for k in kids {
                    let r = self.eval(k, cells)?;
                    for (o, r) in out.iter_mut().zip(r) {
                        *o = if and { *o && r } else { *o || r };
                    }
                }
                return Ok(out);
            }
            Bound::Const(b) => out.fill(*b),
            Bound::Valid(f) => {
                self.column(cells, *f)?;
                out.fill(true);
            }
            Bound::Null { field, is_null } => {
                let col = self.column(cells, *field)?;
                match col.validity() {
                    Some(v) => {
                        for (o, v) in out.iter_mut().zip(v) {
                            *o = (*v == 0) == *is_null;
                        }
                    }
                    None => out.fill(!is_null),
                }
                return Ok(out);
            }
            Bound::Cmp { field, op, value } => {
                let col = self.column(cells, *field)?;
                let op = *op;
                match value {
                    Value::I8(v) => compare(col, &mut out, op, *v),
                    Value::U8(v) => compare(col, &mut out, op, *v),
                    Value::I16(v) => compare(col, &mut out, op, *v),
                    Value::U16(v) => compare(col, &mut out, op, *v),
                    Value::I32(v) => compare(col, &mut out, op, *v),
                    Value::U32(v) => compare(col, &mut out, op, *v),
                    Value::I64(v) => compare(col, &mut out, op, *v),
                    Value::U64(v) => compare(col, &mut out, op, *v),
                    Value::F32(v) => compare(col, &mut out, op, *v),
                    Value::F64(v) => compare(col, &mut out, op, *v),
                    Value::Char(v) => {
                        for_each_cell(col, |i, c| {
                            // An empty cell's first char is its NUL.
                            let x = c.first().copied().unwrap_or(0) as i8;
                            out[i] = x.partial_cmp(v).is_some_and(|o| holds(op, o));
                        })
                    }
                    Value::Bytes(v) => for_each_cell(col, |i, c| out[i] = holds(op, c.cmp(v))),
                }
            }
            Bound::Set {
                field,
                negated,
                members,
            } => {
                let col = self.column(cells, *field)?;
                for_each_cell(col, |i, c| {
                    out[i] = members.binary_search_by(|m| m.as_slice().cmp(c)).is_ok() != *negated
                });
            }
        }
        // A null cell satisfies no comparison (`apply_ast_node_sparse`
        // clears it for any op with a non-null value).
        let f = match node {
            Bound::Valid(f) | Bound::Cmp { field: f, .. } | Bound::Set { field: f, .. } => *f,
            _ => return Ok(out),
        };
        if let Some(v) = self.column(cells, f)?.validity() {
            for (o, v) in out.iter_mut().zip(v) {
                *o &= *v != 0;
            }
        }
        Ok(out)
    }

    /// False when the tile's metadata proves no cell of it matches:
    /// `stats` gives what the tile's metadata says about a field by name
    /// (`None`: nothing). Conservative: true whenever uncertain.
    ///
    /// The statistics may borrow from anything that outlives the call
    /// (`'s`), e.g. the fragment metadata, not only from the name.
    pub fn may_match<'s>(&self, stats: &dyn Fn(&str) -> Option<FieldTileStats<'s>>) -> bool {
        self.may(&self.tree, stats)
    }

    pub(super) fn may<'s>(
        &self,
        node: &Bound,
        stats: &dyn Fn(&str) -> Option<FieldTileStats<'s>>,
    ) -> bool {
        let field_stats = |f: usize| stats(&self.fields[f].name);
        // Every cell of the tile null: no comparison holds.
        let all_null = |f: usize| {
            field_stats(f).is_some_and(|s| s.cell_count > 0 && s.null_count == Some(s.cell_count))
        };
        match node {
            Bound::And(kids) => kids.iter().all(|k| self.may(k, stats)),
            Bound::Or(kids) => kids.iter().any(|k| self.may(k, stats)),
            Bound::Const(b) => *b,
            Bound::Valid(f) => !all_null(*f),
            Bound::Null { field, is_null } => match field_stats(*field) {
                Some(s) if *is_null => s.null_count != Some(0),
                Some(s) => !(s.cell_count > 0 && s.null_count == Some(s.cell_count)),
                None => true,
            },
            Bound::Cmp { field, op, value } => {
                if all_null(*field) {
                    return false;
                }
                let Some(s) = field_stats(*field) else {
                    return true;
                };
                let (Some(min), Some(max)) = (s.min, s.max) else {
                    return true;
                };
                !cannot_hold(*op, value, min, max)
            }
            Bound::Set {
                field,
                negated,
                members,
            } => {
                if all_null(*field) {
                    return false;
                }
                if *negated {
                    return true;
                }
                let Some(s) = field_stats(*field) else {
                    return true;
                };
                let (Some(min), Some(max)) = (s.min, s.max) else {
                    return true;
                };
                // Members are bytes of values; one equal to a cell lies in
                // [min, max] unless it is a NaN (outside every range).
                let dt = self.fields[*field].datatype;
                members.iter().any(|m| match member_value(dt, m) {
                    Some(Value::F32(x)) if x.is_nan() => true,
                    Some(Value::F64(x)) if x.is_nan() => true,
                    Some(v) => !cannot_hold(Op::Eq, &v, min, max),
                    None => true,
                })
            }
        }
    }
}

/// A set member's bytes as a value of `dt` (strings: the bytes).
pub(super) fn member_value(dt: Datatype, m: &[u8]) -> Option<Value> {
    let w = numeric_width(dt);
    if w.is_some_and(|w| w != m.len()) {
        return None;
    }
    Some(if is_numeric(dt) {
        with_native!(dt, T => Value::from(T::read(m)))
    } else {
        Value::Bytes(m.to_vec())
    })
}

/// Whether tile min/max prove that no cell `c` has `c op value`. False
/// (uncertain) whenever the statistics do not decode, for `!=` on floats
/// (a NaN cell may sit outside min/max) and for first-char comparisons.
pub(super) fn cannot_hold(op: Op, value: &Value, min: &[u8], max: &[u8]) -> bool {
    pub(super) fn prove<T: PartialOrd>(op: Op, v: T, min: T, max: T) -> bool {
        match op {
            Op::Lt => min >= v,
            Op::Le => min > v,
            Op::Gt => max <= v,
            Op::Ge => max < v,
            Op::Eq => v < min || v > max,
            Op::Ne => min == v && max == v,
        }
    }
    macro_rules! typed {
        ($t:ty, $v:expr) => {{
            if min.len() != <$t as Num>::SIZE || max.len() != <$t as Num>::SIZE {
                return false;
            }
            prove(op, *$v, <$t>::read(min), <$t>::read(max))
        }};
    }
    match value {
        Value::I8(v) => typed!(i8, v),
        Value::U8(v) => typed!(u8, v),
        Value::I16(v) => typed!(i16, v),
        Value::U16(v) => typed!(u16, v),
        Value::I32(v) => typed!(i32, v),
        Value::U32(v) => typed!(u32, v),
        Value::I64(v) => typed!(i64, v),
        Value::U64(v) => typed!(u64, v),
        Value::F32(_) | Value::F64(_) if op == Op::Ne => false,
        Value::F32(v) => typed!(f32, v),
        Value::F64(v) => typed!(f64, v),
        Value::Bytes(v) => prove(op, v.as_slice(), min, max),
        Value::Char(_) => false,
    }
}
