//! Binding: field datatypes resolved, literals converted, enumeration labels turned into indexes.

use std::collections::BTreeSet;

use super::ast::*;
use crate::array::directory::ArrayDirectory;
use crate::array::schema::{enumeration_values, read_enumeration_file};
use crate::array::FieldInfo;
use crate::error::{Error, Result};
use crate::format::ArraySchema;
use crate::format::{with_native, ArrayType, Datatype};
use crate::ReadOptions;

/// What a condition is bound against: an array's newest schema, and the
/// folder and options its enumerations are read with.
#[derive(Clone, Copy)]
#[non_exhaustive]
pub struct BindContext<'a> {
    /// The schema the condition's fields are looked up in.
    pub schema: &'a ArraySchema,
    /// The array's folder (its enumeration files).
    pub dir: &'a ArrayDirectory,
    /// How files are read (the encryption key).
    pub options: &'a ReadOptions,
}

pub(super) struct Binder<'a> {
    pub(super) ctx: BindContext<'a>,
    pub(super) text: &'a str,
    pub(super) fields: Vec<FieldInfo>,
}

/// An enumeration's labels (as bytes) and order.
pub(super) struct Labels {
    pub(super) datatype: Datatype,
    pub(super) var: bool,
    pub(super) ordered: bool,
    pub(super) values: Vec<Vec<u8>>,
}

impl Binder<'_> {
    pub(super) fn err(&self, what: String) -> Error {
        Error::Condition {
            text: self.text.to_string(),
            what,
        }
    }

    /// The index of `field` in the bound fields, resolving it first.
    pub(super) fn field(&mut self, f: &FieldRef) -> Result<usize> {
        if let Some(i) = self.fields.iter().position(|x| x.name == f.name) {
            return self.check_kind(i, f).map(|_| i);
        }
        let schema = self.ctx.schema;
        let info = FieldInfo::lookup(schema, &f.name).ok_or_else(|| {
            let exists = schema
                .attributes
                .iter()
                .map(|a| &a.name)
                .chain(schema.domain.dimensions.iter().map(|d| &d.name))
                .any(|n| n == f.name.as_bytes());
            self.err(if exists {
                format!("field {} has a datatype this crate does not know", f.name)
            } else {
                format!("unknown field {}", f.name)
            })
        })?;
        if info.is_dimension && schema.array_type == ArrayType::Dense {
            // TileDB-Py refuses these (`get_variable_from_node`).
            return Err(self.err(format!(
                "{} is a dimension of a dense array; conditions on dimensions need a sparse array",
                f.name
            )));
        }
        self.fields.push(info);
        let i = self.fields.len() - 1;
        self.check_kind(i, f)?;
        Ok(i)
    }

    pub(super) fn check_kind(&self, i: usize, f: &FieldRef) -> Result<()> {
        let dim = self.fields[i].is_dimension;
        match f.kind {
            FieldKind::Attr if dim => Err(self.err(format!(
                "attr(\"{}\"): {} is a dimension, not an attribute",
                f.name, f.name
            ))),
            FieldKind::Dim if !dim => Err(self.err(format!(
                "dim(\"{}\"): {} is an attribute, not a dimension",
                f.name, f.name
            ))),
            _ => Ok(()),
        }
    }

    /// The enumeration of attribute `field`, if it has one.
    pub(super) fn labels(&self, field: &FieldInfo) -> Result<Option<Labels>> {
        if field.is_dimension {
            return Ok(None);
        }
        let schema = self.ctx.schema;
        let Some(attr) = schema
            .attributes
            .iter()
            .find(|a| a.name == field.name.as_bytes())
        else {
            return Ok(None);
        };
        let Some(name) = attr.enumeration_name.as_ref().filter(|n| !n.is_empty()) else {
            return Ok(None);
        };
        let entry = schema
            .enumerations
            .iter()
            .flatten()
            .find(|e| e.name == *name)
            .ok_or_else(|| {
                self.err(format!(
                    "{} names enumeration {:?}, which the schema lacks",
                    field.name,
                    String::from_utf8_lossy(name)
                ))
            })?;
        let file_name = String::from_utf8_lossy(&entry.filename).into_owned();
        let path = self
            .ctx
            .dir
            .enumeration_files()?
            .into_iter()
            .find(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy() == file_name)
            })
            .ok_or_else(|| {
                self.err(format!(
                    "the enumeration file {file_name} of {} is missing",
                    field.name
                ))
            })?;
        let e = read_enumeration_file(&self.ctx.dir.storage.open(&path)?, self.ctx.options)?;
        let values = enumeration_values(&e, &path)?
            .into_iter()
            .map(<[u8]>::to_vec)
            .collect();
        let datatype = e.datatype.known().ok_or_else(|| {
            self.err(format!(
                "the enumeration of {} has datatype {}, which this crate does not know",
                field.name, e.datatype
            ))
        })?;
        Ok(Some(Labels {
            datatype,
            var: e.cell_val_num == crate::format::VAR_NUM,
            ordered: e.ordered != 0,
            values,
        }))
    }

    /// Binds `node`, negated when `negate` (pushed to the leaves).
    pub(super) fn node(&mut self, node: &Node, negate: bool) -> Result<Bound> {
        Ok(match node {
            Node::And(kids) | Node::Or(kids) => {
                let kids = kids
                    .iter()
                    .map(|k| self.node(k, negate))
                    .collect::<Result<Vec<_>>>()?;
                if matches!(node, Node::And(_)) != negate {
                    Bound::And(kids)
                } else {
                    Bound::Or(kids)
                }
            }
            Node::Not(k) => self.node(k, !negate)?,
            Node::Cmp { field, op, value } => {
                let op = if negate { op.negated() } else { *op };
                self.cmp(field, op, value)?
            }
            Node::Set {
                field,
                negated,
                values,
            } => self.set(field, *negated != negate, values)?,
        })
    }

    pub(super) fn cmp(&mut self, f: &FieldRef, op: Op, value: &Lit) -> Result<Bound> {
        let i = self.field(f)?;
        let field = self.fields[i].clone();
        if *value == Lit::None {
            // `rewrite_for_schema`: a null test of a field that cannot be
            // null holds always (`!=`) or never (`==`).
            return Ok(if field.nullable {
                Bound::Null {
                    field: i,
                    is_null: op == Op::Eq,
                }
            } else {
                Bound::Const(op == Op::Ne)
            });
        }
        if let Some(labels) = self.labels(&field)? {
            if !labels.ordered && !matches!(op, Op::Eq | Op::Ne) {
                return Err(self.err(format!(
                    "{} has an unordered enumeration: compare it with == or != only, not {}",
                    field.name,
                    op.symbol()
                )));
            }
            let label = self.label_bytes(&field, &labels, value)?;
            return Ok(match labels.values.iter().position(|l| *l == label) {
                Some(idx) => Bound::Cmp {
                    field: i,
                    op,
                    value: self.index_value(&field, idx)?,
                },
                // A label the enumeration lacks: ALWAYS_TRUE for `!=`
                // (still false for null cells), else ALWAYS_FALSE.
                None if op == Op::Ne => Bound::Valid(i),
                None => Bound::Const(false),
            });
        }
        self.check_comparable(&field)?;
        let mut v = convert(&field, value).map_err(|w| self.err(w))?;
        if field.datatype == Datatype::Char && field.cell_val_num.is_some() {
            // The engine reads one `char` of the value; an empty value is
            // its terminating NUL.
            let first = v.to_bytes().first().copied().unwrap_or(0);
            v = Value::Char(first as i8);
        }
        Ok(Bound::Cmp {
            field: i,
            op,
            value: v,
        })
    }

    pub(super) fn set(&mut self, f: &FieldRef, negated: bool, values: &[Lit]) -> Result<Bound> {
        self.check_set(f, values)?;
        let i = self.field(f)?;
        let field = self.fields[i].clone();
        let mut members = BTreeSet::new();
        if let Some(labels) = self.labels(&field)? {
            for v in values {
                let label = self.label_bytes(&field, &labels, v)?;
                // Labels the enumeration lacks are dropped.
                if let Some(idx) = labels.values.iter().position(|l| *l == label) {
                    members.insert(self.index_value(&field, idx)?.to_bytes());
                }
            }
        } else {
            self.check_comparable(&field)?;
            for v in values {
                members.insert(self.set_member(&field, v)?);
            }
        }
        Ok(Bound::Set {
            field: i,
            negated,
            members: members.into_iter().collect(),
        })
    }

    /// Refuses an empty `in` list (the parser does; a condition built in
    /// Rust may hold one).
    pub(super) fn check_set(&self, f: &FieldRef, values: &[Lit]) -> Result<()> {
        if values.is_empty() {
            return Err(self.err(format!("`in` on {} needs at least one value", f.name)));
        }
        Ok(())
    }

    /// Refuses fields the engine compares with nothing but null tests.
    /// A set member's bytes as `field`'s value (`check_node_validity`: a
    /// member of a fixed-size field has its cell size).
    pub(super) fn set_member(&self, field: &FieldInfo, v: &Lit) -> Result<Vec<u8>> {
        let m = convert(field, v).map_err(|w| self.err(w))?.to_bytes();
        if let Some(size) = field.cell_val_num.map(|_| field.cell_size()) {
            if m.len() as u64 != size {
                return Err(self.err(format!(
                    "{} holds cells of {size} bytes; {v} has {}",
                    field.name,
                    m.len()
                )));
            }
        }
        Ok(m)
    }

    pub(super) fn check_comparable(&self, field: &FieldInfo) -> Result<()> {
        let dt = field.datatype;
        let string = crate::model::value::is_text(dt);
        if !string && numeric_width(dt).is_none() {
            return Err(self.err(format!(
                "{} is a {} field; conditions compare numbers, datetimes and \
                 CHAR/ASCII/UTF-8 strings only (null tests work on any field)",
                field.name,
                datatype_name(dt)
            )));
        }
        match field.cell_val_num {
            None if !string => Err(self.err(format!(
                "{} is a var-sized {} field; only strings may be var-sized in a condition",
                field.name,
                datatype_name(dt)
            ))),
            Some(n) if n != 1 && !string => Err(self.err(format!(
                "{} holds {n} values per cell; a condition compares fields of one value per cell",
                field.name
            ))),
            _ => Ok(()),
        }
    }

    /// A label literal as the bytes of the enumeration's values.
    pub(super) fn label_bytes(
        &self,
        field: &FieldInfo,
        labels: &Labels,
        v: &Lit,
    ) -> Result<Vec<u8>> {
        let as_field = FieldInfo {
            name: field.name.clone(),
            datatype: labels.datatype,
            cell_val_num: if labels.var { None } else { Some(1) },
            ..field.clone()
        };
        convert(&as_field, v)
            .map(|v| v.to_bytes())
            .map_err(|w| self.err(format!("{w} (its enumeration's labels)")))
    }

    /// Enumeration index `idx` as a value of the attribute's datatype.
    pub(super) fn index_value(&self, field: &FieldInfo, idx: usize) -> Result<Value> {
        convert(field, &Lit::Int(idx as i128)).map_err(|w| self.err(w))
    }
}

/// Bytes of one value of the numeric datatypes (BOOL and datetimes included).
pub(super) fn numeric_width(dt: Datatype) -> Option<usize> {
    is_numeric(dt).then_some(dt.size() as usize)
}

/// Whether conditions compare values of `dt` as numbers (BOOL and dates
/// and times included; text and bytes are compared bytewise).
pub(super) fn is_numeric(dt: Datatype) -> bool {
    !(dt.is_string() || dt.is_opaque())
}

pub(super) fn datatype_name(dt: Datatype) -> &'static str {
    dt.name()
}

/// Converts a literal to `field`'s datatype (TileDB-Py's
/// `cast_value_to_dtype`, but refusing what it would silently change: a
/// fraction for an integer field, a number out of the field's range).
pub(super) fn convert(field: &FieldInfo, v: &Lit) -> std::result::Result<Value, String> {
    let dt = field.datatype;
    let name = &field.name;
    let kind = datatype_name(dt);
    if crate::model::value::is_text(dt) {
        return match v {
            Lit::Str(s) | Lit::Bytes(s) => Ok(Value::Bytes(s.clone())),
            other => Err(format!("{name} is a string field; {other} is not a string")),
        };
    }
    let number: f64;
    let int: Option<i128> = match v {
        Lit::Int(i) => {
            number = *i as f64;
            Some(*i)
        }
        Lit::Bool(b) => {
            number = f64::from(u8::from(*b));
            Some(i128::from(*b))
        }
        Lit::Float(f) => {
            number = *f;
            (f.is_finite() && f.fract() == 0.0 && f.abs() < 1e38).then_some(*f as i128)
        }
        Lit::Str(_) | Lit::Bytes(_) => {
            return Err(format!(
                "{name} is a {kind} field; {v} is a string, not a number"
            ))
        }
        Lit::None => return Err(format!("{name}: None is not a value")),
    };
    let whole =
        || int.ok_or_else(|| format!("{name} is a {kind} field; {v} is not a whole number"));
    if !is_numeric(dt) {
        return Err(format!(
            "{name} is a {kind} field, which conditions cannot compare"
        ));
    }
    // The integers, BOOL (as UINT8), dates and times (as INT64); floats.
    with_native!(int dt, T => {
            let i = whole()?;
            T::try_from(i).map(Value::from).map_err(|_| {
                format!(
                    "{name} is a {kind} field; {v} is out of its range ({} to {})",
                    T::MIN,
                    T::MAX
                )
            })
        },
        _ => Ok(if dt == Datatype::Float32 {
            Value::F32(number as f32)
        } else {
            Value::F64(number)
        })
    )
}

// ---------------------------------------------------------------------------
