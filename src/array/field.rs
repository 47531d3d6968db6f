//! What a schema says about one field (attribute or dimension): its
//! datatype, cell size and filter pipelines, and the names of its data
//! files (format_spec/fragment.md#data-file). Readers and the writer share
//! these.

use crate::array::schema::dimension_datatype;
use crate::filters::{FilterError, Pipeline};
use crate::format::hierarchy;
use crate::format::{ArraySchema, Datatype, Filter};

pub use crate::format::hierarchy::{DELETE_CONDITION_INDEX, DELETE_TIMESTAMPS, TIMESTAMPS};

/// What the schema says about a field, and where its data lives.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct FieldInfo {
    /// The attribute's or dimension's name.
    pub name: String,
    /// Position in the engine's index map: attributes, `__coords`, dimensions.
    pub idx: usize,
    /// Whether the field is a dimension (else an attribute).
    pub is_dimension: bool,
    /// The datatype of its values.
    pub datatype: Datatype,
    /// Values per cell; `None` for var-sized.
    pub cell_val_num: Option<u32>,
    /// Whether cells may be null (a validity tile per data tile).
    pub nullable: bool,
    /// The field's filter pipeline, as the schema stores it.
    pub filters: Vec<Filter>,
}

impl FieldInfo {
    /// An attribute `name` (index `idx` in the schema) of `datatype`, with
    /// `cell_val_num` values per cell (`None`: var-sized), no filters.
    pub fn attribute(
        name: impl Into<String>,
        idx: usize,
        datatype: Datatype,
        cell_val_num: Option<u32>,
        nullable: bool,
    ) -> Self {
        FieldInfo {
            name: name.into(),
            idx,
            is_dimension: false,
            datatype,
            cell_val_num,
            nullable,
            filters: Vec::new(),
        }
    }
}

impl FieldInfo {
    /// Looks a field up by name in a schema.
    pub fn lookup(schema: &ArraySchema, name: &str) -> Option<FieldInfo> {
        let var = |n: u32| (n != crate::format::VAR_NUM).then_some(n);
        if let Some((i, a)) = schema
            .attributes
            .iter()
            .enumerate()
            .find(|(_, a)| a.name == name.as_bytes())
        {
            return Some(FieldInfo {
                name: name.to_string(),
                idx: i,
                is_dimension: false,
                datatype: a.datatype.known()?,
                cell_val_num: var(a.cell_val_num),
                nullable: a.nullable.unwrap_or(0) != 0,
                filters: a.filters.filters.clone(),
            });
        }
        let (j, d) = schema
            .domain
            .dimensions
            .iter()
            .enumerate()
            .find(|(_, d)| d.name == name.as_bytes())?;
        // Schemas before version 5 have no dimension pipelines, and the
        // engine then gives dimensions none (`Dimension::deserialize`): only
        // an empty pipeline that is stored means the coords filters.
        let own = d.filters.as_ref().map(|p| p.filters.clone());
        Some(FieldInfo {
            name: name.to_string(),
            idx: schema.attributes.len() + 1 + j,
            is_dimension: true,
            datatype: dimension_datatype(schema, d).known()?,
            cell_val_num: var(d.cell_val_num.unwrap_or(1)),
            nullable: false,
            filters: match own {
                Some(f) if f.is_empty() => schema.coords_filters.filters.clone(),
                own => own.unwrap_or_default(),
            },
        })
    }

    /// The per-cell write timestamps of fragments consolidated with
    /// timestamps (`t.tdb`, filtered with the coords filters).
    pub fn timestamps(schema: &ArraySchema) -> FieldInfo {
        FieldInfo {
            name: hierarchy::TIMESTAMPS.into(),
            idx: schema.attributes.len() + 1 + schema.domain.dimensions.len(),
            is_dimension: false,
            datatype: Datatype::Uint64,
            cell_val_num: Some(1),
            nullable: false,
            filters: schema.coords_filters.filters.clone(),
        }
    }

    /// The delete timestamp of each cell of a fragment consolidated with
    /// delete metadata (`dt.tdb`; `u64::MAX`: no delete removes the cell),
    /// placed after the timestamps when the fragment has them.
    pub fn delete_timestamps(schema: &ArraySchema, has_timestamps: bool) -> FieldInfo {
        FieldInfo {
            name: DELETE_TIMESTAMPS.into(),
            idx: schema.attributes.len()
                + 1
                + schema.domain.dimensions.len()
                + usize::from(has_timestamps),
            ..Self::timestamps(schema)
        }
    }

    /// Which of the fragment's processed conditions deleted each cell of a
    /// fragment consolidated with delete metadata (`dci.tdb`, an index into
    /// the processed conditions; `u64::MAX`: none), after
    /// [`FieldInfo::delete_timestamps`].
    pub fn delete_condition_index(schema: &ArraySchema, has_timestamps: bool) -> FieldInfo {
        let dt = Self::delete_timestamps(schema, has_timestamps);
        FieldInfo {
            name: DELETE_CONDITION_INDEX.into(),
            idx: dt.idx + 1,
            ..dt
        }
    }

    /// The zipped coordinates of fragments before version 5 (`__coords.tdb`,
    /// at index A): one cell holds every dimension's coordinate, all of the
    /// first dimension's datatype, filtered with the coords filters
    /// (`ArraySchema::cell_size`/`type` of `constants::coords`).
    pub fn zipped_coords(schema: &ArraySchema) -> Option<FieldInfo> {
        let dims = &schema.domain.dimensions;
        let d0 = dims.first()?;
        Some(FieldInfo {
            name: hierarchy::COORDS.into(),
            idx: schema.attributes.len(),
            is_dimension: false,
            datatype: dimension_datatype(schema, d0).known()?,
            cell_val_num: Some(u32::try_from(dims.len()).ok()?),
            nullable: false,
            filters: schema.coords_filters.filters.clone(),
        })
    }

    /// Bytes of one cell of a fixed-size field (of one value for var-sized).
    pub fn cell_size(&self) -> u64 {
        self.datatype.size() * u64::from(self.cell_val_num.unwrap_or(1))
    }
}

/// One of a field's data files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataFile {
    /// Fixed-size cells, or the offsets of var-sized cells.
    Fixed,
    /// The values of var-sized cells.
    Var,
    /// One validity byte per cell of a nullable field.
    Validity,
}

impl DataFile {
    /// The suffix of the file's name after the field's.
    pub fn suffix(self) -> &'static str {
        match self {
            DataFile::Fixed => "",
            DataFile::Var => hierarchy::VAR,
            DataFile::Validity => hierarchy::VALIDITY,
        }
    }
}

/// The name of a data file of `field` in a fragment of format `version`
/// whose schema has `attributes` attributes, as the engine names it
/// (`FragmentMetadata::encode_name`): `a<i>`/`d<i>` from version 9, the
/// percent-encoded field name in version 8, the plain name before;
/// `t` for the timestamps of consolidated fragments and `__coords` for
/// zipped coordinates.
pub fn data_file_name(
    version: u32,
    attributes: usize,
    field: &FieldInfo,
    file: DataFile,
) -> String {
    use crate::format::field_file_name::{format, indexed_stem, naming_for, Naming};
    use hierarchy::{
        ATTRIBUTE_FILE, COORDS, DELETE_CONDITION_INDEX, DELETE_CONDITION_INDEX_FILE,
        DELETE_TIMESTAMPS, DELETE_TIMESTAMPS_FILE, DIMENSION_FILE, TIMESTAMPS, TIMESTAMPS_FILE,
    };
    let suffix = file.suffix();
    let stem = match field.name.as_str() {
        TIMESTAMPS => TIMESTAMPS_FILE.to_string(),
        DELETE_TIMESTAMPS => DELETE_TIMESTAMPS_FILE.to_string(),
        DELETE_CONDITION_INDEX => DELETE_CONDITION_INDEX_FILE.to_string(),
        COORDS => COORDS.to_string(),
        name => match naming_for(version) {
            Naming::Indexed if field.is_dimension => {
                indexed_stem(DIMENSION_FILE, field.idx - attributes - 1)
            }
            Naming::Indexed => indexed_stem(ATTRIBUTE_FILE, field.idx),
            Naming::PercentEncoded => percent_encode(name),
            Naming::Named => name.to_string(),
        },
    };
    format(&stem, suffix)
}

/// The version 8 file-name encoding (`FragmentMetadata::encode_name`): the
/// RFC 3986 reserved characters as `%XX`, and five characters Windows
/// forbids under codes of the engine's own choosing (not their ASCII
/// values: `<` is `%20`, `>` `%2D`, `\` `%30`, `|` `%3C`).
fn percent_encode(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        let code = match c {
            '<' => "%20",
            '>' => "%2D",
            '\\' => "%30",
            '|' => "%3C",
            _ => "",
        };
        if !code.is_empty() {
            out.push_str(code);
        } else if "!#$%&'()*+,/:;=?@[]\"".contains(c) {
            out.push_str(&format!("%{:02X}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// The pipelines of a field: data, offsets (var-sized), validity (nullable).
#[non_exhaustive]
pub struct FieldPipelines {
    /// The pipeline of the field's values.
    pub data: Pipeline,
    /// The pipeline of its offsets (var-sized fields).
    pub offsets: Option<Pipeline>,
    /// The pipeline of its validity (nullable fields).
    pub validity: Option<Pipeline>,
    /// Whether RLE/dictionary fold the var offsets into the data tiles.
    pub offsets_in_data: bool,
}

impl FieldPipelines {
    /// The pipelines of `field` as the schema gives them; with `key` (an
    /// encrypted array), each gets the AES-256-GCM filter appended at its
    /// end, as the engine does in memory (reader_base.cc, writer_base.cc):
    /// the schema never holds it.
    pub fn new(
        schema: &ArraySchema,
        field: &FieldInfo,
        key: Option<[u8; 32]>,
    ) -> Result<Self, FilterError> {
        let v = schema.array_version;
        let var = field.cell_val_num.is_none();
        let cell = if var {
            field.datatype.size()
        } else {
            field.cell_size()
        };
        let encrypted = |p: Pipeline| match key {
            Some(k) => p.with_encryption(k),
            None => Ok(p),
        };
        let data = encrypted(Pipeline::new(&field.filters, field.datatype, cell, v)?)?;
        Ok(FieldPipelines {
            offsets_in_data: var && data.folds_var_offsets(),
            data,
            offsets: var
                .then(|| {
                    encrypted(Pipeline::new(
                        &schema.offsets_filters.filters,
                        Datatype::Uint64,
                        8,
                        v,
                    )?)
                })
                .transpose()?,
            validity: field
                .nullable
                .then(|| {
                    let filters = schema
                        .validity_filters
                        .as_ref()
                        .map_or(&[][..], |p| &p.filters);
                    encrypted(Pipeline::new(filters, Datatype::Uint8, 1, v)?)
                })
                .transpose()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_8_names_use_the_engines_table() {
        // RFC 3986 characters by their ASCII code...
        assert_eq!(percent_encode("a:b/c%d"), "a%3Ab%2Fc%25d");
        // ...and the characters Windows forbids by codes of the engine's own.
        assert_eq!(percent_encode("<>\\|\""), "%20%2D%30%3C%22");
        assert_eq!(percent_encode("plain_name.1"), "plain_name.1");
    }

    #[test]
    fn data_files_are_named_by_version() {
        let field = |name: &str, idx, is_dimension| FieldInfo {
            name: name.into(),
            idx,
            is_dimension,
            datatype: Datatype::Int32,
            cell_val_num: None,
            nullable: true,
            filters: Vec::new(),
        };
        // Two attributes: index 2 is `__coords`, the dimensions follow.
        let a1 = field("b:c", 1, false);
        let d0 = field("x", 3, true);
        assert_eq!(data_file_name(22, 2, &a1, DataFile::Var), "a1_var.tdb");
        assert_eq!(
            data_file_name(9, 2, &d0, DataFile::Validity),
            "d0_validity.tdb"
        );
        assert_eq!(data_file_name(8, 2, &a1, DataFile::Fixed), "b%3Ac.tdb");
        assert_eq!(data_file_name(7, 2, &a1, DataFile::Fixed), "b:c.tdb");
        let coords = field("__coords", 2, false);
        assert_eq!(
            data_file_name(4, 2, &coords, DataFile::Fixed),
            "__coords.tdb"
        );
        let t = field("__timestamps", 4, false);
        assert_eq!(data_file_name(22, 2, &t, DataFile::Fixed), "t.tdb");
        let dt = field(DELETE_TIMESTAMPS, 5, false);
        assert_eq!(data_file_name(22, 2, &dt, DataFile::Fixed), "dt.tdb");
        let dci = field(DELETE_CONDITION_INDEX, 6, false);
        assert_eq!(data_file_name(22, 2, &dci, DataFile::Fixed), "dci.tdb");
    }
}
