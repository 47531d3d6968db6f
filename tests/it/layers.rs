//! The layering check (`.ci/layers.py`): the library passes it, and an
//! import against the layer order or in a circle, planted in a copy of
//! `src/`, fails it naming the import; likewise `.ci/versions.py`, which
//! keeps hand-written format-version gates out of `src/`.

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
    assert!(err.contains("format::names -> read::array_reader"), "{err}");
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn a_circle_within_a_layer_fails_the_check() {
    let tmp = tempdir("circle");
    // `read::query` is used by the sparse reader; using it back is a circle.
    let src = planted(
        &tmp,
        "read/query.rs",
        "\nfn _planted() {\n    let _ = crate::read::sparse::select::intersect_ranges;\n}\n",
    );
    let out = check(&src, &common::root().join(".ci/layers-allowed.txt"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "planted circle passed: {err}");
    assert!(
        err.contains("read::query -> read::sparse::select  (circle)"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&tmp);
}

fn tempdir(what: &str) -> std::path::PathBuf {
    let dir = crate::common::temp_root()
        .join(format!("tiledb-codec-layers-{what}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// `.ci/versions.py` over `src`.
fn check_versions(src: &Path) -> Output {
    Command::new("python3")
        .arg(common::root().join(".ci/versions.py"))
        .arg("--src")
        .arg(src)
        .output()
        .expect("python3 runs")
}

#[test]
fn the_library_has_no_hand_written_version_gate() {
    let out = check_versions(&common::root().join("src"));
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_hand_written_version_gate_fails_the_check() {
    for (tag, line, what) in [
        (
            "gate",
            "\nfn _planted(version: u32) -> bool {\n    version >= 12\n}\n",
            "format-version comparison: version >= 12",
        ),
        (
            "method",
            "\nfn _planted(f: &crate::array::Fragment) -> bool {\n    5 > f.version()\n}\n",
            "format-version comparison: 5 > f.version()",
        ),
        (
            "constant",
            "\nconst DELETES_MIN_VERSION: u32 = 16;\n",
            "format-version constant",
        ),
        (
            "guard",
            "\nfn _planted(k: Option<u32>) -> bool {\n    matches!(k, Some(v) if v >= 19)\n}\n",
            "format-version comparison of a short name",
        ),
    ] {
        let tmp = tempdir(&format!("versions-{tag}"));
        let src = planted(&tmp, "read/sparse/select.rs", line);
        let out = check_versions(&src);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "planted {tag} passed: {err}");
        assert!(err.contains("src/read/sparse/select.rs:"), "{err}");
        assert!(err.contains(what), "{err}");
        let _ = std::fs::remove_dir_all(&tmp);
    }
    // In a comment or a string it is no gate.
    let tmp = tempdir("versions-comment");
    let src = planted(
        &tmp,
        "read/sparse/select.rs",
        "\n// version >= 12\nconst _PLANTED: &str = \"version < 5\";\n",
    );
    let out = check_versions(&src);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&tmp);
}
