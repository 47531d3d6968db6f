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
    ReadOptions::default().with_max_tile_bytes(64 << 20)
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

/// A query over the lower half of the span of `cells` on each INT32 and
/// INT64 dimension among its columns.
fn lower_half(cells: &tiledb_codec::raw::read::Cells) -> tiledb_codec::raw::read::Query {
    use tiledb_codec::raw::format::Datatype;
    use tiledb_codec::raw::read::{DimRange, Query};
    let mut q = Query::default();
    for c in &cells.columns {
        let f = &c.field;
        let w = match f.datatype {
            Datatype::Int64 => 8,
            Datatype::Int32 => 4,
            _ => continue,
        };
        if !f.is_dimension || f.cell_val_num != Some(1) {
            continue;
        }
        let values = c.data().chunks_exact(w).map(|b| match b.len() {
            8 => i64::from_le_bytes(b.try_into().unwrap()),
            _ => i64::from(i32::from_le_bytes(b.try_into().unwrap())),
        });
        let (lo, hi) = values.fold((i64::MAX, i64::MIN), |(l, h), v| (l.min(v), h.max(v)));
        if lo > hi {
            continue;
        }
        let mid = lo + (hi - lo) / 2;
        if let Ok(r) = DimRange::parse(f.datatype, &format!("{lo}:{mid}")) {
            q = q.range(&f.name, r);
        }
    }
    q
}

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

/// A fixture array of [`OPEN_FIXTURES`] copied where `array_open_export`
/// damages it: its folder, and every file of it (in [`array_files`]
/// order) with its bytes.
pub struct OpenArray {
    /// The copy's folder.
    pub root: std::path::PathBuf,
    /// Every file of the copy and its original bytes.
    pub files: Vec<(std::path::PathBuf, Vec<u8>)>,
}

/// Copies the [`OPEN_FIXTURES`] of `fixtures` (the repository's
/// `tests/fixtures`) into `into`.
pub fn copy_open_fixtures(fixtures: &Path, into: &Path) -> Vec<OpenArray> {
    OPEN_FIXTURES
        .iter()
        .map(|f| {
            let root = into.join(f);
            let files = array_files(&fixtures.join(f))
                .into_iter()
                .map(|rel| {
                    let bytes = std::fs::read(fixtures.join(f).join(&rel)).unwrap();
                    let dest = root.join(&rel);
                    std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
                    std::fs::write(&dest, &bytes).unwrap();
                    (dest, bytes)
                })
                .collect();
            OpenArray { root, files }
        })
        .collect()
}

/// One input of `array_open_export` (its layout is documented there):
/// damages one file of one of `arrays`, inspects, reads (whole, then a
/// box), exports and verifies that array, then puts the file back. The
/// fuzz target and the replay of saved crash inputs (tests/it/sweep.rs)
/// both run this.
pub fn open_export(arrays: &[OpenArray], data: &[u8]) {
    use tiledb_codec::raw::read::{export, ArrayReader, Query};
    use tiledb_codec::raw::tile::write_generic_tile;
    if data.len() < 8 || arrays.is_empty() {
        return;
    }
    let array = &arrays[usize::from(data[0]) % arrays.len()];
    let which = usize::from(u16::from_le_bytes([data[1], data[2]])) % array.files.len();
    let (path, original) = &array.files[which];
    let mode = data[3] % 5;
    let at =
        u32::from_le_bytes([data[4], data[5], data[6], data[7]]) as usize % (original.len() + 1);
    let payload = &data[8..];
    match mode {
        0 => std::fs::write(path, payload).unwrap(),
        1 => std::fs::write(path, &original[..at]).unwrap(),
        2 => {
            let mut bytes = original.clone();
            let end = at + payload.len();
            if end > bytes.len() {
                bytes.resize(end, 0);
            }
            bytes[at..end].copy_from_slice(payload);
            std::fs::write(path, bytes).unwrap();
        }
        3 => std::fs::remove_file(path).unwrap(),
        _ => {
            // The generic tile version of the file it replaces.
            let version = original
                .get(..4)
                .map_or(22, |v| u32::from_le_bytes(v.try_into().unwrap()));
            std::fs::write(path, write_generic_tile(payload, version)).unwrap();
        }
    }

    // Inspects (the array, and the damaged file unless it was deleted),
    // reads and exports, and verifies the array.
    let root = &array.root;
    let opts = opts();
    let _ = tiledb_codec_cli::inspect::inspect_json(root, &opts);
    if mode != 3 {
        let _ = tiledb_codec_cli::inspect::inspect_json(path, &opts);
    }
    if let Ok(reader) = ArrayReader::open(root, &opts) {
        if let Ok(cells) = reader.read(&Query::default()) {
            let _ = export::write_ndjson(&cells, &mut std::io::sink());
            let _ = export::write_csv(&cells, &mut std::io::sink());
            let _ = export::summarize(&cells);
            // A box over the lower half of the cells' span on each
            // integer dimension: tiles cut, read dimension by dimension.
            let _ = reader.read(&lower_half(&cells));
        }
    }
    let _ = tiledb_codec_cli::verify::verify(root, &opts);
    std::fs::write(path, original).unwrap();
}

/// A folder of this process under the temporary directory,
/// `<prefix><pid>`, with a file in it locked while the returned handle
/// lives (keep it for the process's life). First removes the folders of
/// earlier processes with the same prefix whose lock nobody holds: a
/// fuzzer or a test harness ends without a hook to remove its own, so
/// that at most the last one's stays behind.
pub fn process_temp_dir(prefix: &str) -> (std::path::PathBuf, std::fs::File) {
    const LOCK: &str = ".owner.lock";
    let tmp = std::env::temp_dir();
    for entry in std::fs::read_dir(&tmp).into_iter().flatten().flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        // Folders still being made end in `.partial` and are left alone.
        if !name.starts_with(prefix) || name.ends_with(".partial") {
            continue;
        }
        let free = match std::fs::File::open(entry.path().join(LOCK)) {
            Ok(lock) => lock.try_lock().is_ok(),
            Err(_) => true,
        };
        if free {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
    // Made under a name the sweep skips, locked, then renamed into place.
    let root = tmp.join(format!("{prefix}{}", std::process::id()));
    let partial = root.with_extension("partial");
    let _ = std::fs::remove_dir_all(&root);
    let _ = std::fs::remove_dir_all(&partial);
    std::fs::create_dir_all(&partial).expect("the temporary directory is writable");
    let lock = std::fs::File::create(partial.join(LOCK)).expect("the lock file is made");
    lock.try_lock().expect("a new lock file is free");
    std::fs::rename(&partial, &root).expect("the folder is renamed into place");
    (root, lock)
}
