//! Issue 47, item 3: a crash-consistency harness. Each trial copies a base
//! array (several fragments, a consolidation to vacuum, metadata), runs one
//! mutating command of the binary (import, consolidate and vacuum in every
//! mode, delete, delete-fragments, evolve, meta put) and kills it (SIGKILL)
//! at a random moment within the time the command takes when it is not
//! killed. The engine judges: it reads the array, and its cells are those
//! before the command or those after it, never anything in between. Then,
//! aged two hours, `vacuum` reclaims every leftover and the engine reads the
//! same cells. The seed is printed; `CRASH_TRIALS` is not read (the number
//! of trials is fixed, the run bounded). The same commands are also stopped
//! right after each of their durable steps in turn, by fail points.

use crate::common;
use common::scratch;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;
use tiledb_codec::raw::array::ArrayDirectory;

const BIN: &str = env!("CARGO_BIN_EXE_tiledb-codec");
const TRIALS: usize = 24;

fn run(args: &[&str]) -> String {
    let out = Command::new(BIN).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n.max(1)
    }
}

/// The engine's cells, as sorted `(d, a)` pairs.
fn engine(array: &Path) -> Vec<(i64, i64)> {
    let mut v: Vec<(i64, i64)> = common::engine_cells(array, None)
        .iter()
        .map(|c| (c["d"].as_i64().unwrap(), c["a"].as_i64().unwrap()))
        .collect();
    v.sort_unstable();
    v
}

fn ndjson(from: i64, to: i64) -> String {
    (from..to)
        .map(|d| format!("{{\"d\":{d},\"a\":{}}}\n", d * 3))
        .collect()
}

/// The base array: four imports, a consolidation (left for vacuuming), two
/// more imports, three metadata keys.
fn base(dir: &Path) -> PathBuf {
    let schema = dir.join("schema.json");
    let s = json!({
        "array_type": "sparse",
        "capacity": 500,
        "cell_order": "row-major",
        "tile_order": "row-major",
        "allows_duplicates": false,
        "dimensions": [
            {"name": "d", "datatype": "INT64", "domain": [0, 9_999_999], "tile_extent": 1000}
        ],
        "attributes": [{"name": "a", "datatype": "INT64"}]
    });
    std::fs::write(&schema, s.to_string()).unwrap();
    let array = dir.join("base");
    let a = array.to_str().unwrap();
    let cells = dir.join("base.ndjson");
    for k in 0..6i64 {
        std::fs::write(&cells, ndjson(k * 5000, k * 5000 + 5000)).unwrap();
        let sch = schema.to_str().unwrap();
        run(&[
            "import",
            a,
            "--schema",
            sch,
            "--cells",
            cells.to_str().unwrap(),
        ]);
        if k == 3 {
            run(&["consolidate", a]);
        }
    }
    for k in 0..3 {
        run(&[
            "meta",
            a,
            "put",
            &format!("k{k}"),
            &k.to_string(),
            "--type",
            "INT64",
        ]);
    }
    array
}

/// The commands of the harness, `ARRAY` and `CELLS` standing for the
/// array and a file of new cells.
fn commands(first_fragment_t2: u64) -> Vec<Vec<String>> {
    let v = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    vec![
        v(&["import", "ARRAY", "--cells", "CELLS"]),
        v(&["consolidate", "ARRAY"]),
        v(&["consolidate", "ARRAY", "--mode", "commits"]),
        v(&["consolidate", "ARRAY", "--mode", "fragment_meta"]),
        v(&["consolidate", "ARRAY", "--mode", "array_meta"]),
        v(&["vacuum", "ARRAY"]),
        v(&["delete", "ARRAY", "--where", "d < 12000"]),
        v(&[
            "delete-fragments",
            "ARRAY",
            "--timestamp",
            &format!(":{first_fragment_t2}"),
        ]),
        v(&[
            "evolve",
            "ARRAY",
            "--add-attribute",
            r#"{"name": "z", "datatype": "INT64"}"#,
        ]),
        v(&["meta", "ARRAY", "put", "knew", "7", "--type", "INT64"]),
    ]
}

fn args_for(cmd: &[String], array: &Path, cells: &Path) -> Vec<String> {
    cmd.iter()
        .map(|a| match a.as_str() {
            "ARRAY" => array.to_string_lossy().into_owned(),
            "CELLS" => cells.to_string_lossy().into_owned(),
            _ => a.clone(),
        })
        .collect()
}

/// Ages everything in `array` two hours, vacuums it, and checks that no
/// uncommitted work is left.
fn reclaim(array: &Path) {
    let st = Command::new("find")
        .arg(array)
        .args(["-exec", "touch", "-h", "-d", "2 hours ago", "{}", "+"])
        .status()
        .unwrap();
    assert!(st.success());
    run(&["vacuum", array.to_str().unwrap()]);
    let d = ArrayDirectory::open(array).unwrap();
    assert!(d.uncommitted.is_empty(), "{:?}", d.uncommitted);
    let mut stack = vec![array.to_path_buf()];
    while let Some(p) = stack.pop() {
        for e in std::fs::read_dir(&p).unwrap().flatten() {
            let n = e.file_name().to_string_lossy().into_owned();
            assert!(
                !(n.ends_with(".tmp") || n.starts_with(".tiledb-codec-")),
                "left: {}",
                e.path().display()
            );
            if e.path().is_dir() {
                stack.push(e.path());
            }
        }
    }
}

#[test]
fn killed_commands_leave_the_state_before_or_after() {
    let dir = scratch("crash");
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    eprintln!("seed {seed}");
    let mut rng = Lcg(seed);
    let base = base(&dir);
    let before = engine(&base);
    let first_t2 = ArrayDirectory::open(&base).unwrap().fragments[0].name.t2;
    let cells = dir.join("new.ndjson");
    std::fs::write(&cells, ndjson(100_000, 120_000)).unwrap();
    let cmds = commands(first_t2);
    // Each command run whole once: the state after, and how long it takes.
    let mut afters = Vec::new();
    for (i, cmd) in cmds.iter().enumerate() {
        let copy = dir.join(format!("after{i}"));
        common::copy_dir(&base, &copy);
        let start = Instant::now();
        run(&args_for(cmd, &copy, &cells)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>());
        let took = start.elapsed();
        afters.push((engine(&copy), took));
        let _ = std::fs::remove_dir_all(&copy);
    }
    let started = Instant::now();
    let mut outcomes = [0usize; 3];
    for trial in 0..TRIALS {
        let i = rng.below(cmds.len() as u64) as usize;
        let (after, took) = &afters[i];
        let copy = dir.join(format!("trial{trial}"));
        common::copy_dir(&base, &copy);
        let args = args_for(&cmds[i], &copy, &cells);
        let wait = Duration::from_micros(rng.below(took.as_micros() as u64 + 1));
        let mut child = Command::new(BIN)
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(wait);
        let _ = child.kill();
        let status = child.wait().unwrap();
        let now = engine(&copy);
        let what = format!("trial {trial} (seed {seed}): {args:?} killed after {wait:?}");
        let outcome = if now == before {
            0
        } else if now == *after {
            1
        } else {
            panic!(
                "{what}: the engine reads {} cells, before {} and after {}",
                now.len(),
                before.len(),
                after.len()
            );
        };
        outcomes[outcome] += 1;
        if status.success() {
            outcomes[2] += 1;
        }
        let out = Command::new(BIN)
            .args(["verify", copy.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{what}: verify: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        reclaim(&copy);
        assert_eq!(engine(&copy), now, "{what}: the cells after reclaiming");
        let _ = std::fs::remove_dir_all(&copy);
    }
    eprintln!(
        "{TRIALS} trials in {:?}: {} as before, {} as after ({} finished before the kill)",
        started.elapsed(),
        outcomes[0],
        outcomes[1],
        outcomes[2]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A command stopped at one of its steps, on the array at the path.
type Stop = Box<dyn Fn(&Path)>;

/// The fail points: a fragment write, a consolidation and a vacuum stopped
/// right after each of their steps (as a crash there would leave them);
/// the engine reads the state before or after, and once aged and vacuumed
/// nothing uncommitted is left and the engine reads the same cells.
#[test]
fn stopped_at_every_step_then_reclaimed() {
    use tiledb_codec::maintain::fail_points::{
        consolidate_fragments_failing, vacuum_fragments_failing,
    };
    use tiledb_codec::maintain::{ConsolidateOptions, VacuumOptions};
    use tiledb_codec::raw::write::{
        Column, FailPoint, FragmentWriter, MaintenanceStep, WriteOptions,
    };
    let dir = scratch("crash-steps");
    let base = base(&dir);
    let before = engine(&base);
    let mut written = before.clone();
    written.extend((200_000..200_100).map(|d| (d, d * 3)));
    written.sort_unstable();
    let mut cases: Vec<(String, Stop)> = Vec::new();
    for step in FailPoint::ALL {
        cases.push((
            format!("write {step:?}"),
            Box::new(move |p: &Path| {
                let ds: Vec<i64> = (200_000..200_100).collect();
                let a: Vec<i64> = ds.iter().map(|d| d * 3).collect();
                let cols = vec![
                    Column::fixed("d", ds.iter().flat_map(|x| x.to_le_bytes()).collect()),
                    Column::fixed("a", a.iter().flat_map(|x| x.to_le_bytes()).collect()),
                ];
                let opts = WriteOptions::default().with_fail_after(step);
                let r = FragmentWriter::sparse(p, opts).and_then(|mut w| {
                    w.write(&cols)?;
                    w.finish().map(|_| ())
                });
                assert!(r.is_err(), "{step:?}: not stopped");
            }),
        ));
    }
    for step in MaintenanceStep::CONSOLIDATE {
        cases.push((
            format!("consolidate {step:?}"),
            Box::new(move |p: &Path| {
                let r = consolidate_fragments_failing(p, &ConsolidateOptions::default(), step);
                assert!(r.is_err(), "{step:?}: not stopped");
            }),
        ));
    }
    for step in MaintenanceStep::VACUUM {
        cases.push((
            format!("vacuum {step:?}"),
            Box::new(move |p: &Path| {
                let r = vacuum_fragments_failing(p, &VacuumOptions::default(), step);
                assert!(r.is_err(), "{step:?}: not stopped");
            }),
        ));
    }
    for (i, (what, stop)) in cases.iter().enumerate() {
        let copy = dir.join(format!("step{i}"));
        common::copy_dir(&base, &copy);
        stop(&copy);
        let now = engine(&copy);
        assert!(
            now == before || (now == written && what.starts_with("write")),
            "{what}: the engine reads {} cells, before {}",
            now.len(),
            before.len()
        );
        reclaim(&copy);
        assert_eq!(engine(&copy), now, "{what}: the cells after reclaiming");
        let _ = std::fs::remove_dir_all(&copy);
    }
    eprintln!("{} steps stopped and reclaimed", cases.len());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The durable fail points: every command of the harness (and a metadata
/// delete) stopped right after each of its durable steps in turn (a file
/// written, a folder made, a rename, a removal; the binary's
/// `TILEDB_CODEC_STOP_AFTER_DURABLE_STEP`, which exits there before any
/// clean-up, as a crash would). Each time the engine reads the state before
/// or after the command, `verify` passes, and once aged and vacuumed nothing
/// uncommitted is left and the engine reads the same cells.
#[test]
fn every_command_stopped_after_each_durable_step() {
    const STOPPED: i32 = 86;
    let dir = scratch("crash-durable");
    let base = base(&dir);
    let before = engine(&base);
    let first_t2 = ArrayDirectory::open(&base).unwrap().fragments[0].name.t2;
    let cells = dir.join("new.ndjson");
    std::fs::write(&cells, ndjson(100_000, 100_200)).unwrap();
    let mut cmds = commands(first_t2);
    cmds.push(["meta", "ARRAY", "delete", "k1"].map(String::from).to_vec());
    let started = Instant::now();
    let mut stops = 0;
    for (i, cmd) in cmds.iter().enumerate() {
        let after = {
            let copy = dir.join(format!("after{i}"));
            common::copy_dir(&base, &copy);
            let args = args_for(cmd, &copy, &cells);
            run(&args.iter().map(String::as_str).collect::<Vec<_>>());
            let after = engine(&copy);
            let _ = std::fs::remove_dir_all(&copy);
            after
        };
        for step in 1u32.. {
            assert!(step < 500, "{cmd:?}: no end to its steps");
            let copy = dir.join(format!("cmd{i}-step{step}"));
            common::copy_dir(&base, &copy);
            let args = args_for(cmd, &copy, &cells);
            let out = Command::new(BIN)
                .args(&args)
                .env("TILEDB_CODEC_STOP_AFTER_DURABLE_STEP", step.to_string())
                .output()
                .unwrap();
            let what = format!("{cmd:?} stopped after durable step {step}");
            match out.status.code() {
                Some(0) => {
                    assert!(
                        step > 1,
                        "{cmd:?} took no durable step (the binary needs the \
                         fail-points feature: cargo test --all-features)"
                    );
                    let _ = std::fs::remove_dir_all(&copy);
                    break;
                }
                Some(STOPPED) => {}
                _ => panic!("{what}: {}", String::from_utf8_lossy(&out.stderr)),
            }
            stops += 1;
            let now = engine(&copy);
            assert!(
                now == before || now == after,
                "{what}: the engine reads {} cells, before {} and after {}",
                now.len(),
                before.len(),
                after.len()
            );
            let verify = Command::new(BIN)
                .args(["verify", copy.to_str().unwrap()])
                .output()
                .unwrap();
            assert!(
                verify.status.success(),
                "{what}: verify: {}",
                String::from_utf8_lossy(&verify.stdout)
            );
            reclaim(&copy);
            assert_eq!(engine(&copy), now, "{what}: the cells after reclaiming");
            let _ = std::fs::remove_dir_all(&copy);
        }
    }
    eprintln!(
        "{} commands stopped at {stops} durable steps in {:?}",
        cmds.len(),
        started.elapsed()
    );
    assert!(stops >= cmds.len() * 2, "{stops} stops");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The engine's view of a group: its members and its metadata.
fn engine_group(group: &Path) -> serde_json::Value {
    let out = common::engine_run("engine_account.py", [group]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut g = v["group"].clone();
    if let Some(m) = g["members"].as_array_mut() {
        m.sort_by_key(|x| x.to_string());
    }
    g
}

/// The group commands stopped right after each of their durable steps in
/// turn (`group add`, `group remove`, `group meta put`): the engine lists
/// the group as before or as after, and once aged and vacuumed no
/// temporary is left and it lists the same.
#[test]
fn group_commands_stopped_after_each_durable_step() {
    const STOPPED: i32 = 86;
    let dir = scratch("crash-group");
    let base = base(&dir);
    let (a0, a1) = (dir.join("a0"), dir.join("a1"));
    common::copy_dir(&base, &a0);
    common::copy_dir(&base, &a1);
    let group = dir.join("group");
    let g = group.to_str().unwrap();
    run(&["group", "create", g]);
    run(&["group", "add", g, a0.to_str().unwrap(), "--name", "first"]);
    run(&["group", "meta", g, "put", "k", "1", "--type", "INT64"]);
    let cmds: Vec<Vec<&str>> = vec![
        vec!["add", a1.to_str().unwrap(), "--name", "second"],
        vec!["remove", a0.to_str().unwrap()],
        vec!["meta", "put", "k2", "2", "--type", "INT64"],
    ];
    let before = engine_group(&group);
    let mut stops = 0;
    for cmd in &cmds {
        let on = |copy: &Path| -> Vec<String> {
            let mut args = vec!["group".to_string(), cmd[0].to_string()];
            args.push(copy.to_string_lossy().into_owned());
            args.extend(cmd[1..].iter().map(|s| s.to_string()));
            args
        };
        let done = dir.join("done");
        common::copy_dir(&group, &done);
        let args = on(&done);
        run(&args.iter().map(String::as_str).collect::<Vec<_>>());
        let after = engine_group(&done);
        assert_ne!(after, before, "{cmd:?} changes the group");
        let _ = std::fs::remove_dir_all(&done);
        for step in 1u32..100 {
            let copy = dir.join(format!("step{step}"));
            common::copy_dir(&group, &copy);
            let out = Command::new(BIN)
                .args(on(&copy))
                .env("TILEDB_CODEC_STOP_AFTER_DURABLE_STEP", step.to_string())
                .output()
                .unwrap();
            match out.status.code() {
                Some(0) => {
                    assert!(step > 1, "{cmd:?} took no durable step");
                    let _ = std::fs::remove_dir_all(&copy);
                    break;
                }
                Some(STOPPED) => {}
                _ => panic!("{cmd:?}: {}", String::from_utf8_lossy(&out.stderr)),
            }
            stops += 1;
            let what = format!("group {cmd:?} stopped after durable step {step}");
            let now = engine_group(&copy);
            assert!(now == before || now == after, "{what}: {now}");
            let aged = Command::new("find")
                .arg(&copy)
                .args(["-exec", "touch", "-h", "-d", "2 hours ago", "{}", "+"])
                .status()
                .unwrap();
            assert!(aged.success());
            run(&["vacuum", copy.to_str().unwrap()]);
            let mut stack = vec![copy.clone()];
            while let Some(p) = stack.pop() {
                for e in std::fs::read_dir(&p).unwrap().flatten() {
                    let n = e.file_name().to_string_lossy().into_owned();
                    let temp = (n.starts_with(".tiledb-codec-") || n.ends_with(".tmp"))
                        && n != ".tiledb-codec.lock";
                    assert!(!temp, "{what}: left {}", e.path().display());
                    if e.path().is_dir() {
                        stack.push(e.path());
                    }
                }
            }
            assert_eq!(engine_group(&copy), now, "{what}: after reclaiming");
            let _ = std::fs::remove_dir_all(&copy);
        }
    }
    eprintln!("group commands stopped at {stops} durable steps");
    assert!(stops >= cmds.len(), "{stops} stops");
    let _ = std::fs::remove_dir_all(&dir);
}
