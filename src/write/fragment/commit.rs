//! Finishing a fragment: the last tiles, the metadata, syncing, the commit
//! marker; abandoning one; and the fail points of the crash-safety tests.

use crate::format::hierarchy;
use crate::write::error::{WriteError, WriteResult};
use crate::write::sort::OwnedCell;
use crate::write::util;

use super::types::*;
#[cfg(feature = "fail-points")]
use crate::write::error::FailPoint;

impl FragmentWriter {
    /// Stops here if told to (the state is left as a crash would leave it).
    #[cfg(feature = "fail-points")]
    pub(super) fn checkpoint(&mut self, step: FailPoint) -> WriteResult<()> {
        if self.fail_after == Some(step) {
            self.stopped = true;
            // What was handed to the data files goes into them.
            if let Some(mut sink) = self.sink.take() {
                let _ = sink.close();
            }
            return Err(WriteError::Injected(step));
        }
        Ok(())
    }

    /// Writes the rest, the fragment metadata, and commits.
    pub fn finish(mut self) -> WriteResult<FragmentInfo> {
        if self.done || self.stopped {
            return Err(WriteError::cells("", "the writer has finished or stopped"));
        }
        let res = self.finish_inner();
        // `done` is set once the commit marker exists: from then on the
        // fragment is the array's, whatever fails after.
        if res.is_err() && !self.stopped && !self.done {
            self.cleanup();
        }
        self.done = true;
        res
    }

    pub(super) fn finish_inner(&mut self) -> WriteResult<FragmentInfo> {
        match &mut self.mode {
            Mode::Dense { grid, .. } => {
                let total: u64 = grid.rect.iter().map(|(a, b)| (b - a + 1) as u64).product();
                if self.received != total {
                    return Err(WriteError::cells(
                        "",
                        format!("{} cells for a rectangle of {total} cells", self.received),
                    ));
                }
            }
            Mode::Sparse {
                in_order: Some(state),
                order,
                ..
            } => {
                if self.received == 0 {
                    return Err(WriteError::cells("", "no cells to write"));
                }
                let order = order.clone();
                let sets = state.finish(&order);
                self.dropped = state.dropped;
                for set in sets {
                    self.queue(set)?;
                }
            }
            Mode::Sparse {
                sorter,
                allows_dups,
                refuse_dups,
                capacity,
                order,
                ..
            } => {
                let sorter = sorter
                    .take()
                    .ok_or_else(|| WriteError::cells("", "the writer has finished"))?;
                let (dups, refuse, cap) = (*allows_dups, *refuse_dups, *capacity);
                let order = order.clone();
                if self.received == 0 {
                    return Err(WriteError::cells("", "no cells to write"));
                }
                let n_dim = self.schema.domain.dimensions.len();
                let n_attr = self.n_lead;
                let mut tb = SparseTiles::new(&self.fields, n_attr, n_dim, cap);
                let mut prev: Option<OwnedCell> = None;
                let mut dropped = 0u64;
                let mut err: Option<WriteError> = None;
                sorter
                    .for_each(|cell| {
                        let owned = OwnedCell {
                            fields: cell.iter().map(|(b, v)| (b.to_vec(), *v)).collect(),
                        };
                        if let Some(p) = prev.take() {
                            // Duplicates are equal coordinate bytes, as the
                            // engine's `compute_coord_dups` compares them.
                            let same = !dups
                                && p.fields[..n_dim]
                                    .iter()
                                    .zip(&owned.fields[..n_dim])
                                    .all(|(a, b)| a.0 == b.0);
                            if same && refuse {
                                err = Some(super::sparse::duplicate(
                                    &self.fields[n_attr..],
                                    &owned.fields,
                                ));
                                return Err(WriteError::cells("", "stopped"));
                            } else if same {
                                dropped += 1;
                            } else if let Some(set) = tb.push(&p.fields, &order) {
                                if let Err(e) = self.queue(set) {
                                    err = Some(e);
                                    return Err(WriteError::cells("", "stopped"));
                                }
                            }
                        }
                        prev = Some(owned);
                        Ok(())
                    })
                    .map_err(|e| err.take().unwrap_or(e))?;
                if let Some(p) = prev.take() {
                    if let Some(set) = tb.push(&p.fields, &order) {
                        self.queue(set)?;
                    }
                }
                if let Some(set) = tb.finish() {
                    self.queue(set)?;
                }
                self.dropped = dropped;
            }
        }
        self.drain_filtering()?;
        if !self.pending.is_empty() {
            return Err(WriteError::Unsupported(
                "tiles left waiting (internal error)".into(),
            ));
        }
        let outs = self
            .sink
            .take()
            .ok_or_else(|| WriteError::cells("", "the data files are closed"))?
            .close()?;
        #[cfg(feature = "fail-points")]
        self.checkpoint(FailPoint::DataWritten)?;
        let meta_bytes = self.metadata_file()?;
        let meta_path = self.dir.join(hierarchy::FRAGMENT_METADATA);
        let meta_sync = util::write_new(&meta_path, &meta_bytes)?;
        #[cfg(feature = "fail-points")]
        self.checkpoint(FailPoint::MetadataWritten)?;
        // Every file and folder of the fragment synced at once.
        let mut syncs = vec![meta_sync];
        syncs.extend(
            outs.iter()
                .map(|o| -> util::SyncJob<'_> { Box::new(|| o.sync()) }),
        );
        syncs.push(util::sync_dir_job(self.dir.clone()));
        if let Some(parent) = self.dir.parent() {
            syncs.push(util::sync_dir_job(parent.to_path_buf()));
        }
        util::sync_together(syncs)?;
        #[cfg(feature = "fail-points")]
        self.checkpoint(FailPoint::FilesSynced)?;
        if let Err(e) = util::write_new_synced(&self.commit_path, &[]) {
            let _ = std::fs::remove_file(&self.commit_path);
            return Err(e);
        }
        self.done = true;
        if let Some(parent) = self.commit_path.parent() {
            util::sync_dir(parent)?;
        }
        // A write stalled for `maintain::ABANDONED_AFTER` may have had its
        // folder reclaimed by a vacuum: then its marker is taken back and
        // the write fails, rather than report a commit of nothing.
        if !meta_path.is_file() {
            let _ = std::fs::remove_file(&self.commit_path);
            return Err(WriteError::Array {
                path: self.dir.clone(),
                what: "the fragment's folder was removed before its commit \
                       (a vacuum took the stalled write for abandoned)"
                    .into(),
            });
        }
        #[cfg(feature = "fail-points")]
        self.checkpoint(FailPoint::Committed)?;
        Ok(FragmentInfo {
            name: self.name.clone(),
            path: self.dir.clone(),
            version: self.version,
            timestamp: self.timestamp,
            cells: self.written_cells_count(),
            duplicates_dropped: self.dropped,
            tiles: self.tile_cells.len() as u64,
        })
    }

    pub(super) fn written_cells_count(&self) -> u64 {
        match &self.mode {
            Mode::Dense { .. } => self.received,
            Mode::Sparse { .. } => self.written_cells,
        }
    }

    /// Removes the fragment folder (a write that failed).
    pub(super) fn cleanup(&mut self) {
        // The data thread stops (and closes the files) first.
        self.sink = None;
        let _ = std::fs::remove_dir_all(&self.dir);
    }

    /// Abandons the fragment: nothing of it stays.
    pub fn abort(mut self) {
        self.done = true;
        self.cleanup();
    }
}

impl Drop for FragmentWriter {
    fn drop(&mut self) {
        if !self.done && !self.stopped {
            self.cleanup();
        }
    }
}
