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

mod more;
#[allow(unused_imports)]
use more::*;
