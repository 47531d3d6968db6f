//! Open an array (schema, fragment list, every fragment's footer) and list
//! its fragments; with `--repeat N`, open it N times and print the median
//! time of one open, in seconds: the in-process side of the open benchmark
//! in `bench/compare.py` (the engine's side is timed inside Python too, so
//! neither pays for starting a process).
//!
//! `cargo run --release --example open_fragments -- tests/fixtures/v22/sparse_int_2d`

use std::path::PathBuf;
use std::time::Instant;

use tiledb_codec::Array;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args_os().skip(1);
    let path: PathBuf = args
        .next()
        .map(PathBuf::from)
        .unwrap_or_else(|| "tests/fixtures/v22/sparse_int_2d".into());
    let repeat: usize = match (args.next(), args.next()) {
        (Some(flag), Some(n)) if flag == "--repeat" => n.to_string_lossy().parse()?,
        (None, _) => 0,
        _ => return Err("usage: open_fragments ARRAY [--repeat N]".into()),
    };
    if repeat == 0 {
        let array = Array::open(&path)?;
        for f in array.fragments() {
            println!(
                "{} version {} timestamps {}..{} non-empty domain {:?}",
                f.name(),
                f.format_version(),
                f.timestamps().start(),
                f.timestamps().end(),
                f.non_empty_domain()?
            );
        }
        return Ok(());
    }
    let mut times = Vec::with_capacity(repeat);
    for _ in 0..repeat {
        let t = Instant::now();
        let array = Array::open(&path)?;
        drop(array);
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    println!("{:.6}", times[times.len() / 2]);
    Ok(())
}
