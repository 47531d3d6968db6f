//! The spec language's model: what a `spec/*.toml` document holds, as
//! serde reads it (the keys are documented in `spec/README.md`).

use serde::Deserialize;

use super::{names, values, versions};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Document {
    pub(crate) title: String,
    pub(crate) source: String,
    #[serde(default)]
    pub(crate) doc: Option<String>,
    #[serde(default)]
    pub(crate) code: Vec<CodeTable>,
    #[serde(default)]
    pub(crate) table: Vec<Table>,
    #[serde(default)]
    pub(crate) union: Vec<Union>,
    /// Named format versions, features and file names: build/versions.rs.
    #[serde(default)]
    pub(crate) version: Vec<versions::NamedVersion>,
    #[serde(default)]
    pub(crate) feature: Vec<versions::Feature>,
    #[serde(default)]
    pub(crate) name: Vec<versions::Name>,
    /// The timestamped-name grammar: build/names.rs.
    #[serde(default)]
    pub(crate) layout: Vec<names::Layout>,
    #[serde(default)]
    pub(crate) data_file: Vec<names::DataFileNaming>,
    /// Limits and markers of the format: codegen/values.rs.
    #[serde(default)]
    pub(crate) constant: Vec<values::Constant>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CodeTable {
    pub(crate) name: String,
    pub(crate) repr: String,
    #[serde(default)]
    pub(crate) doc: Option<String>,
    /// Prefix of the C API names (`TILEDB_`, `TILEDB_FILTER_`), for documentation.
    #[serde(default)]
    pub(crate) c_prefix: Option<String>,
    /// Codes the table does not list decode as `Unknown(code)`.
    #[serde(default)]
    pub(crate) open: bool,
    pub(crate) values: Vec<CodeValue>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CodeValue {
    pub(crate) name: String,
    pub(crate) value: i64,
    #[serde(default)]
    pub(crate) size: Option<u64>,
    #[serde(default)]
    pub(crate) since: Option<u32>,
    #[serde(default)]
    pub(crate) doc: Option<String>,
    // The datatype table's own columns (build/datatypes.rs).
    #[serde(default)]
    pub(crate) class: Option<String>,
    #[serde(default)]
    pub(crate) native: Option<String>,
    #[serde(default)]
    pub(crate) unit: Option<String>,
    #[serde(default)]
    pub(crate) fill: Option<String>,
    #[serde(default)]
    pub(crate) arrow: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Table {
    pub(crate) name: String,
    /// The table's heading in the spec document.
    pub(crate) spec: String,
    #[serde(default)]
    pub(crate) anchor: Option<String>,
    #[serde(default)]
    pub(crate) doc: Option<String>,
    #[serde(default)]
    pub(crate) imports: Vec<String>,
    /// Expression giving the format version that `since`/`until` compare with.
    #[serde(default)]
    pub(crate) version: Option<String>,
    #[serde(default)]
    pub(crate) big_endian: bool,
    /// Generate `X::append(out, ..)`, which writes the record into a `Vec`
    /// from its imports and values, computing its sizes (codegen/append.rs).
    #[serde(default)]
    pub(crate) append: bool,
    #[serde(rename = "field", default)]
    pub(crate) fields: Vec<Field>,
    /// Derived values the fields' expressions name (codegen/values.rs).
    #[serde(rename = "value", default)]
    pub(crate) values: Vec<values::NamedValue>,
    /// Bytes the record states the size of but does not hold (the tile
    /// after a generic tile's header): a `size_of` may name them, and the
    /// generated `with_outside_sizes` takes them (codegen/writers.rs).
    #[serde(default)]
    pub(crate) outside: Vec<Outside>,
}

/// Bytes outside a record whose size one of its fields states.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Outside {
    /// snake_case; the argument's name in `with_outside_sizes`.
    pub(crate) name: String,
    /// What the bytes are and where they are written.
    pub(crate) doc: String,
    /// A list of byte slices (one size each, stated by a `list<int>`
    /// field), not one.
    #[serde(default)]
    pub(crate) list: bool,
    /// A list of files a writer streams elsewhere, each measured by a
    /// [`PartFile`](crate::PartFile): `with_outside_sizes` takes the files,
    /// not their bytes (codegen/parts.rs).
    #[serde(default)]
    pub(crate) file: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Field {
    pub(crate) name: String,
    pub(crate) spec: String,
    #[serde(rename = "type")]
    pub(crate) ty: String,
    #[serde(default)]
    pub(crate) doc: Option<String>,
    #[serde(default)]
    pub(crate) code: Option<String>,
    #[serde(default)]
    pub(crate) since: Option<u32>,
    #[serde(default)]
    pub(crate) until: Option<u32>,
    #[serde(rename = "if", default)]
    pub(crate) cond: Option<String>,
    #[serde(default)]
    pub(crate) len: Option<String>,
    #[serde(default)]
    pub(crate) count: Option<String>,
    #[serde(default)]
    pub(crate) args: Vec<String>,
    /// For a list whose elements each take their own arguments: an
    /// expression yielding a slice; element `i` is read with `(slice[i],)`.
    #[serde(default)]
    pub(crate) each: Option<String>,
    /// A list that runs to the end of the stream (entries of a metadata
    /// tile, lines of a text file).
    #[serde(default)]
    pub(crate) to_end: bool,
    /// A condition the value must meet; the error names the field.
    #[serde(default)]
    pub(crate) assert: Option<String>,
    /// The (later) field whose encoded byte length this field states, when
    /// no `len` names it: the generated `with_sizes` sets it and `check`
    /// compares (codegen/writers.rs).
    #[serde(default)]
    pub(crate) size_of: Option<String>,
    /// The value the format fixes for this integer (a count the engine
    /// writes as a literal): `with_sizes` sets it, `check` refuses another.
    #[serde(default)]
    pub(crate) fixed: Option<u64>,
    /// A list (the last field) that a writer streams element by element
    /// after the fields before it: the generated `X::head(count)` encodes
    /// those (codegen/writers.rs).
    #[serde(default)]
    pub(crate) stream: bool,
    /// The `outside` of the table (a part of the file the record indexes)
    /// whose start this integer states, or, of a `list` outside, whose
    /// starts this `list<int>` states: the generated `XParts` measures them
    /// as the parts are written (codegen/parts.rs).
    #[serde(default)]
    pub(crate) offset_of: Option<String>,
    /// The `list` outside of the table whose number of parts this integer
    /// states (codegen/counts.rs).
    #[serde(default)]
    pub(crate) count_of: Option<String>,
    /// With `count_of`: the condition (over earlier fields) under which the
    /// parts are counted; where it does not hold the count is 0 (a dense
    /// fragment's footer counts no sparse tiles).
    #[serde(default)]
    pub(crate) count_if: Option<String>,
    /// The `list` outside of the table whose last part's value this integer
    /// states, the parts being integers (codegen/counts.rs).
    #[serde(default)]
    pub(crate) last_of: Option<String>,
    /// The `list` outside of the table whose parts this `bytes` field holds
    /// one after another (codegen/joined.rs).
    #[serde(default)]
    pub(crate) joins: Option<String>,
    /// The `list` outside of the table where each of whose parts starts in
    /// the field that `joins` them, a u64 each (codegen/joined.rs).
    #[serde(default)]
    pub(crate) starts_of: Option<String>,
    /// The later `bytes` field this integer counts the values of, each
    /// `unit` bytes: `with_sizes` sets it (codegen/lengths.rs).
    #[serde(default)]
    pub(crate) count_in: Option<String>,
    /// With `count_in`: the bytes of one value (an expression of fields).
    #[serde(default)]
    pub(crate) unit: Option<String>,
    /// The `list` outside of the table whose parts follow the record, each
    /// element of this list stating where its part starts in its field
    /// `place` (codegen/after.rs).
    #[serde(default)]
    pub(crate) places: Option<String>,
    /// With `places`: the element's field that states the start.
    #[serde(default)]
    pub(crate) place: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Union {
    pub(crate) name: String,
    pub(crate) spec: String,
    #[serde(default)]
    pub(crate) anchor: Option<String>,
    #[serde(default)]
    pub(crate) doc: Option<String>,
    #[serde(default)]
    pub(crate) imports: Vec<String>,
    pub(crate) variants: Vec<Variant>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Variant {
    pub(crate) name: String,
    pub(crate) when: String,
    /// A table name, or `empty` for a variant without bytes.
    #[serde(rename = "type")]
    pub(crate) ty: String,
    #[serde(default)]
    pub(crate) args: Vec<String>,
    #[serde(default)]
    pub(crate) doc: Option<String>,
}

impl Table {
    /// The names of the table's imports (`value_size` of `value_size: u64`).
    pub(crate) fn import_names(&self) -> std::collections::BTreeSet<&str> {
        self.imports
            .iter()
            .filter_map(|i| i.split(':').next().map(str::trim))
            .collect()
    }
}
