//! Issue 47, item 1, in an object store: `vacuum` of an array in S3 (moto)
//! reclaims the objects of a killed consolidation by their age in the
//! store (`last_modified`), not by the time its staged copy was made, and
//! leaves fresh uncommitted work alone.

use crate::common;
use crate::maintain_reclaim::{fragment_folders, kill, ndjson, run, spawn, wait_for_new_folder};
use crate::object_store::{objects, upload, Moto};
use common::scratch;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::json;

/// Runs a consolidation of `array` and kills it once its folder appears;
/// the folder left.
fn killed_consolidation(array: &Path) -> PathBuf {
    let known = fragment_folders(array);
    let c = spawn(&[
        "consolidate",
        array.to_str().unwrap(),
        "--memory-budget",
        "200000",
    ]);
    assert!(
        wait_for_new_folder(array, &known, Duration::from_secs(30)),
        "the consolidation wrote nothing"
    );
    let new: Vec<PathBuf> = fragment_folders(array)
        .into_iter()
        .filter(|f| !known.contains(f))
        .collect();
    assert_eq!(new.len(), 1, "{new:?}");
    // Killed once it has written a file: a store holds no empty folder.
    let start = std::time::Instant::now();
    while std::fs::read_dir(&new[0]).map_or(0, |d| d.count()) == 0 {
        assert!(start.elapsed() < Duration::from_secs(30), "no file written");
        std::thread::sleep(Duration::from_micros(200));
    }
    kill(c);
    new[0].clone()
}

fn cli(moto: &Moto, args: &[&str]) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tiledb-codec"));
    cmd.args(args);
    moto.env(&mut cmd);
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn name(p: &Path) -> String {
    p.file_name().unwrap().to_string_lossy().into_owned()
}

#[test]
fn vacuum_in_a_store_reclaims_by_the_objects_age() {
    let moto = Moto::start();
    moto.bucket("reclaim");
    let dir = scratch("s3-reclaim");
    let schema = dir.join("schema.json");
    let s = json!({
        "array_type": "sparse",
        "capacity": 1000,
        "cell_order": "row-major",
        "tile_order": "row-major",
        "allows_duplicates": false,
        "dimensions": [
            {"name": "d", "datatype": "INT64", "domain": [0, 9_999_999], "tile_extent": 1000}
        ],
        "attributes": [{"name": "a", "datatype": "INT64"}]
    });
    std::fs::write(&schema, s.to_string()).unwrap();
    let local = dir.join("array");
    let a = local.to_str().unwrap();
    let cells = dir.join("cells.ndjson");
    for k in 0..3 {
        std::fs::write(&cells, ndjson(k * 40_000, k * 40_000 + 40_000)).unwrap();
        let sch = schema.to_str().unwrap();
        run(&[
            "import",
            a,
            "--schema",
            sch,
            "--cells",
            cells.to_str().unwrap(),
        ]);
    }
    let old = killed_consolidation(&local);
    let url = "s3://reclaim/array";
    let (storage, root) = moto.open(url);
    upload(&storage, &local, &root);
    // Eight seconds later, a second killed consolidation's objects.
    std::thread::sleep(Duration::from_secs(8));
    let fresh = killed_consolidation(&local);
    let fresh_key = root.join("__fragments").join(name(&fresh));
    upload(&storage, &fresh, &fresh_key);

    let dry = cli(
        &moto,
        &["vacuum", "--dry-run", url, "--abandoned-after", "4s"],
    );
    assert!(dry.contains(&name(&old)), "{dry}");
    assert!(!dry.contains(&name(&fresh)), "{dry}");
    cli(&moto, &["vacuum", url, "--abandoned-after", "4s"]);
    let left = objects(&moto, url);
    assert!(!left.iter().any(|o| o.contains(&name(&old))), "{left:#?}");
    assert!(left.iter().any(|o| o.contains(&name(&fresh))), "{left:#?}");
    // By the default rule (10 minutes) the fresh work stays.
    let dry = cli(&moto, &["vacuum", "--dry-run", url]);
    assert!(!dry.contains(&name(&fresh)), "{dry}");

    let engine = moto.engine_cells(&[(url.to_string(), None)]);
    let mut ds: Vec<i64> = engine[0]
        .as_ref()
        .unwrap()
        .iter()
        .map(|c| c["d"].as_i64().unwrap())
        .collect();
    ds.sort_unstable();
    assert_eq!(ds, (0..120_000).collect::<Vec<i64>>());
    let _ = std::fs::remove_dir_all(&dir);
}
