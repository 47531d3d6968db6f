//! Create a 1-D dense float64 array and write it in one fragment, a tile's
//! worth of cells at a time: the library calls behind the write half of
//! `bench/write.sh`.
//!
//! `cargo run --release --example write_dense -- OUT [MIB] [none|zstd]`
//!
//! The array: dimension `d` (INT64, 8 MiB tiles of 1,048,576 cells),
//! attribute `v` (FLOAT64, no filter or ZSTD at the engine's default level).
//! The values are [`value`], which `bench/engine_write.py` computes the same
//! way. Prints the seconds spent in the library (creating the array,
//! writing, committing), leaving out making the values.

use std::path::PathBuf;
use std::time::{Duration, Instant};

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

    let mut in_library = Duration::ZERO;
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
    in_library += t.elapsed();

    // One tile of values at a time: the writer holds one row of tiles and
    // the tiles being filtered, never the whole array.
    let mut column = Column::fixed("v", Vec::with_capacity(TILE as usize * 8));
    for lo in (0..cells).step_by(TILE as usize) {
        column.data.clear();
        for i in lo..(lo + TILE).min(cells) {
            column.data.extend_from_slice(&value(i).to_le_bytes());
        }
        let t = Instant::now();
        writer.write(std::slice::from_ref(&column))?;
        in_library += t.elapsed();
    }
    let t = Instant::now();
    let info = writer.finish()?;
    in_library += t.elapsed();

    eprintln!(
        "{}: {} cells in {} tiles",
        info.name, info.cells, info.tiles
    );
    println!("{:.4}", in_library.as_secs_f64());
    Ok(())
}
