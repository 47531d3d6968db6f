//! Helpers shared by the writer's tests (`tests/write_*.rs`).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;
use tiledb_codec::raw::array::schema::read_schema;
use tiledb_codec::raw::array::ArrayDirectory;
use tiledb_codec::raw::read::{export::write_ndjson, ArrayReader, Query};
use tiledb_codec::ReadOptions;
use tiledb_codec_cli::inspect::array_schema_json;

pub(crate) use crate::common;

// Not every test binary uses every helper.
#[allow(unused_imports)]
pub use common::{same, sorted, try_engine_cells as engine_cells_with};

/// A fresh folder under the system's temporary folder, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> Self {
        static N: AtomicUsize = AtomicUsize::new(0);
        let p = crate::common::temp_root().join(format!(
            "tiledb-codec-{tag}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }

    pub fn join(&self, p: &str) -> PathBuf {
        self.0.join(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if std::env::var_os("KEEP_TEMP").is_none() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Read options with the key of an encrypted array (32 characters).
pub fn read_options(key: Option<&str>) -> ReadOptions {
    ReadOptions::default().with_encryption_key(key.map(key_bytes))
}

/// A key as TileDB's `sm.encryption_key` takes it: the bytes of 32 characters.
pub fn key_bytes(key: &str) -> [u8; 32] {
    key.as_bytes().try_into().expect("a key of 32 bytes")
}

/// The engine's full read of an array (`engine_account.py --cells`), or its
/// error output.
pub fn engine_cells(path: &Path) -> Result<Vec<Value>, String> {
    common::try_engine_cells(path, None)
}

/// The engine's account of an array (schema, fragments, metadata).
pub fn engine_account(path: &Path) -> Result<Value, String> {
    engine_account_with(path, None)
}

/// [`engine_account`] of an array encrypted with `key`.
pub fn engine_account_with(path: &Path, key: Option<&str>) -> Result<Value, String> {
    let mut args = vec![path.as_os_str()];
    if let Some(k) = key {
        args.extend([std::ffi::OsStr::new("--key"), std::ffi::OsStr::new(k)]);
    }
    let out = common::engine_run("engine_account.py", args);
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())
}

/// Compares two reads as sorted lists of rows; `None` when equal.
pub fn diff_cells(a: Vec<Value>, b: Vec<Value>) -> Option<String> {
    let (a, b) = (sorted(a), sorted(b));
    if a.len() != b.len() {
        return Some(format!("{} cells vs {}", a.len(), b.len()));
    }
    a.iter()
        .zip(&b)
        .find(|(x, y)| !same(x, y))
        .map(|(x, y)| format!("{x} vs {y}"))
}

/// The schema JSON of an array with its enumerations' values, as
/// `inspect --json` prints it ([`array_schema_json`]): the shape the writer
/// takes.
pub fn schema_json_with_enumerations(path: &Path) -> Value {
    schema_json_with_enumerations_key(path, None)
}

/// [`schema_json_with_enumerations`] of an array encrypted with `key`.
pub fn schema_json_with_enumerations_key(path: &Path, key: Option<&str>) -> Value {
    let opts = read_options(key);
    let dir = ArrayDirectory::open(path).unwrap();
    let s = read_schema(&dir.latest_schema().unwrap(), &opts).unwrap();
    array_schema_json(path, &s, &opts).unwrap()
}

/// Our reader's cells of an array as NDJSON.
pub fn ndjson_cells(path: &Path) -> Result<(usize, Vec<u8>), String> {
    ndjson_cells_key(path, None)
}

/// [`ndjson_cells`] of an array encrypted with `key`.
pub fn ndjson_cells_key(path: &Path, key: Option<&str>) -> Result<(usize, Vec<u8>), String> {
    let r = ArrayReader::open(path, &read_options(key)).map_err(|e| e.to_string())?;
    let cells = r.read(&Query::default()).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    write_ndjson(&cells, &mut out).unwrap();
    Ok((cells.len, out))
}

/// Our reader's cells as JSON rows.
pub fn our_cells(path: &Path) -> Result<Vec<Value>, String> {
    our_cells_key(path, None)
}

/// [`our_cells`] of an array encrypted with `key`.
pub fn our_cells_key(path: &Path, key: Option<&str>) -> Result<Vec<Value>, String> {
    let r = ArrayReader::open(path, &read_options(key)).map_err(|e| e.to_string())?;
    let cells = r.read(&Query::default()).map_err(|e| e.to_string())?;
    Ok((0..cells.len).map(|i| cells.row(i)).collect())
}

/// The engine's full reads of many arrays in one Python process: each is
/// `engine_account.py PATH --cells` (its `main`, imported), so the engine
/// starts once.
pub fn engine_cells_many(paths: &[PathBuf]) -> Vec<Result<Vec<Value>, String>> {
    let keyed: Vec<(PathBuf, Option<String>)> = paths.iter().map(|p| (p.clone(), None)).collect();
    engine_cells_many_keyed(&keyed)
}

/// [`engine_cells_many`] of arrays each with its key (`None`: not
/// encrypted).
pub fn engine_cells_many_keyed(
    arrays: &[(PathBuf, Option<String>)],
) -> Vec<Result<Vec<Value>, String>> {
    // Arguments come in pairs: the path, then the key or "-".
    const SCRIPT: &str = r#"
import io, json, sys, traceback, contextlib
sys.path.insert(0, sys.argv[1])
import engine_account
args = sys.argv[2:]
for p, k in zip(args[0::2], args[1::2]):
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            extra = [] if k == "-" else ["--key", k]
            rc = engine_account.main([p, "--cells", "--indent", "0"] + extra)
        if rc:
            res = {"error": "exit %s" % rc}
        else:
            res = {"cells": json.loads(out.getvalue())["cells"]}
    except Exception as e:
        res = {"error": "%s: %s" % (type(e).__name__, e)}
    sys.stdout.write(json.dumps(res) + "\n")
    sys.stdout.flush()
"#;
    if arrays.is_empty() {
        return Vec::new();
    }
    // An engine that dies of a signal (TileDB 2.30 aborting on a loaded
    // machine) reads the rest once more in a new process (engine_batch).
    let (lines, stderr) = common::engine_batch(arrays, |arrays| {
        let mut cmd = std::process::Command::new(common::engine_python());
        cmd.arg("-c")
            .arg(SCRIPT)
            .arg(common::root().join("tests/engine"));
        for (p, k) in arrays {
            cmd.arg(p).arg(k.as_deref().unwrap_or("-"));
        }
        cmd.output().expect("the engine's python runs")
    });
    let mut res: Vec<Result<Vec<Value>, String>> = lines
        .iter()
        .map(|l| {
            let v: Value = serde_json::from_str(l).map_err(|e| e.to_string())?;
            match v.get("cells") {
                Some(c) => Ok(c.as_array().cloned().unwrap_or_default()),
                None => Err(v["error"].as_str().unwrap_or("?").to_string()),
            }
        })
        .collect();
    let stopped = format!(
        "the engine stopped: {}",
        stderr.lines().last().unwrap_or("")
    );
    while res.len() < arrays.len() {
        res.push(Err(stopped.clone()));
    }
    res
}
