//! Cells of the oldest on-disk layouts, built here with the crate's codecs
//! into temporary folders and read twice: by `ArrayReader` (must give the
//! values written) and by the TileDB engine (TileDB-Py running
//! `tests/engine/engine_account.py --cells`, which must give the same).
//!
//! The layouts (issue #4):
//! - versions 1 and 2: the legacy fragment metadata (one generic tile with
//!   the tile offsets inline), no commit marker, dense iff no `__coords.tdb`;
//! - versions before 5: the coordinates of sparse fragments in one zipped
//!   `__coords.tdb` (every dimension of a cell in one cell of the first
//!   dimension's type, filtered with the coords filters; stored one dimension
//!   after the other, except version 1 without a compressor);
//! - versions before 9: data files named by field name (version 8:
//!   percent-encoded with the engine's table);
//! - versions before 10 with fixed-size dimensions: footers without their
//!   trailing length (the reader computes the footer size);
//! - versions before 12: everything in the array folder, `.ok` markers.

use crate::common;

use common::{same, sorted};

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use tiledb_codec::raw::filters::Pipeline;
use tiledb_codec::raw::format::{
    encode, ArraySchema, ArrayType, Attribute, Compressor, CompressorOptions, CurrentDomain,
    DataOrder, Datatype, Dimension, Domain, Filter, FilterOptions, FilterPipeline, FilterType,
    FooterLength, FragmentFooter, Layout, LegacyFragmentMetadata, LegacyTileOffsets, Mbr, RTree,
    RTreeLevel, Range1D, TileMinMax, TileNullCounts, TileOffsets, TileSums,
};
use tiledb_codec::raw::format::{table, Record as _};
use tiledb_codec::raw::read::{ArrayReader, Query};
use tiledb_codec::raw::tile::write_generic_tile;
use tiledb_codec::ReadOptions;
use tiledb_codec_cli::inspect::inspect_json;
use tiledb_codec_cli::verify::verify;

/// GZIP at level 1, the filter the engine gives generic tiles.
fn generic_tile_filter() -> Filter {
    table!(Filter {
        filter_type: FilterType::Gzip,
        filter_options: FilterOptions::Compressor(table!(CompressorOptions {
            compressor_type: Compressor::Gzip,
            compression_level: 1,
            reinterpret_datatype: None,
        })),
    })
    .with_sizes()
}

// ---------------------------------------------------------------------------
// The array: two INT32 dimensions `rows`, `cols` over [1, 4], an INT32
// attribute and a var-sized CHAR attribute.

struct TempArray(PathBuf);

impl TempArray {
    fn new(test: &str) -> Self {
        let root = crate::common::temp_root().join(format!(
            "tiledb-codec-old-layouts-{}-{test}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        TempArray(root)
    }
}

impl Drop for TempArray {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

const DIMS: [&str; 2] = ["rows", "cols"];

/// One layout to build.
struct Case {
    version: u32,
    dense: bool,
    /// Names of the INT32 and the var-sized CHAR attribute.
    int_attr: &'static str,
    text_attr: &'static str,
    coords_filters: Vec<Filter>,
    /// Whether the INT32 attribute is nullable (version 7 on).
    nullable: bool,
    /// Cells per sparse tile.
    capacity: u64,
    /// The fragment's cells (row-major) and its timestamp.
    cells: Vec<Cell>,
    t: u64,
}

fn case(version: u32, dense: bool) -> Case {
    Case {
        version,
        dense,
        int_attr: "a",
        text_attr: "s",
        coords_filters: Vec::new(),
        nullable: false,
        capacity: 3,
        cells: cells(dense, 0),
        t: 7,
    }
}

/// A cell and the write it comes from (`generation`, part of its values).
#[derive(Clone)]
struct Cell {
    r: i32,
    c: i32,
    generation: i32,
}

impl Cell {
    fn a(&self) -> i32 {
        1000 * self.generation + 100 * self.r + self.c
    }

    fn s(&self) -> String {
        format!(
            "{}{}{}",
            self.generation,
            self.r,
            "z".repeat(self.c as usize)
        )
    }

    /// Whether the INT32 value is there (in a nullable attribute, every
    /// cell whose coordinates add up to an even number is null).
    fn valid(&self, c: &Case) -> bool {
        !c.nullable || (self.r + self.c) % 2 != 0
    }

    fn row(&self, c: &Case) -> Value {
        let a = if self.valid(c) {
            json!(self.a())
        } else {
            Value::Null
        };
        json!({"rows": self.r, "cols": self.c, c.int_attr: a, c.text_attr: self.s()})
    }
}

/// The cells written: every cell of the domain (dense), or five cells in
/// row-major order (sparse; one space tile, so this is the global order).
fn cells(dense: bool, generation: i32) -> Vec<Cell> {
    let at = |&(r, c): &(i32, i32)| Cell { r, c, generation };
    if dense {
        (1..=4)
            .flat_map(|r| (1..=4).map(move |c| (r, c)))
            .map(|rc| at(&rc))
            .collect()
    } else {
        [(1, 1), (1, 4), (2, 3), (3, 2), (4, 4)]
            .iter()
            .map(at)
            .collect()
    }
}

/// The tiles of the fragment, in the order they are stored: dense, the four
/// 2x2 space tiles in row-major order, cells row-major inside; sparse, runs
/// of `capacity` cells.
fn tiles(c: &Case) -> Vec<Vec<Cell>> {
    let all = &c.cells;
    if !c.dense {
        return all.chunks(c.capacity as usize).map(<[_]>::to_vec).collect();
    }
    let mut out = Vec::new();
    for (tr, tc) in [(0, 0), (0, 1), (1, 0), (1, 1)] {
        let tile: Vec<Cell> = all
            .iter()
            .filter(|x| (x.r - 1) / 2 == tr && (x.c - 1) / 2 == tc)
            .cloned()
            .collect();
        if !tile.is_empty() {
            out.push(tile);
        }
    }
    out
}

fn expected_rows(c: &Case) -> Vec<Value> {
    c.cells.iter().map(|x| x.row(c)).collect()
}

// ---------------------------------------------------------------------------
// Schema.

fn since<T>(version: u32, gate: u32, value: T) -> Option<T> {
    (version >= gate).then_some(value)
}

fn pipeline(filters: &[Filter]) -> FilterPipeline {
    table!(FilterPipeline {
        max_chunk_size: 65536,
        num_filters: filters.len() as u32,
        filters: filters.to_vec(),
    })
}

fn schema_table(c: &Case) -> ArraySchema {
    let v = c.version;
    // Sparse: one space tile over the domain.
    let extent: i32 = if c.dense { 2 } else { 4 };
    let dimension = |name: &str| {
        table!(Dimension {
            name_length: name.len() as u32,
            name: name.as_bytes().to_vec(),
            datatype: since(v, 5, Datatype::Int32),
            cell_val_num: since(v, 5, 1),
            filters: since(v, 5, pipeline(&[])),
            domain_size: since(v, 5, 8),
            domain: [1i32.to_le_bytes(), 4i32.to_le_bytes()].concat(),
            null_tile_extent: 0,
            tile_extent: extent.to_le_bytes().to_vec(),
        })
    };
    let attribute = |name: &str, datatype: Datatype, cell_val_num: u32, fill: Vec<u8>, nullable| {
        table!(Attribute {
            name_length: name.len() as u32,
            name: name.as_bytes().to_vec(),
            datatype,
            cell_val_num,
            filters: pipeline(&[]),
            fill_value_size: since(v, 6, fill.len() as u64),
            fill_value: since(v, 6, fill),
            nullable: since(v, 7, u8::from(nullable)),
            fill_value_validity: since(v, 7, 0),
            order: since(v, 17, DataOrder::UnorderedData),
            enumeration_name_length: since(v, 20, 0),
            enumeration_name: since(v, 20, Vec::new()),
        })
    };
    let array_type = if c.dense {
        ArrayType::Dense
    } else {
        ArrayType::Sparse
    };
    table!(ArraySchema {
        array_version: v,
        allows_dups: since(v, 5, 0),
        array_type,
        tile_order: Layout::RowMajor,
        cell_order: Layout::RowMajor,
        capacity: c.capacity,
        coords_filters: pipeline(&c.coords_filters),
        offsets_filters: pipeline(&[]),
        validity_filters: since(v, 7, pipeline(&[])),
        domain: table!(Domain {
            domain_datatype: (v < 5).then_some(Datatype::Int32),
            num_dimensions: 2,
            dimensions: DIMS.iter().map(|d| dimension(d)).collect(),
        }),
        num_attributes: 2,
        attributes: vec![
            attribute(
                c.int_attr,
                Datatype::Int32,
                1,
                i32::MIN.to_le_bytes().to_vec(),
                c.nullable,
            ),
            attribute(c.text_attr, Datatype::Char, u32::MAX, vec![0x80], false),
        ],
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

/// Writes the schema where its version puts it; returns the name a footer
/// gives it (none before version 10).
fn write_schema(root: &Path, c: &Case) -> Option<String> {
    let bytes = write_generic_tile(&encode(&schema_table(c)).unwrap(), c.version);
    if c.version < 10 {
        write(&root.join("__array_schema.tdb"), &bytes);
        None
    } else {
        let name = "__1_1_0123456789abcdef0123456789abcdef".to_string();
        write(&root.join("__schema").join(&name), &bytes);
        Some(name)
    }
}

// ---------------------------------------------------------------------------
// Data files.

/// The version 8 file-name encoding, from the engine's table
/// (`FragmentMetadata::encode_name`).
fn percent_encode(name: &str) -> String {
    let table = [
        ('!', "%21"),
        ('#', "%23"),
        ('$', "%24"),
        ('%', "%25"),
        ('&', "%26"),
        ('\'', "%27"),
        ('(', "%28"),
        (')', "%29"),
        ('*', "%2A"),
        ('+', "%2B"),
        (',', "%2C"),
        ('/', "%2F"),
        (':', "%3A"),
        (';', "%3B"),
        ('=', "%3D"),
        ('?', "%3F"),
        ('@', "%40"),
        ('[', "%5B"),
        (']', "%5D"),
        ('"', "%22"),
        ('<', "%20"),
        ('>', "%2D"),
        ('\\', "%30"),
        ('|', "%3C"),
    ];
    name.chars()
        .map(|ch| match table.iter().find(|(k, _)| *k == ch) {
            Some((_, code)) => code.to_string(),
            None => ch.to_string(),
        })
        .collect()
}

/// The file name stem of a field: by name before version 9 (percent-encoded
/// in 8), by index from 9 (`a<idx>`, `d<dim>`); `__coords` always.
fn stem(v: u32, name: &str, idx: usize) -> String {
    if name == "__coords" {
        name.into()
    } else if v >= 9 {
        if idx > 2 {
            format!("d{}", idx - 3)
        } else {
            format!("a{idx}")
        }
    } else if v == 8 {
        percent_encode(name)
    } else {
        name.into()
    }
}

/// One data file: its filtered tiles back to back.
#[derive(Default, Clone)]
struct DataFile {
    bytes: Vec<u8>,
    offsets: Vec<u64>,
    /// Unfiltered size of each tile (the var sizes of a var data file).
    sizes: Vec<u64>,
}

impl DataFile {
    fn push(&mut self, pipeline: &Pipeline, tile: &[u8]) {
        self.offsets.push(self.bytes.len() as u64);
        self.sizes.push(tile.len() as u64);
        self.bytes.extend(pipeline.forward_tile(tile).unwrap());
    }
}

/// The files of one field (index in the engine's map: attributes, then
/// `__coords`, then the dimensions).
#[derive(Default, Clone)]
struct FieldFiles {
    fixed: DataFile,
    var: Option<DataFile>,
    validity: Option<DataFile>,
}

fn le(v: i32) -> [u8; 4] {
    v.to_le_bytes()
}

/// Builds every data file of the fragment; returns them by field index
/// (`None`: the field has no file in this fragment).
fn data_files(c: &Case) -> Vec<Option<FieldFiles>> {
    let v = c.version;
    let int = Pipeline::new(&[], Datatype::Int32, 4, v).unwrap();
    let chars = Pipeline::new(&[], Datatype::Char, 1, v).unwrap();
    let offsets = Pipeline::new(&[], Datatype::Uint64, 8, v).unwrap();
    let coords = Pipeline::new(&c.coords_filters, Datatype::Int32, 8, v).unwrap();
    // Dimensions with an empty pipeline of their own (schemas from version
    // 5) take the coords filters.
    let dim = Pipeline::new(&c.coords_filters, Datatype::Int32, 4, v).unwrap();
    let bytes = Pipeline::new(&[], Datatype::Uint8, 1, v).unwrap();
    let mut a = FieldFiles {
        validity: c.nullable.then(DataFile::default),
        ..Default::default()
    };
    let mut s = FieldFiles {
        var: Some(DataFile::default()),
        ..Default::default()
    };
    let mut zipped = FieldFiles::default();
    let mut dims = [FieldFiles::default(), FieldFiles::default()];
    let compressed = !c.coords_filters.is_empty();
    for tile in tiles(c) {
        a.fixed.push(
            &int,
            &tile.iter().flat_map(|x| le(x.a())).collect::<Vec<_>>(),
        );
        if let Some(validity) = &mut a.validity {
            let valid: Vec<u8> = tile.iter().map(|x| u8::from(x.valid(c))).collect();
            validity.push(&bytes, &valid);
        }
        let mut starts = Vec::new();
        let mut text = Vec::new();
        for x in &tile {
            starts.extend((text.len() as u64).to_le_bytes());
            text.extend(x.s().into_bytes());
        }
        s.fixed.push(&offsets, &starts);
        s.var.as_mut().unwrap().push(&chars, &text);
        let rows: Vec<u8> = tile.iter().flat_map(|x| le(x.r)).collect();
        let cols: Vec<u8> = tile.iter().flat_map(|x| le(x.c)).collect();
        if v < 5 {
            // Version 1 without a compressor stores cells zipped; every
            // other layout stores the dimensions one after the other.
            let body = if v == 1 && !compressed {
                tile.iter()
                    .flat_map(|x| [le(x.r), le(x.c)].concat())
                    .collect()
            } else {
                [rows, cols].concat()
            };
            zipped.fixed.push(&coords, &body);
        } else {
            dims[0].fixed.push(&dim, &rows);
            dims[1].fixed.push(&dim, &cols);
        }
    }
    let sparse = !c.dense;
    vec![
        Some(a),
        Some(s),
        (sparse && v < 5).then_some(zipped),
        (sparse && v >= 5).then(|| dims[0].clone()),
        (sparse && v >= 5).then(|| dims[1].clone()),
    ]
}

fn field_name(c: &Case, idx: usize) -> &'static str {
    [c.int_attr, c.text_attr, "__coords", DIMS[0], DIMS[1]][idx]
}

// ---------------------------------------------------------------------------
// Fragment metadata.

/// The bounding box of the fragment's cells, per dimension.
fn ned(c: &Case) -> [(i32, i32); 2] {
    let span = |f: fn(&Cell) -> i32| {
        let lo = c.cells.iter().map(f).min().unwrap();
        let hi = c.cells.iter().map(f).max().unwrap();
        (lo, hi)
    };
    [span(|x| x.r), span(|x| x.c)]
}

fn ned_bytes(c: &Case) -> Vec<u8> {
    ned(c)
        .iter()
        .flat_map(|(lo, hi)| [le(*lo), le(*hi)].concat())
        .collect()
}

fn mbr_of(tile: &[Cell]) -> Mbr {
    let span = |f: fn(&Cell) -> i32| {
        let lo = tile.iter().map(f).min().unwrap();
        let hi = tile.iter().map(f).max().unwrap();
        table!(Range1D {
            range_length: None,
            min_length: None,
            range: [le(lo), le(hi)].concat(),
        })
    };
    table!(Mbr {
        ranges: vec![span(|x| x.r), span(|x| x.c)],
    })
}

fn offsets_table(values: &[u64]) -> TileOffsets {
    table!(TileOffsets {
        num: values.len() as u64,
        values: values.to_vec(),
    })
}

/// The legacy `__fragment_metadata.tdb` of versions 1 and 2.
fn legacy_metadata(c: &Case, files: &[Option<FieldFiles>]) -> Vec<u8> {
    let tiles = tiles(c);
    let (mbrs, bounding): (Vec<u8>, Vec<u8>) = if c.dense {
        (Vec::new(), Vec::new())
    } else {
        let mbrs = tiles
            .iter()
            .flat_map(|t| {
                mbr_of(t)
                    .ranges
                    .into_iter()
                    .flat_map(|r| r.range)
                    .collect::<Vec<_>>()
            })
            .collect();
        // First and last coordinates of each tile.
        let bounding = tiles
            .iter()
            .flat_map(|t| {
                let (f, l) = (&t[0], &t[t.len() - 1]);
                [le(f.r), le(f.c), le(l.r), le(l.c)].concat()
            })
            .collect();
        (mbrs, bounding)
    };
    let num_mbrs = if c.dense { 0 } else { tiles.len() as u64 };
    let fixed = |i: usize| files[i].as_ref().map(|f| &f.fixed);
    let var = |i: usize| files[i].as_ref().and_then(|f| f.var.as_ref());
    let md = table!(LegacyFragmentMetadata {
        version_number: c.version,
        non_empty_domain_size: 16,
        non_empty_domain: ned_bytes(c),
        num_mbrs,
        mbrs,
        num_bounding_coords: num_mbrs,
        bounding_coords: bounding,
        tile_offsets: table!(LegacyTileOffsets {
            lists: (0..3)
                .map(|i| offsets_table(fixed(i).map_or(&[][..], |f| &f.offsets)))
                .collect(),
        }),
        tile_var_offsets: table!(LegacyTileOffsets {
            lists: (0..2)
                .map(|i| offsets_table(var(i).map_or(&[][..], |f| &f.offsets)))
                .collect(),
        }),
        tile_var_sizes: table!(LegacyTileOffsets {
            lists: (0..2)
                .map(|i| offsets_table(var(i).map_or(&[][..], |f| &f.sizes)))
                .collect(),
        }),
        last_tile_cell_num: tiles.last().unwrap().len() as u64,
        file_sizes: (0..3)
            .map(|i| fixed(i).map_or(0, |f| f.bytes.len() as u64))
            .collect(),
        file_var_sizes: (0..2)
            .map(|i| var(i).map_or(0, |f| f.bytes.len() as u64))
            .collect(),
    });
    write_generic_tile(&encode(&md).unwrap(), c.version)
}

/// The R-tree of the case's fragment (`tiles`: its tiles' cells): the
/// tiles' MBRs under a root (none for a dense fragment).
fn rtree(c: &Case, tiles: &[Vec<Cell>]) -> RTree {
    let v = c.version;
    let leaves: Vec<Mbr> = if c.dense {
        Vec::new()
    } else {
        tiles.iter().map(|t| mbr_of(t)).collect()
    };
    let mut levels = Vec::new();
    if leaves.len() > 1 {
        // Root first: the union of the leaves (at most the fanout of 10).
        let mut root = mbr_of(&c.cells);
        root.ranges = (0..2)
            .map(|d| {
                let lo = leaves
                    .iter()
                    .map(|m| &m.ranges[d].range[..4])
                    .min()
                    .unwrap();
                let hi = leaves
                    .iter()
                    .map(|m| &m.ranges[d].range[4..])
                    .max()
                    .unwrap();
                let (lo, hi) = (
                    i32::from_le_bytes(lo.try_into().unwrap()),
                    i32::from_le_bytes(hi.try_into().unwrap()),
                );
                table!(Range1D {
                    range_length: None,
                    min_length: None,
                    range: [le(lo), le(hi)].concat(),
                })
            })
            .collect();
        levels.push(table!(RTreeLevel {
            num_mbrs: 1,
            mbrs: vec![root],
        }));
    }
    if !leaves.is_empty() {
        levels.push(table!(RTreeLevel {
            num_mbrs: leaves.len() as u64,
            mbrs: leaves,
        }));
    }
    let rtree = table!(RTree {
        dim_num: (v < 5).then_some(2),
        fanout: 10,
        datatype: (v < 5).then_some(Datatype::Int32),
        num_levels: levels.len() as u32,
        levels,
    });
    rtree
}

/// `__fragment_metadata.tdb` of version 3 on: the R-tree, the tile offset
/// lists, (version 11) empty tile min/max/sum/null count tiles, the footer
/// and, from version 10 (these dimensions are fixed-size), its length.
fn metadata_file(c: &Case, schema_name: Option<&str>, files: &[Option<FieldFiles>]) -> Vec<u8> {
    let v = c.version;
    let tiles = tiles(c);
    let gt = |table: Vec<u8>| write_generic_tile(&table, v);
    let mut out = Vec::new();
    let rtree = rtree(c, &tiles);
    let rtree_offset = out.len() as u64;
    out.extend(gt(encode(&rtree).unwrap()));
    // Per field index: attributes, `__coords`, dimensions (versions before 5
    // stop at `__coords`; var lists stop before it).
    let (n_fixed, n_var, n) = if v < 5 { (3, 2, 3) } else { (5, 5, 5) };
    let mut list = |values: &[u64]| {
        let at = out.len() as u64;
        out.extend(gt(encode(&offsets_table(values)).unwrap()));
        at
    };
    let fixed = |i: usize| files[i].as_ref().map(|f| &f.fixed);
    let var = |i: usize| files[i].as_ref().and_then(|f| f.var.as_ref());
    let tile_offsets: Vec<u64> = (0..n_fixed)
        .map(|i| list(fixed(i).map_or(&[][..], |f| &f.offsets)))
        .collect();
    let tile_var_offsets: Vec<u64> = (0..n_var)
        .map(|i| list(var(i).map_or(&[][..], |f| &f.offsets)))
        .collect();
    let tile_var_sizes: Vec<u64> = (0..n_var)
        .map(|i| list(var(i).map_or(&[][..], |f| &f.sizes)))
        .collect();
    let validity_of = |i: usize| files[i].as_ref().and_then(|f| f.validity.as_ref());
    let validity: Vec<u64> = (0..n)
        .map(|i| list(validity_of(i).map_or(&[][..], |f| &f.offsets)))
        .collect();
    let mut tile_metadata = |table: Vec<u8>| {
        let at = out.len() as u64;
        out.extend(gt(table));
        vec![at; n]
    };
    let (mins, sums, nulls) = if v >= 11 {
        let empty_min_max = encode(&table!(TileMinMax {
            fixed_size: 0,
            var_size: 0,
            fixed: Vec::new(),
            var: Vec::new(),
        }))
        .unwrap();
        (
            Some(tile_metadata(empty_min_max)),
            Some(tile_metadata(
                encode(&table!(TileSums {
                    num: 0,
                    values: Vec::new(),
                }))
                .unwrap(),
            )),
            Some(tile_metadata(
                encode(&table!(TileNullCounts {
                    num: 0,
                    values: Vec::new(),
                }))
                .unwrap(),
            )),
        )
    } else {
        (None, None, None)
    };
    let ned_range = |d: usize| {
        table!(Range1D {
            range_length: None,
            min_length: None,
            range: [le(ned(c)[d].0), le(ned(c)[d].1)].concat(),
        })
    };
    // Each tile by its cells: a dense fragment's are full space tiles of 4.
    let tile_cells: Vec<u64> = tiles
        .iter()
        .map(|t| if c.dense { 4 } else { t.len() as u64 })
        .collect();
    let footer = table!(FragmentFooter {
        version_number: v,
        array_schema_name_size: schema_name.map(|s| s.len() as u64),
        array_schema_name: schema_name.map(|s| s.as_bytes().to_vec()),
        dense: u8::from(c.dense),
        null_non_empty_domain: 0,
        legacy_non_empty_domain: (v < 5).then(|| ned_bytes(c)),
        non_empty_domain: since(
            v,
            5,
            table!(Mbr {
                ranges: (0..2).map(ned_range).collect(),
            }),
        ),
        sparse_tile_num: 0,
        last_tile_cell_num: 0,
        includes_timestamps: since(v, 14, 0),
        includes_delete_metadata: since(v, 15, 0),
        file_sizes: (0..n_fixed)
            .map(|i| fixed(i).map_or(0, |f| f.bytes.len() as u64))
            .collect(),
        file_var_sizes: (0..n_var)
            .map(|i| var(i).map_or(0, |f| f.bytes.len() as u64))
            .collect(),
        file_validity_sizes: since(
            v,
            7,
            (0..n)
                .map(|i| validity_of(i).map_or(0, |f| f.bytes.len() as u64))
                .collect(),
        ),
        rtree_offset,
        tile_offsets,
        tile_var_offsets,
        tile_var_sizes,
        tile_validity_offsets: since(v, 7, validity),
        tile_mins_offsets: mins.clone(),
        tile_maxes_offsets: mins,
        tile_sums_offsets: sums,
        tile_null_counts_offsets: nulls,
        // Version 11 footers as TileDB 2.7 wrote them: without it.
        fragment_min_max_sum_null_count_offset: None,
        processed_conditions_offset: None,
        num_optional_sections: None,
        optional_sections: None,
    })
    .with_outside_counts(&tile_cells)
    .unwrap();
    let footer = encode(&footer).unwrap();
    out.extend_from_slice(&footer);
    if v >= 10 {
        out.extend(encode(&FooterLength::default().with_outside_sizes(&footer).unwrap()).unwrap());
    }
    out
}

/// Builds the array of `c` in `root`: schema, one fragment with its data
/// files, metadata and commit marker. Returns the fragment folder.
fn build(root: &Path, c: &Case) -> PathBuf {
    let schema_name = write_schema(root, c);
    write_fragment(root, c, schema_name.as_deref())
}

/// Writes the fragment of `c` (version `c.version`, cells `c.cells`, at
/// `c.t`) into an array whose schema is written; returns its folder.
fn write_fragment(root: &Path, c: &Case, schema_name: Option<&str>) -> PathBuf {
    assert!(c.version < 12, "these builders lay out the flat hierarchy");
    let (v, t) = (c.version, c.t);
    let label = format!("{:016x}{t:08x}{v:08x}", 0x0123_4567_89ab_cdef_u64);
    let name = match v {
        1 | 2 => format!("__{label}_{t}"),
        3 | 4 => format!("__{t}_{t}_{label}"),
        _ => format!("__{t}_{t}_{label}_{v}"),
    };
    let frag = root.join(&name);
    let files = data_files(c);
    for (idx, f) in files.iter().enumerate() {
        let Some(f) = f else { continue };
        let stem = stem(v, field_name(c, idx), idx);
        write(&frag.join(format!("{stem}.tdb")), &f.fixed.bytes);
        if let Some(var) = &f.var {
            write(&frag.join(format!("{stem}_var.tdb")), &var.bytes);
        }
        if let Some(validity) = &f.validity {
            write(&frag.join(format!("{stem}_validity.tdb")), &validity.bytes);
        }
    }
    let meta = if v <= 2 {
        legacy_metadata(c, &files)
    } else {
        metadata_file(c, schema_name, &files)
    };
    write(&frag.join("__fragment_metadata.tdb"), &meta);
    if v >= 5 {
        write(&root.join(format!("{name}.ok")), b"");
    }
    frag
}

// ---------------------------------------------------------------------------
// Reading.

fn ours(root: &Path) -> Vec<Value> {
    let r = ArrayReader::open(root, &ReadOptions::default())
        .unwrap_or_else(|e| panic!("open {}: {e}", root.display()));
    let cells = r
        .read(&Query::default())
        .unwrap_or_else(|e| panic!("read {}: {e}", root.display()));
    (0..cells.len).map(|i| cells.row(i)).collect()
}

/// The engine's read, or its error message.
fn engine(root: &Path) -> Result<Vec<Value>, String> {
    engine_account(root).map(|v| v["cells"].as_array().cloned().unwrap_or_default())
}

/// The engine's account of the array with its cells.
fn engine_account(root: &Path) -> Result<Value, String> {
    let out = common::engine_run(
        "engine_account.py",
        [root.as_os_str(), std::ffi::OsStr::new("--cells")],
    );
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(serde_json::from_slice(&out.stdout).unwrap())
}

fn assert_same(what: &str, got: &[Value], want: &[Value]) {
    assert_eq!(got.len(), want.len(), "{what}: {got:?}");
    for (g, w) in got.iter().zip(want) {
        assert!(same(g, w), "{what}: got {g}, expected {w}");
    }
}

/// Builds `c`, checks our read against the values written (in row-major
/// order) and the engine's read against them (as a multiset: the engine
/// returns sparse cells in its own order).
fn check(test: &str, c: &Case) {
    let t = TempArray::new(test);
    build(&t.0, c);
    let want = expected_rows(c);
    assert_same("ours", &ours(&t.0), &want);
    let reader = ArrayReader::open(&t.0, &ReadOptions::default()).unwrap();
    let scanned = reader.scan(None).unwrap();
    // Both attributes of every tile (dense tiles hold whole space tiles).
    assert_eq!(scanned.cells, 2 * c.cells.len() as u64);
    let report = verify(&t.0, &ReadOptions::default()).unwrap();
    assert!(report.ok(), "verify: {:?}", report.problems);
    assert_eq!(
        report.fields,
        if c.dense {
            2
        } else {
            4 - usize::from(c.version < 5)
        }
    );
    let engine = engine(&t.0).unwrap_or_else(|e| panic!("the engine refused: {e}"));
    assert_same("engine", &sorted(engine), &sorted(want));
}

// ---------------------------------------------------------------------------
// Versions 1 and 2: legacy fragment metadata.

#[test]
fn v1_sparse_legacy_zipped_coords_stored_zipped() {
    check("v1_sparse", &case(1, false));
}

#[test]
fn v1_sparse_legacy_zipped_coords_compressed() {
    // With a compressor, version 1 stores one dimension after the other too.
    let mut c = case(1, false);
    c.coords_filters = vec![generic_tile_filter()];
    check("v1_sparse_gzip", &c);
}

#[test]
fn v2_sparse_legacy_zipped_coords_compressed() {
    let mut c = case(2, false);
    c.coords_filters = vec![generic_tile_filter()];
    check("v2_sparse", &c);
}

#[test]
fn v2_dense_legacy() {
    check("v2_dense", &case(2, true));
}

// Versions 3 and 4: footer without length (v3_v4 size), zipped coordinates.

#[test]
fn v3_sparse_zipped_coords_gzip() {
    let mut c = case(3, false);
    c.coords_filters = vec![generic_tile_filter()];
    check("v3_sparse", &c);
}

#[test]
fn v4_sparse_zipped_coords_one_dimension_after_the_other() {
    check("v4_sparse", &case(4, false));
}

#[test]
fn v4_dense() {
    check("v4_dense", &case(4, true));
}

// Versions 5 to 8: one file per dimension, named by field name.

#[test]
fn v6_sparse_dimension_files_by_name() {
    check("v6_sparse", &case(6, false));
}

#[test]
fn v7_dense_files_by_name() {
    let mut c = case(7, true);
    c.int_attr = "temp.c";
    c.nullable = true;
    check("v7_dense", &c);
}

#[test]
fn v8_sparse_percent_encoded_names() {
    let mut c = case(8, false);
    c.int_attr = "a:b<c>|d?";
    c.text_attr = "x\\y\"z";
    c.nullable = true;
    check("v8_sparse", &c);
}

// Versions 9 to 11: files by index; no footer length before 10.

#[test]
fn v9_sparse_footer_without_length() {
    check("v9_sparse", &case(9, false));
}

#[test]
fn v10_dense_schema_folder_flat_fragments() {
    check("v10_dense", &case(10, true));
}

#[test]
fn v11_sparse_flat_with_tile_metadata() {
    check("v11_sparse", &case(11, false));
}

// Fragments of different layouts in one array: merged as the engine merges
// them (sparse without duplicates: the newest cell wins; dense: later
// fragments overwrite).

#[test]
fn v4_schema_with_zipped_and_separate_coordinate_fragments() {
    let t = TempArray::new("mixed_sparse");
    let mut old = case(4, false);
    old.coords_filters = vec![generic_tile_filter()];
    write_schema(&t.0, &old);
    write_fragment(&t.0, &old, None);
    // Schemas before version 5 give dimensions no filters, and the engine
    // does not put the coords filters in their place (it does for an empty
    // pipeline stored from version 5): a later fragment's dimension files
    // are unfiltered, while the zipped coordinates are compressed.
    let mut new = case(9, false);
    new.t = 9;
    new.cells = vec![
        Cell {
            r: 2,
            c: 3,
            generation: 1,
        },
        Cell {
            r: 4,
            c: 1,
            generation: 1,
        },
    ];
    write_fragment(&t.0, &new, None);
    let mut want: Vec<Cell> = old
        .cells
        .iter()
        .filter(|x| (x.r, x.c) != (2, 3))
        .chain(&new.cells)
        .cloned()
        .collect();
    want.sort_by_key(|x| (x.r, x.c));
    let want: Vec<Value> = want.iter().map(|x| x.row(&old)).collect();
    assert_same("ours", &ours(&t.0), &want);
    let account = engine_account(&t.0).unwrap_or_else(|e| panic!("the engine refused: {e}"));
    let cells = account["cells"].as_array().cloned().unwrap();
    assert_same("engine", &sorted(cells), &sorted(want));
    // Both say so: the dimensions of this schema have no filters.
    let ours = inspect_json(&t.0, &ReadOptions::default()).unwrap();
    for d in 0..2 {
        assert_eq!(account["schema"]["dimensions"][d]["filters"], json!([]));
        assert_eq!(ours["schema"]["dimensions"][d]["filters"], json!([]));
    }
}

#[test]
fn v2_dense_array_with_a_v7_fragment_over_one_space_tile() {
    let t = TempArray::new("mixed_dense");
    let old = case(2, true);
    write_schema(&t.0, &old);
    write_fragment(&t.0, &old, None);
    let mut new = case(7, true);
    new.t = 8;
    new.cells = cells(true, 1)
        .into_iter()
        .filter(|x| x.r >= 3 && x.c <= 2)
        .collect();
    write_fragment(&t.0, &new, None);
    let want: Vec<Value> = old
        .cells
        .iter()
        .map(|x| {
            let newer = new.cells.iter().find(|y| (y.r, y.c) == (x.r, x.c));
            newer.unwrap_or(x).row(&old)
        })
        .collect();
    assert_same("ours", &ours(&t.0), &want);
    let engine = engine(&t.0).unwrap_or_else(|e| panic!("the engine refused: {e}"));
    assert_same("engine", &engine, &want);
}

#[test]
fn subarray_over_zipped_coordinates() {
    let t = TempArray::new("v3_subarray");
    let c = case(3, false);
    build(&t.0, &c);
    let r = ArrayReader::open(&t.0, &ReadOptions::default()).unwrap();
    let q = {
        let mut lit = Query::default();
        lit.attributes = Some(vec!["a".into()]);
        lit.subarray = Some(vec![Some((2, 4)), Some((2, 3))]);
        lit
    };
    let got = r.read(&q).unwrap();
    let rows: Vec<Value> = (0..got.len).map(|i| got.row(i)).collect();
    assert_eq!(
        rows,
        vec![
            json!({"rows": 2, "cols": 3, "a": 203}),
            json!({"rows": 3, "cols": 2, "a": 302}),
        ]
    );
}
