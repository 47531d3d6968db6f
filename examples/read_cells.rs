//! Open an array, print what it holds, and print its first cells.
//!
//! `cargo run --example read_cells -- tests/fixtures/v22/sparse_int_2d`

use std::path::PathBuf;

use tiledb_codec::Array;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path: PathBuf = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| "tests/fixtures/v22/sparse_int_2d".into());
    let array = Array::open(&path)?;
    println!("fields: {}", array.field_names().join(", "));
    let mut total = 0;
    for batch in array.reader().batch_size(1024).build()? {
        let batch = batch?;
        for i in 0..batch.len() {
            if total + i < 5 {
                println!("{}", tiledb_codec::raw::cells(&batch).row(i));
            }
        }
        total += batch.len();
    }
    println!("{total} cells");
    Ok(())
}
