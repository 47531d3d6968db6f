//! The command line: export equals the library's read, verify finds a
//! damaged tile, damaged arrays give a message and a non-zero exit, never
//! a panic, and import takes back what export prints.

use crate::common;
use common::{cli, scratch};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tiledb_codec::raw::read::{ArrayReader, Query};
use tiledb_codec::ReadOptions;

/// Runs the command line with `input` on its standard input.
fn cli_stdin(args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_tiledb-codec"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// The standard output of a command that must succeed.
fn ok_stdout(args: &[&str]) -> String {
    let out = cli(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The lines of an export, sorted (fragments may order equal arrays'
/// cells differently only if they differ; sorting keeps the claim to the
/// set of cells).
fn sorted_lines(text: &str) -> Vec<String> {
    let mut v: Vec<String> = text.lines().map(str::to_string).collect();
    v.sort();
    v
}

fn committed_fragments(array: &Path) -> usize {
    std::fs::read_dir(array.join("__commits"))
        .map(|rd| rd.count())
        .unwrap_or(0)
}

fn temp_copy(fixture: &str, tag: &str) -> PathBuf {
    let dir =
        crate::common::temp_root().join(format!("tiledb-codec-cli-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    common::copy_dir(&common::root().join("tests/fixtures").join(fixture), &dir);
    dir
}

#[test]
fn export_prints_what_the_library_reads() {
    let path = common::root().join("tests/fixtures/v22/dense_var_nullable");
    let out = cli(&["export", path.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let cells = ArrayReader::open(&path, &ReadOptions::default())
        .unwrap()
        .read(&Query::default())
        .unwrap();
    assert_eq!(lines.len(), cells.len);
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(l, &cells.row(i), "cell {i}");
    }
    // Keys in schema order: dimensions, then attributes.
    let first = String::from_utf8(cli(&["export", path.to_str().unwrap()]).stdout).unwrap();
    assert!(first.starts_with("{\"d\":"), "{first}");
}

#[test]
fn export_csv_subarray_and_attributes() {
    let path = common::root().join("tests/fixtures/v22/dense_int_2d");
    let out = cli(&[
        "export",
        path.to_str().unwrap(),
        "--format",
        "csv",
        "--attrs",
        "b",
        "--subarray",
        "rows=2:3,cols=2:2",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "rows,cols,b");
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        lines[1].starts_with("2,2,") && lines[2].starts_with("3,2,"),
        "{text}"
    );
    let bad = cli(&["export", path.to_str().unwrap(), "--subarray", "nope=1:2"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no dimension \"nope\""));
}

#[test]
fn verify_passes_an_intact_array_and_reports_a_damaged_tile() {
    let dir = temp_copy("v22/filters_transforms", "verify");
    let ok = cli(&["verify", dir.to_str().unwrap()]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stdout)
    );
    assert!(String::from_utf8_lossy(&ok.stdout).contains(" 0 problems"));
    // Flip a byte inside the data of the checksummed attribute's first tile.
    let frag = std::fs::read_dir(dir.join("__fragments"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let schema = ArrayReader::open(&dir, &ReadOptions::default())
        .unwrap()
        .schema;
    let idx = schema
        .attributes
        .iter()
        .position(|a| a.name == b"checksums")
        .unwrap();
    let file = frag.join(format!("a{idx}.tdb"));
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 3;
    bytes[last] ^= 0x40;
    std::fs::write(&file, bytes).unwrap();
    let bad = cli(&["verify", dir.to_str().unwrap()]);
    let report = String::from_utf8_lossy(&bad.stdout);
    assert_eq!(bad.status.code(), Some(1), "{report}");
    assert!(
        report.contains("CHECKSUM") && report.contains("checksums"),
        "{report}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn damaged_arrays_exit_with_a_message_not_a_panic() {
    let dir = temp_copy("v22/sparse_int_2d", "damage");
    let frag = std::fs::read_dir(dir.join("__fragments"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let meta = frag.join("__fragment_metadata.tdb");
    let len = std::fs::metadata(&meta).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&meta)
        .unwrap()
        .set_len(len / 2)
        .unwrap();
    for cmd in ["inspect", "export", "scan", "verify"] {
        let out = cli(&[cmd, dir.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        let code = out.status.code();
        assert!(
            code == Some(1),
            "{cmd}: exit {:?} (a signal?), stderr {err}",
            code
        );
        assert!(!err.contains("panicked"), "{cmd}: {err}");
        if cmd != "verify" {
            assert!(err.starts_with("error: "), "{cmd}: {err}");
            assert!(
                err.contains("__fragment_metadata.tdb"),
                "{cmd}: the message names the file: {err}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn scan_and_verify_work_on_every_fixture() {
    for f in common::fixtures() {
        if f.kind != "array" {
            continue;
        }
        let mut opts = ReadOptions::default();
        if let Some(k) = &f.key {
            opts = opts.with_key(k.as_bytes().try_into().unwrap());
        }
        let reader = ArrayReader::open(&f.path, &opts).unwrap_or_else(|e| panic!("{}: {e}", f.id));
        let totals = reader
            .scan(None)
            .unwrap_or_else(|e| panic!("{}: scan: {e}", f.id));
        assert_eq!(
            totals.cells == 0,
            reader.fragments.is_empty(),
            "{}: {totals:?}",
            f.id
        );
        let report = tiledb_codec_cli::verify::verify(&f.path, &opts)
            .unwrap_or_else(|e| panic!("{}: verify: {e}", f.id));
        assert!(report.ok(), "{}: {:?}", f.id, report.problems);
        assert_eq!(report.fragments, reader.fragments.len(), "{}", f.id);
    }
}

/// `inspect --json` gives the schema, `export` the cells; `import` of both
/// makes an array whose export is the same, for a dense array with var-sized
/// and nullable attributes (unwritten cells come back as fill values, and
/// are written as such) and a sparse one.
#[test]
fn import_takes_back_what_export_prints() {
    let dir = scratch("import-round-trip");
    for fixture in ["v22/dense_var_nullable", "v22/sparse_strdim"] {
        let src = common::root().join("tests/fixtures").join(fixture);
        let src = src.to_str().unwrap();
        let tag = fixture.replace('/', "_");
        let inspect = dir.join(format!("{tag}.json"));
        std::fs::write(&inspect, ok_stdout(&["inspect", "--json", src])).unwrap();
        // The "schema" object alone, as the help says.
        let whole: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&inspect).unwrap()).unwrap();
        let schema = dir.join(format!("{tag}.schema.json"));
        std::fs::write(&schema, whole["schema"].to_string()).unwrap();
        let cells = ok_stdout(&["export", src]);
        let cells_file = dir.join(format!("{tag}.ndjson"));
        std::fs::write(&cells_file, &cells).unwrap();
        let out = dir.join(&tag);
        let summary = ok_stdout(&[
            "import",
            out.to_str().unwrap(),
            "--schema",
            schema.to_str().unwrap(),
            "--cells",
            cells_file.to_str().unwrap(),
        ]);
        let n = cells.lines().count();
        assert!(
            summary.starts_with(&format!("imported {n} cells into new array ")),
            "{summary}"
        );
        let frag = ArrayReader::open(&out, &ReadOptions::default())
            .unwrap()
            .fragments;
        assert_eq!(frag.len(), 1);
        assert!(
            summary.trim_end().ends_with(&frag[0].name.name),
            "{summary}"
        );
        assert_eq!(
            sorted_lines(&ok_stdout(&["export", out.to_str().unwrap()])),
            sorted_lines(&cells),
            "{fixture}"
        );
        // The whole `inspect --json` output is taken as well; the array
        // exists now, so it is checked against the array's schema.
        ok_stdout(&[
            "import",
            out.to_str().unwrap(),
            "--schema",
            inspect.to_str().unwrap(),
            "--cells",
            cells_file.to_str().unwrap(),
        ]);
        assert_eq!(committed_fragments(&out), 2);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn import_csv_from_standard_input_into_an_existing_array() {
    let dir = scratch("import-csv");
    let src = common::root().join("tests/fixtures/v22/sparse_int_2d");
    let src = src.to_str().unwrap();
    let schema = dir.join("schema.json");
    std::fs::write(&schema, ok_stdout(&["inspect", "--json", src])).unwrap();
    let csv = ok_stdout(&["export", src, "--format", "csv"]);
    let out = dir.join("a");
    let out = out.to_str().unwrap();
    // An empty input creates the array and writes no fragment.
    let header = csv.lines().next().unwrap().to_string() + "\n";
    let empty = cli_stdin(
        &[
            "import",
            out,
            "--schema",
            schema.to_str().unwrap(),
            "--cells",
            "-",
            "--format",
            "csv",
        ],
        header.as_bytes(),
    );
    assert!(
        empty.status.success(),
        "{}",
        String::from_utf8_lossy(&empty.stderr)
    );
    assert!(String::from_utf8_lossy(&empty.stdout).contains("no fragment written"));
    // The array exists: no --schema needed.
    let full = cli_stdin(
        &["import", out, "--cells", "-", "--format", "csv"],
        csv.as_bytes(),
    );
    assert!(
        full.status.success(),
        "{}",
        String::from_utf8_lossy(&full.stderr)
    );
    assert!(String::from_utf8_lossy(&full.stdout).contains("into existing array"));
    assert_eq!(
        sorted_lines(&ok_stdout(&["export", out, "--format", "csv"])),
        sorted_lines(&csv)
    );
    assert_eq!(
        sorted_lines(&ok_stdout(&["export", out])),
        sorted_lines(&ok_stdout(&["export", src]))
    );
    // No schema and no array: a message, no array.
    let none = dir.join("none");
    let e = cli_stdin(&["import", none.to_str().unwrap(), "--cells", "-"], b"");
    assert_eq!(e.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&e.stderr).contains("give a schema"));
    assert!(!none.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A bad cell: exit 1, one line on stderr naming the input, the line and
/// the field; nothing committed, whether the array was new or not.
#[test]
fn import_of_a_bad_cell_names_line_and_field_and_commits_nothing() {
    let dir = scratch("import-bad");
    let src = common::root().join("tests/fixtures/v22/sparse_int_2d");
    let src = src.to_str().unwrap();
    let schema = dir.join("schema.json");
    std::fs::write(&schema, ok_stdout(&["inspect", "--json", src])).unwrap();
    let good = ok_stdout(&["export", src]);
    let first: serde_json::Value = serde_json::from_str(good.lines().next().unwrap()).unwrap();
    let attr = first
        .as_object()
        .unwrap()
        .keys()
        .nth(2)
        .expect("an attribute after two dimensions")
        .clone();
    let mut bad_cell = first.clone();
    bad_cell[&attr] = serde_json::json!("not a number");
    let mut lines: Vec<String> = good.lines().map(str::to_string).collect();
    lines.insert(2, bad_cell.to_string());
    let cells = dir.join("cells.ndjson");
    std::fs::write(&cells, lines.join("\n")).unwrap();

    let new = dir.join("new");
    let existing = dir.join("existing");
    // The existing array holds the good cells, as one fragment.
    let made = cli_stdin(
        &[
            "import",
            existing.to_str().unwrap(),
            "--schema",
            schema.to_str().unwrap(),
            "--cells",
            "-",
        ],
        good.as_bytes(),
    );
    assert!(made.status.success());
    assert_eq!(committed_fragments(&existing), 1);
    for array in [&new, &existing] {
        let before = committed_fragments(array);
        let out = cli(&[
            "import",
            array.to_str().unwrap(),
            "--schema",
            schema.to_str().unwrap(),
            "--cells",
            cells.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with("error: ")
                && err.contains("cells.ndjson: line 3: ")
                && err.contains(&format!("field {attr}: ")),
            "{err}"
        );
        assert_eq!(committed_fragments(array), before, "{err}");
    }
    assert!(!new.exists(), "an array the import created is removed");
    assert!(existing.join("__schema").is_dir());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--encryption-key` creates an AES-256-GCM encrypted array: export with
/// the key gives the cells back, without it fails.
#[test]
fn import_with_an_encryption_key_makes_an_encrypted_array() {
    let key = "0123456789abcdeF0123456789abcdeF";
    let dir = scratch("import-key");
    let src = common::root().join("tests/fixtures/v22/encrypted_aes256gcm");
    let src = src.to_str().unwrap();
    let schema = dir.join("schema.json");
    std::fs::write(
        &schema,
        ok_stdout(&["inspect", "--json", src, "--encryption-key", key]),
    )
    .unwrap();
    let cells = ok_stdout(&["export", src, "--encryption-key", key]);
    let out = dir.join("a");
    let out = out.to_str().unwrap();
    let imp = cli_stdin(
        &[
            "import",
            out,
            "--schema",
            schema.to_str().unwrap(),
            "--cells",
            "-",
            "--encryption-key",
            key,
        ],
        cells.as_bytes(),
    );
    assert!(
        imp.status.success(),
        "{}",
        String::from_utf8_lossy(&imp.stderr)
    );
    assert_eq!(
        sorted_lines(&ok_stdout(&["export", out, "--encryption-key", key])),
        sorted_lines(&cells)
    );
    let plain = cli(&["export", out]);
    assert_eq!(plain.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&plain.stderr).contains("encryption key is needed"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn verify_warns_of_bytes_past_the_recorded_size_and_fails_on_a_short_file() {
    let dir = temp_copy("v22/sparse_int_2d", "verify-size");
    let frag = std::fs::read_dir(dir.join("__fragments"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let file = frag.join("a0.tdb");
    let original = std::fs::read(&file).unwrap();
    // Longer than recorded, as TileDB-Vector-Search writes some files: the
    // engine reads the array, verify warns and passes.
    let mut longer = original.clone();
    longer.extend_from_slice(&[0xAB; 17]);
    std::fs::write(&file, &longer).unwrap();
    let out = cli(&["verify", dir.to_str().unwrap()]);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{report}");
    assert!(report.contains(" 0 problems"), "{report}");
    assert!(
        report.contains("warning: ")
            && report.contains("a0.tdb")
            && report.contains("17 bytes past"),
        "{report}"
    );
    let engine = common::engine_cells(&dir, None);
    let ours = ok_stdout(&["export", dir.to_str().unwrap()]);
    assert_eq!(engine.len(), ours.lines().count());
    // Shorter than recorded: a problem, exit 1.
    std::fs::write(&file, &original[..original.len() - 1]).unwrap();
    let out = cli(&["verify", dir.to_str().unwrap()]);
    let report = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}");
    assert!(
        report.contains("problem: ") && report.contains("a0.tdb") && report.contains("bytes"),
        "{report}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn import_of_no_cells_creates_the_array_and_commits_nothing() {
    let dir = scratch("import-empty");
    for (fixture, format, input) in [
        ("v22/sparse_int_2d", "ndjson", ""),
        ("v22/dense_int_2d", "ndjson", ""),
        ("v22/sparse_int_2d", "csv", "header"),
    ] {
        let schema = dir.join("schema.json");
        let fixture_path = common::root().join("tests/fixtures").join(fixture);
        std::fs::write(
            &schema,
            ok_stdout(&["inspect", "--json", fixture_path.to_str().unwrap()]),
        )
        .unwrap();
        let cells = dir.join(format!("cells.{format}"));
        let text = if input == "header" {
            // The header line of the fixture's CSV export, no cell.
            let csv = ok_stdout(&["export", "--format", "csv", fixture_path.to_str().unwrap()]);
            format!("{}\n", csv.lines().next().unwrap())
        } else {
            String::new()
        };
        std::fs::write(&cells, text).unwrap();
        // A bare relative name, the array made in the working folder.
        let name = format!("new-{}-{format}", fixture.replace('/', "-"));
        let out = Command::new(env!("CARGO_BIN_EXE_tiledb-codec"))
            .current_dir(&dir)
            .args(["import", &name, "--schema", "schema.json"])
            .args(["--cells", &format!("cells.{format}"), "--format", format])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{fixture} {format}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(String::from_utf8_lossy(&out.stdout).contains("imported 0 cells"));
        let array = dir.join(&name);
        assert_eq!(committed_fragments(&array), 0, "{fixture} {format}");
        let engine = common::engine_cells(&array, None);
        assert!(engine.is_empty(), "{fixture} {format}: {engine:?}");
        assert_eq!(ok_stdout(&["export", array.to_str().unwrap()]), "");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ranges_on_dimensions_that_cannot_take_them_exit_1_saying_why() {
    let path = common::root().join("tests/fixtures/v22/sparse_int_2d");
    let p = path.to_str().unwrap();
    for (args, why) in [
        (vec!["--range", "nope=1:2"], "no dimension \"nope\""),
        (vec!["--range", "r=1.5:2"], "not an integer"),
        (vec!["--range", "r=5:2"], "above"),
        (vec!["--range", "r"], "expected DIM=LO:HI"),
        (vec!["--order", "sideways"], "unknown order"),
    ] {
        for cmd in ["export", "scan"] {
            let out = cli(&[&[cmd, p][..], &args].concat());
            let err = String::from_utf8_lossy(&out.stderr);
            assert_ne!(out.status.code(), Some(0), "{cmd} {args:?}");
            assert!(err.contains(why), "{cmd} {args:?}: {err}");
            assert!(out.stdout.is_empty(), "{cmd} {args:?}");
        }
    }
}

#[test]
fn ranges_select_the_cells_in_them() {
    // A multi-range on one dimension and a point on the other; --subarray
    // keeps working beside it.
    let path = common::root().join("tests/fixtures/v22/sparse_int_2d");
    let p = path.to_str().unwrap();
    let all: Vec<serde_json::Value> = ok_stdout(&["export", p])
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let want: Vec<String> = all
        .iter()
        .filter(|c| {
            let r = c["r"].as_i64().unwrap();
            ((0..=1).contains(&r) || (3..=3).contains(&r)) && c["c"].as_i64().unwrap() <= 2
        })
        .map(|c| c.to_string())
        .collect();
    let got = ok_stdout(&[
        "export",
        p,
        "--range",
        "r=0:1",
        "--range",
        "r=3",
        "--subarray",
        "c=-100:2",
    ]);
    let got: Vec<String> = got
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l)
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(got, want);
    let scan = ok_stdout(&[
        "scan", p, "--range", "r=0:1", "--range", "r=3", "--range", "c=0:2",
    ]);
    assert!(
        scan.starts_with(&format!("cells {} ", want.len())),
        "{scan}"
    );
}

/// Progress bars go to standard error only when it is a terminal: piped,
/// as here, import and verify print nothing there (and `--quiet` is taken
/// by every command).
#[test]
fn no_progress_bars_when_standard_error_is_not_a_terminal() {
    let dir = scratch("progress-quiet");
    let src = common::root().join("tests/fixtures/v22/sparse_strdim");
    let cells = dir.join("cells.ndjson");
    std::fs::write(&cells, ok_stdout(&["export", src.to_str().unwrap()])).unwrap();
    let whole: serde_json::Value =
        serde_json::from_str(&ok_stdout(&["inspect", "--json", src.to_str().unwrap()])).unwrap();
    let schema = dir.join("schema.json");
    std::fs::write(&schema, whole["schema"].to_string()).unwrap();
    let out = dir.join("a");
    for quiet in [false, true] {
        let mut args = vec![
            "import",
            out.to_str().unwrap(),
            "--schema",
            schema.to_str().unwrap(),
            "--cells",
            cells.to_str().unwrap(),
        ];
        if quiet {
            args.push("--quiet");
        }
        let o = cli(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(
            o.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let o = cli(&["verify", "-q", out.to_str().unwrap()]);
        assert!(o.status.success());
        assert!(
            o.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
