//! Shared by the integration tests: the fixtures and the TileDB engine.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The TileDB-Py version that judges interop (TileDB 2.30, format 22).
pub const ENGINE_VERSION: &str = "0.36.1";

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
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
    let mut cmd = Command::new(engine_python());
    cmd.arg(root().join("tests/engine/engine_account.py"))
        .arg(path);
    if let Some(k) = key {
        cmd.arg("--key").arg(k);
    }
    let out = cmd.output().expect("the engine's python runs");
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
