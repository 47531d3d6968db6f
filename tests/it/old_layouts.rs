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

mod more;
#[allow(unused_imports)]
use more::*;
