//! Sorting cells into an order with bounded memory: cells are buffered
//! column-wise; a full buffer is sorted (stable, in parallel) and spilled to
//! a run file; at the end the runs are merged. Equal cells keep the order
//! they were given in.

use std::cmp::Ordering;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::PathBuf;

use rayon::slice::ParallelSliceMut;

use super::error::{WriteError, WriteResult};
use super::order::{Coord, GlobalOrder};
use super::util::ScratchDir;

/// The shape of one field of the cells being sorted.
#[derive(Debug, Clone, Copy)]
pub struct SortField {
    /// Bytes per cell of a fixed-size field (ignored when `var`).
    pub cell_size: usize,
    pub var: bool,
    pub nullable: bool,
}

/// One field's cells, column-wise.
#[derive(Debug, Clone, Default)]
pub struct ColBuf {
    pub data: Vec<u8>,
    /// Var-sized: where each cell starts in `data`.
    pub starts: Vec<u64>,
    pub validity: Vec<u8>,
}

impl ColBuf {
    pub fn cell(&self, f: &SortField, i: usize) -> &[u8] {
        if f.var {
            let s = self.starts[i] as usize;
            let e = self
                .starts
                .get(i + 1)
                .map_or(self.data.len(), |e| *e as usize);
            &self.data[s..e]
        } else {
            &self.data[i * f.cell_size..(i + 1) * f.cell_size]
        }
    }

    pub fn valid(&self, f: &SortField, i: usize) -> u8 {
        if f.nullable {
            self.validity[i]
        } else {
            1
        }
    }

    pub fn push(&mut self, f: &SortField, bytes: &[u8], valid: u8) {
        if f.var {
            self.starts.push(self.data.len() as u64);
        }
        self.data.extend_from_slice(bytes);
        if f.nullable {
            self.validity.push(valid);
        }
    }

    pub fn clear(&mut self) {
        self.data.clear();
        self.starts.clear();
        self.validity.clear();
    }
}

/// A cell with its own bytes: per field, the value and its validity.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OwnedCell {
    pub fields: Vec<(Vec<u8>, u8)>,
}

/// Buffers cells and hands them back in order. The first `ndims` fields are
/// the coordinates the order looks at.
pub struct CellSorter {
    order: GlobalOrder,
    fields: Vec<SortField>,
    ndims: usize,
    cols: Vec<ColBuf>,
    len: usize,
    bytes: usize,
    budget: usize,
    scratch_base: PathBuf,
    scratch: Option<ScratchDir>,
    runs: Vec<PathBuf>,
}

impl CellSorter {
    pub fn new(
        order: GlobalOrder,
        fields: Vec<SortField>,
        ndims: usize,
        budget: usize,
        scratch_base: PathBuf,
    ) -> Self {
        let cols = vec![ColBuf::default(); fields.len()];
        CellSorter {
            order,
            fields,
            ndims,
            cols,
            len: 0,
            bytes: 0,
            budget: budget.max(1),
            scratch_base,
            scratch: None,
            runs: Vec::new(),
        }
    }

    /// Adds a cell: per field, its bytes and validity.
    pub fn push(&mut self, cell: &[(&[u8], u8)]) -> WriteResult<()> {
        for ((f, c), (b, v)) in self.fields.iter().zip(&mut self.cols).zip(cell) {
            c.push(f, b, *v);
            self.bytes += b.len() + 9;
        }
        self.len += 1;
        if self.bytes >= self.budget {
            self.spill()?;
        }
        Ok(())
    }

    fn key_width(&self) -> usize {
        if self.order.is_hilbert() {
            1
        } else {
            (0..self.ndims)
                .filter(|d| self.order.dims[*d].extent.is_some() && !self.order.dims[*d].var)
                .count()
        }
    }

    fn coords(&self, i: usize) -> Vec<Coord<'_>> {
        (0..self.ndims)
            .map(|d| self.order.coord(d, self.cols[d].cell(&self.fields[d], i)))
            .collect()
    }

    /// The buffered cells' positions in order (stable).
    fn sorted_positions(&self) -> Vec<usize> {
        let kw = self.key_width();
        let mut keys = vec![0u64; self.len * kw];
        for i in 0..self.len {
            let k = self.order.key(&self.coords(i));
            keys[i * kw..(i + 1) * kw].copy_from_slice(&k);
        }
        let mut perm: Vec<usize> = (0..self.len).collect();
        let dims = self.order.cell_dims();
        let coord = |d: usize, i: usize| self.order.coord(d, self.cols[d].cell(&self.fields[d], i));
        perm.par_sort_by(|&a, &b| {
            keys[a * kw..(a + 1) * kw]
                .cmp(&keys[b * kw..(b + 1) * kw])
                .then_with(|| {
                    for &d in &dims {
                        match coord(d, a).order(&coord(d, b)) {
                            Ordering::Equal => {}
                            o => return o,
                        }
                    }
                    Ordering::Equal
                })
                .then(a.cmp(&b))
        });
        perm
    }

    fn spill(&mut self) -> WriteResult<()> {
        if self.len == 0 {
            return Ok(());
        }
        if self.scratch.is_none() {
            self.scratch = Some(ScratchDir::new(&self.scratch_base)?);
        }
        let dir = &self.scratch.as_ref().unwrap().path;
        let path = dir.join(format!("run{}", self.runs.len()));
        let file = File::create(&path).map_err(|e| WriteError::io(&path, e))?;
        let mut w = BufWriter::new(file);
        let perm = self.sorted_positions();
        let io = |e| WriteError::io(&path, e);
        for i in perm {
            for (f, c) in self.fields.iter().zip(&self.cols) {
                if f.nullable {
                    w.write_all(&[c.valid(f, i)]).map_err(io)?;
                }
                let b = c.cell(f, i);
                if f.var {
                    w.write_all(&(b.len() as u64).to_le_bytes()).map_err(io)?;
                }
                w.write_all(b).map_err(io)?;
            }
        }
        w.flush().map_err(io)?;
        self.runs.push(path);
        for c in &mut self.cols {
            c.clear();
        }
        self.len = 0;
        self.bytes = 0;
        Ok(())
    }

    /// Hands every cell to `f` in order (per field: bytes and validity).
    pub fn for_each(
        mut self,
        mut f: impl FnMut(&[(&[u8], u8)]) -> WriteResult<()>,
    ) -> WriteResult<()> {
        if self.runs.is_empty() {
            let perm = self.sorted_positions();
            let mut cell = Vec::with_capacity(self.fields.len());
            for i in perm {
                cell.clear();
                for (fd, c) in self.fields.iter().zip(&self.cols) {
                    cell.push((c.cell(fd, i), c.valid(fd, i)));
                }
                f(&cell)?;
            }
            return Ok(());
        }
        self.spill()?;
        let mut readers = Vec::new();
        for p in &self.runs {
            let file = File::open(p).map_err(|e| WriteError::io(p, e))?;
            readers.push((BufReader::new(file), p.clone()));
        }
        let fields = self.fields.clone();
        let read_cell = |r: &mut BufReader<File>, p: &PathBuf| -> WriteResult<Option<OwnedCell>> {
            let io = |e| WriteError::io(p, e);
            if r.fill_buf().map_err(io)?.is_empty() {
                return Ok(None);
            }
            let mut cell = OwnedCell::default();
            for fd in &fields {
                let mut valid = 1u8;
                if fd.nullable {
                    let mut one = [0u8; 1];
                    r.read_exact(&mut one).map_err(io)?;
                    valid = one[0];
                }
                let len = if fd.var {
                    let mut l = [0u8; 8];
                    r.read_exact(&mut l).map_err(io)?;
                    u64::from_le_bytes(l) as usize
                } else {
                    fd.cell_size
                };
                let mut b = vec![0u8; len];
                r.read_exact(&mut b).map_err(io)?;
                cell.fields.push((b, valid));
            }
            Ok(Some(cell))
        };
        let mut heads: Vec<Option<(Vec<u64>, OwnedCell)>> = Vec::with_capacity(readers.len());
        for (r, p) in &mut readers {
            let c = read_cell(r, p)?;
            heads.push(c.map(|c| (self.key_of(&c), c)));
        }
        loop {
            let mut best: Option<usize> = None;
            for (i, h) in heads.iter().enumerate() {
                let Some((k, c)) = h else { continue };
                best = match best {
                    None => Some(i),
                    Some(b) => {
                        let (bk, bc) = heads[b].as_ref().unwrap();
                        let o = self
                            .order
                            .cmp(k, &self.coords_of(c), bk, &self.coords_of(bc));
                        if o == Ordering::Less {
                            Some(i)
                        } else {
                            Some(b)
                        }
                    }
                };
            }
            let Some(b) = best else { break };
            let (_, cell) = heads[b].take().unwrap();
            let view: Vec<(&[u8], u8)> = cell
                .fields
                .iter()
                .map(|(v, ok)| (v.as_slice(), *ok))
                .collect();
            f(&view)?;
            let (r, p) = &mut readers[b];
            let next = read_cell(r, p)?;
            heads[b] = next.map(|c| (self.key_of(&c), c));
        }
        Ok(())
    }

    fn coords_of<'a>(&self, c: &'a OwnedCell) -> Vec<Coord<'a>> {
        (0..self.ndims)
            .map(|d| self.order.coord(d, &c.fields[d].0))
            .collect()
    }

    fn key_of(&self, c: &OwnedCell) -> Vec<u64> {
        self.order.key(&self.coords_of(c))
    }
}
