//! The book (`docs/`) and the repository's top-level documents are checked
//! here, as `.ci/run`'s "docs/ builds" step: every relative link and
//! anchor resolves, every `sh` block of the command line's chapter runs,
//! and the benchmark chapter is what `bench/report.py` makes of the runs'
//! JSON. (The command-line reference is checked against `--help` in
//! `docs_cli_reference.rs`; the Rust blocks are doctests of the library,
//! the Python blocks a pytest of the package.)

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{root, scratch};

/// The Markdown files whose links must resolve: the top-level documents
/// and every page of the book.
pub(crate) fn documents() -> Vec<PathBuf> {
    let r = root();
    let mut v: Vec<PathBuf> = [
        "README.md",
        "ARCHITECTURE.md",
        "CONTRIBUTING.md",
        "CHANGELOG.md",
        "SECURITY.md",
    ]
    .iter()
    .map(|p| r.join(p))
    .collect();
    let mut pages: Vec<PathBuf> = std::fs::read_dir(r.join("docs"))
        .expect("docs/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    assert!(pages.len() >= 10, "the book has its chapters: {pages:?}");
    v.extend(pages);
    v
}

/// The fenced code blocks of a Markdown text: (info string, body, line
/// of the opening fence).
pub(crate) fn code_blocks(text: &str) -> Vec<(String, String, usize)> {
    let mut out = Vec::new();
    let mut open: Option<(String, String, usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        match &mut open {
            None => {
                if let Some(info) = t.strip_prefix("```") {
                    let fence = "```".to_string();
                    open = Some((info.trim().to_string(), String::new(), i + 1, fence));
                }
            }
            Some((info, body, at, fence)) => {
                if t.starts_with(fence.as_str()) && t.trim_matches('`').is_empty() {
                    out.push((std::mem::take(info), std::mem::take(body), *at));
                    open = None;
                } else {
                    body.push_str(line);
                    body.push('\n');
                }
            }
        }
    }
    assert!(open.is_none(), "a code block is never closed");
    out
}

/// The text outside code blocks and inline code, line by line (line
/// numbers kept), for the link scan.
fn prose_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut in_block = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block {
            continue;
        }
        // Inline code spans hold no links.
        let mut kept = String::new();
        let mut in_code = false;
        for c in line.chars() {
            if c == '`' {
                in_code = !in_code;
            } else if !in_code {
                kept.push(c);
            }
        }
        out.push((i + 1, kept));
    }
    out
}

/// The targets of the inline links `[text](target)` of one line.
fn link_targets(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("](") {
        let after = &rest[i + 2..];
        match after.find(')') {
            Some(j) => {
                let target = after[..j].split_whitespace().next().unwrap_or("");
                out.push(target.to_string());
                rest = &after[j..];
            }
            None => break,
        }
    }
    out
}

/// GitHub's anchors of a Markdown file's headings: lower case, spaces to
/// `-`, punctuation but `-` and `_` dropped, repeats numbered `-1`, `-2`.
pub(crate) fn anchors(text: &str) -> HashSet<String> {
    let mut seen = HashSet::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            continue;
        }
        if in_block || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim();
        let slug: String = title
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        let mut candidate = slug.clone();
        let mut n = 0;
        while seen.contains(&candidate) {
            n += 1;
            candidate = format!("{slug}-{n}");
        }
        seen.insert(candidate);
    }
    seen
}

/// The broken relative links of one document, as messages.
fn broken_links(doc: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(doc).unwrap();
    let mut broken = Vec::new();
    for (n, line) in prose_lines(&text) {
        for target in link_targets(&line) {
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let file = if path.is_empty() {
                doc.to_path_buf()
            } else {
                doc.parent().unwrap().join(path)
            };
            if !file.exists() {
                broken.push(format!("{}:{n}: {target}: no such file", doc.display()));
                continue;
            }
            if let Some(a) = anchor {
                let is_md = file.extension().is_some_and(|e| e == "md");
                let text = if is_md {
                    std::fs::read_to_string(&file).unwrap()
                } else {
                    String::new()
                };
                if !is_md || !anchors(&text).contains(a) {
                    broken.push(format!("{}:{n}: {target}: no heading #{a}", doc.display()));
                }
            }
        }
    }
    broken
}

#[test]
fn every_relative_link_and_anchor_of_the_docs_resolves() {
    let mut broken = Vec::new();
    let mut links = 0;
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        links += prose_lines(&text)
            .iter()
            .map(|(_, l)| link_targets(l).len())
            .sum::<usize>();
        broken.extend(broken_links(&doc));
    }
    assert!(links > 50, "the docs link to each other: {links} links");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_link_check_catches_a_broken_link_and_a_missing_anchor() {
    let dir = scratch("docs-links");
    std::fs::write(dir.join("other.md"), "# Other page\n\n## A part\n").unwrap();
    let doc = dir.join("page.md");
    std::fs::write(
        &doc,
        "# Page\n\n[ok](other.md#a-part) [gone](missing.md) [bad](other.md#no-part) \
         [self](#page) `[code](not-a-link.md)`\n\n```\n[block](nor-this.md)\n```\n",
    )
    .unwrap();
    let broken = broken_links(&doc);
    assert_eq!(broken.len(), 2, "{broken:?}");
    assert!(broken[0].contains("missing.md: no such file"), "{broken:?}");
    assert!(
        broken[1].contains("other.md#no-part: no heading"),
        "{broken:?}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn github_anchors_follow_its_rules() {
    let a = anchors(
        "# Object stores and credentials\n## `Array::open`, the door\n## Tests\n## Tests\n",
    );
    for want in [
        "object-stores-and-credentials",
        "arrayopen-the-door",
        "tests",
        "tests-1",
    ] {
        assert!(a.contains(want), "{want} in {a:?}");
    }
}

/// Runs the `sh` blocks of a chapter in order, each as a bash script with
/// `set -euo pipefail`, in one scratch folder where `tests/` is the
/// repository's tests folder and `tiledb-codec` the binary under test.
/// Blocks fenced as `sh` run; `console` or `text` blocks are shown only
/// (those that need a server or a cluster).
#[cfg_attr(not(feature = "datafusion"), allow(dead_code))]
pub(crate) fn run_sh_blocks(chapter: &str) -> usize {
    let r = root();
    let text = std::fs::read_to_string(r.join(chapter)).unwrap();
    let dir = scratch("docs-sh");
    std::os::unix::fs::symlink(r.join("tests"), dir.join("tests")).unwrap();
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_tiledb-codec"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for (info, body, line) in code_blocks(&text) {
        if info != "sh" {
            continue;
        }
        let out = Command::new("bash")
            .arg("-c")
            .arg(format!("set -euo pipefail\n{body}"))
            .current_dir(&dir)
            .env("PATH", &path)
            .env_remove("TILEDB_CODEC_ENCRYPTION_KEY")
            .output()
            .expect("bash runs");
        assert!(
            out.status.success(),
            "{chapter}:{line}: the block failed ({}):\n{body}\nstdout:\n{}\nstderr:\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        ran += 1;
    }
    let _ = std::fs::remove_dir_all(dir);
    ran
}

/// The chapter's SQL examples need the `sql` command (feature `datafusion`).
#[cfg(feature = "datafusion")]
#[test]
fn the_command_line_chapters_examples_run() {
    let ran = run_sh_blocks("docs/cli.md");
    assert!(ran >= 8, "docs/cli.md has its examples: {ran} blocks ran");
}

#[test]
fn the_benchmark_chapter_is_what_the_report_script_makes_of_the_runs() {
    let out = Command::new("python3")
        .arg(root().join("bench/report.py"))
        .arg("--check")
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(root().join("docs/benchmarks.md")).unwrap();
    assert!(
        text.matches("\n### ").count() >= 2,
        "one table per run, at least the read and S3 runs"
    );
}

/// The words of a text that look like commit hashes: 7 to 12 or 40 hex
/// digits, with both a digit and a letter (fragment UUIDs are 32).
fn commit_hashes(text: &str) -> Vec<&str> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| matches!(w.len(), 7..=12 | 40))
        .filter(|w| {
            w.chars()
                .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
        })
        .filter(|w| {
            w.chars().any(|c| c.is_ascii_digit()) && w.chars().any(|c| c.is_ascii_alphabetic())
        })
        .collect()
}

#[test]
fn the_readme_is_short_and_the_docs_cite_no_commits() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= 300,
        "README.md has {lines} lines; the book takes the rest"
    );
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        let found = commit_hashes(&text);
        assert!(
            found.is_empty(),
            "{} cites commits {found:?}: docs are for users",
            doc.display()
        );
    }
    assert_eq!(
        commit_hashes(
            "fixed in 31a3e87, fragment __1_1_2ef5bb6d10cce6b63fe1a1812854cf64_22, 1234567"
        ),
        ["31a3e87"]
    );
}
