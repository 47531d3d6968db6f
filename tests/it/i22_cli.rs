//! Issue 22, "Nothing lost, nothing escapes", at the command line: the
//! binary as a process, with a reader that goes away, a full disk, names
//! that hold terminal escapes, FIFOs inside arrays, keys kept off the
//! command line, and the smaller messages.

use crate::common;
use common::scratch;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tiledb-codec"))
}

/// A copy of a fixture in `dir`.
fn copy_fixture(fixture: &str, dir: &Path) -> PathBuf {
    let to = dir.join(fixture.replace('/', "_"));
    common::copy_dir(&common::root().join("tests/fixtures").join(fixture), &to);
    to
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Waits for `child` at most `secs` seconds (then kills it and fails),
/// reading its standard output and error meanwhile.
fn finish(mut child: Child, secs: u64, what: &str) -> (ExitStatus, Vec<u8>, String) {
    let mut out = child.stdout.take();
    let mut err = child.stderr.take();
    let out_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        if let Some(o) = out.as_mut() {
            let _ = o.read_to_end(&mut v);
        }
        v
    });
    let err_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        if let Some(e) = err.as_mut() {
            let _ = e.read_to_end(&mut v);
        }
        v
    });
    let start = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if start.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {secs} s (killed)");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = out_t.join().unwrap();
    let stderr = String::from_utf8_lossy(&err_t.join().unwrap()).into_owned();
    (status, stdout, stderr)
}

/// Runs the binary with `args`, at most 60 s.
fn run(args: &[&str]) -> (ExitStatus, Vec<u8>, String) {
    let child = bin()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    finish(child, 60, &format!("{args:?}"))
}

/// Runs the binary with its standard output a pipe whose reader takes one
/// byte and goes away.
fn closed_pipe(args: &[&str]) -> (ExitStatus, String) {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = child.stdout.take().unwrap();
    let mut one = [0u8; 1];
    reader.read_exact(&mut one).unwrap();
    drop(reader);
    let (status, _, stderr) = finish(child, 60, &format!("{args:?} | head -c1"));
    (status, stderr)
}

/// Runs the binary with its standard output on `/dev/full`.
fn full_disk(args: &[&str]) -> (ExitStatus, String) {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let child = bin()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::from(full))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (status, _, stderr) = finish(child, 60, &format!("{args:?} >/dev/full"));
    (status, stderr)
}

/// A data file that cannot grow (a file-size limit stops it as a full disk
/// would): `import` fails with status 1 and no panic, naming the error, and
/// the array keeps exactly what it had: the fragment it already held and
/// no other folder or commit.
#[test]
fn import_into_a_data_file_that_cannot_grow() {
    let dir = scratch("fsize");
    let array = dir.join("a");
    let schema = dir.join("schema.json");
    std::fs::write(
        &schema,
        serde_json::json!({
            "array_type": "dense",
            "dimensions": [{"name": "d", "datatype": "INT64", "domain": [0, 99_999],
                            "tile_extent": 25_000}],
            "attributes": [{"name": "v", "datatype": "FLOAT64"}],
        })
        .to_string(),
    )
    .unwrap();
    let cells = |n: i64| -> PathBuf {
        let f = dir.join(format!("cells-{n}.ndjson"));
        let text: String = (0..n)
            .map(|i| format!("{{\"d\": {i}, \"v\": {i}.5}}\n"))
            .collect();
        std::fs::write(&f, text).unwrap();
        f
    };
    let (small, big) = (cells(10), cells(100_000));
    let (st, _, err) = run(&[
        "import",
        "--schema",
        s(&schema),
        "--cells",
        s(&small),
        s(&array),
    ]);
    assert!(st.success(), "the first import: {err}");
    let listing = |sub: &str| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(array.join(sub))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    };
    let before = (listing("__fragments"), listing("__commits"));
    assert_eq!(before.0.len(), 1, "{before:?}");

    // 800,000 bytes of values against a limit of 128 KiB; SIGXFSZ ignored
    // (as a shell's trap leaves it for the program it runs), so that the
    // write fails with EFBIG instead of the signal ending the process.
    let child = Command::new("bash")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 128; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_tiledb-codec"))
        .args(["import", "--cells", s(&big), s(&array)])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (st, _, err) = finish(child, 60, "import under a file-size limit");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(st.code(), Some(1), "{err}");
    assert!(err.contains("File too large"), "{err}");
    assert_eq!((listing("__fragments"), listing("__commits")), before);
    let (st, out, err) = run(&["export", s(&array)]);
    assert!(st.success(), "{err}");
    assert_eq!(String::from_utf8(out).unwrap().lines().count(), 10);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Item 1: standard output that fails never panics. A closed pipe ends
/// the command quietly with status 141 (as SIGPIPE would); a full disk is
/// an error naming standard output, status 1.
#[test]
fn failing_standard_output() {
    let dir = scratch("stdout");
    let array = copy_fixture("v22/dense_int_1d", &dir);
    // One metadata value of 100 KB makes every listing longer than a pipe holds.
    let big = "x".repeat(100_000);
    let (st, _, err) = run(&[
        "meta",
        s(&array),
        "put",
        "big",
        &big,
        "--type",
        "STRING_UTF8",
    ]);
    assert!(st.success(), "meta put: {err}");
    let chunked = common::root().join("tests/fixtures/v22/sparse_chunked");
    let group = common::root().join("tests/fixtures/v22/group_basic");

    for args in [
        vec!["inspect", s(&array)],
        vec!["inspect", "--json", s(&array)],
        vec!["meta", s(&array), "list"],
        vec!["meta", s(&array), "list", "--json"],
        vec!["export", s(&chunked)],
        vec!["export", "--format", "csv", s(&chunked)],
    ] {
        let (st, err) = closed_pipe(&args);
        assert!(!err.contains("panicked"), "{args:?} | head -c1: {err}");
        assert_eq!(st.code(), Some(141), "{args:?} | head -c1: {st:?}, {err}");
        assert_eq!(err, "", "{args:?} | head -c1 prints nothing more");
    }

    for args in [
        vec!["group", "list", s(&group)],
        vec!["group", "list", "--json", s(&group)],
        vec!["aggregate", s(&array), "count(*)"],
        vec!["scan", s(&array)],
        vec!["scan", "--open-only", s(&array)],
        vec!["verify", s(&array)],
        vec!["inspect", s(&array)],
        vec!["inspect", "--json", s(&array)],
        vec!["meta", s(&array), "list"],
        vec!["export", s(&array)],
    ] {
        let (st, err) = full_disk(&args);
        assert!(!err.contains("panicked"), "{args:?} >/dev/full: {err}");
        assert_eq!(st.code(), Some(1), "{args:?} >/dev/full: {err}");
        assert!(
            err.contains("standard output") && err.contains("No space left on device"),
            "{args:?} >/dev/full: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The bytes a terminal would obey: ESC, DEL, and the C1 CSI (as UTF-8).
fn raw_controls(b: &[u8]) -> Option<&'static str> {
    if b.contains(&0x1b) {
        Some("ESC")
    } else if b.contains(&0x7f) {
        Some("DEL")
    } else if b.windows(2).any(|w| w == [0xc2, 0x9b]) {
        Some("U+009B")
    } else {
        None
    }
}

/// Runs `args` and checks that neither output holds a raw control from
/// the array's names; returns the status, standard output and error.
fn clean(args: &[&str]) -> (ExitStatus, String, String) {
    let (st, out, err) = run(args);
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    if let Some(c) = raw_controls(&out) {
        panic!(
            "{args:?}: a raw {c} on standard output: {:?}",
            String::from_utf8_lossy(&out)
        );
    }
    if let Some(c) = raw_controls(err.as_bytes()) {
        panic!("{args:?}: a raw {c} on standard error: {err:?}");
    }
    (st, String::from_utf8_lossy(&out).into_owned(), err)
}

/// Item 3: names and strings from an array (attribute, dimension and
/// enumeration names and values, metadata keys and values, group member
/// names) that hold terminal escapes are printed escaped, in human text and
/// in error messages; JSON stays valid and equal to the names.
#[test]
fn terminal_escapes_from_the_data() {
    const CLS: &str = "\u{1b}[2J";
    let dir = scratch("escapes");
    let (st, out, err) = run(&[
        "inspect",
        "--json",
        s(&common::root().join("tests/fixtures/v22/enumerations")),
    ]);
    assert!(st.success(), "{err}");
    let whole: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let mut schema = whole["schema"].clone();
    let dim = format!("{}{CLS}", schema["dimensions"][0]["name"].as_str().unwrap());
    schema["dimensions"][0]["name"] = dim.clone().into();
    schema["attributes"][0]["name"] = format!("color{CLS}").into();
    schema["attributes"][0]["enumeration"] = format!("colors{CLS}").into();
    let colors = schema["enumerations"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|e| e["name"] == "colors")
        .unwrap();
    colors["name"] = format!("colors{CLS}").into();
    colors["values"][0] = format!("red{CLS}").into();
    let schema_file = dir.join("schema.json");
    std::fs::write(&schema_file, schema.to_string()).unwrap();
    let array = dir.join("arr");
    let cells = dir.join("cells.ndjson");
    let lo = schema["dimensions"][0]["domain"][0].clone();
    let cell = serde_json::json!({ dim.clone(): lo, format!("color{CLS}"): 0,
        "size": 10, "x": 1.5 });
    std::fs::write(&cells, format!("{cell}\n")).unwrap();
    let (st, _, err) = clean(&[
        "import",
        s(&array),
        "--schema",
        s(&schema_file),
        "--cells",
        s(&cells),
    ]);
    assert!(st.success(), "import: {err}");

    let keys = [format!("k{CLS}"), "del\u{7f}".into(), "csi\u{9b}1m".into()];
    for k in &keys {
        let (st, _, err) = clean(&[
            "meta",
            s(&array),
            "put",
            k,
            &format!("v{CLS}"),
            "--type",
            "STRING_UTF8",
        ]);
        assert!(st.success(), "meta put: {err}");
    }
    let group = dir.join("g");
    let (st, _, err) = clean(&["group", "create", s(&group)]);
    assert!(st.success(), "{err}");
    let member = format!("m{CLS}");
    let (st, _, err) = clean(&["group", "add", s(&group), s(&array), "--name", &member]);
    assert!(st.success(), "{err}");

    // Human text: every name shown, escaped.
    let (st, out, err) = clean(&["inspect", s(&array)]);
    assert!(st.success(), "{err}");
    for shown in [
        "color\\x1b[2J",
        "colors\\x1b[2J",
        "k\\x1b[2J",
        "del\\x7f",
        "csi\\u{9b}1m",
    ] {
        assert!(out.contains(shown), "inspect shows {shown}: {out}");
    }
    let (st, out, err) = clean(&["meta", s(&array), "list"]);
    assert!(st.success() && out.contains("k\\x1b[2J"), "{out} {err}");
    let (st, out, err) = clean(&["group", "list", s(&group)]);
    assert!(st.success() && out.contains("m\\x1b[2J"), "{out} {err}");
    let (st, out, err) = clean(&["inspect", s(&group)]);
    assert!(st.success() && out.contains("m\\x1b[2J"), "{out} {err}");
    let (st, _, err) = clean(&["verify", s(&array)]);
    assert!(st.success(), "{err}");
    let (st, _, err) = clean(&["scan", s(&array)]);
    assert!(st.success(), "{err}");
    let (st, _, err) = clean(&["meta", s(&array), "delete", &keys[0]]);
    assert!(st.success(), "{err}");

    // JSON: valid, the names as they are.
    let (st, out, err) = clean(&["inspect", "--json", s(&array)]);
    assert!(st.success(), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["schema"]["attributes"][0]["name"], format!("color{CLS}"));
    let (st, out, _) = clean(&["meta", s(&array), "list", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(st.success() && v.get("csi\u{9b}1m").is_some() && v.get("del\u{7f}").is_some());
    let (st, out, _) = clean(&["group", "list", "--json", s(&group)]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(st.success() && v[0]["name"] == member.as_str(), "{v}");

    // Errors that name what the array holds.
    for args in [
        vec!["export", s(&array), "--where", "nothing > 1"],
        vec!["export", s(&array), "--range", "nothing=1:2"],
        vec!["aggregate", s(&array), "sum(nothing)"],
        vec!["export", s(&array), "--attrs", "nothing"],
        vec!["meta", s(&array), "delete", &keys[0]],
        vec!["group", "remove", s(&group), "nothing\u{1b}[2J"],
    ] {
        let (st, _, err) = clean(&args);
        assert_eq!(st.code(), Some(1), "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs the binary with `args`; kills it and fails after 20 s. Returns
/// the status and both outputs.
fn run_20s(args: &[&str]) -> (ExitStatus, String) {
    let child = bin()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (st, out, err) = finish(child, 20, &format!("{args:?}"));
    // verify reports problems on standard output.
    (st, format!("{}{err}", String::from_utf8_lossy(&out)))
}

fn mkfifo(p: &Path) {
    let st = Command::new("mkfifo").arg(p).status().unwrap();
    assert!(st.success(), "mkfifo {}", p.display());
}

/// The one entry of `dir` whose name starts with `prefix`.
fn entry(dir: &Path, prefix: &str) -> PathBuf {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .unwrap()
}

/// Where in an array a case puts its FIFO.
type Place = fn(&Path) -> PathBuf;

/// Item 4: a FIFO inside an array (in place of a data file, a fragment's
/// metadata, a metadata file or the schema, or an extra one in
/// `__fragments` or `__meta`) is an error naming it, never a hang.
#[test]
fn fifo_inside_an_array() {
    let dir = scratch("fifo");
    let cases: [(&str, Place, bool); 6] = [
        (
            "data file",
            |a| entry(&entry(a, "__fragments"), "__").join("a0.tdb"),
            true,
        ),
        (
            "fragment metadata",
            |a| entry(&entry(a, "__fragments"), "__").join("__fragment_metadata.tdb"),
            true,
        ),
        ("metadata file", |a| entry(&a.join("__meta"), "__1_1"), true),
        ("schema", |a| entry(&a.join("__schema"), "__"), true),
        (
            "extra in __fragments",
            |a| a.join("__fragments").join("stray"),
            false,
        ),
        ("extra in __meta", |a| a.join("__meta").join("stray"), false),
    ];
    for (i, (what, place, replace)) in cases.into_iter().enumerate() {
        let case = dir.join(i.to_string());
        std::fs::create_dir_all(&case).unwrap();
        let array = copy_fixture("v22/array_metadata", &case);
        let fifo = place(&array);
        if replace {
            std::fs::remove_file(&fifo).unwrap();
        }
        mkfifo(&fifo);
        let name = fifo.file_name().unwrap().to_string_lossy().into_owned();
        for cmd in [
            vec!["export", s(&array)],
            vec!["verify", s(&array)],
            vec!["scan", s(&array)],
            vec!["inspect", s(&array)],
        ] {
            let (st, err) = run_20s(&cmd);
            // inspect opens no data file: it may show the array.
            if cmd[0] == "inspect" && st.success() {
                assert!(what == "data file", "{what}: {cmd:?}: {err}");
                continue;
            }
            assert_eq!(st.code(), Some(1), "{what}: {cmd:?}: {err}");
            assert!(
                err.contains(&name) && err.contains("not a regular file"),
                "{what}: {cmd:?} names {name}: {err}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

const KEY: &str = "0123456789abcdeF0123456789abcdeF";
const ENV_KEY: &str = "TILEDB_CODEC_ENCRYPTION_KEY";

/// Runs the binary with `env` set (and the key variable otherwise unset).
fn run_env(args: &[&str], env: Option<&str>) -> (ExitStatus, String, String) {
    let mut cmd = bin();
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env_remove(ENV_KEY);
    if let Some(v) = env {
        cmd.env(ENV_KEY, v);
    }
    let (st, out, err) = finish(cmd.spawn().unwrap(), 60, &format!("{args:?}"));
    (st, String::from_utf8_lossy(&out).into_owned(), err)
}

/// Every command path of the binary (`["group", "list"]`, ...), from its
/// help.
fn commands(prefix: &[&str]) -> Vec<Vec<String>> {
    let mut args: Vec<&str> = prefix.to_vec();
    args.push("--help");
    let (_, help, _) = run_env(&args, None);
    let mut out = vec![prefix.iter().map(|s| s.to_string()).collect::<Vec<_>>()];
    let Some(list) = help.split("Commands:\n").nth(1) else {
        return out;
    };
    for line in list.lines() {
        if !line.starts_with("  ") || line.starts_with("   ") {
            break;
        }
        let name = line.split_whitespace().next().unwrap();
        if name == "help" {
            continue;
        }
        let mut sub = prefix.to_vec();
        sub.push(name);
        out.extend(commands(&sub));
    }
    out
}

/// Item 2: a key from a file (`--encryption-key-file`, a trailing line
/// break trimmed) or from `TILEDB_CODEC_ENCRYPTION_KEY`, on every command
/// that takes `--encryption-key`; a key of the wrong length is never
/// echoed back.
#[test]
fn encryption_key_off_the_command_line() {
    let dir = scratch("keys");
    let array = common::root().join("tests/fixtures/v22/encrypted_aes256gcm");
    let key_file = dir.join("key");
    std::fs::write(&key_file, format!("{KEY}\n")).unwrap();

    // Every command with --encryption-key has --encryption-key-file too.
    let mut with_key = 0;
    for path in commands(&[]) {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let (_, help, _) = run_env(&args, None);
        if help.contains("--encryption-key <") {
            with_key += 1;
            assert!(
                help.contains("--encryption-key-file <FILE>"),
                "{path:?}: {help}"
            );
            assert!(help.contains(ENV_KEY), "{path:?}: {help}");
        }
    }
    assert!(with_key >= 15, "{with_key} commands take a key");

    let a = s(&array);
    let kf = s(&key_file);
    for args in [
        vec!["export", a],
        vec!["inspect", a],
        vec!["inspect", "--json", a],
        vec!["scan", a],
        vec!["verify", a],
        vec!["aggregate", a, "count(*)"],
        vec!["meta", a, "list"],
    ] {
        let (st, want, err) = run_env(
            &[args.as_slice(), &["--encryption-key", KEY]].concat(),
            None,
        );
        assert!(st.success(), "{args:?} --encryption-key: {err}");
        let (st, _, err) = run_env(&args, None);
        assert_eq!(st.code(), Some(1), "{args:?} without a key: {err}");
        let (st, got, err) = run_env(
            &[args.as_slice(), &["--encryption-key-file", kf]].concat(),
            None,
        );
        assert!(st.success(), "{args:?} --encryption-key-file: {err}");
        assert_eq!(got, want, "{args:?} --encryption-key-file");
        let (st, got, err) = run_env(&args, Some(KEY));
        assert!(st.success(), "{args:?} {ENV_KEY}: {err}");
        assert_eq!(got, want, "{args:?} {ENV_KEY}");
    }
    // Writing commands take it too: a metadata put read back.
    let copy = copy_fixture("v22/encrypted_aes256gcm", &dir);
    let (st, _, err) = run_env(
        &["meta", s(&copy), "put", "k", "7", "--type", "INT32"],
        Some(KEY),
    );
    assert!(st.success(), "meta put with {ENV_KEY}: {err}");
    let (st, out, err) = run_env(
        &["meta", s(&copy), "list", "--encryption-key-file", kf],
        None,
    );
    assert!(st.success() && out.contains("k (INT32) = 7"), "{out} {err}");

    // Wrong lengths, from each source: the length said, the key not shown.
    let secret = "not-the-key-SECRET";
    let short_file = dir.join("short");
    std::fs::write(&short_file, secret).unwrap();
    for (args, env) in [
        (vec!["export", a, "--encryption-key", secret], None),
        (vec!["meta", a, "list", "--encryption-key", secret], None),
        (
            vec!["export", a, "--encryption-key-file", s(&short_file)],
            None,
        ),
        (vec!["export", a], Some(secret)),
        (vec!["group", "list", a], Some(secret)),
    ] {
        let (st, out, err) = run_env(&args, env);
        assert!(!st.success(), "{args:?}");
        assert!(
            !out.contains("SECRET") && !err.contains("SECRET"),
            "{args:?} echoes the key: {err}"
        );
        assert!(
            err.contains("32 bytes") && err.contains("18"),
            "{args:?}: {err}"
        );
    }
    // A missing key file is named; a key given twice is refused.
    let missing = dir.join("no-such-key");
    let (st, _, err) = run_env(&["export", a, "--encryption-key-file", s(&missing)], None);
    assert!(st.code() == Some(1) && err.contains("no-such-key"), "{err}");
    let (st, _, err) = run_env(
        &[
            "export",
            a,
            "--encryption-key",
            KEY,
            "--encryption-key-file",
            kf,
        ],
        None,
    );
    assert!(!st.success() && !err.contains(KEY), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The paths under `dir` whose file name is `name`.
fn find_named(dir: &Path, name: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.file_name().unwrap() == name {
            out.push(p.clone());
        }
        if p.is_dir() {
            out.extend(find_named(&p, name));
        }
    }
    out
}

/// An uncommitted fragment folder `__T_T_<uuid>_22` with one file, its
/// times set `age` ago (`touch -d`).
fn uncommitted(array: &Path, t: u64, uuid: char, age: Option<&str>) -> PathBuf {
    let dir = array
        .join("__fragments")
        .join(format!("__{t}_{t}_{}_22", uuid.to_string().repeat(32)));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a0.tdb"), b"partial").unwrap();
    if let Some(age) = age {
        let st = Command::new("touch")
            .args(["-d", age])
            .arg(dir.join("a0.tdb"))
            .arg(&dir)
            .status()
            .unwrap();
        assert!(st.success());
    }
    dir
}

/// Item 5: range bounds as written, a long condition cut short, the empty
/// metadata key without "cells:", a key given twice in an NDJSON cell, no
/// lock file left behind, and a killed write's fragment folder vacuumed.
#[test]
fn smaller_messages_and_leftovers() {
    let dir = scratch("smaller");
    let f = |name: &str| common::root().join("tests/fixtures/v22").join(name);
    let dense = f("dense_int_1d");
    let (st, _, err) = run(&["export", s(&dense), "--range", "d=5:2"]);
    assert_eq!(st.code(), Some(1));
    assert!(err.contains("low end 5 is above its high end 2"), "{err}");
    let (_, _, err) = run(&["export", s(&f("sparse_strdim")), "--range", "s=z:a"]);
    assert!(
        err.contains(r#"low end "z" is above its high end "a""#),
        "{err}"
    );
    let (_, _, err) = run(&["export", s(&dense), "--range", "d=a:b"]);
    assert!(!err.contains("Int(") && !err.contains("Text("), "{err}");

    let deep = format!("{}a > 1{}", "(".repeat(60_000), ")".repeat(60_000));
    let (st, _, err) = run(&["export", s(&dense), "--where", &deep]);
    assert_eq!(st.code(), Some(1));
    assert!(err.contains("nested") && err.contains('…'), "{err}");
    assert!(err.len() < 400, "{} bytes of error", err.len());

    let array = copy_fixture("v22/dense_int_1d", &dir);
    let (st, _, err) = run(&["meta", s(&array), "put", "", "1", "--type", "INT32"]);
    assert_eq!(st.code(), Some(1));
    assert!(err.contains("a metadata key cannot be empty"), "{err}");
    assert!(!err.contains("cells:"), "{err}");

    let cells = dir.join("dup.ndjson");
    std::fs::write(&cells, "{\"d\":1,\"a\":5}\n{\"d\":2,\"a\":5,\"a\":6}\n").unwrap();
    let commits = std::fs::read_dir(array.join("__commits")).unwrap().count();
    let (st, _, err) = run(&["import", s(&array), "--cells", s(&cells)]);
    assert_eq!(st.code(), Some(1), "{err}");
    assert!(
        err.contains("line 2") && err.contains("a") && err.contains("twice"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_dir(array.join("__commits")).unwrap().count(),
        commits
    );

    // No lock file stays after maintenance.
    let (st, _, err) = run(&["consolidate", s(&array)]);
    assert!(st.success(), "{err}");
    let (st, _, err) = run(&["vacuum", s(&array)]);
    assert!(st.success(), "{err}");
    assert_eq!(
        find_named(&array, ".tiledb-codec.lock"),
        Vec::<PathBuf>::new()
    );

    // A killed write's folder unchanged for two hours goes, whatever its
    // name's timestamps (issue 47: older or newer than every commit); one
    // still changing stays.
    let array = copy_fixture("v22/dense_int_1d", &dir.join("killed"));
    let (_, before, _) = run(&["export", s(&array)]);
    let old = uncommitted(&array, 0, 'a', Some("2 hours ago"));
    let fresh = uncommitted(&array, 0, 'b', None);
    let newer = uncommitted(&array, 4_000_000_000_000, 'c', Some("2 hours ago"));
    let (st, out, err) = run(&["vacuum", "--dry-run", s(&array)]);
    assert!(
        st.success() && String::from_utf8_lossy(&out).contains(s(&old)),
        "{err}"
    );
    assert!(old.exists(), "a dry run removes nothing");
    let (st, _, err) = run(&["vacuum", s(&array)]);
    assert!(st.success(), "{err}");
    assert!(!old.exists(), "the abandoned folder is removed");
    assert!(
        !newer.exists(),
        "the abandoned folder with a later name too"
    );
    assert!(fresh.exists(), "a write that may be under way stays");
    let (_, after, _) = run(&["export", s(&array)]);
    assert_eq!(after, before);
    assert_eq!(
        find_named(&array, ".tiledb-codec.lock"),
        Vec::<PathBuf>::new()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
