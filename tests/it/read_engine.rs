//! The cells the reader returns for every fixture equal the TileDB engine's
//! own read of the array (TileDB-Py, run here): dense arrays over their
//! non-empty domain in row-major order, sparse arrays as a multiset.

use crate::common;

use common::{same, sorted};

use tiledb_codec::raw::read::{ArrayReader, Query};
use tiledb_codec::ReadOptions;

#[test]
fn every_fixture_reads_the_engine_cells() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for f in common::fixtures() {
        if f.kind != "array" {
            continue;
        }
        let mut opts = ReadOptions::default();
        if let Some(k) = &f.key {
            opts = opts.with_key(k.as_bytes().try_into().unwrap());
        }
        let ours = match ArrayReader::open(&f.path, &opts)
            .and_then(|r| r.read(&Query::default()).map(|c| (r, c)))
        {
            Ok((_, cells)) => (0..cells.len).map(|i| cells.row(i)).collect::<Vec<_>>(),
            Err(e) => {
                failures.push(format!("{}: {e}", f.id));
                continue;
            }
        };
        let engine = common::engine_cells(&f.path, f.key.as_deref());
        checked += 1;
        let (a, b) = (sorted(ours), sorted(engine));
        if a.len() != b.len() {
            failures.push(format!(
                "{}: {} cells, the engine read {}",
                f.id,
                a.len(),
                b.len()
            ));
            continue;
        }
        if let Some((x, y)) = a.iter().zip(&b).find(|(x, y)| !same(x, y)) {
            failures.push(format!("{}: ours {x} engine {y}", f.id));
        }
    }
    assert!(checked > 20);
    assert!(
        failures.is_empty(),
        "{} of {checked} fixtures differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
