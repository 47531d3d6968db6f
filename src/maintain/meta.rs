//! Metadata of an array or a group (format_spec/metadata.md): both keep it
//! in `__meta`, one file per change, so one set of functions serves both.
//! Values come typed by their datatype, from text as a person writes them
//! ([`parse_metadata_value`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::array::directory::ArrayDirectory;
use crate::array::metadata::read_array_metadata;
use crate::format::Datatype;
use crate::model::MetadataValue;
use crate::write::{self, MetadataOptions, WriteError, WriteResult};
use crate::ReadOptions;

use super::group::object_type;

/// A datatype by its format name, in any case (`INT32`, `string_utf8`,
/// `DATETIME_DAY`...).
pub fn parse_datatype(name: &str) -> Option<Datatype> {
    Datatype::ALL
        .iter()
        .copied()
        .find(|d| d.name().eq_ignore_ascii_case(name.trim()))
}

fn hex_bytes(s: &str) -> Result<Vec<u8>, String> {
    let h: String = s
        .trim()
        .trim_start_matches("0x")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    if !h.len().is_multiple_of(2) {
        return Err(format!("{s:?} is not hex: an odd number of digits"));
    }
    (0..h.len())
        .step_by(2)
        .map(|i| {
            u8::from_str_radix(&h[i..i + 2], 16)
                .map_err(|_| format!("{s:?} is not hex (two digits a byte)"))
        })
        .collect()
}

/// The bytes of a metadata value of `datatype` written as text:
///
/// * STRING_ASCII, STRING_UTF8, CHAR and GEOM_WKT: the text itself;
///   STRING_UTF16/STRING_UCS2 as UTF-16 code units, STRING_UTF32/STRING_UCS4
///   as code points;
/// * BLOB and GEOM_WKB: hex, two digits a byte (an optional `0x`, spaces
///   ignored);
/// * numbers, BOOL (`true`, `false`, `1`, `0`) and the date and time types
///   (integers in their unit): one value, or several separated by commas
///   (metadata holds a list of values); floats also take `nan`, `inf`,
///   `-inf`.
///
/// ANY is refused, as the engine refuses it.
pub fn parse_metadata_value(datatype: Datatype, text: &str) -> Result<Vec<u8>, String> {
    use crate::format::DatatypeClass as C;
    match datatype.class() {
        C::Any => Err("a metadata value cannot be of type ANY".into()),
        // Text by its code unit: bytes, UTF-16 or code points.
        C::String => Ok(match datatype.size() {
            1 => text.as_bytes().to_vec(),
            2 => text.encode_utf16().flat_map(|u| u.to_le_bytes()).collect(),
            _ => text
                .chars()
                .flat_map(|c| u32::from(c).to_le_bytes())
                .collect(),
        }),
        C::Bytes if datatype == Datatype::GeomWkt => Ok(text.as_bytes().to_vec()),
        C::Bytes => hex_bytes(text),
        _ => {
            let d = datatype;
            let mut out = Vec::new();
            for tok in text.split(',') {
                let tok = tok.trim();
                let v = match tok.to_ascii_lowercase().as_str() {
                    "true" if d == Datatype::Bool => Value::Bool(true),
                    "false" if d == Datatype::Bool => Value::Bool(false),
                    "nan" | "inf" | "+inf" | "-inf" | "infinity" | "-infinity" => {
                        Value::String(tok.to_string())
                    }
                    _ => serde_json::from_str::<Value>(tok)
                        .ok()
                        .filter(Value::is_number)
                        .ok_or_else(|| format!("{tok:?} is not a {} value", d.name()))?,
                };
                crate::model::value::from_json::push_value(d, &v, &mut out)?;
            }
            Ok(out)
        }
    }
}

fn check_object(path: &Path) -> WriteResult<()> {
    if object_type(path).is_some() {
        Ok(())
    } else {
        Err(WriteError::Array {
            path: path.to_path_buf(),
            what: "neither an array nor a group".into(),
        })
    }
}

/// The metadata of an array or group: every `__meta` file merged (a later
/// value replaces an earlier, a deletion removes the key).
pub fn read_metadata(
    path: &Path,
    opts: &ReadOptions,
) -> WriteResult<BTreeMap<String, MetadataValue>> {
    check_object(path)?;
    let dir = ArrayDirectory::open(path)?;
    Ok(read_array_metadata(&dir, opts)?)
}

/// Sets `key` of an array's or group's metadata to `value` (values of
/// `datatype`, little-endian, back to back); returns the file written.
pub fn put(
    path: &Path,
    key: &str,
    datatype: Datatype,
    value: &[u8],
    opts: &MetadataOptions,
) -> WriteResult<PathBuf> {
    check_object(path)?;
    if datatype == Datatype::Any {
        return Err(WriteError::cells(
            key,
            "a metadata value cannot be of type ANY",
        ));
    }
    write::put_metadata_with(path, key, datatype, value, opts)
}

/// Deletes `key` of an array's or group's metadata; returns the file
/// written. Refused, with nothing written, when the key is not set (the
/// engine would write a deletion of nothing).
pub fn delete(path: &Path, key: &str, opts: &MetadataOptions) -> WriteResult<PathBuf> {
    check_object(path)?;
    let read = ReadOptions {
        encryption_key: opts.encryption_key,
        ..ReadOptions::default()
    };
    if !read_metadata(path, &read)?.contains_key(key) {
        return Err(WriteError::Array {
            path: path.to_path_buf(),
            what: format!("no metadata key {key:?}"),
        });
    }
    write::delete_metadata_with(path, key, opts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_parse_by_datatype() {
        let p = parse_metadata_value;
        assert_eq!(p(Datatype::Int16, "-2, 3").unwrap(), [0xfe, 0xff, 3, 0]);
        assert!(p(Datatype::Uint8, "256").is_err());
        assert!(p(Datatype::Int32, "x").is_err());
        assert_eq!(p(Datatype::Float32, "1.5").unwrap(), 1.5f32.to_le_bytes());
        assert!(
            f64::from_le_bytes(p(Datatype::Float64, "nan").unwrap().try_into().unwrap()).is_nan()
        );
        assert_eq!(p(Datatype::Bool, "true,0").unwrap(), [1, 0]);
        assert_eq!(p(Datatype::StringUtf8, "a,b").unwrap(), b"a,b");
        assert_eq!(p(Datatype::Blob, "0x00ff 10").unwrap(), [0, 255, 16]);
        assert!(p(Datatype::Blob, "abc").is_err());
        assert_eq!(
            p(Datatype::DatetimeDay, "-1").unwrap(),
            (-1i64).to_le_bytes()
        );
        assert!(p(Datatype::Any, "1").is_err());
        assert_eq!(parse_datatype("string_utf8"), Some(Datatype::StringUtf8));
    }
}
