//! Issue 47, item 1: what killed commands leave behind is reclaimed by
//! `vacuum` once nothing in it changed for `maintain::ABANDONED_AFTER`,
//! whatever the names' timestamps. Consolidations, imports, evolutions and
//! metadata writes of the `tiledb-codec` binary are killed (SIGKILL) while
//! they work; the files are then aged (their times set two hours back, as
//! if the vacuum ran two hours later); `vacuum --dry-run` lists every
//! leftover, `vacuum` removes them and leaves exactly the committed
//! fragments, and the engine reads the cells of the writes that were
//! reported done.

use crate::common;
use common::scratch;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;
use tiledb_codec::raw::array::ArrayDirectory;
use tiledb_codec::raw::read::{ArrayReader, Query};
use tiledb_codec::ReadOptions;

const BIN: &str = env!("CARGO_BIN_EXE_tiledb-codec");

pub(crate) fn run(args: &[&str]) -> String {
    let out = Command::new(BIN).args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {err}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub(crate) fn spawn(args: &[&str]) -> Child {
    Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// NDJSON of cells `d` in `from..to`, `a = d`.
pub(crate) fn ndjson(from: i64, to: i64) -> String {
    (from..to)
        .map(|d| format!("{{\"d\":{d},\"a\":{d}}}\n"))
        .collect()
}

/// A small random number generator (the seed is printed).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// Every path below `root` whose name is a writer's temporary.
fn temporaries(root: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(root).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let p = e.path();
        let temp = (name.starts_with(".tiledb-codec-") || name.ends_with(".tmp"))
            && name != ".tiledb-codec.lock";
        if temp {
            out.push(p);
        } else if p.is_dir() {
            temporaries(&p, out);
        }
    }
}

/// The entries of `__fragments`, sorted.
pub(crate) fn fragment_folders(array: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(array.join("__fragments"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    v.sort();
    v
}

/// Waits (at most `limit`) until `__fragments` holds a folder not in
/// `known`: a write has begun.
pub(crate) fn wait_for_new_folder(array: &Path, known: &[PathBuf], limit: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if fragment_folders(array).iter().any(|f| !known.contains(f)) {
            return true;
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    false
}

pub(crate) fn kill(mut c: Child) {
    let _ = c.kill();
    let _ = c.wait();
}

fn our_ds(array: &Path) -> Vec<i64> {
    let r = ArrayReader::open(array, &ReadOptions::default()).unwrap();
    let c = r.read(&Query::new()).unwrap();
    let col = c.column("d").unwrap();
    let mut v: Vec<i64> = (0..c.len)
        .map(|i| i64::from_le_bytes(col.get(i).unwrap().try_into().unwrap()))
        .collect();
    v.sort_unstable();
    v
}

/// A sparse schema (INT64 `d`, INT64 `a`) written in `dir`; its path.
pub(crate) fn sparse_schema(dir: &Path) -> PathBuf {
    let schema = dir.join("schema.json");
    let s = json!({
        "array_type": "sparse",
        "capacity": 1000,
        "cell_order": "row-major",
        "tile_order": "row-major",
        "allows_duplicates": false,
        "dimensions": [
            {"name": "d", "datatype": "INT64", "domain": [0, 99_999_999], "tile_extent": 1000}
        ],
        "attributes": [{"name": "a", "datatype": "INT64"}]
    });
    std::fs::write(&schema, s.to_string()).unwrap();
    schema
}

#[test]
fn vacuum_reclaims_what_killed_commands_left() {
    let dir = scratch("reclaim");
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    eprintln!("seed {seed}");
    let mut rng = Lcg(seed);
    let schema = sparse_schema(&dir);
    let array = dir.join("array");
    let a = array.to_str().unwrap();
    let cells = dir.join("cells.ndjson");
    let mut expected: Vec<i64> = Vec::new();
    let mut next = 0i64;
    let mut import = |n: i64, expected: &mut Vec<i64>| {
        std::fs::write(&cells, ndjson(next, next + n)).unwrap();
        run(&[
            "import",
            a,
            "--schema",
            schema.to_str().unwrap(),
            "--cells",
            cells.to_str().unwrap(),
        ]);
        expected.extend(next..next + n);
        next += n;
    };
    for _ in 0..3 {
        import(40_000, &mut expected);
    }

    // Consolidations killed as soon as their new folder appears.
    let mut killed_consolidations = 0;
    for _ in 0..4 {
        import(20_000, &mut expected);
        let known = fragment_folders(&array);
        let c = spawn(&["consolidate", a, "--memory-budget", "200000"]);
        if wait_for_new_folder(&array, &known, Duration::from_secs(20)) {
            std::thread::sleep(Duration::from_millis(rng.below(5)));
            killed_consolidations += 1;
        }
        kill(c);
    }
    // Imports killed as soon as their fragment folder appears (one that
    // committed all the same counts as done).
    let mut killed_imports = 0;
    for k in 0..3i64 {
        let known = fragment_folders(&array);
        let from = 90_000_000 + k * 1_000_000;
        let input = dir.join(format!("killed{k}.ndjson"));
        std::fs::write(&input, ndjson(from, from + 300_000)).unwrap();
        let c = spawn(&["import", a, "--cells", input.to_str().unwrap()]);
        if wait_for_new_folder(&array, &known, Duration::from_secs(60)) {
            killed_imports += 1;
        }
        kill(c);
        let new: Vec<PathBuf> = fragment_folders(&array)
            .into_iter()
            .filter(|f| !known.contains(f))
            .collect();
        let committed = ArrayDirectory::open(&array).unwrap().fragments;
        if committed.iter().any(|f| new.contains(&f.path)) {
            expected.extend(from..from + 300_000);
        }
    }
    // Evolutions and metadata writes killed at random moments.
    for k in 0..6 {
        let attr = json!({"name": format!("z{k}"), "datatype": "INT64"}).to_string();
        let c = spawn(&["evolve", a, "--add-attribute", &attr]);
        std::thread::sleep(Duration::from_micros(rng.below(40_000)));
        kill(c);
        let key = format!("k{k}");
        let c = spawn(&["meta", a, "put", &key, "1", "--type", "INT64"]);
        std::thread::sleep(Duration::from_micros(rng.below(40_000)));
        kill(c);
    }

    let before = ArrayDirectory::open(&array).unwrap();
    let mut leftovers: Vec<PathBuf> = before.uncommitted.clone();
    temporaries(&array, &mut leftovers);
    eprintln!(
        "{killed_consolidations} consolidations and {killed_imports} imports killed mid-write; leftovers: {leftovers:#?}"
    );
    assert!(
        killed_consolidations >= 1 && !before.uncommitted.is_empty(),
        "no consolidation was killed while writing"
    );
    // Fresh, nothing goes: a write may still be at work on it.
    let dry = run(&["vacuum", "--dry-run", a]);
    for l in &leftovers {
        assert!(
            !dry.contains(l.to_str().unwrap()),
            "fresh work listed: {}",
            l.display()
        );
    }
    // Two hours later: every leftover is listed, then removed.
    let st = Command::new("find")
        .arg(&array)
        .args(["-exec", "touch", "-h", "-d", "2 hours ago", "{}", "+"])
        .status()
        .unwrap();
    assert!(st.success());
    let dry = run(&["vacuum", "--dry-run", a]);
    for l in &leftovers {
        assert!(
            dry.contains(l.to_str().unwrap()),
            "{} not in the dry run:\n{dry}",
            l.display()
        );
    }
    run(&["vacuum", a]);
    let after = ArrayDirectory::open(&array).unwrap();
    assert!(after.uncommitted.is_empty(), "{:?}", after.uncommitted);
    let mut temps = Vec::new();
    temporaries(&array, &mut temps);
    assert!(temps.is_empty(), "{temps:?}");
    let mut committed: Vec<PathBuf> = after.fragments.iter().map(|f| f.path.clone()).collect();
    committed.sort();
    assert_eq!(
        fragment_folders(&array),
        committed,
        "exactly the committed fragments"
    );

    expected.sort_unstable();
    assert_eq!(our_ds(&array), expected, "our reader");
    let mut engine: Vec<i64> = common::engine_cells(&array, None)
        .iter()
        .map(|c| c["d"].as_i64().unwrap())
        .collect();
    engine.sort_unstable();
    assert_eq!(engine, expected, "the engine");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same for groups: `group add`, `group remove` and `group meta put`
/// killed at random moments; aged and vacuumed, the group holds no
/// temporary and lists its members.
#[test]
fn vacuum_reclaims_what_killed_group_commands_left() {
    let dir = scratch("reclaim-group");
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    eprintln!("seed {seed}");
    let mut rng = Lcg(seed);
    let schema = sparse_schema(&dir);
    let cells = dir.join("cells.ndjson");
    std::fs::write(&cells, ndjson(0, 10)).unwrap();
    let group = dir.join("group");
    let g = group.to_str().unwrap();
    run(&["group", "create", g]);
    let mut arrays = Vec::new();
    for k in 0..4 {
        let a = dir.join(format!("a{k}"));
        let sch = schema.to_str().unwrap();
        run(&[
            "import",
            a.to_str().unwrap(),
            "--schema",
            sch,
            "--cells",
            cells.to_str().unwrap(),
        ]);
        arrays.push(a);
    }
    for k in 0..12 {
        let a = arrays[k % arrays.len()].to_str().unwrap().to_string();
        let name = format!("m{k}");
        let key = format!("k{k}");
        let args: Vec<&str> = match k % 3 {
            0 => vec!["group", "add", g, &a, "--name", &name],
            1 => vec!["group", "remove", g, &a],
            _ => vec!["group", "meta", g, "put", &key, "1", "--type", "INT64"],
        };
        let c = spawn(&args);
        std::thread::sleep(Duration::from_micros(rng.below(30_000)));
        kill(c);
    }
    let mut left = Vec::new();
    temporaries(&group, &mut left);
    eprintln!("left by the killed commands: {left:?}");
    let st = Command::new("find")
        .arg(&group)
        .args(["-exec", "touch", "-h", "-d", "2 hours ago", "{}", "+"])
        .status()
        .unwrap();
    assert!(st.success());
    run(&["vacuum", g]);
    let mut temps = Vec::new();
    temporaries(&group, &mut temps);
    assert!(temps.is_empty(), "{temps:?}");
    run(&["group", "list", g]);
    run(&["group", "meta", g, "list"]);
    let _ = std::fs::remove_dir_all(&dir);
}
