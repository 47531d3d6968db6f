//! The command line on damaged arrays: every file of a few fixtures cut in
//! half, zeroed in its middle, or deleted, then `inspect`, `export`, `scan`
//! and `verify` run as processes. Each exits normally, with 0 (the damage
//! did not matter) or 1 with a message; never by a panic (exit 101) or a
//! signal.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

const FIXTURES: &[&str] = &[
    "v22/sparse_int_2d",
    "v22/dense_var_nullable",
    "v22/filters_compressors",
    "v16/sparse_delete",
];

fn files_below(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files_below(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// The damages done to one file: `None` deletes it.
fn damages(original: &[u8]) -> Vec<(&'static str, Option<Vec<u8>>)> {
    let mut half = original.to_vec();
    half.truncate(original.len() / 2);
    let mut zeroed = original.to_vec();
    let mid = original.len() / 2;
    let end = (mid + 16).min(original.len());
    zeroed[mid.saturating_sub(16)..end].fill(0);
    vec![
        ("cut in half", Some(half)),
        ("zeroed in the middle", Some(zeroed)),
        ("deleted", None),
    ]
}

#[test]
fn damaged_arrays_never_end_the_command_line_by_a_panic_or_a_signal() {
    let root =
        crate::common::temp_root().join(format!("tiledb-codec-cli-damage-{}", std::process::id()));
    let mut runs = 0;
    let mut failures = Vec::new();
    for fixture in FIXTURES {
        let dir = root.join(fixture.replace('/', "_"));
        let _ = std::fs::remove_dir_all(&dir);
        common::copy_dir(&common::root().join("tests/fixtures").join(fixture), &dir);
        let mut files = Vec::new();
        files_below(&dir, &mut files);
        files.sort();
        for file in &files {
            let original = std::fs::read(file).unwrap();
            for (what, bytes) in damages(&original) {
                match &bytes {
                    Some(b) => std::fs::write(file, b).unwrap(),
                    None => std::fs::remove_file(file).unwrap(),
                }
                for cmd in ["inspect", "export", "scan", "verify"] {
                    let out = Command::new(env!("CARGO_BIN_EXE_tiledb-codec"))
                        .args([cmd, dir.to_str().unwrap()])
                        .output()
                        .expect("the binary runs");
                    runs += 1;
                    let err = String::from_utf8_lossy(&out.stderr);
                    let case = format!(
                        "{cmd} after {} {what}",
                        file.strip_prefix(&dir).unwrap().display()
                    );
                    match out.status.code() {
                        Some(0) => {}
                        // `verify` prints its report on standard output.
                        Some(1) if cmd == "verify" || err.starts_with("error: ") => {}
                        code => failures.push(format!("{case}: exit {code:?}, stderr: {err}")),
                    }
                    if err.contains("panicked") {
                        failures.push(format!("{case}: {err}"));
                    }
                }
                std::fs::write(file, &original).unwrap();
            }
        }
    }
    let _ = std::fs::remove_dir_all(&root);
    eprintln!("{runs} runs of the command line on damaged arrays");
    assert!(runs > 100, "only {runs} runs");
    assert!(
        failures.is_empty(),
        "{} of {runs} runs ended badly:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
