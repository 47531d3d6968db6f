//! Reads into buffers the caller owns ([`ArrayReader::read_into`]).

use super::array_reader::ArrayReader;
use super::column::Cells;
use super::dense::{FixedSink, Selection};
use super::plan_dense::DensePlan;
use super::query::Query;
use crate::error::{Error, Result};
use crate::format::ArrayType;

/// A caller's buffer that one field of a read is written into: the
/// values' little-endian bytes (at least the cells' count times the
/// field's cell size) and, for a nullable attribute, one validity byte per
/// cell (0 = null).
#[non_exhaustive]
pub struct Sink<'a> {
    /// The field: an attribute, or a dimension.
    pub name: String,
    /// Where the values go; the first `cells * cell size` bytes are written.
    pub data: &'a mut [u8],
    /// Where the validity goes: needed for a nullable attribute.
    pub validity: Option<&'a mut [u8]>,
}

impl<'a> Sink<'a> {
    /// The values of field `name` go into `data`, from its start.
    pub fn new(name: impl Into<String>, data: &'a mut [u8]) -> Self {
        Sink {
            name: name.into(),
            data,
            validity: None,
        }
    }

    /// Each cell's validity goes into `validity` (1 = a value, 0 = null).
    pub fn with_validity(mut self, validity: Option<&'a mut [u8]>) -> Self {
        self.validity = validity;
        self
    }
}

impl ArrayReader {
    /// Reads the cells `q` selects into the caller's buffers, one field per
    /// sink, and returns how many cells each now holds. Fields without a
    /// sink are not read; [`Query::attributes`] and
    /// [`Query::skip_coordinates`] are taken from the sinks.
    ///
    /// A dense read of fixed-size attributes with no condition decodes its
    /// tiles straight into the buffers, in parallel, and holds no result
    /// of its own: reusing the buffers, a read touches no fresh memory.
    /// Every other read is made as [`ArrayReader::read`] makes it and its
    /// columns copied in. A var-sized field, a buffer too small for the
    /// cells, or a nullable attribute without a validity buffer is an
    /// error, before anything is written.
    pub fn read_into(&self, q: &Query, sinks: &mut [Sink]) -> Result<usize> {
        let mut q = q.clone();
        let (dims, attrs): (Vec<&Sink>, Vec<&Sink>) = sinks.iter().partition(|s| {
            self.schema
                .domain
                .dimensions
                .iter()
                .any(|d| d.name == s.name.as_bytes())
        });
        q.attributes = Some(attrs.iter().map(|s| s.name.clone()).collect());
        q.skip_coordinates = dims.is_empty();
        self.check_distinct(sinks)?;
        if self.schema.array_type == ArrayType::Dense {
            // A vacuum since the open: the array opened afresh
            // (`ArrayReader::retrying`).
            return self.retrying(|r| {
                let plan = r.dense_plan(&q)?;
                if plan.condition.is_none() {
                    return r.fill_dense(&plan, &plan.sel, sinks);
                }
                // Planned already: not again.
                let cells = r.read_dense_planned(&plan, &q)?;
                r.copy_into(&cells, sinks.iter_mut().collect())
            });
        }
        let cells = self.read(&q)?;
        self.copy_into(&cells, sinks.iter_mut().collect())
    }

    /// The cells `sel` selects of a dense read without a condition, into
    /// the sinks: fixed-size attributes decoded straight into theirs (in
    /// parallel, no result of their own), the coordinates and any other
    /// field read as a batch and copied. Every sink is checked before
    /// anything is written.
    pub(super) fn fill_dense(
        &self,
        plan: &DensePlan,
        sel: &Selection,
        sinks: &mut [Sink],
    ) -> Result<usize> {
        let n = usize::try_from(sel.cells())
            .map_err(|_| self.sink_error("the read selects too many cells".into()))?;
        // Where a sink's attribute is in the plan, when it is decoded in place.
        let direct = |s: &Sink| {
            plan.attrs.iter().position(|a| {
                let cs = a.field.cell_size() as usize;
                a.field.name == s.name
                    && a.field.cell_val_num.is_some()
                    && a.fill.as_ref().is_none_or(|f| f.len() == cs)
            })
        };
        let mut coords = false;
        for s in sinks.iter() {
            let dim = plan.dims.iter().find(|d| d.name == s.name);
            coords |= dim.is_some();
            let field = dim
                .or_else(|| {
                    plan.attrs
                        .iter()
                        .map(|a| &a.field)
                        .find(|f| f.name == s.name)
                })
                .ok_or_else(|| self.sink_error(format!("the read has no field {:?}", s.name)))?;
            if field.cell_val_num.is_none() {
                return Err(self.var_sized(&s.name));
            }
            self.check_sink(s, n, field.cell_size() as usize, field.nullable)?;
        }
        let mut parts: Vec<Option<FixedSink>> = plan.attrs.iter().map(|_| None).collect();
        let mut rest = Vec::new();
        for s in sinks.iter_mut() {
            let Some(i) = direct(s) else {
                rest.push(s);
                continue;
            };
            let a = &plan.attrs[i].field;
            let validity = match s.validity.as_deref_mut() {
                Some(v) if a.nullable => Some(&mut v[..n]),
                Some(v) => {
                    v[..n].fill(1);
                    None
                }
                None => None,
            };
            parts[i] = Some((&mut s.data[..n * a.cell_size() as usize], validity));
        }
        let cells = self.plan_batch(plan, sel, coords, &mut parts)?;
        drop(parts);
        if !rest.is_empty() {
            self.copy_into(&cells, rest)?;
        }
        Ok(n)
    }

    /// The columns of `cells` copied into the sinks, every size checked
    /// first.
    pub(super) fn copy_into(&self, cells: &Cells, sinks: Vec<&mut Sink>) -> Result<usize> {
        let n = cells.len;
        let mut pairs = Vec::with_capacity(sinks.len());
        for s in sinks {
            let col = cells
                .column(&s.name)
                .ok_or_else(|| self.sink_error(format!("the array has no field {:?}", s.name)))?;
            if col.offsets().is_some() {
                return Err(self.var_sized(&s.name));
            }
            let cs = col.field.cell_size() as usize;
            self.check_sink(s, n, cs, col.field.nullable)?;
            pairs.push((s, col));
        }
        for (s, col) in pairs {
            s.data[..col.data().len()].copy_from_slice(col.data());
            if let Some(v) = s.validity.as_deref_mut() {
                match col.validity() {
                    Some(src) => v[..n].copy_from_slice(src),
                    None => v[..n].fill(1),
                }
            }
        }
        Ok(n)
    }

    /// No two sinks name the same field (each is written as the field's).
    pub(super) fn check_distinct(&self, sinks: &[Sink]) -> Result<()> {
        for (i, s) in sinks.iter().enumerate() {
            if sinks[..i].iter().any(|t| t.name == s.name) {
                return Err(self.sink_error(format!("{:?} has two sinks", s.name)));
            }
        }
        Ok(())
    }

    fn var_sized(&self, name: &str) -> Error {
        self.sink_error(format!(
            "{name:?} is var-sized: read it with read() or batches()"
        ))
    }

    fn check_sink(&self, s: &Sink, n: usize, cs: usize, nullable: bool) -> Result<()> {
        let need = n.saturating_mul(cs);
        if s.data.len() < need {
            return Err(self.sink_error(format!(
                "the buffer of {:?} holds {} bytes; the read's {n} cells of {cs} bytes need {need}",
                s.name,
                s.data.len()
            )));
        }
        match &s.validity {
            None if nullable => Err(self.sink_error(format!(
                "{:?} is nullable: give its sink a validity buffer",
                s.name
            ))),
            Some(v) if v.len() < n => Err(self.sink_error(format!(
                "the validity buffer of {:?} holds {} bytes; the read has {n} cells",
                s.name,
                v.len()
            ))),
            _ => Ok(()),
        }
    }

    fn sink_error(&self, what: String) -> Error {
        Error::Query {
            path: self.dir.root.clone(),
            what,
        }
    }
}
