//! Read every tile of every attribute through its filter pipeline and print
//! what each fragment holds: the library call behind `tiledb-codec scan`.
//!
//! `cargo run --example scan_tiles -- tests/fixtures/v22/filters_transforms`

use std::path::PathBuf;

use tiledb_codec::raw::array::FieldInfo;
use tiledb_codec::raw::read::field::read_field;
use tiledb_codec::raw::read::ArrayReader;
use tiledb_codec::ReadOptions;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path: PathBuf = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| "tests/fixtures/v22/filters_transforms".into());
    let opts = ReadOptions::default();
    let reader = ArrayReader::open(&path, &opts)?;
    for frag in &reader.fragments {
        println!("{} (version {})", frag.name.name, frag.version());
        for a in &frag.schema.attributes {
            let name = String::from_utf8_lossy(&a.name);
            let field = FieldInfo::lookup(&frag.schema, &name).ok_or("unknown attribute")?;
            let data = read_field(frag, &field, &opts)?;
            println!(
                "  {name}: {} cells in {} tiles, {} bytes",
                data.len(field.cell_size()),
                data.tile_cells.len(),
                data.values.len()
            );
        }
    }
    Ok(())
}
