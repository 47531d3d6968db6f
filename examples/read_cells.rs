//! Open an array, print its schema summary, and print its first cells.
//!
//! `cargo run --example read_cells -- tests/fixtures/v22/sparse_int_2d`

use std::path::PathBuf;

use tiledb_codec::read::{ArrayReader, Query};
use tiledb_codec::ReadOptions;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path: PathBuf = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| "tests/fixtures/v22/sparse_int_2d".into());
    let reader = ArrayReader::open(&path, &ReadOptions::default())?;
    println!(
        "format version {}, {} fragments, {} attributes",
        reader.schema.array_version,
        reader.fragments.len(),
        reader.schema.attributes.len()
    );
    let cells = reader.read(&Query::default())?;
    for i in 0..cells.len.min(5) {
        println!("{}", cells.row(i));
    }
    println!("{} cells", cells.len);
    Ok(())
}
