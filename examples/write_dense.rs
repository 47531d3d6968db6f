//! Create a 1-D dense float64 array and write it in one fragment: the
//! library calls behind the write half of `bench/write.sh`.
//!
//! `cargo run --release --example write_dense -- OUT [MIB] [none|zstd]`
//!
//! The array: dimension `d` (INT64, 8 MiB tiles of 1,048,576 cells),
//! attribute `v` (FLOAT64, no filter or ZSTD at the engine's default level).
//! The values are [`value`], which `bench/engine_write.py` computes the same
//! way. As the engine's side (`A[:] = data`), the values are made first and
//! handed to one `write` call. With ZSTD the writer filters each whole
//! tile where the values are, a few tiles at once on the thread pool,
//! writing the tiles done in order; unfiltered, it copies the values a row
//! of tiles at a time (tiles kept as they are go to the files from a tile
//! it owns) while the tiles before are written.
//! Prints the seconds spent in the library (creating the array, writing,
//! committing) and the CPU seconds of the process (every thread) in that
//! time, leaving out making the values.
use std::path::PathBuf;
use std::time::Instant;

use tiledb_codec::raw::model::Filter;
use tiledb_codec::raw::write::{Column, FragmentWriter, WriteOptions};
use tiledb_codec::{Array, AttributeBuilder, Datatype, DimensionBuilder, SchemaBuilder};

/// Cells of a space tile: 8 MiB of float64.
const TILE: u64 = 1 << 20;

/// Cell `i`: a slow ramp plus 32 bits of hashed noise. Every step is one
/// correctly rounded operation, so numpy gives the same bits.
fn value(i: u64) -> f64 {
    let h = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
    i as f64 * (1.0 / 1024.0) + h as f64 * (1.0 / 4_294_967_296.0)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let out = PathBuf::from(
        args.next()
            .ok_or("usage: write_dense OUT [MIB] [none|zstd]")?,
    );
    let mib: u64 = args.next().map_or(Ok(256), |s| s.parse())?;
    let filters = match args.next().as_deref().unwrap_or("none") {
        "none" => vec![],
        "zstd" => vec![Filter::Zstd { level: -1 }],
        other => return Err(format!("unknown filter {other:?}").into()),
    };
    let cells = mib * (1 << 20) / 8;

    // The values, made before the clock starts (as numpy makes the
    // engine's).
    let mut data = Vec::with_capacity(cells as usize * 8);
    for i in 0..cells {
        data.extend_from_slice(&value(i).to_le_bytes());
    }
    let column = Column::fixed("v", data);

    let cpu = cpu_seconds();
    let t = Instant::now();
    let schema = SchemaBuilder::dense()
        .dimension(
            DimensionBuilder::new("d", Datatype::Int64)
                .domain(0..=cells - 1)
                .tile_extent(TILE),
        )
        .attribute(AttributeBuilder::new("v", Datatype::Float64).filters(filters))
        .build()?;
    Array::create(&out, &schema)?;
    let rect = [(0, i128::from(cells) - 1)];
    let mut writer = FragmentWriter::dense(&out, &rect, WriteOptions::default())?;
    writer.write(std::slice::from_ref(&column))?;
    let info = writer.finish()?;
    let in_library = t.elapsed();
    let cpu = cpu_seconds().zip(cpu).map(|(b, a)| b - a);

    eprintln!(
        "{}: {} cells in {} tiles",
        info.name, info.cells, info.tiles
    );
    // The wall seconds last: `bench/compare_write.py` reads the last number.
    match cpu {
        Some(c) => println!("cpu {c:.2} {:.4}", in_library.as_secs_f64()),
        None => println!("{:.4}", in_library.as_secs_f64()),
    }
    Ok(())
}

/// User and system CPU seconds of this process, every thread
/// (`/proc/self/stat`, in clock ticks of 1/100 s); `None` where there is no
/// such file.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command's closing parenthesis: state is the
    // first, utime the 12th, stime the 13th.
    let rest = &stat[stat.rfind(')')? + 1..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}
