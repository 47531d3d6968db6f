//! Filtered tiles waiting for their turn (dense arrays whose tile order is
//! not the order the cells come in): held in memory up to a budget, then
//! spilled to a scratch file and read back when their turn comes.

use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::PathBuf;

use crate::format::{PartFile, StreamedFile};
use crate::write::error::{WriteError, WriteResult};
use crate::write::stats::TileStats;
use crate::write::util;

use super::types::*;

pub(super) fn put_bytes(out: &mut Vec<u8>, b: &[u8]) {
    out.extend_from_slice(&(b.len() as u64).to_le_bytes());
    out.extend_from_slice(b);
}

pub(super) fn put_opt(out: &mut Vec<u8>, b: Option<&Vec<u8>>) {
    match b {
        Some(b) => {
            out.push(1);
            put_bytes(out, b);
        }
        None => out.push(0),
    }
}

pub(super) struct Cursor<'a>(&'a [u8]);

impl Cursor<'_> {
    pub(super) fn u64(&mut self) -> u64 {
        let v = u64::from_le_bytes(self.0[..8].try_into().unwrap());
        self.0 = &self.0[8..];
        v
    }
    pub(super) fn u8(&mut self) -> u8 {
        let v = self.0[0];
        self.0 = &self.0[1..];
        v
    }
    pub(super) fn bytes(&mut self) -> Vec<u8> {
        let n = self.u64() as usize;
        let v = self.0[..n].to_vec();
        self.0 = &self.0[n..];
        v
    }
    pub(super) fn opt(&mut self) -> Option<Vec<u8>> {
        (self.u8() == 1).then(|| self.bytes())
    }
}

/// A filtered set as bytes, for the spill file (read back by `decode_set`).
pub(super) fn encode_set(set: &FilteredSet) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&set.ordinal.to_le_bytes());
    out.extend_from_slice(&set.cells.to_le_bytes());
    out.extend_from_slice(&(set.fields.len() as u64).to_le_bytes());
    for f in &set.fields {
        put_bytes(&mut out, &f.fixed.to_vec());
        put_opt(&mut out, f.var.as_ref());
        out.extend_from_slice(&f.var_tile.end().to_le_bytes());
        put_opt(&mut out, f.validity.as_ref());
        put_bytes(&mut out, &f.stats.min);
        put_bytes(&mut out, &f.stats.max);
        out.extend_from_slice(&f.stats.sum.to_le_bytes());
        out.extend_from_slice(&f.stats.null_count.to_le_bytes());
    }
    for pairs in [&set.mbr, &set.bounds] {
        match pairs {
            Some(m) => {
                out.push(1);
                out.extend_from_slice(&(m.len() as u64).to_le_bytes());
                for (lo, hi) in m {
                    put_bytes(&mut out, lo);
                    put_bytes(&mut out, hi);
                }
            }
            None => out.push(0),
        }
    }
    out
}

pub(super) fn decode_set(b: &[u8]) -> FilteredSet {
    let mut c = Cursor(b);
    let ordinal = c.u64();
    let cells = c.u64();
    let n = c.u64() as usize;
    let mut fields = Vec::with_capacity(n);
    for _ in 0..n {
        let fixed = TileBytes::from_vec(c.bytes());
        let var = c.opt();
        let var_tile = StreamedFile::resumed(c.u64());
        let validity = c.opt();
        let stats = TileStats {
            min: c.bytes(),
            max: c.bytes(),
            sum: c.u64(),
            null_count: c.u64(),
        };
        fields.push(Filtered {
            fixed,
            var,
            var_tile,
            validity,
            stats,
        });
    }
    let mut pairs = || {
        (c.u8() == 1).then(|| {
            let d = c.u64() as usize;
            (0..d).map(|_| (c.bytes(), c.bytes())).collect()
        })
    };
    let mbr = pairs();
    let bounds = pairs();
    FilteredSet {
        ordinal,
        fields,
        mbr,
        bounds,
        cells,
    }
}

impl Pending {
    pub(super) fn new(budget: usize, scratch_base: PathBuf) -> Self {
        Pending {
            mem: BTreeMap::new(),
            mem_bytes: 0,
            budget,
            spilled: BTreeMap::new(),
            scratch_base,
            spill: None,
        }
    }

    pub(super) fn size(set: &FilteredSet) -> usize {
        set.fields
            .iter()
            .map(|f| {
                f.fixed.len()
                    + f.var.as_ref().map_or(0, Vec::len)
                    + f.validity.as_ref().map_or(0, Vec::len)
            })
            .sum()
    }

    pub(super) fn put(&mut self, set: FilteredSet) -> WriteResult<()> {
        let size = Self::size(&set);
        if self.mem_bytes + size <= self.budget {
            self.mem_bytes += size;
            self.mem.insert(set.ordinal, set);
            return Ok(());
        }
        if self.spill.is_none() {
            let dir = util::ScratchDir::new(&self.scratch_base)?;
            let path = dir.path.join("pending");
            let f = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&path)
                .map_err(|e| WriteError::io(&path, e))?;
            self.spill = Some((dir, f, 0));
        }
        let (dir, f, end) = self.spill.as_mut().unwrap();
        let io = |e| WriteError::io(&dir.path, e);
        let bytes = encode_set(&set);
        f.seek(SeekFrom::Start(*end)).map_err(io)?;
        f.write_all(&bytes).map_err(io)?;
        self.spilled.insert(set.ordinal, (*end, bytes.len()));
        *end += bytes.len() as u64;
        Ok(())
    }

    pub(super) fn take(&mut self, ordinal: u64) -> WriteResult<Option<FilteredSet>> {
        if let Some(set) = self.mem.remove(&ordinal) {
            self.mem_bytes -= Self::size(&set);
            return Ok(Some(set));
        }
        let Some((at, len)) = self.spilled.remove(&ordinal) else {
            return Ok(None);
        };
        let (dir, f, _) = self.spill.as_mut().unwrap();
        let io = |e| WriteError::io(&dir.path, e);
        let mut b = vec![0u8; len];
        f.seek(SeekFrom::Start(at)).map_err(io)?;
        f.read_exact(&mut b).map_err(io)?;
        Ok(Some(decode_set(&b)))
    }

    pub(super) fn is_empty(&self) -> bool {
        self.mem.is_empty() && self.spilled.is_empty()
    }
}
