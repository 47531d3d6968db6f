//! Array schema files: a generic tile holding an `ArraySchema`, plus the
//! enumeration files it names.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::format::hierarchy;
use crate::format::version::{reads_version, MIN_FORMAT_VERSION};
use crate::format::{decode_all, ArraySchema, Enumeration};
use crate::model;

pub use crate::format::schema::{dimension_datatype, enumeration_values, MAX_FORMAT_VERSION};
use crate::storage::{MappedFile, Storage};
use crate::tile::read_generic_tile;
use crate::ReadOptions;

/// Reads an array schema file.
pub fn read_schema(path: &Path, opts: &ReadOptions) -> Result<ArraySchema> {
    read_schema_file(&MappedFile::open(path)?, opts)
}

/// Reads an array schema from its file's bytes.
pub fn read_schema_file(file: &MappedFile, opts: &ReadOptions) -> Result<ArraySchema> {
    let path = file.path();
    let tile = read_generic_tile(file, 0, opts)?;
    let schema: ArraySchema = decode_all(&tile.data, path, 0, ())?;
    if !reads_version(schema.array_version) {
        return Err(Error::decode(
            path,
            0,
            "ArraySchema",
            "array_version",
            format!(
                "version {} is not a format version ({MIN_FORMAT_VERSION} to {MAX_FORMAT_VERSION})",
                schema.array_version
            ),
        ));
    }
    // One value per coordinate, or var-sized (string dimensions): the
    // engine takes no other (`Dimension::set_cell_val_num`), and the
    // readers size coordinates by the datatype alone.
    for d in &schema.domain.dimensions {
        if let Some(n) = d
            .cell_val_num
            .filter(|n| *n != 1 && *n != crate::format::VAR_NUM)
        {
            return Err(Error::decode(
                path,
                0,
                "Dimension",
                "cell_val_num",
                format!(
                    "dimension {:?}: {n} values per cell (one, or var-sized)",
                    String::from_utf8_lossy(&d.name)
                ),
            ));
        }
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
    Ok(array
        .join(hierarchy::SCHEMA)
        .join(hierarchy::ENUMERATIONS)
        .join(name.as_ref()))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{Datatype, Record};

    fn enumeration(cell_val_num: u32, data: &[u8], offsets: Option<&[u64]>) -> Enumeration {
        let offsets = offsets.map(|o| o.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<_>>());
        crate::format::table!(Enumeration {
            version_number: 0,
            name: b"e".to_vec(),
            path_name: b"f".to_vec(),
            datatype: Datatype::Int16,
            cell_val_num,
            ordered: 0,
            data: data.to_vec(),
            // Present with the offsets; `with_sizes` sets the value.
            offsets_size: offsets.as_ref().map(|_| 0),
            offsets,
        })
        .with_sizes()
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
