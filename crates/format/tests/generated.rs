//! `src/generated/` is what `codegen/` makes of `spec/`: this test
//! regenerates it in memory and compares. Run with
//! `TILEDB_CODEC_CODEGEN=write` it rewrites the folder instead.

#[allow(dead_code)]
#[path = "../codegen/generate.rs"]
mod codegen;

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn generated_code_is_fresh() {
    let spec = root().join("spec");
    let out = root().join("src/generated");
    if std::env::var("TILEDB_CODEC_CODEGEN").as_deref() == Ok("write") {
        codegen::write(&spec, &out).unwrap_or_else(|e| panic!("{e}"));
    }
    if let Err(e) = codegen::check(&spec, &out) {
        panic!("{e}");
    }
}

/// A copy of `spec/` in a fresh temporary folder.
fn spec_copy(tag: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("tiledb-codec-format-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for e in std::fs::read_dir(root().join("spec")).unwrap() {
        let p = e.unwrap().path();
        if p.is_file() {
            std::fs::copy(&p, dir.join(p.file_name().unwrap())).unwrap();
        }
    }
    dir
}

fn plant(dir: &Path, file: &str, from: &str, to: &str) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{file} has no {from:?}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn a_planted_spec_edit_makes_the_check_fail_and_name_the_command() {
    let dir = spec_copy("planted");
    // A field's documentation changes: the generated doc comment does too.
    plant(
        &dir,
        "fragment.toml",
        "Before version 10 the schema is",
        "Before version 10 the array schema is",
    );
    let result = codegen::check(&dir, &root().join("src/generated"));
    std::fs::remove_dir_all(&dir).unwrap();
    let msg = result.expect_err("a spec edit without regeneration was not caught");
    assert!(msg.contains("fragment/"), "{msg}");
    assert!(msg.contains(codegen::REGENERATE), "{msg}");
}

#[test]
fn the_unchanged_spec_copy_checks_clean() {
    let dir = spec_copy("clean");
    let result = codegen::check(&dir, &root().join("src/generated"));
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(result, Ok(()));
}

#[test]
fn a_long_part_is_split_at_items_into_files_within_the_line_limit() {
    // 300 items of 5 lines: 1,500 lines, more than one file holds.
    let code: String = (0..300)
        .map(|i| format!("/// Item {i}.\npub struct Item{i} {{\n    a: u8,\n    b: u8,\n}}\n"))
        .collect();
    let files = codegen::split("doc", &code);
    assert!(files.len() >= 2, "{} files", files.len());
    assert_eq!(files[0].0, "doc/item0.rs");
    let mut joined = String::new();
    for (name, text) in &files {
        assert!(text.lines().count() <= codegen::LINE_LIMIT, "{name}");
        let body = text.split_once("\n\n").unwrap().1;
        assert!(
            body.starts_with("/// Item"),
            "{name} does not start at an item"
        );
        joined.push_str(body);
    }
    assert_eq!(joined, code);
    // A part that fits stays one file named after its document.
    assert_eq!(codegen::split("doc", "pub struct A;\n")[0].0, "doc.rs");
}

#[test]
fn every_generated_file_is_within_the_line_limit() {
    for (name, text) in
        codegen::generated_files(&root().join("spec")).unwrap_or_else(|e| panic!("{}", e.msg))
    {
        let n = text.lines().count();
        assert!(
            n <= codegen::LINE_LIMIT,
            "src/generated/{name} has {n} lines, over {}",
            codegen::LINE_LIMIT
        );
    }
}
