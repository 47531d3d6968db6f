//! Array schema files: a generic tile holding an `ArraySchema`, plus the
//! enumeration files it names.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::format::{decode_all, ArraySchema, Datatype, Dimension, Enumeration};
use crate::model;
use crate::storage::{MappedFile, Storage};
use crate::tile::read_generic_tile;
use crate::ReadOptions;

/// The newest schema version this crate reads.
pub const MAX_FORMAT_VERSION: u32 = 23;

/// The datatype of a dimension (before version 5, the domain's), as its code.
pub fn dimension_datatype(s: &ArraySchema, d: &Dimension) -> u8 {
    d.datatype.or(s.domain.domain_datatype).unwrap_or(u8::MAX)
}

/// Reads an array schema file.
pub fn read_schema(path: &Path, opts: &ReadOptions) -> Result<ArraySchema> {
    read_schema_file(&MappedFile::open(path)?, opts)
}

/// Reads an array schema from its file's bytes.
pub fn read_schema_file(file: &MappedFile, opts: &ReadOptions) -> Result<ArraySchema> {
    let path = file.path();
    let tile = read_generic_tile(file, 0, opts)?;
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

/// The file of the enumeration named `filename` in the schema of the array
/// at `array`: `__schema/__enumerations/<filename>`. The name comes from the
/// schema file, so anything but a plain file name is an error.
pub fn enumeration_path(array: &Path, filename: &[u8]) -> Result<PathBuf> {
    let name = String::from_utf8_lossy(filename);
    if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\\']) {
        return Err(Error::NotTileDb {
            path: array.to_path_buf(),
            what: format!("enumeration file name {name:?} is not a file name"),
        });
    }
    Ok(array.join("__schema/__enumerations").join(name.as_ref()))
}

/// The typed schema of the array at `array` whose table is `table` (read
/// from `schema_path`), with its enumerations read through `storage` from
/// their files (format_spec/enumeration.md). An enumeration that does not
/// decode is an error naming its own file.
pub fn read_typed_schema(
    storage: &dyn Storage,
    array: &Path,
    table: &ArraySchema,
    schema_path: &Path,
    opts: &ReadOptions,
) -> Result<model::Schema> {
    let mut enums = Vec::new();
    for entry in table.enumerations.iter().flatten() {
        let file = enumeration_path(array, &entry.filename)?;
        let e = read_enumeration_file(&storage.open(&file)?, opts)?;
        model::Enumeration::from_table(&e, &file)?;
        enums.push(e);
    }
    model::Schema::from_table(table, &enums, schema_path)
}

/// Reads an enumeration file of `__schema/__enumerations`.
pub fn read_enumeration(path: &Path, opts: &ReadOptions) -> Result<Enumeration> {
    read_enumeration_file(&MappedFile::open(path)?, opts)
}

/// Reads an enumeration from its file's bytes.
pub fn read_enumeration_file(file: &MappedFile, opts: &ReadOptions) -> Result<Enumeration> {
    let path = file.path();
    let tile = read_generic_tile(file, 0, opts)?;
    decode_all(&tile.data, path, 0, ())
}

/// The values of an enumeration, each as its bytes: fixed-size values of
/// `cell_val_num` datatype values each, or var-sized ones cut at the
/// offsets (format_spec/enumeration.md). Checked against the data size, so a
/// damaged file gives an error, not a panic.
pub fn enumeration_values<'a>(e: &'a Enumeration, path: &Path) -> Result<Vec<&'a [u8]>> {
    let bad = |field: &str, what: String| Error::decode(path, 0, "Enumeration", field, what);
    let dt = Datatype::from_value(e.datatype)
        .ok_or_else(|| bad("datatype", format!("{} is not a datatype", e.datatype)))?;
    let data = e.data.as_slice();
    if e.cell_val_num == u32::MAX {
        let raw = e.offsets.as_deref().unwrap_or_default();
        if !raw.len().is_multiple_of(8) {
            return Err(bad(
                "offsets",
                format!("{} bytes is not a whole number of u64 offsets", raw.len()),
            ));
        }
        let starts: Vec<u64> = raw
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default()))
            .collect();
        let mut out = Vec::with_capacity(starts.len());
        for (i, &start) in starts.iter().enumerate() {
            let end = starts.get(i + 1).copied().unwrap_or(data.len() as u64);
            if start > end || end > data.len() as u64 {
                return Err(bad(
                    "offsets",
                    format!(
                        "value {i} spans bytes {start}..{end} of {} bytes of data",
                        data.len()
                    ),
                ));
            }
            out.push(&data[start as usize..end as usize]);
        }
        return Ok(out);
    }
    let width = dt.size() * u64::from(e.cell_val_num);
    if width == 0 || !(data.len() as u64).is_multiple_of(width) {
        return Err(bad(
            "data",
            format!(
                "{} bytes is not a whole number of values of {width} bytes",
                data.len()
            ),
        ));
    }
    Ok(data.chunks_exact(width as usize).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enumeration(cell_val_num: u32, data: &[u8], offsets: Option<&[u64]>) -> Enumeration {
        let offsets = offsets.map(|o| o.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<_>>());
        Enumeration {
            version_number: 0,
            name_length: 1,
            name: b"e".to_vec(),
            path_name_length: 1,
            path_name: b"f".to_vec(),
            datatype: Datatype::Int16.value(),
            cell_val_num,
            ordered: 0,
            data_size: data.len() as u64,
            data: data.to_vec(),
            offsets_size: offsets.as_ref().map(|o| o.len() as u64),
            offsets,
        }
    }

    #[test]
    fn enumeration_values_are_cut_by_size_or_offsets() {
        let p = Path::new("f");
        let e = enumeration(2, &[1, 0, 2, 0, 3, 0, 4, 0], None);
        assert_eq!(
            enumeration_values(&e, p).unwrap(),
            [&[1, 0, 2, 0][..], &[3, 0, 4, 0]]
        );
        let e = enumeration(u32::MAX, &[1, 0, 2, 0, 3, 0], Some(&[0, 2]));
        assert_eq!(
            enumeration_values(&e, p).unwrap(),
            [&[1, 0][..], &[2, 0, 3, 0]]
        );
    }

    #[test]
    fn damaged_enumeration_values_are_errors() {
        let p = Path::new("f");
        let e = enumeration(2, &[1, 0, 2], None);
        let err = enumeration_values(&e, p).unwrap_err().to_string();
        assert!(err.contains("Enumeration.data"), "{err}");
        let e = enumeration(u32::MAX, &[1, 0], Some(&[0, 9]));
        let err = enumeration_values(&e, p).unwrap_err().to_string();
        assert!(err.contains("Enumeration.offsets"), "{err}");
        let e = enumeration(u32::MAX, &[1, 0], Some(&[2, 0]));
        assert!(enumeration_values(&e, p).is_err());
    }
}
