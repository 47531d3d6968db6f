//! Arrays of format versions older than the TileDB engine on this machine
//! writes (it writes 16 to 22): built here, table by table, with the
//! generated codecs (`tiledb_codec::raw::format::encode`) and read back with the
//! public API (`inspect_json`, `ArrayDirectory`, `Fragment`).
//!
//! The builders follow the engine's rules (see the docs of the spec tables):
//! where the schema lives (`__array_schema.tdb` before version 10,
//! `__schema/` after), how fragments are named and committed (no marker
//! before version 5, `.ok` in the root up to version 11, `__fragments/` and
//! `__commits/*.wrt` from version 12), the legacy fragment metadata of
//! versions 1 and 2, and the footer with or without its trailing length
//! (versions 3 to 9 with fixed-size dimensions have none: the reader computes
//! the footer size from the schema).

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use tiledb_codec::raw::array::fragment::Metadata;
use tiledb_codec::raw::array::{ArrayDirectory, Fragment};
use tiledb_codec::raw::format::table;
use tiledb_codec::raw::format::{
    decode_all, encode, ArraySchema, ArrayType, Attribute, ConsolidatedCommit, ConsolidatedCommits,
    CurrentDomain, DataOrder, Datatype, Dimension, Domain, FieldMinMaxSumNullCount, FilterPipeline,
    FooterLength, FragmentFooter, FragmentMinMaxSumNullCount, Layout, LegacyFragmentMetadata,
    LegacyTileOffsets, Mbr, OptionalSection, ProcessedConditions, RTree, RTreeLevel, Range1D,
    TileMinMax, TileNullCounts, TileOffsets, TileSums, VacuumEntry, VacuumFile,
};
use tiledb_codec::raw::tile::write_generic_tile;
use tiledb_codec::ReadOptions;
use tiledb_codec_cli::inspect::inspect_json;

// ---------------------------------------------------------------------------
// A temporary array folder, removed when dropped.

struct TempArray {
    root: PathBuf,
}

impl TempArray {
    fn new(test: &str) -> Self {
        let root = crate::common::temp_root().join(format!(
            "tiledb-codec-old-versions-{}-{test}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        TempArray { root }
    }

    fn path(&self) -> &Path {
        &self.root
    }
}

impl Drop for TempArray {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// A 32-hex-digit label, distinct per seed.
fn label(seed: u32) -> String {
    format!("{:024x}{seed:08x}", 0x0123_4567_89ab_cdef_u128)
}

// ---------------------------------------------------------------------------
// Values.

trait Le: Copy {
    fn le(self) -> Vec<u8>;
}

macro_rules! le {
    ($($t:ty),*) => {$(
        impl Le for $t {
            fn le(self) -> Vec<u8> {
                self.to_le_bytes().to_vec()
            }
        }
    )*};
}
le!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);

fn pair<T: Le>(lo: T, hi: T) -> (Vec<u8>, Vec<u8>) {
    (lo.le(), hi.le())
}

fn text(lo: &str, hi: &str) -> (Vec<u8>, Vec<u8>) {
    (lo.as_bytes().to_vec(), hi.as_bytes().to_vec())
}

// ---------------------------------------------------------------------------
// Schemas.

#[derive(Clone)]
struct Dim {
    name: &'static str,
    datatype: Datatype,
    /// Low then high bytes; empty for a var-sized dimension.
    domain: Vec<u8>,
    extent: Option<Vec<u8>>,
    var: bool,
}

fn dim<T: Le>(name: &'static str, datatype: Datatype, lo: T, hi: T, extent: T) -> Dim {
    let mut domain = lo.le();
    domain.extend(hi.le());
    Dim {
        name,
        datatype,
        domain,
        extent: Some(extent.le()),
        var: false,
    }
}

fn string_dim(name: &'static str) -> Dim {
    Dim {
        name,
        datatype: Datatype::StringAscii,
        domain: Vec::new(),
        extent: None,
        var: true,
    }
}

#[derive(Clone)]
struct Attr {
    name: &'static str,
    datatype: Datatype,
    cell_val_num: u32,
    fill: Vec<u8>,
    nullable: bool,
}

fn attr(name: &'static str, datatype: Datatype, fill: Vec<u8>) -> Attr {
    Attr {
        name,
        datatype,
        cell_val_num: 1,
        fill,
        nullable: false,
    }
}

#[derive(Clone)]
struct Schema {
    version: u32,
    dense: bool,
    allows_dups: bool,
    tile_order: Layout,
    cell_order: Layout,
    capacity: u64,
    dims: Vec<Dim>,
    attrs: Vec<Attr>,
}

fn schema(version: u32, dense: bool, dims: Vec<Dim>, attrs: Vec<Attr>) -> Schema {
    Schema {
        version,
        dense,
        allows_dups: false,
        tile_order: Layout::RowMajor,
        cell_order: Layout::RowMajor,
        capacity: 10_000,
        dims,
        attrs,
    }
}

fn since<T>(version: u32, gate: u32, value: T) -> Option<T> {
    (version >= gate).then_some(value)
}

fn until<T>(version: u32, gate: u32, value: T) -> Option<T> {
    (version < gate).then_some(value)
}

fn pipeline() -> FilterPipeline {
    table!(FilterPipeline {
        max_chunk_size: 65536,
        num_filters: 0,
        filters: Vec::new(),
    })
}

fn dimension_table(version: u32, d: &Dim) -> Dimension {
    table!(Dimension {
        name_length: d.name.len() as u32,
        name: d.name.as_bytes().to_vec(),
        datatype: since(version, 5, d.datatype),
        cell_val_num: since(version, 5, if d.var { u32::MAX } else { 1 }),
        filters: since(version, 5, pipeline()),
        domain_size: since(version, 5, d.domain.len() as u64),
        domain: d.domain.clone(),
        null_tile_extent: u8::from(d.extent.is_none()),
        tile_extent: d.extent.clone().unwrap_or_default(),
    })
}

fn attribute_table(version: u32, a: &Attr) -> Attribute {
    table!(Attribute {
        name_length: a.name.len() as u32,
        name: a.name.as_bytes().to_vec(),
        datatype: a.datatype,
        cell_val_num: a.cell_val_num,
        filters: pipeline(),
        fill_value_size: since(version, 6, a.fill.len() as u64),
        fill_value: since(version, 6, a.fill.clone()),
        nullable: since(version, 7, u8::from(a.nullable)),
        fill_value_validity: since(version, 7, 0),
        order: since(version, 17, DataOrder::UnorderedData),
        enumeration_name_length: since(version, 20, 0),
        enumeration_name: since(version, 20, Vec::new()),
    })
}

fn schema_table(s: &Schema) -> ArraySchema {
    let v = s.version;
    let array_type = if s.dense {
        ArrayType::Dense
    } else {
        ArrayType::Sparse
    };
    table!(ArraySchema {
        array_version: v,
        allows_dups: since(v, 5, u8::from(s.allows_dups)),
        array_type,
        tile_order: s.tile_order,
        cell_order: s.cell_order,
        capacity: s.capacity,
        coords_filters: pipeline(),
        offsets_filters: pipeline(),
        validity_filters: since(v, 7, pipeline()),
        domain: table!(Domain {
            domain_datatype: until(v, 5, s.dims[0].datatype),
            num_dimensions: s.dims.len() as u32,
            dimensions: s.dims.iter().map(|d| dimension_table(v, d)).collect(),
        }),
        num_attributes: s.attrs.len() as u32,
        attributes: s.attrs.iter().map(|a| attribute_table(v, a)).collect(),
        num_labels: since(v, 18, 0),
        labels: since(v, 18, Vec::new()),
        num_enumerations: since(v, 20, 0),
        enumerations: since(v, 20, Vec::new()),
        current_domain: since(
            v,
            22,
            table!(CurrentDomain {
                version_number: 0,
                empty: 1,
                current_domain_type: None,
                ndrectangle: None,
            }),
        ),
    })
}

/// Writes the schema where its version puts it; returns its file name.
fn write_schema(root: &Path, s: &Schema, t: u64) -> String {
    let bytes = write_generic_tile(&encode(&schema_table(s)).unwrap(), s.version);
    if s.version < 10 {
        write(&root.join("__array_schema.tdb"), &bytes);
        "__array_schema.tdb".into()
    } else {
        let name = format!("__{t}_{t}_{}", label(0xf000 + t as u32));
        write(&root.join("__schema").join(&name), &bytes);
        name
    }
}

/// Coordinate size per dimension, as the footer tables import them.
fn dims_arg(s: &Schema) -> tiledb_codec::raw::format::Dims {
    s.dims
        .iter()
        .map(|d| {
            if d.var {
                0
            } else if s.version < 5 {
                s.dims[0].datatype.size()
            } else {
                d.datatype.size()
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Fragments.

/// Version 11 footers are built as the current engine's writer lays them out
/// (with the fragment min/max/sum/null count offset), which the library reads
/// today. TileDB 2.7, the only release that wrote version 11, left that
/// offset out (see `v11_footer_as_tiledb_2_7_wrote_it`); set this to false
/// once the library reads those footers.
const V11_FOOTERS_AS_CURRENT_WRITER: bool = false;

#[derive(Clone)]
struct Frag {
    version: u32,
    t1: u64,
    t2: u64,
    label: u32,
    dense: bool,
    /// Low and high bytes per dimension.
    ned: Vec<(Vec<u8>, Vec<u8>)>,
    sparse_tiles: u64,
    last_tile_cells: u64,
    timestamps: bool,
    delete_meta: bool,
    /// Write the commit marker (`.ok` / `.wrt`).
    commit: bool,
    /// Version 11 only: leave out the fragment min/max/sum/null count
    /// offset, as TileDB 2.7 (the only release that wrote version 11) did.
    /// By default the footer follows the current engine's writer, which
    /// emits it from version 11 (its reader ignores it before 12).
    v11_as_tiledb_2_7: bool,
}

fn frag(version: u32, t1: u64, t2: u64, dense: bool, ned: Vec<(Vec<u8>, Vec<u8>)>) -> Frag {
    Frag {
        version,
        t1,
        t2,
        label: (t1 as u32) ^ (version << 24),
        dense,
        ned,
        sparse_tiles: 0,
        last_tile_cells: 0,
        timestamps: false,
        delete_meta: false,
        commit: true,
        v11_as_tiledb_2_7: !V11_FOOTERS_AS_CURRENT_WRITER,
    }
}

fn sparse(mut f: Frag, tiles: u64, last: u64) -> Frag {
    f.sparse_tiles = tiles;
    f.last_tile_cells = last;
    f
}

fn fragment_name(f: &Frag) -> String {
    let l = label(f.label);
    match f.version {
        1 | 2 => format!("__{l}_{}", f.t1),
        3 | 4 => format!("__{}_{}_{l}", f.t1, f.t2),
        v => format!("__{}_{}_{l}_{v}", f.t1, f.t2),
    }
}

/// (entries of file sizes and tile offsets, of var sizes and var offsets,
/// of the per-field arrays of version 7 on).
fn counts(s: &Schema, f: &Frag) -> (usize, usize, usize) {
    let a = s.attrs.len();
    let n = a + s.dims.len() + 1 + usize::from(f.timestamps) + 2 * usize::from(f.delete_meta);
    if f.version < 5 {
        (a + 1, a, n)
    } else {
        (n, n, n)
    }
}

fn range(var: bool, lo: &[u8], hi: &[u8]) -> Range1D {
    let mut r = lo.to_vec();
    r.extend_from_slice(hi);
    table!(Range1D {
        range_length: var.then_some(r.len() as u64),
        min_length: var.then_some(lo.len() as u64),
        range: r,
    })
}

fn ned_mbr(s: &Schema, f: &Frag) -> Mbr {
    table!(Mbr {
        ranges: s
            .dims
            .iter()
            .zip(&f.ned)
            .map(|(d, (lo, hi))| range(d.var, lo, hi))
            .collect(),
    })
}

fn ned_bytes(f: &Frag) -> Vec<u8> {
    f.ned
        .iter()
        .flat_map(|(lo, hi)| [lo.clone(), hi.clone()].concat())
        .collect()
}

/// What the engine writes as the last tile cell num of a dense fragment
/// (extents here are small and positive: the low byte is enough).
fn cells_per_space_tile(s: &Schema) -> u64 {
    s.dims
        .iter()
        .map(|d| u64::from(d.extent.as_ref().map_or(1, |e| e[0])))
        .product()
}

/// Where the footer points: the generic tiles of the metadata file.
#[derive(Default)]
struct Offsets {
    rtree: u64,
    tile_offsets: Vec<u64>,
    empty_offsets: u64,
    min_max: u64,
    sums: u64,
    null_counts: u64,
    fragment_min_max: u64,
    processed_conditions: u64,
}

fn footer_table(s: &Schema, schema_name: &str, f: &Frag, o: &Offsets) -> FragmentFooter {
    let v = f.version;
    let (fixed, var, n) = counts(s, f);
    let sizes = |k: usize, base: u64| (0..k as u64).map(|i| base + 10 * i).collect::<Vec<_>>();
    let last_tile_cell_num = if f.dense {
        cells_per_space_tile(s)
    } else {
        f.last_tile_cells
    };
    table!(FragmentFooter {
        version_number: v,
        array_schema_name_size: since(v, 10, schema_name.len() as u64),
        array_schema_name: since(v, 10, schema_name.as_bytes().to_vec()),
        dense: u8::from(f.dense),
        null_non_empty_domain: 0,
        legacy_non_empty_domain: until(v, 5, ned_bytes(f)),
        non_empty_domain: since(v, 5, ned_mbr(s, f)),
        sparse_tile_num: if f.dense { 0 } else { f.sparse_tiles },
        last_tile_cell_num,
        includes_timestamps: since(v, 14, u8::from(f.timestamps)),
        includes_delete_metadata: since(v, 15, u8::from(f.delete_meta)),
        file_sizes: sizes(fixed, 1000),
        file_var_sizes: sizes(var, 2000),
        file_validity_sizes: since(v, 7, sizes(n, 3000)),
        rtree_offset: o.rtree,
        tile_offsets: o.tile_offsets.clone(),
        tile_var_offsets: vec![o.empty_offsets; var],
        tile_var_sizes: vec![o.empty_offsets; var],
        tile_validity_offsets: since(v, 7, vec![o.empty_offsets; n]),
        tile_mins_offsets: since(v, 11, vec![o.min_max; n]),
        tile_maxes_offsets: since(v, 11, vec![o.min_max; n]),
        tile_sums_offsets: since(v, 11, vec![o.sums; n]),
        tile_null_counts_offsets: since(v, 11, vec![o.null_counts; n]),
        fragment_min_max_sum_null_count_offset: since(v, 11, o.fragment_min_max)
            .filter(|_| !(v == 11 && f.v11_as_tiledb_2_7)),
        processed_conditions_offset: since(v, 16, o.processed_conditions),
        num_optional_sections: since(v, 23, 0),
        optional_sections: since(v, 23, Vec::new()),
    })
}

/// The tile offsets of field `idx`: one per sparse tile, or one for dense.
fn tile_offsets_of(f: &Frag, idx: usize) -> TileOffsets {
    let num = if f.dense { 1 } else { f.sparse_tiles };
    table!(TileOffsets {
        num,
        values: (0..num).map(|k| 1_000 * idx as u64 + 10 * k).collect(),
    })
}

/// A written fragment.
struct Built {
    name: String,
    path: PathBuf,
    /// The footer bytes and where they sit in `__fragment_metadata.tdb`
    /// (versions 3 on).
    footer: Vec<u8>,
    footer_offset: u64,
    trailing_length: bool,
}

/// `__fragment_metadata.tdb` of versions 1 and 2: one generic tile.
fn legacy_metadata(s: &Schema, f: &Frag) -> Vec<u8> {
    let a = s.attrs.len();
    let ned = ned_bytes(f);
    let tiles = if f.dense { 0 } else { f.sparse_tiles };
    let bounding_size = 2 * s.dims.len() * s.dims[0].datatype.size() as usize;
    let lists = |k: usize, with: bool| {
        table!(LegacyTileOffsets {
            lists: (0..k)
                .map(|i| {
                    if with {
                        tile_offsets_of(f, i)
                    } else {
                        table!(TileOffsets {
                            num: 0,
                            values: Vec::new(),
                        })
                    }
                })
                .collect(),
        })
    };
    let md = table!(LegacyFragmentMetadata {
        version_number: f.version,
        non_empty_domain_size: ned.len() as u64,
        non_empty_domain: ned.clone(),
        num_mbrs: tiles,
        mbrs: ned.repeat(tiles as usize),
        num_bounding_coords: tiles,
        bounding_coords: vec![0; bounding_size * tiles as usize],
        tile_offsets: lists(a + 1, true),
        tile_var_offsets: lists(a, false),
        tile_var_sizes: lists(a, false),
        last_tile_cell_num: if f.dense {
            cells_per_space_tile(s)
        } else {
            f.last_tile_cells
        },
        file_sizes: (0..=a as u64).map(|i| 100 * i).collect(),
        file_var_sizes: vec![0; a],
    });
    write_generic_tile(&encode(&md).unwrap(), f.version)
}

/// `__fragment_metadata.tdb` of version 3 on: generic tiles, the footer and
/// (version 10 on, or with a var-sized dimension) the footer length.
fn metadata_file(s: &Schema, schema_name: &str, f: &Frag) -> (Vec<u8>, Vec<u8>, u64, bool) {
    let v = f.version;
    let gt = |table: Vec<u8>| write_generic_tile(&table, v);
    let mut out = Vec::new();
    let mut o = Offsets::default();
    let d = s.dims.len() as u32;
    let rtree = table!(RTree {
        dim_num: until(v, 5, d),
        fanout: 10,
        datatype: until(v, 5, s.dims[0].datatype),
        num_levels: u32::from(!f.dense),
        levels: if f.dense {
            Vec::new()
        } else {
            vec![table!(RTreeLevel {
                num_mbrs: f.sparse_tiles,
                mbrs: vec![ned_mbr(s, f); f.sparse_tiles as usize],
            })]
        },
    });
    o.rtree = out.len() as u64;
    out.extend(gt(encode(&rtree).unwrap()));
    let (fixed, _, n) = counts(s, f);
    for idx in 0..fixed {
        o.tile_offsets.push(out.len() as u64);
        out.extend(gt(encode(&tile_offsets_of(f, idx)).unwrap()));
    }
    o.empty_offsets = out.len() as u64;
    out.extend(gt(encode(&table!(TileOffsets {
        num: 0,
        values: Vec::new(),
    }))
    .unwrap()));
    if v >= 11 {
        o.min_max = out.len() as u64;
        out.extend(gt(encode(&table!(TileMinMax {
            fixed_size: 0,
            var_size: 0,
            fixed: Vec::new(),
            var: Vec::new(),
        }))
        .unwrap()));
        o.sums = out.len() as u64;
        out.extend(gt(encode(&table!(TileSums {
            num: 0,
            values: Vec::new(),
        }))
        .unwrap()));
        o.null_counts = out.len() as u64;
        out.extend(gt(encode(&table!(TileNullCounts {
            num: 0,
            values: Vec::new(),
        }))
        .unwrap()));
    }
    if v >= 12 {
        o.fragment_min_max = out.len() as u64;
        let field = table!(FieldMinMaxSumNullCount {
            min_size: 0,
            min: Vec::new(),
            max_size: 0,
            max: Vec::new(),
            sum: 0,
            null_count: 0,
        });
        out.extend(gt(encode(&table!(FragmentMinMaxSumNullCount {
            fields: vec![field; n],
        }))
        .unwrap()));
    }
    if v >= 16 {
        o.processed_conditions = out.len() as u64;
        out.extend(gt(encode(&table!(ProcessedConditions {
            num: 0,
            conditions: Vec::new(),
        }))
        .unwrap()));
    }
    let footer = encode(&footer_table(s, schema_name, f, &o)).unwrap();
    let footer_offset = out.len() as u64;
    out.extend_from_slice(&footer);
    let trailing = v >= 10 || s.dims.iter().any(|d| d.var);
    if trailing {
        out.extend(encode(&FooterLength::default().with_outside_sizes(&footer).unwrap()).unwrap());
    }
    (out, footer, footer_offset, trailing)
}

/// Writes a fragment (folder, metadata file, commit marker) into the array.
fn write_fragment(root: &Path, s: &Schema, schema_name: &str, f: &Frag) -> Built {
    let v = f.version;
    let name = fragment_name(f);
    let path = if v < 12 {
        root.join(&name)
    } else {
        root.join("__fragments").join(&name)
    };
    std::fs::create_dir_all(&path).unwrap();
    let (meta, footer, footer_offset, trailing_length) = if v <= 2 {
        if !f.dense {
            // Sparse before version 3: the zipped coordinates file exists.
            write(&path.join("__coords.tdb"), b"");
        }
        (legacy_metadata(s, f), Vec::new(), 0, false)
    } else {
        metadata_file(s, schema_name, f)
    };
    write(&path.join("__fragment_metadata.tdb"), &meta);
    if f.commit {
        match v {
            1..=4 => {}
            5..=11 => write(&root.join(format!("{name}.ok")), b""),
            _ => write(&root.join("__commits").join(format!("{name}.wrt")), b""),
        }
    }
    Built {
        name,
        path,
        footer,
        footer_offset,
        trailing_length,
    }
}

// ---------------------------------------------------------------------------
// Reading back.

fn inspect(root: &Path) -> Value {
    inspect_json(root, &ReadOptions::default())
        .unwrap_or_else(|e| panic!("inspect {}: {e}", root.display()))
}

fn dims_summary(v: &Value) -> Value {
    Value::Array(
        v["schema"]["dimensions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                json!({
                    "name": d["name"],
                    "datatype": d["datatype"],
                    "cell_val_num": d["cell_val_num"],
                    "domain": d["domain"],
                    "tile_extent": d["tile_extent"],
                })
            })
            .collect(),
    )
}

fn attrs_summary(v: &Value) -> Value {
    Value::Array(
        v["schema"]["attributes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| {
                json!({
                    "name": a["name"],
                    "datatype": a["datatype"],
                    "cell_val_num": a["cell_val_num"],
                    "nullable": a["nullable"],
                    "fill_value": a["fill_value"],
                })
            })
            .collect(),
    )
}

fn frags_summary(v: &Value) -> Value {
    Value::Array(
        v["fragments"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                json!({
                    "name": f["name"],
                    "version": f["version"],
                    "timestamps": f["timestamps"],
                    "non_empty_domain": f["non_empty_domain"],
                    "cell_num": f["cell_num"],
                    "dense": f["dense"],
                })
            })
            .collect(),
    )
}

fn schema_head(v: &Value) -> Value {
    let s = &v["schema"];
    json!({
        "version": s["version"],
        "array_type": s["array_type"],
        "tile_order": s["tile_order"],
        "cell_order": s["cell_order"],
        "capacity": s["capacity"],
        "allows_duplicates": s["allows_duplicates"],
    })
}

fn frag_json(
    b: &Built,
    version: u32,
    ts: [u64; 2],
    ned: Value,
    cell_num: u64,
    dense: bool,
) -> Value {
    json!({
        "name": b.name,
        "version": version,
        "timestamps": ts,
        "non_empty_domain": ned,
        "cell_num": cell_num,
        "dense": dense,
    })
}

/// The footer of a built fragment decodes from the file and re-encodes to
/// the same bytes.
fn assert_footer_round_trips(s: &Schema, b: &Built) {
    let meta_path = b.path.join("__fragment_metadata.tdb");
    let file = std::fs::read(&meta_path).unwrap();
    let start = b.footer_offset as usize;
    let bytes = &file[start..start + b.footer.len()];
    assert_eq!(bytes, &b.footer[..]);
    let tail = if b.trailing_length { 8 } else { 0 };
    assert_eq!(start + b.footer.len() + tail, file.len());
    let footer: FragmentFooter = decode_all(
        bytes,
        &meta_path,
        b.footer_offset,
        (dims_arg(s), s.attrs.len() as u64),
    )
    .unwrap();
    assert_eq!(encode(&footer).unwrap(), bytes);
}

// ---------------------------------------------------------------------------
// Versions 1 and 2: legacy fragment metadata.

#[test]
fn v2_dense_legacy_metadata() {
    let t = TempArray::new("v2_dense");
    let s = schema(
        2,
        true,
        vec![
            dim("rows", Datatype::Int32, 1i32, 4, 2),
            dim("cols", Datatype::Int32, 1i32, 4, 2),
        ],
        vec![attr("a", Datatype::Int32, Vec::new())],
    );
    let schema_name = write_schema(t.path(), &s, 0);
    // The later fragment sorts first by name: order must follow timestamps.
    let mut f1 = frag(2, 5, 5, true, vec![pair(1i32, 2), pair(1i32, 3)]);
    f1.label = 0xffff;
    let mut f2 = frag(2, 12, 12, true, vec![pair(3i32, 4), pair(4i32, 4)]);
    f2.label = 0x0001;
    let b1 = write_fragment(t.path(), &s, &schema_name, &f1);
    let b2 = write_fragment(t.path(), &s, &schema_name, &f2);
    assert!(b2.name < b1.name);

    let v = inspect(t.path());
    assert_eq!(v["kind"], "array");
    assert_eq!(v["schema_name"], "__array_schema.tdb");
    assert_eq!(
        schema_head(&v),
        json!({"version": 2, "array_type": "dense", "tile_order": "row-major",
               "cell_order": "row-major", "capacity": 10000, "allows_duplicates": false})
    );
    assert_eq!(
        dims_summary(&v),
        json!([
            {"name": "rows", "datatype": "INT32", "cell_val_num": 1, "domain": [1, 4], "tile_extent": 2},
            {"name": "cols", "datatype": "INT32", "cell_val_num": 1, "domain": [1, 4], "tile_extent": 2},
        ])
    );
    // No fill value before version 6.
    assert_eq!(
        attrs_summary(&v),
        json!([{"name": "a", "datatype": "INT32", "cell_val_num": 1, "nullable": false, "fill_value": null}])
    );
    assert_eq!(
        frags_summary(&v),
        json!([
            // rows: space tile [1,2]; cols: tiles [1,2] and [3,4] -> 2 * 4 cells.
            frag_json(&b1, 2, [5, 5], json!([[1, 2], [1, 3]]), 8, true),
            // rows: tile [3,4]; cols: tile [3,4] -> 2 * 2 cells.
            frag_json(&b2, 2, [12, 12], json!([[3, 4], [4, 4]]), 4, true),
        ])
    );
    assert_eq!(v["fragments"][0]["array_schema_name"], "__array_schema.tdb");
}

#[test]
fn v1_sparse_legacy_metadata() {
    let t = TempArray::new("v1_sparse");
    let mut s = schema(
        1,
        false,
        vec![
            dim("x", Datatype::Int64, 0i64, 99, 10),
            dim("y", Datatype::Int64, 0i64, 99, 10),
        ],
        vec![
            attr("a1", Datatype::Float64, Vec::new()),
            Attr {
                cell_val_num: u32::MAX,
                ..attr("a2", Datatype::Char, Vec::new())
            },
        ],
    );
    s.capacity = 10;
    s.cell_order = Layout::ColMajor;
    let schema_name = write_schema(t.path(), &s, 0);
    let f = sparse(
        frag(1, 7, 7, false, vec![pair(2i64, 50), pair(3i64, 60)]),
        3,
        4,
    );
    let b = write_fragment(t.path(), &s, &schema_name, &f);

    let v = inspect(t.path());
    assert_eq!(
        schema_head(&v),
        json!({"version": 1, "array_type": "sparse", "tile_order": "row-major",
               "cell_order": "col-major", "capacity": 10, "allows_duplicates": false})
    );
    assert_eq!(
        attrs_summary(&v),
        json!([
            {"name": "a1", "datatype": "FLOAT64", "cell_val_num": 1, "nullable": false, "fill_value": null},
            {"name": "a2", "datatype": "CHAR", "cell_val_num": "var", "nullable": false, "fill_value": null},
        ])
    );
    // Sparse because `__coords.tdb` exists: 2 full tiles of 10 and 4 cells.
    assert_eq!(
        frags_summary(&v),
        json!([frag_json(
            &b,
            1,
            [7, 7],
            json!([[2, 50], [3, 60]]),
            24,
            false
        )])
    );

    let dir = ArrayDirectory::open(t.path()).unwrap();
    assert_eq!(dir.fragments.len(), 1);
    assert_eq!(dir.fragments[0].name.version, 2);
    let fr = Fragment::open(&dir, &dir.fragments[0], &ReadOptions::default()).unwrap();
    assert!(!fr.dense);
    assert_eq!(fr.version(), 1);
    let Metadata::Legacy(md) = &fr.metadata else {
        panic!("versions 1 and 2 hold legacy metadata")
    };
    assert_eq!(md.num_mbrs, 3);
    assert_eq!(md.tile_offsets.lists.len(), 3, "A + 1 tile offset lists");
    assert_eq!(md.tile_var_offsets.lists.len(), 2, "A var offset lists");
    assert_eq!(md.tile_offsets.lists[2].values, vec![2000, 2010, 2020]);
    assert!(fr.rtree(&ReadOptions::default()).unwrap().is_none());
}

// ---------------------------------------------------------------------------
// Versions 3 and 4: the domain datatype in the domain, the raw non-empty
// domain, A + 1 / A entries, no footer length.

#[test]
fn v3_v4_sparse_with_computed_footer_size() {
    let t = TempArray::new("v3_v4_sparse");
    let mut s = schema(
        4,
        false,
        vec![
            dim("x", Datatype::Int64, 1i64, 1000, 100),
            dim("y", Datatype::Int64, 1i64, 1000, 100),
        ],
        vec![
            attr("a", Datatype::Int32, Vec::new()),
            Attr {
                cell_val_num: 2,
                ..attr("b", Datatype::Uint8, Vec::new())
            },
        ],
    );
    s.capacity = 50;
    let schema_name = write_schema(t.path(), &s, 0);
    let f4 = sparse(
        frag(4, 20, 25, false, vec![pair(10i64, 900), pair(5i64, 6)]),
        4,
        13,
    );
    let f3 = sparse(
        frag(3, 30, 30, false, vec![pair(1i64, 1), pair(1000i64, 1000)]),
        1,
        50,
    );
    let b4 = write_fragment(t.path(), &s, &schema_name, &f4);
    let b3 = write_fragment(t.path(), &s, &schema_name, &f3);
    assert!(!b4.trailing_length && !b3.trailing_length);

    // The schema table itself: the domain carries the datatype, the
    // dimensions do not.
    let st = schema_table(&s);
    assert_eq!(st.domain.domain_datatype, Some(Datatype::Int64));
    assert!(st.domain.dimensions.iter().all(|d| d.datatype.is_none()));

    let v = inspect(t.path());
    assert_eq!(
        dims_summary(&v),
        json!([
            {"name": "x", "datatype": "INT64", "cell_val_num": 1, "domain": [1, 1000], "tile_extent": 100},
            {"name": "y", "datatype": "INT64", "cell_val_num": 1, "domain": [1, 1000], "tile_extent": 100},
        ])
    );
    assert_eq!(
        attrs_summary(&v),
        json!([
            {"name": "a", "datatype": "INT32", "cell_val_num": 1, "nullable": false, "fill_value": null},
            {"name": "b", "datatype": "UINT8", "cell_val_num": 2, "nullable": false, "fill_value": null},
        ])
    );
    assert_eq!(
        frags_summary(&v),
        json!([
            frag_json(
                &b4,
                4,
                [20, 25],
                json!([[10, 900], [5, 6]]),
                3 * 50 + 13,
                false
            ),
            frag_json(&b3, 3, [30, 30], json!([[1, 1], [1000, 1000]]), 50, false),
        ])
    );

    let dir = ArrayDirectory::open(t.path()).unwrap();
    let fr = Fragment::open(&dir, &dir.fragments[0], &ReadOptions::default()).unwrap();
    let Metadata::Footer(footer) = &fr.metadata else {
        panic!("version 4 has a footer")
    };
    assert_eq!(footer.file_sizes.len(), 3, "A + 1 file sizes");
    assert_eq!(footer.file_var_sizes.len(), 2, "A file var sizes");
    assert_eq!(footer.tile_offsets.len(), 3);
    assert_eq!(footer.tile_var_offsets.len(), 2);
    assert!(footer.file_validity_sizes.is_none());
    let rtree = fr.rtree(&ReadOptions::default()).unwrap().unwrap();
    assert_eq!(
        (rtree.dim_num, rtree.datatype),
        (Some(2), Some(tiledb_codec::raw::format::Datatype::Int64))
    );
    assert_eq!(rtree.levels[0].num_mbrs, 4);
    let offsets = fr
        .tile_offsets(2, &ReadOptions::default())
        .unwrap()
        .unwrap();
    assert_eq!(offsets.values, vec![2000, 2010, 2020, 2030]);
    assert_footer_round_trips(&s, &b4);
    assert_footer_round_trips(&s, &b3);
}

// ---------------------------------------------------------------------------
// Versions 5 to 9.

#[test]
fn v6_sparse_mixed_dimension_types() {
    let t = TempArray::new("v6_sparse");
    let mut s = schema(
        6,
        false,
        vec![
            dim("i", Datatype::Int16, -100i16, 100, 10),
            dim("f", Datatype::Float64, 0.0f64, 1.0, 0.5),
        ],
        vec![attr("v", Datatype::Float32, 1.5f32.le())],
    );
    s.capacity = 1000;
    s.allows_dups = true;
    let schema_name = write_schema(t.path(), &s, 0);
    let f = sparse(
        frag(
            6,
            100,
            200,
            false,
            vec![pair(-5i16, 7), pair(0.25f64, 0.75)],
        ),
        2,
        1,
    );
    let b = write_fragment(t.path(), &s, &schema_name, &f);
    assert!(!b.trailing_length);

    let v = inspect(t.path());
    assert_eq!(
        schema_head(&v),
        json!({"version": 6, "array_type": "sparse", "tile_order": "row-major",
               "cell_order": "row-major", "capacity": 1000, "allows_duplicates": true})
    );
    assert_eq!(
        dims_summary(&v),
        json!([
            {"name": "i", "datatype": "INT16", "cell_val_num": 1, "domain": [-100, 100], "tile_extent": 10},
            {"name": "f", "datatype": "FLOAT64", "cell_val_num": 1, "domain": [0.0, 1.0], "tile_extent": 0.5},
        ])
    );
    // Fill values from version 6, nullability from 7.
    assert_eq!(
        attrs_summary(&v),
        json!([{"name": "v", "datatype": "FLOAT32", "cell_val_num": 1, "nullable": false, "fill_value": 1.5}])
    );
    assert_eq!(
        frags_summary(&v),
        json!([frag_json(
            &b,
            6,
            [100, 200],
            json!([[-5, 7], [0.25, 0.75]]),
            1001,
            false
        )])
    );
    assert_footer_round_trips(&s, &b);
}

#[test]
fn v7_dense_nullable_and_uncommitted_fragment() {
    let t = TempArray::new("v7_dense");
    let mut s = schema(
        7,
        true,
        vec![
            dim("d1", Datatype::Uint64, 0u64, 15, 4),
            dim("d2", Datatype::Uint64, 0u64, 15, 8),
        ],
        vec![
            Attr {
                nullable: true,
                ..attr("n", Datatype::Int32, (-1i32).le())
            },
            Attr {
                cell_val_num: u32::MAX,
                ..attr("s", Datatype::StringAscii, b"x".to_vec())
            },
        ],
    );
    s.tile_order = Layout::ColMajor;
    s.cell_order = Layout::ColMajor;
    let schema_name = write_schema(t.path(), &s, 0);
    let f1 = frag(7, 1, 1, true, vec![pair(0u64, 3), pair(0u64, 15)]);
    let mut f2 = frag(7, 2, 2, true, vec![pair(4u64, 7), pair(0u64, 7)]);
    f2.commit = false;
    let b1 = write_fragment(t.path(), &s, &schema_name, &f1);
    let b2 = write_fragment(t.path(), &s, &schema_name, &f2);

    let v = inspect(t.path());
    assert_eq!(
        schema_head(&v),
        json!({"version": 7, "array_type": "dense", "tile_order": "col-major",
               "cell_order": "col-major", "capacity": 10000, "allows_duplicates": false})
    );
    assert_eq!(
        attrs_summary(&v),
        json!([
            {"name": "n", "datatype": "INT32", "cell_val_num": 1, "nullable": true, "fill_value": -1},
            {"name": "s", "datatype": "STRING_ASCII", "cell_val_num": "var", "nullable": false, "fill_value": "x"},
        ])
    );
    // d1: tile [0,3] (4 cells); d2: tiles [0,7], [8,15] (16 cells).
    assert_eq!(
        frags_summary(&v),
        json!([frag_json(
            &b1,
            7,
            [1, 1],
            json!([[0, 3], [0, 15]]),
            64,
            true
        )])
    );

    let dir = ArrayDirectory::open(t.path()).unwrap();
    assert_eq!(dir.uncommitted, vec![b2.path.clone()]);
    let fr = Fragment::open(&dir, &dir.fragments[0], &ReadOptions::default()).unwrap();
    let Metadata::Footer(footer) = &fr.metadata else {
        panic!("version 7 has a footer")
    };
    // n = A + D + 1 = 5 validity entries.
    assert_eq!(footer.file_validity_sizes.as_ref().map(Vec::len), Some(5));
    assert_eq!(footer.tile_validity_offsets.as_ref().map(Vec::len), Some(5));
    assert_eq!(footer.last_tile_cell_num, 32);
    assert_footer_round_trips(&s, &b1);
}

#[test]
fn v8_v9_sparse_fragments_in_timestamp_order() {
    let t = TempArray::new("v9_sparse");
    let mut s = schema(
        9,
        false,
        vec![dim("rows", Datatype::Int32, 1i32, 100, 10)],
        vec![attr("a", Datatype::Uint16, 7u16.le())],
    );
    s.capacity = 3;
    let schema_name = write_schema(t.path(), &s, 0);
    // "__10_..." sorts before "__9_..." by name.
    let f9 = sparse(frag(9, 10, 11, false, vec![pair(50i32, 60)]), 5, 2);
    let f8 = sparse(frag(8, 9, 9, false, vec![pair(1i32, 3)]), 1, 3);
    let b9 = write_fragment(t.path(), &s, &schema_name, &f9);
    let b8 = write_fragment(t.path(), &s, &schema_name, &f8);
    assert!(b9.name < b8.name);

    let v = inspect(t.path());
    assert_eq!(schema_head(&v)["version"], 9);
    assert_eq!(
        dims_summary(&v),
        json!([{"name": "rows", "datatype": "INT32", "cell_val_num": 1, "domain": [1, 100], "tile_extent": 10}])
    );
    assert_eq!(
        attrs_summary(&v),
        json!([{"name": "a", "datatype": "UINT16", "cell_val_num": 1, "nullable": false, "fill_value": 7}])
    );
    assert_eq!(
        frags_summary(&v),
        json!([
            frag_json(&b8, 8, [9, 9], json!([[1, 3]]), 3, false),
            frag_json(&b9, 9, [10, 11], json!([[50, 60]]), 4 * 3 + 2, false),
        ])
    );
    assert_footer_round_trips(&s, &b8);
    assert_footer_round_trips(&s, &b9);
}

/// A var-sized string dimension: the non-empty domain carries its lengths,
/// and the footer length is stored even before version 10.
#[test]
fn var_sized_string_dimension_v5_to_v9() {
    for version in [5, 8, 9, 11] {
        let t = TempArray::new(&format!("var_dim_v{version}"));
        let mut s = schema(
            version,
            false,
            vec![string_dim("key"), dim("id", Datatype::Int32, 0i32, 9, 5)],
            vec![attr("val", Datatype::Int64, 0i64.le())],
        );
        s.capacity = 4;
        let schema_name = write_schema(t.path(), &s, 1);
        let f = sparse(
            frag(
                version,
                3,
                4,
                false,
                vec![text("apple", "zebra"), pair(1i32, 9)],
            ),
            3,
            2,
        );
        let b = write_fragment(t.path(), &s, &schema_name, &f);
        assert!(b.trailing_length);

        let v = inspect(t.path());
        assert_eq!(schema_head(&v)["version"], version);
        assert_eq!(
            dims_summary(&v),
            json!([
                {"name": "key", "datatype": "STRING_ASCII", "cell_val_num": "var", "domain": null, "tile_extent": null},
                {"name": "id", "datatype": "INT32", "cell_val_num": 1, "domain": [0, 9], "tile_extent": 5},
            ]),
            "version {version}"
        );
        assert_eq!(
            frags_summary(&v),
            json!([frag_json(
                &b,
                version,
                [3, 4],
                json!([["apple", "zebra"], [1, 9]]),
                10,
                false
            )]),
            "version {version}"
        );
        let dir = ArrayDirectory::open(t.path()).unwrap();
        let fr = Fragment::open(&dir, &dir.fragments[0], &ReadOptions::default()).unwrap();
        let Metadata::Footer(footer) = &fr.metadata else {
            panic!("a footer")
        };
        let r = &footer.non_empty_domain.as_ref().unwrap().ranges[0];
        assert_eq!((r.range_length, r.min_length), (Some(10), Some(5)));
        let rtree = fr.rtree(&ReadOptions::default()).unwrap().unwrap();
        assert_eq!(rtree.levels[0].mbrs[2].ranges[0].range, b"applezebra");
        assert_footer_round_trips(&s, &b);
    }
}

// ---------------------------------------------------------------------------
// Versions 10 and 11: `__schema/`, the footer names its schema and has a
// length.

#[test]
fn v10_dense_schema_folder() {
    let t = TempArray::new("v10_dense");
    let s = schema(
        10,
        true,
        vec![
            dim("y", Datatype::Int32, -8i32, 7, 4),
            dim("x", Datatype::Int32, 0i32, 99, 100),
        ],
        vec![attr("temp", Datatype::Float64, f64::NAN.le())],
    );
    let schema_name = write_schema(t.path(), &s, 1_600_000_000_000);
    assert!(t.path().join("__schema").join(&schema_name).is_file());
    assert!(!t.path().join("__array_schema.tdb").exists());
    let f = frag(
        10,
        1_600_000_000_001,
        1_600_000_000_002,
        true,
        vec![pair(-3i32, 2), pair(0i32, 99)],
    );
    let b = write_fragment(t.path(), &s, &schema_name, &f);
    assert!(b.trailing_length);
    assert!(t.path().join(format!("{}.ok", b.name)).is_file());

    let v = inspect(t.path());
    assert_eq!(v["schema_name"], schema_name);
    assert_eq!(schema_head(&v)["version"], 10);
    assert_eq!(
        attrs_summary(&v),
        json!([{"name": "temp", "datatype": "FLOAT64", "cell_val_num": 1, "nullable": false, "fill_value": "NaN"}])
    );
    // y: tiles [-4,-1], [0,3] -> 8 values; x: one tile of 100.
    assert_eq!(
        frags_summary(&v),
        json!([frag_json(
            &b,
            10,
            [1_600_000_000_001, 1_600_000_000_002],
            json!([[-3, 2], [0, 99]]),
            800,
            true
        )])
    );
    assert_eq!(v["fragments"][0]["array_schema_name"], schema_name);
    assert_eq!(
        v["fragments"][0]["footer"]["array_schema_name"],
        json!(schema_name)
    );
    assert_footer_round_trips(&s, &b);
}

#[test]
fn v11_sparse_with_tile_metadata_offsets() {
    let t = TempArray::new("v11_sparse");
    let mut s = schema(
        11,
        false,
        vec![
            dim("a", Datatype::Uint8, 0u8, 255, 16),
            dim("b", Datatype::Int64, -1_000i64, 1_000, 100),
        ],
        vec![
            attr("c", Datatype::Int8, vec![0x80]),
            Attr {
                nullable: true,
                ..attr("d", Datatype::Uint64, u64::MAX.le())
            },
        ],
    );
    s.capacity = 100;
    let schema_name = write_schema(t.path(), &s, 40);
    let f = sparse(
        frag(11, 41, 42, false, vec![pair(3u8, 250), pair(-999i64, 999)]),
        7,
        99,
    );
    let b = write_fragment(t.path(), &s, &schema_name, &f);

    let v = inspect(t.path());
    assert_eq!(schema_head(&v)["version"], 11);
    assert_eq!(
        attrs_summary(&v),
        json!([
            {"name": "c", "datatype": "INT8", "cell_val_num": 1, "nullable": false, "fill_value": -128},
            {"name": "d", "datatype": "UINT64", "cell_val_num": 1, "nullable": true, "fill_value": u64::MAX},
        ])
    );
    assert_eq!(
        frags_summary(&v),
        json!([frag_json(
            &b,
            11,
            [41, 42],
            json!([[3, 250], [-999, 999]]),
            6 * 100 + 99,
            false
        )])
    );
    let dir = ArrayDirectory::open(t.path()).unwrap();
    let fr = Fragment::open(&dir, &dir.fragments[0], &ReadOptions::default()).unwrap();
    let Metadata::Footer(footer) = &fr.metadata else {
        panic!("a footer")
    };
    assert_eq!(footer.tile_mins_offsets.as_ref().map(Vec::len), Some(5));
    // Version 11 has no fragment min/max/sum/null count offset (from 12).
    assert_eq!(footer.fragment_min_max_sum_null_count_offset, None);
    assert_eq!(footer.processed_conditions_offset, None);
    assert_footer_round_trips(&s, &b);
}

/// Schema evolution (version 10 on): the fragment was written with an older
/// schema than the newest, with another attribute count; its footer names it.
#[test]
fn v11_fragment_of_an_older_schema() {
    let t = TempArray::new("v11_evolved");
    let old = schema(
        11,
        false,
        vec![dim("k", Datatype::Int32, 0i32, 9, 10)],
        vec![attr("a", Datatype::Int32, 0i32.le())],
    );
    let mut new = old.clone();
    new.attrs.push(attr("b", Datatype::Float32, 0f32.le()));
    new.attrs
        .push(attr("c", Datatype::Int8, 0i8.to_le_bytes().to_vec()));
    let old_name = write_schema(t.path(), &old, 10);
    let new_name = write_schema(t.path(), &new, 20);
    let f_old = sparse(frag(11, 11, 11, false, vec![pair(0i32, 4)]), 1, 5);
    let f_new = sparse(frag(11, 21, 21, false, vec![pair(5i32, 9)]), 1, 5);
    let b_old = write_fragment(t.path(), &old, &old_name, &f_old);
    let b_new = write_fragment(t.path(), &new, &new_name, &f_new);

    let v = inspect(t.path());
    assert_eq!(v["schema_name"], new_name);
    assert_eq!(v["schema"]["attributes"].as_array().unwrap().len(), 3);
    assert_eq!(
        frags_summary(&v),
        json!([
            frag_json(&b_old, 11, [11, 11], json!([[0, 4]]), 5, false),
            frag_json(&b_new, 11, [21, 21], json!([[5, 9]]), 5, false),
        ])
    );
    assert_eq!(v["fragments"][0]["array_schema_name"], old_name);
    assert_eq!(v["fragments"][1]["array_schema_name"], new_name);
}

/// An array created before version 10 keeps `__array_schema.tdb`; fragments
/// written later by newer libraries name it in their footers.
#[test]
fn v7_schema_with_v11_and_v12_fragments() {
    let t = TempArray::new("v7_mixed");
    let s = schema(
        7,
        true,
        vec![dim("d", Datatype::Int64, 1i64, 100, 10)],
        vec![attr("a", Datatype::Int32, 0i32.le())],
    );
    let schema_name = write_schema(t.path(), &s, 0);
    let b7 = write_fragment(
        t.path(),
        &s,
        &schema_name,
        &frag(7, 100, 100, true, vec![pair(1i64, 10)]),
    );
    let b11 = write_fragment(
        t.path(),
        &s,
        &schema_name,
        &frag(11, 200, 200, true, vec![pair(11i64, 25)]),
    );
    let b12 = write_fragment(
        t.path(),
        &s,
        &schema_name,
        &frag(12, 300, 300, true, vec![pair(91i64, 100)]),
    );
    let v = inspect(t.path());
    assert_eq!(
        frags_summary(&v),
        json!([
            frag_json(&b7, 7, [100, 100], json!([[1, 10]]), 10, true),
            frag_json(&b11, 11, [200, 200], json!([[11, 25]]), 20, true),
            frag_json(&b12, 12, [300, 300], json!([[91, 100]]), 10, true),
        ])
    );
    for f in v["fragments"].as_array().unwrap() {
        assert_eq!(f["array_schema_name"], "__array_schema.tdb");
    }
}

// ---------------------------------------------------------------------------
// Versions 12 to 16: `__fragments/`, `__commits/`.

#[test]
fn v12_vacuumed_fragment_is_not_listed() {
    let t = TempArray::new("v12_vac");
    let s = schema(
        12,
        true,
        vec![dim("d", Datatype::Int32, 0i32, 99, 10)],
        vec![attr("a", Datatype::Uint8, vec![0])],
    );
    let schema_name = write_schema(t.path(), &s, 1);
    let b1 = write_fragment(
        t.path(),
        &s,
        &schema_name,
        &frag(12, 2, 2, true, vec![pair(0i32, 9)]),
    );
    let b2 = write_fragment(
        t.path(),
        &s,
        &schema_name,
        &frag(12, 3, 3, true, vec![pair(10i32, 19)]),
    );
    let b3 = write_fragment(
        t.path(),
        &s,
        &schema_name,
        &Frag {
            label: 0xc0,
            ..frag(12, 2, 3, true, vec![pair(0i32, 19)])
        },
    );
    assert!(b1.path.starts_with(t.path().join("__fragments")));
    assert!(t
        .path()
        .join("__commits")
        .join(format!("{}.wrt", b1.name))
        .is_file());
    // The consolidated fragment b3 replaces b1 and b2; before version 19 the
    // vacuum file lists absolute URIs.
    let vac = table!(VacuumFile {
        entries: [&b1, &b2]
            .iter()
            .map(|b| table!(VacuumEntry {
                uri: format!("file://{}", b.path.display()).into_bytes(),
            }))
            .collect(),
    });
    write(
        &t.path().join("__commits").join(format!("{}.vac", b3.name)),
        &encode(&vac).unwrap(),
    );

    let v = inspect(t.path());
    assert_eq!(
        frags_summary(&v),
        json!([frag_json(&b3, 12, [2, 3], json!([[0, 19]]), 20, true)])
    );
    let dir = ArrayDirectory::open(t.path()).unwrap();
    assert_eq!(dir.vacuum_files.len(), 1);
    assert_eq!(dir.fragments.len(), 1);
}

#[test]
fn v14_sparse_with_timestamps() {
    let t = TempArray::new("v14_sparse");
    let mut s = schema(
        14,
        false,
        vec![
            dim("x", Datatype::Float32, -1.0f32, 1.0, 0.25),
            dim("y", Datatype::Float32, -1.0f32, 1.0, 0.25),
        ],
        vec![attr("a", Datatype::Int16, 3i16.le())],
    );
    s.capacity = 8;
    s.allows_dups = true;
    let schema_name = write_schema(t.path(), &s, 5);
    let mut f = sparse(
        frag(14, 6, 6, false, vec![pair(-0.5f32, 0.5), pair(0.0f32, 1.0)]),
        2,
        8,
    );
    f.timestamps = true;
    let b = write_fragment(t.path(), &s, &schema_name, &f);
    let v = inspect(t.path());
    assert_eq!(
        schema_head(&v),
        json!({"version": 14, "array_type": "sparse", "tile_order": "row-major",
               "cell_order": "row-major", "capacity": 8, "allows_duplicates": true})
    );
    assert_eq!(
        frags_summary(&v),
        json!([frag_json(
            &b,
            14,
            [6, 6],
            json!([[-0.5, 0.5], [0.0, 1.0]]),
            16,
            false
        )])
    );
    let footer = &v["fragments"][0]["footer"];
    assert_eq!(footer["includes_timestamps"], 1);
    // n = A + D + 1 + 1 (timestamps).
    assert_eq!(footer["file_sizes"].as_array().unwrap().len(), 5);
    assert_footer_round_trips(&s, &b);
}

#[test]
fn v15_sparse_with_delete_metadata() {
    let t = TempArray::new("v15_sparse");
    let mut s = schema(
        15,
        false,
        vec![dim("id", Datatype::Uint32, 0u32, 999, 100)],
        vec![attr("a", Datatype::Int32, 0i32.le())],
    );
    s.capacity = 20;
    let schema_name = write_schema(t.path(), &s, 5);
    let mut f = sparse(frag(15, 7, 8, false, vec![pair(5u32, 900)]), 3, 1);
    f.timestamps = true;
    f.delete_meta = true;
    let b = write_fragment(t.path(), &s, &schema_name, &f);
    let v = inspect(t.path());
    assert_eq!(
        dims_summary(&v),
        json!([{"name": "id", "datatype": "UINT32", "cell_val_num": 1, "domain": [0, 999], "tile_extent": 100}])
    );
    assert_eq!(
        frags_summary(&v),
        json!([frag_json(&b, 15, [7, 8], json!([[5, 900]]), 41, false)])
    );
    let footer = &v["fragments"][0]["footer"];
    assert_eq!(footer["includes_delete_metadata"], 1);
    // n = A + D + 1 + 1 + 2.
    assert_eq!(footer["tile_offsets"].as_array().unwrap().len(), 6);
    assert_footer_round_trips(&s, &b);
}

#[test]
fn v16_dense_with_processed_conditions() {
    let t = TempArray::new("v16_dense");
    let s = schema(
        16,
        true,
        vec![
            dim("r", Datatype::Int8, -10i8, 10, 5),
            dim("c", Datatype::Int8, 0i8, 20, 7),
        ],
        vec![attr("v", Datatype::Uint8, vec![255])],
    );
    let schema_name = write_schema(t.path(), &s, 5);
    let f = frag(16, 9, 9, true, vec![pair(-10i8, 4), pair(7i8, 13)]);
    let b = write_fragment(t.path(), &s, &schema_name, &f);
    let v = inspect(t.path());
    assert_eq!(
        dims_summary(&v),
        json!([
            {"name": "r", "datatype": "INT8", "cell_val_num": 1, "domain": [-10, 10], "tile_extent": 5},
            {"name": "c", "datatype": "INT8", "cell_val_num": 1, "domain": [0, 20], "tile_extent": 7},
        ])
    );
    // r: tiles [-10,-6], [-5,-1], [0,4] -> 15; c: tiles [7,13] -> 7.
    assert_eq!(
        frags_summary(&v),
        json!([frag_json(
            &b,
            16,
            [9, 9],
            json!([[-10, 4], [7, 13]]),
            105,
            true
        )])
    );
    let dir = ArrayDirectory::open(t.path()).unwrap();
    let fr = Fragment::open(&dir, &dir.fragments[0], &ReadOptions::default()).unwrap();
    let Metadata::Footer(footer) = &fr.metadata else {
        panic!("a footer")
    };
    assert!(footer.processed_conditions_offset.is_some());
    assert_footer_round_trips(&s, &b);
}

// ---------------------------------------------------------------------------
// Every version, dense and sparse.

#[test]
fn every_version_dense_and_sparse() {
    for version in 1..=22u32 {
        for dense in [true, false] {
            let t = TempArray::new(&format!("sweep_v{version}_{dense}"));
            let mut s = schema(
                version,
                dense,
                vec![
                    dim("rows", Datatype::Int32, 1i32, 8, 4),
                    dim("cols", Datatype::Int32, 1i32, 8, 2),
                ],
                vec![
                    attr("a", Datatype::Int32, 0i32.le()),
                    Attr {
                        cell_val_num: u32::MAX,
                        nullable: version >= 7,
                        ..attr("b", Datatype::Char, b"z".to_vec())
                    },
                ],
            );
            s.capacity = 6;
            let schema_name = write_schema(t.path(), &s, 1);
            let mut f = frag(version, 2, 3, dense, vec![pair(2i32, 5), pair(3i32, 3)]);
            if version <= 2 {
                f.t2 = 2;
            }
            if !dense {
                f = sparse(f, 3, 5);
            }
            let b = write_fragment(t.path(), &s, &schema_name, &f);
            let v = inspect(t.path());
            let ctx = format!("version {version}, dense {dense}");
            assert_eq!(v["schema"]["version"], version, "{ctx}");
            assert_eq!(
                v["schema"]["array_type"],
                if dense { "dense" } else { "sparse" },
                "{ctx}"
            );
            assert_eq!(
                attrs_summary(&v)[1],
                json!({"name": "b", "datatype": "CHAR", "cell_val_num": "var",
                       "nullable": version >= 7,
                       "fill_value": if version >= 6 { json!("z") } else { Value::Null }}),
                "{ctx}"
            );
            // Dense: rows tiles [1,4], [5,8]; cols tile [3,4] -> 8 * 2.
            let cells = if dense { 16 } else { 2 * 6 + 5 };
            let ts = if version <= 2 { [2, 2] } else { [2, 3] };
            assert_eq!(
                frags_summary(&v),
                json!([frag_json(
                    &b,
                    version,
                    ts,
                    json!([[2, 5], [3, 3]]),
                    cells,
                    dense
                )]),
                "{ctx}"
            );
            if version >= 3 {
                assert_footer_round_trips(&s, &b);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Footers of every version re-encode to the bytes they were decoded from.

#[test]
fn footers_of_every_version_round_trip() {
    let path = Path::new("footer");
    for version in 3..=23u32 {
        let fixed = schema(
            version,
            false,
            vec![
                dim("x", Datatype::Int64, 0i64, 99, 10),
                dim("y", Datatype::Int64, 0i64, 99, 10),
            ],
            vec![
                attr("a", Datatype::Int32, 0i32.le()),
                attr("b", Datatype::Float64, 0f64.le()),
                attr("c", Datatype::Uint8, vec![0]),
            ],
        );
        let mut cases = vec![(
            fixed.clone(),
            sparse(
                frag(version, 1, 2, false, vec![pair(1i64, 2), pair(3i64, 4)]),
                2,
                3,
            ),
        )];
        cases.push((
            fixed.clone(),
            frag(version, 1, 2, true, vec![pair(0i64, 9), pair(0i64, 99)]),
        ));
        if version >= 5 {
            let mut var = fixed.clone();
            var.dims[1] = string_dim("s");
            cases.push((
                var,
                sparse(
                    frag(version, 1, 2, false, vec![pair(1i64, 2), text("", "zz")]),
                    1,
                    1,
                ),
            ));
        }
        if version >= 15 {
            let mut f = sparse(
                frag(version, 1, 2, false, vec![pair(1i64, 2), pair(3i64, 4)]),
                2,
                3,
            );
            f.timestamps = true;
            f.delete_meta = true;
            cases.push((fixed.clone(), f));
        }
        for (s, f) in cases {
            let o = Offsets {
                rtree: 0,
                tile_offsets: (0..counts(&s, &f).0 as u64).map(|i| 100 + i).collect(),
                empty_offsets: 7,
                min_max: 8,
                sums: 9,
                null_counts: 10,
                fragment_min_max: 11,
                processed_conditions: 12,
            };
            let mut table = footer_table(&s, "__1_1_schema", &f, &o);
            if version >= 23 && !f.dense {
                // A sparse fragment with global order bounds.
                let data: Vec<u8> = (0..2 * s.dims.len() as u64)
                    .flat_map(u64::to_le_bytes)
                    .collect();
                table.num_optional_sections = Some(1);
                table.optional_sections = Some(vec![table!(OptionalSection {
                    identifier:
                        tiledb_codec::raw::format::OptionalSectionIdentifier::TileGlobalOrderOffsets,
                    data_size: data.len() as u32,
                    data,
                })]);
            }
            let bytes = encode(&table).unwrap();
            let decoded: FragmentFooter =
                decode_all(&bytes, path, 0, (dims_arg(&s), s.attrs.len() as u64))
                    .unwrap_or_else(|e| panic!("version {version}: {e}"));
            assert_eq!(decoded, table, "version {version}");
            assert_eq!(encode(&decoded).unwrap(), bytes, "version {version}");
        }
    }
}

/// The generic tile writer is the inverse of the reader; the tile is cut
/// into chunks of at most 64 KiB, as the engine's filter pipeline cuts it.
#[test]
fn generic_tile_round_trip() {
    let t = TempArray::new("generic_tile");
    for (i, data) in [&b""[..], b"x", &[7u8; 70_000][..]].iter().enumerate() {
        let p = t.path().join(format!("tile{i}"));
        let bytes = write_generic_tile(data, 9);
        let chunks = data.len().div_ceil(65536);
        assert_eq!(bytes.len(), 34 + 8 + 8 + 12 * chunks + data.len());
        write(&p, &bytes);
        let file = tiledb_codec::raw::storage::MappedFile::open(&p).unwrap();
        let tile =
            tiledb_codec::raw::tile::read_generic_tile(&file, 0, &ReadOptions::default()).unwrap();
        assert_eq!(&tile.data[..], *data);
        assert_eq!(tile.header.version_number, 9);
        assert_eq!(tile.header.filter_pipeline_size, 8);
        assert_eq!(tile.end, bytes.len() as u64);
    }
}

// ---------------------------------------------------------------------------
// Commits and vacuuming in the array root (before version 12) and through a
// consolidated commits file (version 12 on).

#[test]
fn v9_root_vacuum_file() {
    let t = TempArray::new("v9_vac");
    let s = schema(
        9,
        true,
        vec![dim("d", Datatype::Int32, 0i32, 99, 10)],
        vec![attr("a", Datatype::Int32, 0i32.le())],
    );
    let schema_name = write_schema(t.path(), &s, 0);
    let b1 = write_fragment(
        t.path(),
        &s,
        &schema_name,
        &frag(9, 1, 1, true, vec![pair(0i32, 9)]),
    );
    let b2 = write_fragment(
        t.path(),
        &s,
        &schema_name,
        &Frag {
            label: 0xc1,
            ..frag(9, 1, 2, true, vec![pair(0i32, 9)])
        },
    );
    // Before version 12 the vacuum file sits beside the new fragment.
    let vac = table!(VacuumFile {
        entries: vec![table!(VacuumEntry {
            uri: format!("file://{}", b1.path.display()).into_bytes(),
        })],
    });
    write(
        &t.path().join(format!("{}.vac", b2.name)),
        &encode(&vac).unwrap(),
    );
    let v = inspect(t.path());
    assert_eq!(
        frags_summary(&v),
        json!([frag_json(&b2, 9, [1, 2], json!([[0, 9]]), 10, true)])
    );
}

#[test]
fn v13_commit_through_consolidated_commits_file() {
    let t = TempArray::new("v13_con");
    let s = schema(
        13,
        true,
        vec![dim("d", Datatype::Int32, 0i32, 99, 10)],
        vec![attr("a", Datatype::Int32, 0i32.le())],
    );
    let schema_name = write_schema(t.path(), &s, 0);
    let mut f1 = frag(13, 1, 1, true, vec![pair(0i32, 9)]);
    f1.commit = false;
    let mut f2 = frag(13, 2, 2, true, vec![pair(10i32, 19)]);
    f2.commit = false;
    let b1 = write_fragment(t.path(), &s, &schema_name, &f1);
    let b2 = write_fragment(t.path(), &s, &schema_name, &f2);
    // Only the first commit is consolidated; the second has no marker.
    let con = table!(ConsolidatedCommits {
        entries: vec![table!(ConsolidatedCommit {
            uri: format!("__commits/{}.wrt", b1.name).into_bytes(),
            delete_tile_size: None,
            delete_tile: None,
        })],
    });
    write(
        &t.path()
            .join("__commits")
            .join(format!("__1_1_{}_13.con", label(0xcc))),
        &encode(&con).unwrap(),
    );
    let v = inspect(t.path());
    assert_eq!(
        frags_summary(&v),
        json!([frag_json(&b1, 13, [1, 1], json!([[0, 9]]), 10, true)])
    );
    let dir = ArrayDirectory::open(t.path()).unwrap();
    assert_eq!(dir.uncommitted, vec![b2.path.clone()]);
}

// ---------------------------------------------------------------------------
// Inspecting a fragment folder directly.

fn inspect_fragment_folder(version: u32) {
    let t = TempArray::new(&format!("frag_folder_v{version}"));
    let s = schema(
        version,
        true,
        vec![dim("d", Datatype::Int32, 0i32, 99, 10)],
        vec![attr("a", Datatype::Int32, 0i32.le())],
    );
    let schema_name = write_schema(t.path(), &s, 0);
    let b = write_fragment(
        t.path(),
        &s,
        &schema_name,
        &frag(version, 3, 3, true, vec![pair(5i32, 25)]),
    );
    let v = inspect_json(&b.path, &ReadOptions::default())
        .unwrap_or_else(|e| panic!("version {version}: {e}"));
    assert_eq!(v["kind"], "fragment", "version {version}");
    assert_eq!(v["name"], json!(b.name), "version {version}");
    assert_eq!(v["version"], version, "version {version}");
    assert_eq!(v["non_empty_domain"], json!([[5, 25]]), "version {version}");
    // Space tiles [0,9], [10,19], [20,29].
    assert_eq!(v["cell_num"], 30, "version {version}");
}

#[test]
fn inspect_fragment_folder_from_version_12() {
    for version in [12, 14, 16] {
        inspect_fragment_folder(version);
    }
}

#[test]
fn inspect_fragment_folder_before_version_12() {
    for version in [2, 4, 7, 11] {
        inspect_fragment_folder(version);
    }
}

// ---------------------------------------------------------------------------
// Version 11 as TileDB 2.7 wrote it.

/// TileDB 2.7.0–2.7.2 (format 11) ended the footer after the tile null count
/// offsets (`write_generic_tile_offsets` has no fragment min/max offset; it
/// arrived with 2.8, format 12). The engine's `load_generic_tile_offsets_v11`
/// does not read that offset either, so it reads these footers.
#[test]
fn v11_footer_as_tiledb_2_7_wrote_it() {
    let t = TempArray::new("v11_tiledb_2_7");
    let mut s = schema(
        11,
        false,
        vec![dim("d", Datatype::Int64, 0i64, 999, 100)],
        vec![attr("a", Datatype::Float64, 0f64.le())],
    );
    s.capacity = 10;
    let schema_name = write_schema(t.path(), &s, 1);
    let mut f = sparse(frag(11, 2, 2, false, vec![pair(5i64, 500)]), 2, 3);
    f.v11_as_tiledb_2_7 = true;
    let b = write_fragment(t.path(), &s, &schema_name, &f);
    // The footer is 8 bytes shorter than the current writer's.
    let mut current = f.clone();
    current.v11_as_tiledb_2_7 = false;
    let o = Offsets {
        tile_offsets: vec![0; counts(&s, &f).0],
        ..Offsets::default()
    };
    // Today's engine writes the fragment min/max offset into version 11
    // footers, a field the spec has from 12 only, so `encode` refuses the
    // record: it is written with binrw directly.
    let mut today = std::io::Cursor::new(Vec::new());
    binrw::BinWrite::write_le(&footer_table(&s, &schema_name, &current, &o), &mut today).unwrap();
    assert_eq!(today.into_inner().len(), b.footer.len() + 8);

    let v = inspect(t.path());
    assert_eq!(
        frags_summary(&v),
        json!([frag_json(&b, 11, [2, 2], json!([[5, 500]]), 13, false)])
    );
    assert_footer_round_trips(&s, &b);
}
