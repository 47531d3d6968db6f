//! Tiles through the filter pipelines, a batch in parallel.

use rayon::prelude::*;

use crate::filters::FilterError;

use crate::write::error::{WriteError, WriteResult};
use crate::write::sort::ColBuf;
use crate::write::stats::{tile_stats, RawTile};

use super::types::*;

pub(super) fn filter_err(field: &str) -> impl Fn(FilterError) -> WriteError + '_ {
    move |e| WriteError::Filter {
        field: field.to_string(),
        filter: e.filter,
        what: e.what,
    }
}

/// Appends cells `from..from + count` of a column to a field's buffer.
pub(super) fn append_cells(
    buf: &mut ColBuf,
    f: &WField,
    c: &Column,
    from: usize,
    count: usize,
) -> WriteResult<()> {
    match &c.offsets {
        None => {
            let w = f.value_size as usize;
            buf.data
                .extend_from_slice(&c.data[from * w..(from + count) * w]);
        }
        Some(o) => {
            for i in from..from + count {
                let e = o.get(i + 1).map_or(c.data.len(), |e| *e as usize);
                let b = &c.data[o[i] as usize..e];
                if !(b.len() as u64).is_multiple_of(f.value_size.max(1)) {
                    return Err(WriteError::cells(&f.name, "a cell is not whole values"));
                }
                buf.starts.push(buf.data.len() as u64);
                buf.data.extend_from_slice(b);
            }
        }
    }
    if let (true, Some(v)) = (f.nullable, &c.validity) {
        buf.validity
            .extend(v[from..from + count].iter().map(|x| u8::from(*x != 0)));
    }
    Ok(())
}

/// Filters a batch of tiles in parallel; gives back the raw tiles too (their
/// buffers are reused).
pub(super) fn filter_sets(
    fields: &[WField],
    batch: Vec<RawSet>,
) -> Vec<WriteResult<(FilteredSet, Vec<RawTile>)>> {
    batch
        .into_par_iter()
        .map(|raw| {
            let fs = raw
                .tiles
                .par_iter()
                .zip(fields.par_iter())
                .map(|(tile, f)| filter_tile(f, tile, &raw.ranges))
                .collect::<WriteResult<Vec<_>>>()?;
            let set = FilteredSet {
                ordinal: raw.ordinal,
                fields: fs,
                mbr: raw.mbr,
                bounds: raw.bounds,
                cells: raw.cells,
            };
            Ok((set, raw.tiles))
        })
        .collect()
}

/// How many tiles are filtered together (in parallel).
pub(super) fn batch_size() -> usize {
    rayon::current_num_threads().clamp(1, 64)
}

/// Runs one field's tile through its pipelines and computes its metadata.
pub(super) fn filter_tile(
    f: &WField,
    tile: &RawTile,
    ranges: &[(usize, usize)],
) -> WriteResult<Filtered> {
    let stats = tile_stats(&f.spec, tile, ranges);
    let err = filter_err(&f.name);
    let mut out = Filtered {
        stats,
        ..Default::default()
    };
    match &tile.offsets {
        None => out.fixed = f.pipes.data.forward_tile(&tile.data).map_err(&err)?,
        Some(offsets) => {
            out.fixed = if f.pipes.offsets_in_data {
                // The engine writes an empty offsets tile: RLE and dictionary
                // keep the offsets in the data tile.
                0u64.to_le_bytes().to_vec()
            } else {
                let bytes: Vec<u8> = offsets.iter().flat_map(|o| o.to_le_bytes()).collect();
                f.pipes
                    .offsets
                    .as_ref()
                    .expect("var-sized fields have an offsets pipeline")
                    .forward_tile(&bytes)
                    .map_err(&err)?
            };
            out.var = Some(
                f.pipes
                    .data
                    .forward_var_tile(&tile.data, offsets)
                    .map_err(&err)?,
            );
            out.var_size = tile.data.len() as u64;
        }
    }
    if let Some(v) = &tile.validity {
        out.validity = Some(
            f.pipes
                .validity
                .as_ref()
                .expect("nullable fields have a validity pipeline")
                .forward_tile(v)
                .map_err(&err)?,
        );
    }
    Ok(out)
}
