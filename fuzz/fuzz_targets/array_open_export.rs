//! Whole arrays with one file damaged: a few small fixture arrays are copied
//! once into a temporary folder; each input rewrites, truncates, patches or
//! deletes one of their files, then the array is inspected, read (whole,
//! then a box over the lower half of the cells' span, which cuts tiles)
//! and exported, and verified, and the file is put back.
//!
//! Input: fixture (u8, index into `OPEN_FIXTURES`), file (u16 LE, index
//! into the fixture's files in `array_files` order), mode (u8, % 5: 0
//! replace the file with the payload, 1 truncate it at the offset, 2 write
//! the payload at the offset, 3 delete it, 4 replace it with an unfiltered
//! generic tile holding the payload, so that schemas, metadata and delete
//! conditions the fuzzer makes get past compression), offset (u32 LE,
//! modulo the file's length + 1), payload.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use tiledb_codec_fuzz::{copy_open_fixtures, open_export, process_temp_dir, OpenArray};

fn arrays() -> &'static [OpenArray] {
    static ARRAYS: OnceLock<Vec<OpenArray>> = OnceLock::new();
    ARRAYS.get_or_init(|| {
        let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures");
        // The folder's lock lives as long as the fuzzer: the next run
        // removes the folder.
        let (tmp, lock) = process_temp_dir("tiledb-codec-fuzz-");
        std::mem::forget(lock);
        copy_open_fixtures(&src, &tmp)
    })
}

fuzz_target!(|data: &[u8]| open_export(arrays(), data));
