//! Helpers shared by the fuzz targets: how a target turns a few bytes of
//! its input into the arguments a table imports (dimension sizes, attribute
//! counts, datatypes), so that seeds and targets agree on the layout.
//!
//! Every target that uses a prefix documents it; `fuzz/seedgen` writes seeds
//! in the same layouts.

use std::path::Path;

use tiledb_codec::raw::format::{Datatype, Dims};
use tiledb_codec::ReadOptions;

/// The coordinate sizes a fuzzed dimension may have (0: var-sized).
pub const COORD_SIZES: [u64; 5] = [0, 1, 2, 4, 8];

/// Dimensions from a count byte and four size bytes: `n % 5` dimensions,
/// dimension `i` of size `COORD_SIZES[sizes[i] % 5]`.
pub fn dims(n: u8, sizes: [u8; 4]) -> Dims {
    sizes[..usize::from(n % 5)]
        .iter()
        .map(|s| COORD_SIZES[usize::from(*s % 5)])
        .collect()
}

/// The byte that [`dims`] reads for a coordinate size (for seeds).
pub fn size_code(size: u64) -> Option<u8> {
    COORD_SIZES.iter().position(|s| *s == size).map(|i| i as u8)
}

/// A datatype from any byte.
pub fn datatype(b: u8) -> Datatype {
    Datatype::ALL[usize::from(b) % Datatype::ALL.len()]
}

/// The index of a datatype in [`Datatype::ALL`] (for seeds).
pub fn datatype_code(d: Datatype) -> u8 {
    Datatype::ALL.iter().position(|x| *x == d).unwrap_or(0) as u8
}

/// Read options of every target: a decoded tile may take at most 64 MiB.
pub fn opts() -> ReadOptions {
    ReadOptions {
        max_tile_bytes: Some(64 << 20),
        ..Default::default()
    }
}

/// The key the targets use for encrypted tiles.
pub const KEY: [u8; 32] = *b"0123456789abcdeF0123456789abcdeF";

/// The path errors name.
pub fn path(name: &str) -> &Path {
    Path::new(name)
}

/// The arrays `array_open_export` damages, below `tests/fixtures`: dense
/// and sparse, var-sized and nullable fields, deletes, consolidated
/// commits, vacuum files, metadata.
pub const OPEN_FIXTURES: &[&str] = &[
    "v22/sparse_int_2d",
    "v22/dense_int_1d",
    "v22/sparse_delete",
    "v22/consolidated_commits",
    "v16/consolidated_vacuumed",
    "v22/array_metadata",
    "v22/nullable_var_sparse",
    "v16/dense_var_nullable",
];

/// Every file below `root`, relative to it, in the order
/// `array_open_export` numbers them (sorted, depth first).
pub fn array_files(root: &Path) -> Vec<std::path::PathBuf> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        let mut entries: Vec<_> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(root, &p, out);
            } else if let Ok(rel) = p.strip_prefix(root) {
                out.push(rel.to_path_buf());
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out
}
