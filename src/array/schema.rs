//! Array schema files: a generic tile holding an `ArraySchema`, plus the
//! enumeration files it names.

use std::path::Path;

use crate::error::{Error, Result};
use crate::filters::ReadOptions;
use crate::format::{decode_all, ArraySchema, Enumeration};
use crate::storage::MappedFile;
use crate::tile::read_generic_tile;

/// The newest schema version this crate reads.
pub const MAX_FORMAT_VERSION: u32 = 23;

/// Reads an array schema file.
pub fn read_schema(path: &Path, opts: &ReadOptions) -> Result<ArraySchema> {
    let file = MappedFile::open(path)?;
    let tile = read_generic_tile(&file, 0, opts)?;
    let schema: ArraySchema = decode_all(&tile.data, path, 0, ())?;
    if schema.array_version > MAX_FORMAT_VERSION || schema.array_version == 0 {
        return Err(Error::decode(
            path,
            0,
            "ArraySchema",
            "array_version",
            format!(
                "version {} is not a format version (1 to {MAX_FORMAT_VERSION})",
                schema.array_version
            ),
        ));
    }
    Ok(schema)
}

/// Reads an enumeration file of `__schema/__enumerations`.
pub fn read_enumeration(path: &Path, opts: &ReadOptions) -> Result<Enumeration> {
    let file = MappedFile::open(path)?;
    let tile = read_generic_tile(&file, 0, opts)?;
    decode_all(&tile.data, path, 0, ())
}
