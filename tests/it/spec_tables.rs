//! Byte-level tests of the tables generated from `spec/`: each test builds a
//! buffer by hand, decodes it, checks the decoded fields, re-encodes it and
//! checks that the bytes are the same. Versions are chosen where the spec's
//! gates change the layout.

use std::io::Cursor;

use binrw::{BinRead, BinWrite};
use tiledb_codec::raw::format::Dims;
use tiledb_codec::raw::format::*;

// ---------------------------------------------------------------------------
// Helpers

/// A little-endian byte buffer built by hand.
#[derive(Default, Clone)]
struct W(Vec<u8>);

impl W {
    fn new() -> Self {
        Self::default()
    }
    fn u8(&mut self, v: u8) -> &mut Self {
        self.0.push(v);
        self
    }
    fn u16(&mut self, v: u16) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn u32(&mut self, v: u32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn i32(&mut self, v: i32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn u64(&mut self, v: u64) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn f32(&mut self, v: f32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn f64(&mut self, v: f64) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn raw(&mut self, b: &[u8]) -> &mut Self {
        self.0.extend_from_slice(b);
        self
    }
    /// A u32 length, then the bytes.
    fn str32(&mut self, s: &str) -> &mut Self {
        self.u32(s.len() as u32).raw(s.as_bytes())
    }
    /// A u64 length, then the bytes.
    fn str64(&mut self, s: &str) -> &mut Self {
        self.u64(s.len() as u64).raw(s.as_bytes())
    }
    fn u64s(&mut self, vs: &[u64]) -> &mut Self {
        for v in vs {
            self.u64(*v);
        }
        self
    }
    fn bytes(&self) -> Vec<u8> {
        self.0.clone()
    }
}

/// Decodes `bytes` (all of them), re-encodes the value and checks that the
/// bytes are the same.
fn roundtrip<'a, T>(bytes: &[u8], args: <T as BinRead>::Args<'a>) -> T
where
    T: BinRead + for<'b> BinWrite<Args<'b> = ()> + std::fmt::Debug,
{
    let mut c = Cursor::new(bytes);
    let v = T::read_le_args(&mut c, args).unwrap_or_else(|e| panic!("decode failed: {e}"));
    assert_eq!(
        c.position(),
        bytes.len() as u64,
        "decoding left bytes unread: {v:?}"
    );
    let mut out = Cursor::new(Vec::new());
    v.write_le(&mut out).expect("encode");
    assert_eq!(out.into_inner(), bytes, "re-encoding differs for {v:?}");
    v
}

/// Decodes `bytes` expecting an error (and no panic); returns its message.
fn decode_err<'a, T>(bytes: &[u8], args: <T as BinRead>::Args<'a>) -> String
where
    T: BinRead + std::fmt::Debug,
{
    match T::read_le_args(&mut Cursor::new(bytes), args) {
        Ok(v) => panic!("expected an error, decoded {v:?}"),
        Err(e) => e.to_string(),
    }
}

fn dims(sizes: &[u64]) -> Dims {
    Dims::from(sizes.to_vec())
}

/// The generic-tile pipeline the engine writes: GZIP level 1.
fn gzip_pipeline(w: &mut W) -> &mut W {
    w.u32(65536).u32(1).u8(1).u32(5).u8(1).i32(1)
}

fn empty_pipeline(w: &mut W) -> &mut W {
    w.u32(65536).u32(0)
}

// ---------------------------------------------------------------------------
// Filter pipeline

#[test]
fn filter_pipeline_delta_before_and_after_19() {
    // DELTA (19): compressor 8, level; the reinterpret datatype from v19.
    for (version, with_reinterpret) in [(18u32, false), (19, true), (23, true)] {
        let mut w = W::new();
        w.u32(4096).u32(2);
        if with_reinterpret {
            w.u8(19).u32(6).u8(8).i32(-1).u8(1);
        } else {
            w.u8(19).u32(5).u8(8).i32(-1);
        }
        w.u8(9).u32(0); // BYTESHUFFLE, no options
        let p: FilterPipeline = roundtrip(&w.bytes(), (version,));
        assert_eq!(p.max_chunk_size, 4096);
        assert_eq!(p.num_filters, 2);
        assert_eq!(p.filters[0].filter_type, FilterType::Delta);
        let FilterOptions::Compressor(c) = &p.filters[0].filter_options else {
            panic!("not compressor options: {:?}", p.filters[0].filter_options)
        };
        assert_eq!(c.compressor_type, Compressor::Delta);
        assert_eq!(c.compression_level, -1);
        assert_eq!(
            c.reinterpret_datatype,
            with_reinterpret.then_some(tiledb_codec::raw::format::Datatype::Int64)
        );
        assert_eq!(p.filters[1].filter_options, FilterOptions::NoOptions);
    }
}

#[test]
fn filter_pipeline_double_delta_gate_is_20() {
    for (version, with_reinterpret) in [(19u32, false), (20, true)] {
        let mut w = W::new();
        w.u32(65536).u32(1).u8(6);
        if with_reinterpret {
            w.u32(6).u8(6).i32(3).u8(0);
        } else {
            w.u32(5).u8(6).i32(3);
        }
        let p: FilterPipeline = roundtrip(&w.bytes(), (version,));
        let FilterOptions::Compressor(c) = &p.filters[0].filter_options else {
            panic!()
        };
        assert_eq!(
            c.reinterpret_datatype,
            with_reinterpret.then_some(tiledb_codec::raw::format::Datatype::Int32)
        );
    }
}

#[test]
fn filter_pipeline_other_options() {
    let mut w = W::new();
    w.u32(0).u32(4);
    w.u8(7).u32(4).u32(256); // bit width reduction
    w.u8(10).u32(4).u32(128); // positive delta
    w.u8(15).u32(24).f64(0.5).f64(-1.0).u64(4); // scale float
    w.u8(18)
        .u32(12)
        .f32(90.0)
        .u8(3)
        .u8(1)
        .u16(480)
        .u16(640)
        .raw(&[0, 0]); // webp
    let p: FilterPipeline = roundtrip(&w.bytes(), (23,));
    assert_eq!(p.filters.len(), 4);
    assert!(
        matches!(&p.filters[0].filter_options, FilterOptions::BitWidthReduction(o) if o.max_window_size == 256)
    );
    assert!(
        matches!(&p.filters[1].filter_options, FilterOptions::PositiveDelta(o) if o.max_window_size == 128)
    );
    let FilterOptions::FloatScale(s) = &p.filters[2].filter_options else {
        panic!()
    };
    assert_eq!((s.scale, s.offset, s.byte_width), (0.5, -1.0, 4));
    let FilterOptions::Webp(o) = &p.filters[3].filter_options else {
        panic!()
    };
    assert_eq!(
        (
            o.quality,
            o.input_format,
            o.lossless,
            o.y_extent,
            o.x_extent
        ),
        (
            90.0,
            tiledb_codec::raw::format::WebpInputFormat::Rgba,
            1,
            480,
            640
        )
    );
}

// ---------------------------------------------------------------------------
// Generic tile and tile

#[test]
fn generic_tile_header_and_tile() {
    let mut w = W::new();
    w.u32(23).u64(28).u64(5).u8(4).u64(1).u8(0).u32(18);
    gzip_pipeline(&mut w);
    let h: GenericTileHeader = roundtrip(&w.bytes(), ());
    assert_eq!(h.version_number, 23);
    assert_eq!(h.persisted_size, 28);
    assert_eq!(h.tile_size, 5);
    assert_eq!(h.datatype, Datatype::Char);
    assert_eq!(h.cell_size, 1);
    assert_eq!(h.encryption_type, EncryptionType::NoEncryption);
    assert_eq!(h.filter_pipeline_size, 18);
    assert_eq!(h.filter_pipeline.filters[0].filter_type, FilterType::Gzip);

    let mut t = W::new();
    t.u64(2);
    t.u32(3).u32(3).u32(0).raw(b"abc");
    t.u32(2).u32(4).u32(1).raw(&[9]).raw(b"wxyz");
    let tile: Tile = roundtrip(&t.bytes(), ());
    assert_eq!(tile.num_chunks, 2);
    assert_eq!(tile.chunks[0].filtered_data, b"abc");
    assert_eq!(tile.chunks[1].header.original_length, 2);
    assert_eq!(tile.chunks[1].metadata, [9]);
    assert_eq!(tile.chunks[1].filtered_data, b"wxyz");

    let empty: Tile = roundtrip(&W::new().u64(0).bytes(), ());
    assert!(empty.chunks.is_empty());
}

// ---------------------------------------------------------------------------
// Array schema

/// A schema of the given version: dimension `d1` INT64 [1, 100] extent 10;
/// from version 5 also a var-sized STRING_ASCII dimension `d2`; attribute
/// `a` INT32 with a DOUBLE_DELTA filter (plus version-gated fields).
fn schema_bytes(v: u32) -> Vec<u8> {
    let mut w = W::new();
    w.u32(v);
    if v >= 5 {
        w.u8(1); // allows dups
    }
    w.u8(1).u8(0).u8(1).u64(10_000); // sparse, row-major, col-major
    gzip_pipeline(&mut w); // coords
    empty_pipeline(&mut w); // offsets
    if v >= 7 {
        empty_pipeline(&mut w); // validity
    }
    // Domain
    if v < 5 {
        w.u8(1); // INT64 for every dimension
        w.u32(1);
        w.str32("d1").u64(1).u64(100).u8(0).u64(10);
    } else {
        w.u32(2);
        w.str32("d1").u8(1).u32(1);
        empty_pipeline(&mut w);
        w.u64(16).u64(1).u64(100).u8(0).u64(10);
        w.str32("d2").u8(11).u32(u32::MAX);
        empty_pipeline(&mut w);
        w.u64(0).u8(1); // no domain, null tile extent
    }
    // Attributes
    w.u32(1).str32("a").u8(0).u32(1);
    w.u32(65536).u32(1).u8(6);
    if v >= 20 {
        w.u32(6).u8(6).i32(-1).u8(0);
    } else {
        w.u32(5).u8(6).i32(-1);
    }
    if v >= 6 {
        w.u64(4).i32(-7);
    }
    if v >= 7 {
        w.u8(1).u8(0);
    }
    if v >= 17 {
        w.u8(1); // increasing
    }
    if v >= 20 {
        w.str32("colors");
    }
    if v >= 18 {
        w.u32(1);
        w.u32(0)
            .str32("lbl")
            .u8(1)
            .str64("__labels/l0")
            .str32("label")
            .u8(2)
            .u8(3)
            .u32(1)
            .u8(0);
    }
    if v >= 20 {
        w.u32(1)
            .str32("colors")
            .str32("__0123456789abcdef0123456789abcdef_0");
    }
    if v >= 22 {
        // Current domain: version 0, not empty, NDRECTANGLE; d1 [1, 50], d2 ["a", "zz"].
        w.u32(0).u8(0).u8(0);
        w.u64(1).u64(50);
        w.u64(3).u64(1).raw(b"azz");
    }
    w.bytes()
}

#[test]
fn array_schema_v4_domain_datatype() {
    let s: ArraySchema = roundtrip(&schema_bytes(4), ());
    assert_eq!(s.array_version, 4);
    assert_eq!(s.allows_dups, None);
    assert_eq!(s.array_type, ArrayType::Sparse);
    assert_eq!(s.capacity, 10_000);
    assert_eq!(s.validity_filters, None);
    assert_eq!(s.domain.domain_datatype, Some(Datatype::Int64));
    let d = &s.domain.dimensions[0];
    assert_eq!(d.name, b"d1");
    assert_eq!(
        (d.datatype, d.cell_val_num, d.domain_size),
        (None, None, None)
    );
    assert_eq!(d.domain.len(), 16);
    assert_eq!(d.tile_extent, 10u64.to_le_bytes());
    let a = &s.attributes[0];
    assert_eq!(a.name, b"a");
    assert_eq!(a.fill_value_size, None);
    assert_eq!(a.nullable, None);
    let FilterOptions::Compressor(c) = &a.filters.filters[0].filter_options else {
        panic!()
    };
    assert_eq!(c.reinterpret_datatype, None);
    assert_eq!((s.num_labels, s.num_enumerations), (None, None));
    assert_eq!(s.current_domain, None);
    assert_eq!(&*s.domain.coord_sizes(), &[8]);
}

#[test]
fn array_schema_v7() {
    let s: ArraySchema = roundtrip(&schema_bytes(7), ());
    assert_eq!(s.allows_dups, Some(1));
    assert!(s.validity_filters.is_some());
    assert_eq!(s.domain.domain_datatype, None);
    assert_eq!(s.domain.num_dimensions, 2);
    let d2 = &s.domain.dimensions[1];
    assert_eq!(d2.datatype, Some(Datatype::StringAscii));
    assert_eq!(d2.cell_val_num, Some(u32::MAX));
    assert_eq!(d2.domain_size, Some(0));
    assert!(d2.tile_extent.is_empty());
    let a = &s.attributes[0];
    assert_eq!(a.fill_value, Some((-7i32).to_le_bytes().to_vec()));
    assert_eq!(
        (a.nullable, a.fill_value_validity, a.order),
        (Some(1), Some(0), None)
    );
    assert_eq!(&*s.domain.coord_sizes(), &[8, 0]);
}

#[test]
fn array_schema_v17_order() {
    let s: ArraySchema = roundtrip(&schema_bytes(17), ());
    assert_eq!(s.attributes[0].order, Some(DataOrder::IncreasingData));
    assert_eq!(s.attributes[0].enumeration_name, None);
    assert_eq!(s.num_labels, None);
}

#[test]
fn array_schema_v20_enumerations_and_labels() {
    let s: ArraySchema = roundtrip(&schema_bytes(20), ());
    assert_eq!(
        s.attributes[0].enumeration_name.as_deref(),
        Some(&b"colors"[..])
    );
    let FilterOptions::Compressor(c) = &s.attributes[0].filters.filters[0].filter_options else {
        panic!()
    };
    assert_eq!(
        c.reinterpret_datatype,
        Some(tiledb_codec::raw::format::Datatype::Int32)
    );
    let labels = s.labels.as_ref().unwrap();
    assert_eq!(labels[0].name, b"lbl");
    assert_eq!(labels[0].uri, b"__labels/l0");
    assert_eq!(labels[0].attribute_name, b"label");
    assert_eq!(labels[0].label_order, DataOrder::DecreasingData);
    assert_eq!(labels[0].datatype, Datatype::Float64);
    let e = &s.enumerations.as_ref().unwrap()[0];
    assert_eq!(e.name, b"colors");
    assert_eq!(e.filename, b"__0123456789abcdef0123456789abcdef_0");
    assert_eq!(s.current_domain, None);
}

#[test]
fn array_schema_v22_current_domain_with_var_dimension() {
    let s: ArraySchema = roundtrip(&schema_bytes(22), ());
    let cd = s.current_domain.as_ref().unwrap();
    assert_eq!(cd.version_number, 0);
    assert_eq!(cd.empty, 0);
    assert_eq!(cd.current_domain_type, Some(CurrentDomainType::Ndrectangle));
    let r = &cd.ndrectangle.as_ref().unwrap().ranges;
    assert_eq!(r[0].range_length, None);
    assert_eq!(
        r[0].range,
        [1u64.to_le_bytes(), 50u64.to_le_bytes()].concat()
    );
    assert_eq!((r[1].range_length, r[1].min_length), (Some(3), Some(1)));
    assert_eq!(r[1].range, b"azz");
}

#[test]
fn current_domain_empty() {
    let cd: CurrentDomain = roundtrip(&W::new().u32(0).u8(1).bytes(), (dims(&[8]),));
    assert_eq!((cd.current_domain_type, cd.ndrectangle), (None, None));
}

// ---------------------------------------------------------------------------
// Fragment footer

struct FooterShape {
    v: u32,
    dims: Vec<u64>,
    attrs: u64,
    ts: bool,
    dm: bool,
    null_ned: bool,
    sections: Vec<(u64, Vec<u8>)>,
}

impl FooterShape {
    fn new(v: u32, dims: &[u64], attrs: u64) -> Self {
        Self {
            v,
            dims: dims.to_vec(),
            attrs,
            ts: false,
            dm: false,
            null_ned: false,
            sections: Vec::new(),
        }
    }
    /// Entries of the per-field arrays (the index map).
    fn n(&self) -> u64 {
        self.attrs + self.dims.len() as u64 + 1 + u64::from(self.ts) + 2 * u64::from(self.dm)
    }
    /// Entries of file sizes / tile offsets.
    fn n_fixed(&self) -> u64 {
        if self.v < 5 {
            self.attrs + 1
        } else {
            self.n()
        }
    }
    /// Entries of file var sizes / tile var offsets / tile var sizes.
    fn n_var(&self) -> u64 {
        if self.v < 5 {
            self.attrs
        } else {
            self.n()
        }
    }
    fn args(&self) -> (Dims, u64) {
        (dims(&self.dims), self.attrs)
    }
}

/// `count` values of a list whose first value is `base`.
fn seq(base: u64, count: u64) -> Vec<u64> {
    (0..count).map(|i| base + i).collect()
}

fn footer_bytes(s: &FooterShape) -> Vec<u8> {
    let mut w = W::new();
    w.u32(s.v);
    if s.v >= 10 {
        w.str64("__1_1_0123456789abcdef0123456789abcdef");
    }
    w.u8(0); // sparse
    w.u8(u8::from(s.null_ned));
    if !s.null_ned {
        if s.v < 5 {
            w.raw(&vec![7; (2 * s.dims.len() as u64 * s.dims[0]) as usize]);
        } else {
            for &c in &s.dims {
                if c == 0 {
                    w.u64(5).u64(2).raw(b"aabbb");
                } else {
                    w.raw(&vec![7; 2 * c as usize]);
                }
            }
        }
    }
    w.u64(3).u64(42);
    if s.v >= 14 {
        w.u8(u8::from(s.ts));
    }
    if s.v >= 15 {
        w.u8(u8::from(s.dm));
    }
    w.u64s(&seq(100, s.n_fixed())).u64s(&seq(200, s.n_var()));
    if s.v >= 7 {
        w.u64s(&seq(300, s.n()));
    }
    w.u64(999);
    w.u64s(&seq(400, s.n_fixed()))
        .u64s(&seq(500, s.n_var()))
        .u64s(&seq(600, s.n_var()));
    if s.v >= 7 {
        w.u64s(&seq(700, s.n()));
    }
    if s.v >= 11 {
        for base in [800, 900, 1000, 1100] {
            w.u64s(&seq(base, s.n()));
        }
        w.u64(1200);
    }
    if s.v >= 16 {
        w.u64(1300);
    }
    if s.v >= 23 {
        w.u32(s.sections.len() as u32);
        for (id, data) in &s.sections {
            w.u64(*id).u32(data.len() as u32).raw(data);
        }
    }
    w.bytes()
}

fn check_footer(s: &FooterShape) -> FragmentFooter {
    let f: FragmentFooter = roundtrip(&footer_bytes(s), s.args());
    assert_eq!(f.version_number, s.v);
    assert_eq!(f.array_schema_name.is_some(), s.v >= 10);
    assert_eq!(f.dense, 0);
    assert_eq!(f.null_non_empty_domain, u8::from(s.null_ned));
    assert_eq!(f.legacy_non_empty_domain.is_some(), s.v < 5 && !s.null_ned);
    assert_eq!(f.non_empty_domain.is_some(), s.v >= 5 && !s.null_ned);
    assert_eq!((f.sparse_tile_num, f.last_tile_cell_num), (3, 42));
    assert_eq!(f.includes_timestamps, (s.v >= 14).then_some(u8::from(s.ts)));
    assert_eq!(
        f.includes_delete_metadata,
        (s.v >= 15).then_some(u8::from(s.dm))
    );
    assert_eq!(f.file_sizes, seq(100, s.n_fixed()));
    assert_eq!(f.file_var_sizes, seq(200, s.n_var()));
    assert_eq!(f.file_validity_sizes, (s.v >= 7).then(|| seq(300, s.n())));
    assert_eq!(f.rtree_offset, 999);
    assert_eq!(f.tile_offsets, seq(400, s.n_fixed()));
    assert_eq!(f.tile_var_offsets, seq(500, s.n_var()));
    assert_eq!(f.tile_var_sizes, seq(600, s.n_var()));
    assert_eq!(f.tile_validity_offsets, (s.v >= 7).then(|| seq(700, s.n())));
    assert_eq!(f.tile_mins_offsets, (s.v >= 11).then(|| seq(800, s.n())));
    assert_eq!(f.tile_maxes_offsets, (s.v >= 11).then(|| seq(900, s.n())));
    assert_eq!(f.tile_sums_offsets, (s.v >= 11).then(|| seq(1000, s.n())));
    assert_eq!(
        f.tile_null_counts_offsets,
        (s.v >= 11).then(|| seq(1100, s.n()))
    );
    assert_eq!(
        f.fragment_min_max_sum_null_count_offset,
        (s.v >= 11).then_some(1200)
    );
    assert_eq!(f.processed_conditions_offset, (s.v >= 16).then_some(1300));
    assert_eq!(
        f.num_optional_sections,
        (s.v >= 23).then_some(s.sections.len() as u32)
    );
    f
}

mod more;
#[allow(unused_imports)]
use more::*;
