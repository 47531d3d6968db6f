//! Shared by the integration tests: the fixtures and the TileDB engine.
#![allow(dead_code)]

mod engine_run;
pub mod faults;
pub mod sql;
pub mod timeline;

pub use engine_run::{engine_batch, engine_run};

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

/// The TileDB-Py version that judges interop (TileDB 2.30, format 22).
pub const ENGINE_VERSION: &str = "0.36.1";

/// The repository's root: these tests belong to the command line's crate
/// (crates/cli) and read the fixtures, spec and scripts there.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One fixture of `tests/fixtures/v*/MANIFEST.json`.
#[derive(Debug, Clone)]
pub struct Fixture {
    /// `v22/dense_int_2d`: the path below `tests/fixtures`.
    pub id: String,
    pub path: PathBuf,
    pub kind: String,
    pub key: Option<String>,
}

/// Every fixture the manifests list, in a stable order.
pub fn fixtures() -> Vec<Fixture> {
    let dir = root().join("tests/fixtures");
    let mut versions: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/fixtures exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("MANIFEST.json").is_file())
        .collect();
    versions.sort();
    let mut out = Vec::new();
    for v in versions {
        let text = std::fs::read_to_string(v.join("MANIFEST.json")).unwrap();
        let manifest: serde_json::Value = serde_json::from_str(&text).unwrap();
        let entries = manifest
            .as_array()
            .cloned()
            .or_else(|| manifest["fixtures"].as_array().cloned())
            .expect("manifest is a list");
        for e in entries {
            let name = e["name"].as_str().unwrap().to_string();
            let vname = v.file_name().unwrap().to_string_lossy().into_owned();
            out.push(Fixture {
                id: format!("{vname}/{name}"),
                path: v.join(&name),
                kind: e["kind"].as_str().unwrap_or("array").to_string(),
                key: e["encrypted_key"].as_str().map(str::to_string),
            });
        }
    }
    assert!(!out.is_empty(), "no fixtures found under {}", dir.display());
    out
}

/// A Python that imports the pinned TileDB-Py: `$TILEDB_PYTHON`, or a venv
/// made on first use under `target/` (tests/engine/make_venv.sh).
pub fn engine_python() -> PathBuf {
    static PY: OnceLock<PathBuf> = OnceLock::new();
    PY.get_or_init(|| {
        if let Ok(p) = std::env::var("TILEDB_PYTHON") {
            return PathBuf::from(p);
        }
        let venv = root()
            .join("target")
            .join(format!("tiledb-py-{ENGINE_VERSION}"));
        let status = Command::new("bash")
            .arg(root().join("tests/engine/make_venv.sh"))
            .arg(ENGINE_VERSION)
            .arg(&venv)
            .status()
            .expect("bash runs");
        assert!(
            status.success(),
            "could not make the TileDB-Py venv at {}",
            venv.display()
        );
        venv.join("bin/python")
    })
    .clone()
}

/// The engine's own account of an array (tests/engine/engine_account.py).
pub fn engine_account(path: &Path, key: Option<&str>) -> serde_json::Value {
    let mut args = vec![path.as_os_str()];
    if let Some(k) = key {
        args.extend([std::ffi::OsStr::new("--key"), std::ffi::OsStr::new(k)]);
    }
    let out = engine_run("engine_account.py", args);
    assert!(
        out.status.success(),
        "engine_account.py failed on {}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("engine_account.py prints JSON")
}

/// Copies a folder tree (a fixture, to be damaged or written into).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// The engine's full read of an array (`engine_account.py --cells`, with
/// the key of an encrypted array), or the last lines of its error output.
/// The bundled fixtures never change (tests copy them before writing), so
/// the engine reads each of them once per test process, whichever tests ask.
pub fn try_engine_cells(path: &Path, key: Option<&str>) -> Result<Vec<serde_json::Value>, String> {
    type Reads = HashMap<(PathBuf, Option<String>), Result<Vec<serde_json::Value>, String>>;
    static FIXTURE_READS: OnceLock<Mutex<Reads>> = OnceLock::new();
    if !path.starts_with(root().join("tests/fixtures")) {
        return run_engine_cells(path, key);
    }
    let cache = FIXTURE_READS.get_or_init(Default::default);
    let k = (path.to_path_buf(), key.map(str::to_owned));
    if let Some(hit) = cache.lock().unwrap().get(&k) {
        return hit.clone();
    }
    let read = run_engine_cells(path, key);
    cache.lock().unwrap().insert(k, read.clone());
    read
}

fn run_engine_cells(path: &Path, key: Option<&str>) -> Result<Vec<serde_json::Value>, String> {
    let mut args = vec![path.as_os_str(), std::ffi::OsStr::new("--cells")];
    if let Some(k) = key {
        args.extend([std::ffi::OsStr::new("--key"), std::ffi::OsStr::new(k)]);
    }
    let out = engine_run("engine_account.py", args);
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
        return Err(lines[lines.len().saturating_sub(4)..].join(" | "));
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())?;
    Ok(v["cells"].as_array().cloned().unwrap_or_default())
}

/// [`try_engine_cells`] of an array the engine must read.
pub fn engine_cells(path: &Path, key: Option<&str>) -> Vec<serde_json::Value> {
    try_engine_cells(path, key).unwrap_or_else(|e| panic!("the engine on {}: {e}", path.display()))
}

/// JSON equality of cells as the engine and this crate spell them: 3 and
/// 3.0 are one number, a one-element list is its element, strings are equal
/// up to trailing NUL bytes (TileDB-Py strips them; the default fill of a
/// var-sized string is one NUL byte).
pub fn same(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::String(x), Value::String(y)) => {
            x.trim_end_matches('\0') == y.trim_end_matches('\0')
        }
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Array(x), y) if x.len() == 1 => same(&x[0], y),
        (x, Value::Array(y)) if y.len() == 1 => same(x, &y[0]),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// Cells in a canonical order (by their JSON text), to compare reads as
/// multisets.
pub fn sorted(mut v: Vec<serde_json::Value>) -> Vec<serde_json::Value> {
    v.sort_by_cached_key(|x| x.to_string());
    v
}

/// The folder of this test process under the temporary directory, which
/// every scratch folder of the tests goes in (`tiledb-codec-tests-<pid>`;
/// the fuzz helpers' `process_temp_dir`: the next run removes it).
pub fn temp_root() -> &'static std::path::Path {
    static ROOT: std::sync::OnceLock<(PathBuf, std::fs::File)> = std::sync::OnceLock::new();
    &ROOT
        .get_or_init(|| crate::fuzz_lib::process_temp_dir("tiledb-codec-tests-"))
        .0
}

/// A fresh, empty folder in [`temp_root`], its name unique in this process
/// (every test module shares one process).
pub fn scratch(tag: &str) -> PathBuf {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = temp_root().join(format!("{tag}-{n}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The `tiledb-codec` binary run with `args`, its output collected.
pub fn cli(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tiledb-codec"))
        .args(args)
        .output()
        .expect("the binary runs")
}
