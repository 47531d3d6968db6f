//! AES-256-GCM encrypted arrays written by the crate: every generic tile
//! (schema, enumerations, fragment metadata, array metadata) is encrypted
//! as the engine encrypts it, every data tile ends its pipeline with the
//! encryption filter, and the engine reads cells and metadata with the key.

use crate::write_support;

use std::io::Cursor;
use std::path::Path;

use serde_json::{json, Value};
use tiledb_codec::raw::array::ArrayDirectory;
use tiledb_codec::raw::filters::encryption::MISSING_KEY;
use tiledb_codec::raw::format::Datatype;
use tiledb_codec::raw::read::{ArrayReader, Query};
use tiledb_codec::raw::write::{
    create_array_with, import_into, import_with, put_metadata_with, CellFormat, CreateOptions,
    ImportOptions, MetadataOptions, WriteOptions,
};
use write_support::{
    common, diff_cells, engine_account_with, engine_cells_with, key_bytes, our_cells_key,
    read_options, TempDir,
};

const KEY: &str = "0123456789abcdeF0123456789abcdeF";

fn import_options(key: &str) -> ImportOptions {
    {
        let mut lit = ImportOptions::default();
        lit.write = WriteOptions::default().with_encryption_key(Some(key_bytes(key)));
        lit
    }
}

fn rows(ndjson: &str) -> Vec<Value> {
    ndjson
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The generic tile header of a file: (encryption type, the serialized
/// filter pipeline).
fn generic_header(file: &Path) -> (u8, Vec<u8>) {
    let b = std::fs::read(file).unwrap();
    let size = u32::from_le_bytes(b[30..34].try_into().unwrap()) as usize;
    (b[29], b[34..34 + size].to_vec())
}

fn only_file(dir: &Path) -> std::path::PathBuf {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    assert_eq!(files.len(), 1, "{}", dir.display());
    files.pop().unwrap()
}

const SPARSE_CELLS: &str = r#"{"x": 5, "s": "b", "v": 1.5, "t": "héllo", "l": [1, 2]}
{"x": 5, "s": "a", "v": -2, "t": null, "l": []}
{"x": 99, "s": "", "v": 0.25, "t": "", "l": [-3]}
"#;

#[test]
fn an_encrypted_sparse_array_reads_back_in_the_engine_and_here() {
    let tmp = TempDir::new("write-enc-sparse");
    let path = tmp.join("a");
    let schema = json!({
        "array_type": "sparse",
        "capacity": 2,
        "dimensions": [
            {"name": "x", "datatype": "INT32", "domain": [0, 99], "tile_extent": 10,
             "filters": [{"type": "ZSTD", "level": 3}]},
            {"name": "s", "datatype": "STRING_ASCII", "cell_val_num": "var", "domain": null, "tile_extent": null,
             "filters": [{"type": "RLE"}]}
        ],
        "attributes": [
            {"name": "v", "datatype": "FLOAT64", "filters": [{"type": "BYTESHUFFLE"}, {"type": "LZ4", "level": -1}]},
            {"name": "t", "datatype": "STRING_UTF8", "cell_val_num": "var", "nullable": true},
            {"name": "l", "datatype": "INT16", "cell_val_num": "var"},
        ],
    });
    let s = import_with(
        &path,
        &schema,
        Cursor::new(SPARSE_CELLS),
        CellFormat::Ndjson,
        &import_options(KEY),
    )
    .unwrap();
    assert_eq!(s.cells, 3);
    let meta = {
        let mut lit = MetadataOptions::default();
        lit.encryption_key = Some(key_bytes(KEY));
        lit
    };
    put_metadata_with(&path, "k", Datatype::Int32, &7i32.to_le_bytes(), &meta).unwrap();

    let want = rows(SPARSE_CELLS);
    assert_eq!(
        diff_cells(engine_cells_with(&path, Some(KEY)).unwrap(), want.clone()),
        None
    );
    assert_eq!(
        diff_cells(our_cells_key(&path, Some(KEY)).unwrap(), want),
        None
    );
    let acc = engine_account_with(&path, Some(KEY)).unwrap();
    assert_eq!(acc["metadata"], json!({"k": 7}));

    // Without the key neither the engine nor this crate opens it.
    let e = engine_cells_with(&path, None).unwrap_err();
    assert!(e.contains("AES_256_GCM"), "{e}");
    let Err(e) = ArrayReader::open(&path, &Default::default()) else {
        panic!("opened without the key")
    };
    assert!(e.to_string().contains(MISSING_KEY), "{e}");
    // With another key, the tags do not verify.
    let other = "another key of thirty-two bytes!";
    assert!(ArrayReader::open(&path, &read_options(Some(other))).is_err());
}

/// Our generic tiles carry the same encryption type and the same serialized
/// filter pipeline (GZIP level 1, then AES_256_GCM without options) as the
/// engine's, file by file.
#[test]
fn generic_tile_headers_match_the_engines() {
    let fixture = common::root().join("tests/fixtures/v22/encrypted_aes256gcm");
    let tmp = TempDir::new("write-enc-headers");
    let path = tmp.join("a");
    let schema = write_support::schema_json_with_enumerations_key(&fixture, Some(KEY));
    let (_, cells) = write_support::ndjson_cells_key(&fixture, Some(KEY)).unwrap();
    import_with(
        &path,
        &schema,
        Cursor::new(cells),
        CellFormat::Ndjson,
        &import_options(KEY),
    )
    .unwrap();
    let meta = {
        let mut lit = MetadataOptions::default();
        lit.encryption_key = Some(key_bytes(KEY));
        lit
    };
    put_metadata_with(&path, "k", Datatype::Int32, &7i32.to_le_bytes(), &meta).unwrap();

    let theirs = ArrayDirectory::open(&fixture).unwrap();
    let ours = ArrayDirectory::open(&path).unwrap();
    let pairs = [
        (
            only_file(&fixture.join("__schema")),
            only_file(&path.join("__schema")),
        ),
        (
            only_file(&fixture.join("__meta")),
            only_file(&path.join("__meta")),
        ),
        (
            theirs.fragments[0].path.join("__fragment_metadata.tdb"),
            ours.fragments[0].path.join("__fragment_metadata.tdb"),
        ),
    ];
    for (t, o) in pairs {
        let (te, tp) = generic_header(&t);
        assert_eq!(te, 1, "the engine's {} is AES_256_GCM", t.display());
        assert_eq!(generic_header(&o), (te, tp), "{}", o.display());
    }
}

/// A dense array with enumerations: enumeration files are encrypted too.
#[test]
fn an_encrypted_dense_array_with_enumerations() {
    let tmp = TempDir::new("write-enc-dense");
    let path = tmp.join("a");
    let schema = json!({
        "array_type": "dense",
        "dimensions": [
            {"name": "r", "datatype": "INT64", "domain": [1, 4], "tile_extent": 2},
            {"name": "c", "datatype": "INT64", "domain": [1, 4], "tile_extent": 2}
        ],
        "attributes": [
            {"name": "a", "datatype": "INT32", "fill_value": -1, "filters": [{"type": "ZSTD", "level": 1}]},
            {"name": "n", "datatype": "UINT8", "nullable": true, "enumeration": "colors"},
        ],
        "enumerations": [
            {"name": "colors", "datatype": "STRING_UTF8", "cell_val_num": "var", "ordered": false,
             "values": ["red", "green", "blue"]}
        ],
    });
    let mut cells = String::new();
    for r in 1..=2 {
        for c in 1..=3 {
            let n = if c == 2 {
                Value::Null
            } else {
                json!((r + c) % 3)
            };
            cells.push_str(&json!({"r": r, "c": c, "a": r * 10 + c, "n": n}).to_string());
            cells.push('\n');
        }
    }
    let create = CreateOptions::default().with_encryption_key(Some(key_bytes(KEY)));
    create_array_with(&path, &schema, &create).unwrap();
    let enum_file = only_file(&path.join("__schema/__enumerations"));
    assert_eq!(generic_header(&enum_file).0, 1);
    import_into(
        &path,
        Cursor::new(cells.clone()),
        CellFormat::Ndjson,
        &import_options(KEY),
    )
    .unwrap();
    let want = rows(&cells);
    let engine: Vec<Value> = engine_cells_with(&path, Some(KEY))
        .unwrap()
        .into_iter()
        .filter(|c| c["a"] != json!(-1))
        .collect();
    assert_eq!(diff_cells(engine, want.clone()), None);
    let acc = engine_account_with(&path, Some(KEY)).unwrap();
    assert!(
        acc["schema"]["enumerations"].to_string().contains("green"),
        "{}",
        acc["schema"]
    );
    let ours = ArrayReader::open(&path, &read_options(Some(KEY)))
        .unwrap()
        .read(&Query::default())
        .unwrap();
    let ours: Vec<Value> = (0..ours.len)
        .map(|i| ours.row(i))
        .filter(|c| c["a"] != json!(-1))
        .collect();
    assert_eq!(diff_cells(ours, want), None);
}

/// Writing into an encrypted array needs its key: without it nothing is
/// written; with it, the new fragment joins the engine's own.
#[test]
fn writing_into_the_engines_encrypted_array() {
    let fixture = common::root().join("tests/fixtures/v22/encrypted_aes256gcm");
    let tmp = TempDir::new("write-enc-existing");
    let path = tmp.join("a");
    write_support::common::copy_dir(&fixture, &path);
    let cell = r#"{"x": 7, "y": 2, "a": 70, "s": "seven"}"#;
    let e = import_into(
        &path,
        Cursor::new(cell),
        CellFormat::Ndjson,
        &ImportOptions::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains(MISSING_KEY), "{e}");
    assert_eq!(ArrayDirectory::open(&path).unwrap().fragments.len(), 2);

    import_into(
        &path,
        Cursor::new(cell),
        CellFormat::Ndjson,
        &import_options(KEY),
    )
    .unwrap();
    let mut want = engine_cells_with(&fixture, Some(KEY)).unwrap();
    want.push(serde_json::from_str(cell).unwrap());
    assert_eq!(
        diff_cells(engine_cells_with(&path, Some(KEY)).unwrap(), want.clone()),
        None
    );
    assert_eq!(
        diff_cells(our_cells_key(&path, Some(KEY)).unwrap(), want),
        None
    );
}
