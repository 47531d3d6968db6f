//! Groups and what is at a path: the functions `tiledb_codec.open_group`
//! and `tiledb_codec.object_type` stand on (local paths and `file://`
//! URIs; groups are folders).

use std::path::{Path, PathBuf};

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use tiledb_codec::maintain;
use tiledb_codec::ReadOptions;

use crate::error::{error, refuse};

/// A local path of `uri` (a path, or a `file://` URI).
fn local(uri: &str) -> PyResult<PathBuf> {
    if let Some(p) = uri.strip_prefix("file://") {
        return Ok(PathBuf::from(p));
    }
    if uri.contains("://") {
        return Err(refuse(format!(
            "{uri}: groups are read from local folders (a path or a file:// URI)"
        )));
    }
    Ok(PathBuf::from(uri))
}

/// What is at `uri`: `"array"`, `"group"`, or `None`.
#[pyfunction]
pub fn object_type(py: Python<'_>, uri: &str) -> PyResult<Option<String>> {
    let path = local(uri)?;
    Ok(py
        .detach(|| maintain::object_type(&path))
        .map(|t| t.to_string()))
}

/// A member of a group as Python takes it: name (or `None`), URI as
/// stored, type (`"array"`, `"group"`), whether the URI is relative, and
/// the path it points to (`None` for a URI of another scheme).
type Member = (Option<String>, String, String, bool, Option<PathBuf>);

/// The members of the group at `uri`, ordered by name (or URI for the
/// unnamed).
#[pyfunction]
#[pyo3(signature = (uri, key=None))]
pub fn group_members(py: Python<'_>, uri: &str, key: Option<Vec<u8>>) -> PyResult<Vec<Member>> {
    let path = local(uri)?;
    let opts = ReadOptions::default().with_encryption_key(crate::key_of(key)?);
    let members = py
        .detach(|| maintain::group_members(&path, &opts))
        .map_err(error)?;
    Ok(members
        .into_iter()
        .map(|m| {
            let at = maintain::member_path(&path, &m);
            let ty = m.object_type.to_string();
            (m.name, m.uri, ty, m.relative, at)
        })
        .collect())
}

/// The metadata of the array or group at `uri`: (key, datatype name,
/// little-endian bytes) triples, by key.
#[pyfunction]
#[pyo3(signature = (uri, key=None))]
pub fn object_metadata<'py>(
    py: Python<'py>,
    uri: &str,
    key: Option<Vec<u8>>,
) -> PyResult<Vec<(String, &'static str, Bound<'py, PyBytes>)>> {
    let path = local(uri)?;
    let opts = ReadOptions::default().with_encryption_key(crate::key_of(key)?);
    let meta = py
        .detach(|| tiledb_codec::maintain::read_metadata(Path::new(&path), &opts))
        .map_err(error)?;
    Ok(meta
        .into_iter()
        .map(|(k, v)| (k, v.datatype.name(), PyBytes::new(py, &v.bytes)))
        .collect())
}
