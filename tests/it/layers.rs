//! The layering check (`.ci/layers.py`): the library passes it, and an
//! import against the layer order or in a circle, planted in a copy of
//! `src/`, fails it naming the import.

use std::path::Path;
use std::process::{Command, Output};

use crate::common;

fn check(src: &Path, allowed: &Path) -> Output {
    Command::new("python3")
        .arg(common::root().join(".ci/layers.py"))
        .arg("--src")
        .arg(src)
        .arg("--allowed")
        .arg(allowed)
        .output()
        .expect("python3 runs")
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// A copy of `src/` with `line` added to the end of `file` (below `src/`).
fn planted(dir: &Path, file: &str, line: &str) -> std::path::PathBuf {
    let src = dir.join("src");
    copy_tree(&common::root().join("src"), &src);
    let path = src.join(file);
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str(line);
    std::fs::write(&path, text).unwrap();
    src
}

#[test]
fn the_library_keeps_its_layers() {
    let out = check(
        &common::root().join("src"),
        &common::root().join(".ci/layers-allowed.txt"),
    );
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn an_upward_import_fails_the_check() {
    let tmp = tempdir("upward");
    // The format layer reaching up into the reader.
    let src = planted(
        &tmp,
        "format/names.rs",
        "\n#[allow(unused_imports)]\nuse crate::read::ArrayReader;\n",
    );
    let out = check(&src, &common::root().join(".ci/layers-allowed.txt"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "planted import passed: {err}");
    assert!(err.contains("format::names -> read::reader"), "{err}");
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn a_circle_within_a_layer_fails_the_check() {
    let tmp = tempdir("circle");
    // `read::query` is used by the sparse reader; using it back is a circle.
    let src = planted(
        &tmp,
        "read/query.rs",
        "\nfn _planted() {\n    let _ = crate::read::plan_sparse::intersect_ranges;\n}\n",
    );
    let out = check(&src, &common::root().join(".ci/layers-allowed.txt"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "planted circle passed: {err}");
    assert!(
        err.contains("read::query -> read::plan_sparse  (circle)"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&tmp);
}

fn tempdir(what: &str) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("tiledb-codec-layers-{what}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}
