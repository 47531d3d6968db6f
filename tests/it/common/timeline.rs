//! What the tests of consolidation across deletes and updates share
//! (tests/it/i22_consolidate_deletes.rs, i22_updates.rs): arrays of cells
//! `(d INT64, a INT32, s UTF-8)` written by an engine script over times 1,
//! 2, 3, ..., read by the engine (tests/engine/timeline.py) and by ours,
//! now and as of each time, and consolidated by either.

use std::path::Path;

use serde_json::Value;
use tiledb_codec::maintain::{consolidate_fragments, ConsolidateOptions};
use tiledb_codec::raw::read::{ArrayReader, Query};
use tiledb_codec::ReadOptions;

/// A cell: `(d, a, s)`.
pub type Cell = (i64, i32, String);

/// An engine script of tests/engine/ that takes timeline.py's commands.
pub struct Engine(pub &'static str);

impl Engine {
    /// Runs the script with `args`; its standard output.
    pub fn run(&self, args: &[&str]) -> String {
        let out = super::engine_run(self.0, args);
        assert!(
            out.status.success(),
            "{} {args:?}: {}",
            self.0,
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// The engine's read of `array` (opened at `t`): fragment count and
    /// cells.
    pub fn read(&self, array: &Path, t: Option<u64>) -> (usize, Vec<Cell>) {
        let ts = t.map(|t| t.to_string());
        let mut args = vec!["read", p(array)];
        args.extend(ts.as_deref());
        cells_of(&serde_json::from_str(&self.run(&args)).unwrap())
    }

    /// The engine's reads of `array` now, then opened at every time from 1
    /// to `last`, in one engine process.
    pub fn reads(&self, array: &Path, last: u64) -> Vec<Vec<Cell>> {
        let last_text = last.to_string();
        let v: Value = serde_json::from_str(&self.run(&["reads", p(array), &last_text])).unwrap();
        let reads: Vec<Vec<Cell>> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|r| cells_of(r).1)
            .collect();
        assert_eq!(
            reads.len() as u64,
            last + 1,
            "the engine's reads of {}",
            array.display()
        );
        reads
    }

    /// The engine consolidates `array`'s fragments (purging deleted cells).
    pub fn consolidate(&self, array: &Path, purge: bool) {
        if purge {
            self.run(&["consolidate", p(array), "purge"]);
        } else {
            self.run(&["consolidate", p(array)]);
        }
    }

    /// Fragments the readers see; ours and the engine's agree.
    pub fn fragment_count(&self, array: &Path) -> usize {
        let (ours, _) = our_read(array, None);
        let (theirs, _) = self.read(array, None);
        assert_eq!(ours, theirs, "{}: fragment counts", array.display());
        ours
    }
}

/// A path as the scripts take it.
pub fn p(a: &Path) -> &str {
    a.to_str().unwrap()
}

fn cells_of(v: &Value) -> (usize, Vec<Cell>) {
    let cells = v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c[0].as_i64().unwrap(),
                c[1].as_i64().unwrap() as i32,
                c[2].as_str().unwrap().to_string(),
            )
        })
        .collect();
    (v["fragments"].as_u64().unwrap() as usize, cells)
}

/// Our read of `array` (opened at `t`): fragment count and cells.
pub fn our_read(array: &Path, t: Option<u64>) -> (usize, Vec<Cell>) {
    let r = ArrayReader::open_at(array, t.map(|t| (0, t)), &ReadOptions::default()).unwrap();
    let c = r.read(&Query::new()).unwrap();
    let (d, a, s) = (
        c.column("d").unwrap(),
        c.column("a").unwrap(),
        c.column("s").unwrap(),
    );
    let mut cells: Vec<Cell> = (0..c.len)
        .map(|i| {
            (
                i64::from_le_bytes(d.get(i).unwrap().try_into().unwrap()),
                i32::from_le_bytes(a.get(i).unwrap().try_into().unwrap()),
                String::from_utf8(s.get(i).unwrap().to_vec()).unwrap(),
            )
        })
        .collect();
    cells.sort();
    let all = ArrayReader::open(array, &ReadOptions::default()).unwrap();
    (all.fragments.len(), cells)
}

/// Our consolidation of `array`'s fragments, which must write one.
pub fn ours_consolidate(array: &Path, purge: bool) {
    let opts = {
        let mut lit = ConsolidateOptions::default();
        lit.purge_deleted_cells = purge;
        lit
    };
    let r = consolidate_fragments(array, &opts).unwrap();
    assert!(
        r.written.is_some(),
        "{}: nothing consolidated",
        array.display()
    );
}
