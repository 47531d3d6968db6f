//! The files of `src/generated/`: each spec document's part, formatted and
//! split at item boundaries so that no file is over [`LINE_LIMIT`] lines
//! (a document that does not fit becomes a folder of files, each named
//! after its first item), and `all.rs`, which includes them in order. All
//! of them are included into one module, so a split changes no path.

use std::fmt::Write as _;
use std::path::Path;

use super::{generate_parts, records, Res};

/// The header of every generated file.
const HEADER: &str = "// @generated from spec/ by crates/format/codegen (the test `generated`).\n// Do not edit: edit spec/ and run\n//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated\n\n";

/// The command that regenerates `src/generated/`.
pub(crate) const REGENERATE: &str =
    "TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated";

/// The most lines a file of the project's `src/` may have, generated
/// files included.
pub(crate) const LINE_LIMIT: usize = 1000;

/// Whether `line` (of prettyplease output) opens a top-level item after
/// `prev`, the line before it, closed one.
fn item_starts(prev: &str, line: &str) -> bool {
    let opens = line
        .chars()
        .next()
        .is_some_and(|c| !c.is_whitespace() && !matches!(c, '}' | ')' | ']'));
    let closed = !prev.starts_with(char::is_whitespace)
        && !prev.starts_with("//")
        && !prev.starts_with('#')
        && (prev.ends_with('}') || prev.ends_with(';'));
    opens && closed
}

/// The name of the first item of `lines`, in snake case.
fn first_name(lines: &[&str]) -> Option<String> {
    const KEYS: &[&str] = &[
        "pub struct ",
        "pub enum ",
        "pub const ",
        "pub static ",
        "pub fn ",
        "pub type ",
        "macro_rules! ",
        "impl ",
    ];
    lines.iter().find_map(|l| {
        let rest = KEYS.iter().find_map(|k| l.strip_prefix(k))?;
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        // `impl crate::Trait for X` names no item of the document.
        let path = rest[name.len()..].starts_with("::");
        (!name.is_empty() && !path).then(|| snake(&name))
    })
}

fn snake(name: &str) -> String {
    if !name.chars().any(char::is_lowercase) {
        return name.to_lowercase();
    }
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 && !out.ends_with('_') {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Splits the formatted `code` of part `stem` into files of at most
/// `LINE_LIMIT` lines with the header: `stem.rs` when it fits, else
/// `stem/<first item>.rs` per group of whole items. An item longer than
/// the limit stays whole (and [`check`] reports its file).
pub(crate) fn split(stem: &str, code: &str) -> Vec<(String, String)> {
    let body = LINE_LIMIT - HEADER.lines().count();
    let lines: Vec<&str> = code.lines().collect();
    if lines.len() <= body {
        return vec![(format!("{stem}.rs"), format!("{HEADER}{code}"))];
    }
    let mut starts: Vec<usize> = vec![0];
    starts.extend((1..lines.len()).filter(|&i| item_starts(lines[i - 1], lines[i])));
    starts.push(lines.len());
    let mut chunks: Vec<(usize, usize)> = Vec::new();
    let mut from = 0;
    for w in starts.windows(2) {
        if w[1] - from > body && w[0] > from {
            chunks.push((from, w[0]));
            from = w[0];
        }
    }
    chunks.push((from, lines.len()));
    let mut files: Vec<(String, String)> = Vec::new();
    for (n, (a, b)) in chunks.into_iter().enumerate() {
        let base = first_name(&lines[a..b]).unwrap_or_else(|| format!("part{n}"));
        let mut name = format!("{stem}/{base}.rs");
        if files.iter().any(|(f, _)| *f == name) {
            name = format!("{stem}/{base}_{n}.rs");
        }
        let mut text = String::from(HEADER);
        for l in &lines[a..b] {
            text.push_str(l);
            text.push('\n');
        }
        files.push((name, text));
    }
    files
}

/// Every file of `src/generated/` as the spec in `dir` makes it, formatted
/// by prettyplease: the parts, split by [`split`], and `all.rs`, which
/// includes them in order.
pub(crate) fn generated_files(dir: &Path) -> Res<Vec<(String, String)>> {
    let parts = generate_parts(dir)?;
    let mut all = String::from(HEADER);
    let mut files = Vec::new();
    for p in parts {
        let stem = p.file.trim_end_matches(".rs");
        for (name, text) in split(stem, &records::pretty(&p.code)) {
            writeln!(all, "include!(\"{name}\");").unwrap();
            files.push((name, text));
        }
    }
    files.push(("all.rs".into(), all));
    Ok(files)
}

/// The `.rs` files under `out`, one folder deep, as paths relative to it.
fn existing(out: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(out) else {
        return found;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if e.path().is_dir() {
            for f in std::fs::read_dir(e.path()).into_iter().flatten().flatten() {
                let inner = f.file_name().to_string_lossy().into_owned();
                if inner.ends_with(".rs") {
                    found.push(format!("{name}/{inner}"));
                }
            }
        } else if name.ends_with(".rs") {
            found.push(name);
        }
    }
    found
}

/// Compares `out` (a `src/generated/` folder) with what the spec in `dir`
/// generates: `Err` names the files that differ (or are missing or extra)
/// and the command to run, or a generated file over [`LINE_LIMIT`] lines.
pub(crate) fn check(dir: &Path, out: &Path) -> Result<(), String> {
    let files = generated_files(dir).map_err(|e| format!("{}: {}: {}", e.file, e.place, e.msg))?;
    let long: Vec<String> = files
        .iter()
        .filter(|(_, code)| code.lines().count() > LINE_LIMIT)
        .map(|(name, code)| format!("{name} ({} lines)", code.lines().count()))
        .collect();
    if !long.is_empty() {
        return Err(format!(
            "the generator makes files over the {LINE_LIMIT}-line limit of src/: {}; a single generated item is too long to split (shorten it in codegen/)",
            long.join(", ")
        ));
    }
    let mut stale = Vec::new();
    for (name, code) in &files {
        if std::fs::read_to_string(out.join(name)).ok().as_deref() != Some(code.as_str()) {
            stale.push(name.clone());
        }
    }
    for name in existing(out) {
        if !files.iter().any(|(n, _)| *n == name) {
            stale.push(format!("{name} (not generated any more)"));
        }
    }
    if stale.is_empty() {
        return Ok(());
    }
    Err(format!(
        "src/generated/ is not what spec/ and the generator make (stale: {}); run\n    {REGENERATE}\nand commit the result",
        stale.join(", ")
    ))
}

/// Writes what the spec in `dir` generates into `out`, removing generated
/// files (and emptied folders) that are not generated any more.
pub(crate) fn write(dir: &Path, out: &Path) -> Result<(), String> {
    let files = generated_files(dir).map_err(|e| format!("{}: {}: {}", e.file, e.place, e.msg))?;
    std::fs::create_dir_all(out).map_err(|e| e.to_string())?;
    for name in existing(out) {
        if !files.iter().any(|(n, _)| *n == name) {
            let path = out.join(&name);
            std::fs::remove_file(&path).map_err(|e| e.to_string())?;
            if let Some(parent) = path.parent().filter(|p| *p != out) {
                // Only succeeds when the folder is now empty.
                let _ = std::fs::remove_dir(parent);
            }
        }
    }
    for (name, code) in files {
        let path = out.join(&name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        std::fs::write(path, code).map_err(|e| e.to_string())?;
    }
    Ok(())
}
