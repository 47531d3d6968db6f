//! Whole arrays with one file damaged: a few small fixture arrays are copied
//! once into a temporary folder; each input rewrites, truncates, patches or
//! deletes one of their files, then the array is inspected, read and
//! exported, and verified, and the file is put back.
//!
//! Input: fixture (u8, index into `OPEN_FIXTURES`), file (u16 LE, index
//! into the fixture's files in `array_files` order), mode (u8, % 5: 0
//! replace the file with the payload, 1 truncate it at the offset, 2 write
//! the payload at the offset, 3 delete it, 4 replace it with an unfiltered
//! generic tile holding the payload, so that schemas, metadata and delete
//! conditions the fuzzer makes get past compression), offset (u32 LE,
//! modulo the file's length + 1), payload.
#![no_main]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tiledb_codec::raw::read::{export, ArrayReader, Query};
use tiledb_codec::raw::tile::write_generic_tile;

struct Array {
    root: PathBuf,
    /// Every file of the array (in `array_files` order) and its bytes.
    files: Vec<(PathBuf, Vec<u8>)>,
}

fn arrays() -> &'static [Array] {
    static ARRAYS: OnceLock<Vec<Array>> = OnceLock::new();
    ARRAYS.get_or_init(|| {
        let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures");
        let tmp = std::env::temp_dir().join(format!("tiledb-codec-fuzz-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        tiledb_codec_fuzz::OPEN_FIXTURES
            .iter()
            .map(|f| {
                let root = tmp.join(f);
                let files = tiledb_codec_fuzz::array_files(&src.join(f))
                    .into_iter()
                    .map(|rel| {
                        let bytes = std::fs::read(src.join(f).join(&rel)).unwrap();
                        let dest = root.join(&rel);
                        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
                        std::fs::write(&dest, &bytes).unwrap();
                        (dest, bytes)
                    })
                    .collect();
                Array { root, files }
            })
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 8 {
        return;
    }
    let arrays = arrays();
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

    exercise(&array.root, path, mode != 3);
    std::fs::write(path, original).unwrap();
});

/// Inspects (the array, and the damaged file unless it was deleted), reads
/// and exports, and verifies the array.
fn exercise(root: &Path, file: &Path, file_exists: bool) {
    let opts = tiledb_codec_fuzz::opts();
    let _ = tiledb_codec::inspect::inspect_json(root, &opts);
    if file_exists {
        let _ = tiledb_codec::inspect::inspect_json(file, &opts);
    }
    if let Ok(cells) = ArrayReader::open(root, &opts).and_then(|r| r.read(&Query::default())) {
        let _ = export::write_ndjson(&cells, &mut std::io::sink());
        let _ = export::write_csv(&cells, &mut std::io::sink());
        let _ = export::summarize(&cells);
    }
    let _ = tiledb_codec::verify::verify(root, &opts);
}
