//! The delete and update commits a sparse read applies.

use crate::error::{Error, Result};
use crate::format::{decode_all, ConditionNode, UpdateCommit};
use crate::read::array_reader::ArrayReader;
use crate::read::query_condition::BoundCondition;
use crate::tile::read_generic_tile;

/// A delete (or update) commit as a read applies it.
pub(crate) struct Delete {
    /// Its timestamp: it deletes the cells written at or before it.
    pub(crate) t1: u64,
    /// Its file name (as fragments' processed conditions name it).
    pub(crate) name: String,
    /// The stored condition (the negation of the delete's): the cells for
    /// which it holds survive.
    pub(crate) keep: BoundCondition,
}

impl ArrayReader {
    /// The delete and update commits a sparse read applies, oldest first
    /// (an update commit as a delete of the cells its condition selects,
    /// its values unused, as the engine's readers apply it).
    pub(crate) fn deletes(&self) -> Result<Vec<Delete>> {
        let mut out = Vec::new();
        for d in self.dir.condition_commits() {
            let held = d
                .path
                .file_name()
                .and_then(|n| self.dir.delete_tiles.get(n.to_string_lossy().as_ref()));
            let file = match held {
                Some(bytes) => crate::storage::MappedFile::from_vec(&d.path, bytes.clone()),
                None => self.dir.storage.open(&d.path)?,
            };
            let tile = read_generic_tile(&file, 0, &self.opts)?;
            let name = d
                .path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let node: ConditionNode = if name.ends_with(crate::format::hierarchy::UPD) {
                decode_all::<UpdateCommit>(&tile.data, &d.path, 0, ())?.condition
            } else {
                decode_all(&tile.data, &d.path, 0, (0,))?
            };
            // Checked against the newest schema as the engine checks the
            // conditions it loads: a delete whose field the schema no
            // longer has (an evolution dropped it), or that the engine
            // cannot apply, fails the read, never returning cells it may
            // hide.
            let keep =
                BoundCondition::from_stored_in(&node, name.clone(), &self.schema).map_err(|e| {
                    Error::Query {
                        path: d.path.clone(),
                        what: match e {
                            Error::Condition { what, .. } => format!(
                            "this delete condition cannot be applied as the engine applies it, \
                             which refuses the read too: {what}"
                        ),
                            other => other.to_string(),
                        },
                    }
                })?;
            out.push(Delete {
                t1: d.name.t1,
                name,
                keep,
            });
        }
        Ok(out)
    }
}
