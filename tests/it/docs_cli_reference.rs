//! `docs/cli-reference.md` is generated from the command line's own help
//! (clap's `--help` of every command and subcommand of the binary), and
//! this test fails when the committed page and the binary disagree: a
//! changed option, text or command shows as a failing diff. Regenerate
//! with
//!
//! ```sh
//! UPDATE_DOCS=1 cargo test -p tiledb-codec-cli --all-features --test it -- docs_cli_reference
//! ```
//!
//! The page documents the binary with every feature (`sql`, `ballista`):
//! a build without them checks only the sections of the commands it has.

use std::process::Command;

use crate::common::root;

const PAGE: &str = "docs/cli-reference.md";

const HEADER: &str = "# Command-line reference

<!-- Generated from `tiledb-codec --help` and the `--help` of every command
     (clap) by tests/it/docs_cli_reference.rs; do not edit by hand. After a
     change to the command line, regenerate it with
     `UPDATE_DOCS=1 cargo test -p tiledb-codec-cli --all-features --test it -- docs_cli_reference`. -->

Every command and subcommand of `tiledb-codec` (built with the features
`datafusion` and `ballista`), with its options, as `--help` prints them.
The [command-line guide](cli.md) explains them with examples.
";

/// The `--help` text of `tiledb-codec ARGS... --help`.
fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tiledb-codec"))
        .args(args)
        .arg("--help")
        .env("COLUMNS", "100")
        .env_remove("TILEDB_CODEC_ENCRYPTION_KEY")
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "{args:?} --help failed");
    String::from_utf8(out.stdout).expect("help is UTF-8")
}

/// The subcommands a help text lists under `Commands:` (without `help`).
fn subcommands(help: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in help.lines() {
        if line.starts_with("Commands:") {
            inside = true;
            continue;
        }
        if inside {
            if !line.starts_with("  ") {
                break;
            }
            // A command's line starts at two spaces; wrapped descriptions
            // are indented further.
            if line.starts_with("   ") {
                continue;
            }
            if let Some(name) = line.split_whitespace().next() {
                if name != "help" {
                    out.push(name.to_string());
                }
            }
        }
    }
    out
}

/// One section per command, depth first, in the order `--help` lists them.
fn sections(path: &mut Vec<String>, out: &mut Vec<(String, String)>) {
    let args: Vec<&str> = path.iter().map(String::as_str).collect();
    let text = help(&args);
    let title = if path.is_empty() {
        "tiledb-codec".to_string()
    } else {
        format!("tiledb-codec {}", path.join(" "))
    };
    let hashes = "#".repeat(2 + path.len().min(1));
    out.push((
        title.clone(),
        format!("{hashes} `{title}`\n\n```text\n{}\n```\n", text.trim_end()),
    ));
    for sub in subcommands(&text) {
        path.push(sub);
        sections(path, out);
        path.pop();
    }
}

fn generated() -> (String, Vec<(String, String)>) {
    let mut all = Vec::new();
    sections(&mut Vec::new(), &mut all);
    let mut page = String::from(HEADER);
    for (_, s) in &all {
        page.push('\n');
        page.push_str(s);
    }
    (page, all)
}

#[test]
fn the_command_line_reference_is_the_binarys_help() {
    let (page, sections) = generated();
    assert!(
        sections.len() >= 15,
        "every command has a section: {}",
        sections.len()
    );
    let path = root().join(PAGE);
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, &page).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    let full = cfg!(all(feature = "datafusion", feature = "ballista"));
    if full {
        if committed != page {
            let first = committed
                .lines()
                .zip(page.lines())
                .enumerate()
                .find(|(_, (a, b))| a != b)
                .map(|(i, (a, b))| format!("line {}:\n  docs: {a}\n  help: {b}", i + 1))
                .unwrap_or_else(|| "one is longer than the other".to_string());
            panic!(
                "{PAGE} differs from the binary's --help ({first}); regenerate it with \
                 UPDATE_DOCS=1 cargo test -p tiledb-codec-cli --all-features --test it -- docs_cli_reference"
            );
        }
    } else {
        // Without every feature the binary has fewer commands: each of its
        // sections must still be in the page as it is (the top-level help,
        // which lists the commands, differs and is left out).
        for (title, s) in &sections[1..] {
            assert!(committed.contains(s.as_str()), "{PAGE}: {title} differs");
        }
    }
}

#[test]
fn subcommands_are_read_from_the_commands_list() {
    let text = "Usage: x\n\nCommands:\n  inspect  Show it\n             wrapped\n  meta     Meta\n  help     Print\n\nOptions:\n  -q\n";
    assert_eq!(subcommands(text), ["inspect", "meta"]);
}
