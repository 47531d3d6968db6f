//! Consolidate an array's fragments into one and vacuum the consolidated
//! fragments, in this process: tiledb-codec's side of
//! `bench/consolidate.sh` (the engine's is `bench/engine_consolidate.py`).
//!
//! `cargo run --release --example bench_consolidate -- ARRAY`
//!
//! Uses the default options (a memory budget of 256 MiB, every timestamp,
//! no progress). Prints `CONSOLIDATE_SECONDS VACUUM_SECONDS FRAGMENTS
//! REMOVED`: the seconds spent in each call, leaving out starting the
//! process, then how many fragments were consolidated and how many files
//! and folders the vacuum removed.

use std::path::PathBuf;
use std::time::Instant;

use tiledb_codec::maintain::{
    consolidate_fragments, vacuum_fragments, ConsolidateOptions, VacuumOptions,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args_os().skip(1);
    let (Some(path), None) = (args.next().map(PathBuf::from), args.next()) else {
        return Err("usage: bench_consolidate ARRAY".into());
    };
    let t = Instant::now();
    let consolidated = consolidate_fragments(&path, &ConsolidateOptions::default())?;
    let consolidate = t.elapsed();
    let t = Instant::now();
    let vacuumed = vacuum_fragments(&path, &VacuumOptions::default())?;
    let vacuum = t.elapsed();
    println!(
        "{:.6} {:.6} {} {}",
        consolidate.as_secs_f64(),
        vacuum.as_secs_f64(),
        consolidated.consolidated.len(),
        vacuumed.removed.len()
    );
    Ok(())
}
