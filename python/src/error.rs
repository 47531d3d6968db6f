//! The package's exceptions: a base `TileDBCodecError` and one subclass per
//! kind of failure the library reports, each carrying what the library
//! knows of where it happened (`file`, `offset`, `table`, `field`; `None`
//! where it does not say).
//!
//! The lower layers' errors (the readers' `raw::error::Error`, the
//! writer's `WriteError`, the Arrow layer's) are first turned into the
//! facade's `tiledb_codec::Error`, also inside an Arrow error; its variant,
//! wherever in the chain of sources it is, says the kind: an error of a read
//! that went through Arrow keeps its kind.

use std::error::Error as StdError;

use arrow_schema::ArrowError;
use pyo3::create_exception;
use pyo3::prelude::*;
use pyo3::types::PyType;
use tiledb_codec::raw::error::Error as ReadError;
use tiledb_codec::raw::write::WriteError;

create_exception!(
    tiledb_codec,
    TileDBCodecError,
    pyo3::exceptions::PyException,
    "An error of tiledb_codec: the library's message; `file`, `offset`, `table` and `field` say where, when the library knows."
);
create_exception!(
    tiledb_codec,
    FormatError,
    TileDBCodecError,
    "Bytes that do not decode as the format says, a filter that cannot reverse a tile, or a part of the format this library does not read."
);
create_exception!(
    tiledb_codec,
    SchemaError,
    TileDBCodecError,
    "A schema the library refuses (`field` names the part)."
);
create_exception!(
    tiledb_codec,
    QueryError,
    TileDBCodecError,
    "A read that cannot apply to the array: an unknown field, a range outside a dimension, a wrong buffer."
);
create_exception!(
    tiledb_codec,
    ConditionError,
    QueryError,
    "A query condition that does not parse or does not fit the schema."
);
create_exception!(
    tiledb_codec,
    StorageError,
    TileDBCodecError,
    "A file or object that could not be read or written (the disk, the object store)."
);
create_exception!(
    tiledb_codec,
    EncryptionKeyError,
    TileDBCodecError,
    "A key missing, wrong, or given for an array that is not encrypted."
);
create_exception!(
    tiledb_codec,
    NotFoundError,
    TileDBCodecError,
    "No array (or group, or object) where one was looked for."
);

/// The kinds, as the subclasses above.
#[derive(Clone, Copy)]
enum Kind {
    Base,
    Format,
    Schema,
    Query,
    Condition,
    Storage,
    Key,
    NotFound,
}

/// What an error says of itself: its kind and where it happened.
struct Facts {
    kind: Kind,
    file: Option<String>,
    offset: Option<u64>,
    table: Option<String>,
    field: Option<String>,
}

impl Facts {
    fn of(kind: Kind) -> Facts {
        Facts {
            kind,
            file: None,
            offset: None,
            table: None,
            field: None,
        }
    }

    fn file(mut self, path: &std::path::Path) -> Facts {
        self.file = Some(path.display().to_string());
        self
    }

    fn field(mut self, field: &str) -> Facts {
        if !field.is_empty() {
            self.field = Some(field.to_string());
        }
        self
    }
}

/// The filter the engine names for AES-256-GCM.
const AES: &str = "AES_256_GCM";

/// The part of a schema an error names: a schema error whose text is
/// another schema error (`schema: json: schema: dimensions[0].domain: ...`,
/// a JSON schema refused when it is parsed) names the inner part.
fn schema_field<'a>(field: &'a str, what: &'a str) -> &'a str {
    let mut field = field;
    let mut what = what;
    while let Some(rest) = what.strip_prefix("schema: ") {
        match rest.split_once(": ") {
            Some((inner, more)) if !inner.is_empty() => {
                field = inner;
                what = more;
            }
            _ => break,
        }
    }
    field
}

fn facade_facts(e: &tiledb_codec::Error) -> Facts {
    use tiledb_codec::Error as E;
    match e {
        E::Decode { location: at, .. } => {
            // The tile header's check of the key (tile.rs) is a decode
            // error of its `encryption_type` field.
            let kind = if at.field == "encryption_type" {
                Kind::Key
            } else {
                Kind::Format
            };
            let mut f = Facts::of(kind).file(&at.file).field(&at.field);
            f.offset = Some(at.offset);
            f.table = Some(at.table.clone());
            f
        }
        E::Io { path, source } => {
            let kind = if source.kind() == std::io::ErrorKind::NotFound {
                Kind::NotFound
            } else {
                Kind::Storage
            };
            Facts::of(kind).file(path)
        }
        E::Filter {
            path,
            offset,
            field,
            filter,
            ..
        } => {
            let kind = if *filter == AES {
                Kind::Key
            } else {
                Kind::Format
            };
            let mut f = Facts::of(kind);
            if let Some(p) = path {
                f = f.file(p);
            }
            if let Some(name) = field {
                f = f.field(name);
            }
            f.offset = *offset;
            f
        }
        E::NotTileDb { path, .. } => Facts::of(Kind::NotFound).file(path),
        // A read of a group (or of an object's metadata) where there is
        // none says so; the other refusals are of changes.
        E::Array { path, what } => {
            let missing = what.starts_with("not a group") || what.starts_with("neither");
            Facts::of(if missing { Kind::NotFound } else { Kind::Base }).file(path)
        }
        E::Unsupported { path, .. } => {
            let f = Facts::of(Kind::Format);
            match path {
                Some(p) => f.file(p),
                None => f,
            }
        }
        E::Query { path, .. } => Facts::of(Kind::Query).file(path),
        E::Condition { .. } => Facts::of(Kind::Condition),
        E::Cells { field, .. }
        | E::NoSuchField { field, .. }
        | E::WrongType { field, .. }
        | E::Shape { field, .. }
        | E::Utf8 { field, .. } => Facts::of(Kind::Query).field(field),
        E::Range { dimension, .. } => Facts::of(Kind::Query).field(dimension),
        E::Schema { field, what } => Facts::of(Kind::Schema).field(schema_field(field, what)),
        _ => Facts::of(Kind::Base),
    }
}

/// `e` with the lower layers' errors in it (the readers', the writer's, the
/// Arrow layer's; also inside an Arrow error, as a stream's batches carry
/// them) turned into the facade's [`tiledb_codec::Error`], so that one
/// mapping ([`facade_facts`]) serves every error.
fn to_facade(e: Box<dyn StdError + Send + Sync>) -> Box<dyn StdError + Send + Sync> {
    let e = match e.downcast::<ReadError>() {
        Ok(r) => return Box::new(tiledb_codec::Error::from(*r)),
        Err(e) => e,
    };
    let e = match e.downcast::<WriteError>() {
        Ok(w) => return Box::new(tiledb_codec::Error::from(*w)),
        Err(e) => e,
    };
    let e = match e.downcast::<tiledb_codec::raw::arrow::Error>() {
        Ok(a) => return Box::new(tiledb_codec::Error::from(*a)),
        Err(e) => e,
    };
    match e.downcast::<ArrowError>() {
        Ok(a) => match *a {
            ArrowError::ExternalError(inner) => {
                Box::new(ArrowError::ExternalError(to_facade(inner)))
            }
            other => Box::new(other),
        },
        Err(e) => e,
    }
}

/// The facts of the first of the facade's errors in the chain from `e`.
fn facts(e: &(dyn StdError + 'static)) -> Facts {
    let mut cur = Some(e);
    while let Some(e) = cur {
        if let Some(x) = e.downcast_ref::<tiledb_codec::Error>() {
            return facade_facts(x);
        }
        cur = e.source();
    }
    Facts::of(Kind::Base)
}

/// The message of `e` and of the errors under it (each once).
fn message(e: &(dyn StdError + 'static)) -> String {
    let mut msg = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !msg.contains(&text) {
            msg.push_str(": ");
            msg.push_str(&text);
        }
        source = s.source();
    }
    msg
}

fn new_err(kind: Kind, msg: String) -> PyErr {
    match kind {
        Kind::Base => TileDBCodecError::new_err(msg),
        Kind::Format => FormatError::new_err(msg),
        Kind::Schema => SchemaError::new_err(msg),
        Kind::Query => QueryError::new_err(msg),
        Kind::Condition => ConditionError::new_err(msg),
        Kind::Storage => StorageError::new_err(msg),
        Kind::Key => EncryptionKeyError::new_err(msg),
        Kind::NotFound => NotFoundError::new_err(msg),
    }
}

/// The Python exception of a library error: its subclass, its message
/// (with the errors under it), and `file`, `offset`, `table`, `field` where
/// it has them.
pub fn error<E: StdError + Send + Sync + 'static>(e: E) -> PyErr {
    let e = to_facade(Box::new(e));
    let f = facts(&*e);
    let err = new_err(f.kind, message(&*e));
    Python::attach(|py| {
        let value = err.value(py);
        // Setting attributes on a fresh exception object cannot fail short
        // of running out of memory; the error is raised either way.
        let _ = value.setattr("file", f.file);
        let _ = value.setattr("offset", f.offset);
        let _ = value.setattr("table", f.table);
        let _ = value.setattr("field", f.field);
    });
    err
}

/// An error of the package's own (a refused argument): the base class.
pub fn refuse(what: impl Into<String>) -> PyErr {
    TileDBCodecError::new_err(what.into())
}

/// A refusal of a key (the wrong length).
pub fn refuse_key(what: impl Into<String>) -> PyErr {
    EncryptionKeyError::new_err(what.into())
}

/// A refusal of a query's arguments.
pub fn refuse_query(what: impl Into<String>) -> PyErr {
    QueryError::new_err(what.into())
}

/// Adds the exceptions to the module, with `file`, `offset`, `table` and
/// `field` defaulting to `None` on the base class (so every instance has
/// them, also one raised from Python).
pub fn add(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let base = py.get_type::<TileDBCodecError>();
    for attr in ["file", "offset", "table", "field"] {
        base.setattr(attr, py.None())?;
    }
    let types: [(&str, Bound<'_, PyType>); 8] = [
        ("TileDBCodecError", base),
        ("FormatError", py.get_type::<FormatError>()),
        ("SchemaError", py.get_type::<SchemaError>()),
        ("QueryError", py.get_type::<QueryError>()),
        ("ConditionError", py.get_type::<ConditionError>()),
        ("StorageError", py.get_type::<StorageError>()),
        ("EncryptionKeyError", py.get_type::<EncryptionKeyError>()),
        ("NotFoundError", py.get_type::<NotFoundError>()),
    ];
    for (name, t) in types {
        m.add(name, t)?;
    }
    Ok(())
}

/// A refusal of a schema (JSON that does not parse).
pub fn refuse_schema(what: impl Into<String>) -> PyErr {
    SchemaError::new_err(what.into())
}
