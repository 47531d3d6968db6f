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

#[test]
fn footer_v3_zipped_coords() {
    // Two INT32 dimensions, two attributes: sizes hold A + 1, var sizes A.
    let s = FooterShape::new(3, &[4, 4], 2);
    let f = check_footer(&s);
    assert_eq!(f.file_sizes.len(), 3);
    assert_eq!(f.tile_var_sizes.len(), 2);
    assert_eq!(f.legacy_non_empty_domain, Some(vec![7; 16]));
}

#[test]
fn footer_v3_null_non_empty_domain() {
    let mut s = FooterShape::new(4, &[8, 8, 8], 1);
    s.null_ned = true;
    check_footer(&s);
}

#[test]
fn footer_v7_var_dimension() {
    let s = FooterShape::new(7, &[8, 0], 1);
    let f = check_footer(&s);
    assert_eq!(f.file_sizes.len(), 4); // a, __coords, d1, d2
    let ned = f.non_empty_domain.unwrap();
    assert_eq!(ned.ranges[0].range, vec![7; 16]);
    assert_eq!(
        (ned.ranges[1].range_length, ned.ranges[1].min_length),
        (Some(5), Some(2))
    );
    assert_eq!(ned.ranges[1].range, b"aabbb");
}

#[test]
fn footer_v10_schema_name() {
    let f = check_footer(&FooterShape::new(10, &[4], 3));
    assert_eq!(f.array_schema_name_size, Some(38));
    assert_eq!(
        f.array_schema_name.as_deref(),
        Some(&b"__1_1_0123456789abcdef0123456789abcdef"[..])
    );
}

#[test]
fn footer_v11_writer_layout() {
    // Today's engine writer puts the fragment min/max/sum/null count offset
    // in version 11 footers; its reader (and TileDB 2.7, the version 11
    // writer) has no such field, so the table stops 8 bytes short and
    // `Fragment::open` accepts exactly those 8 bytes at version 11.
    let s = FooterShape::new(11, &[8, 8], 2);
    let bytes = footer_bytes(&s);
    assert_eq!(&bytes[bytes.len() - 8..], 1200u64.to_le_bytes());
    let (f, used) = decode::<FragmentFooter>(
        &bytes,
        std::path::Path::new("footer"),
        0,
        (dims(&[8, 8]), 2),
    )
    .unwrap();
    assert_eq!(used as usize, bytes.len() - 8);
    assert_eq!(f.fragment_min_max_sum_null_count_offset, None);
    assert_eq!(encode(&f).unwrap(), &bytes[..bytes.len() - 8]);
}

#[test]
fn footer_v16_timestamps_and_delete_metadata() {
    let mut s = FooterShape::new(16, &[8, 0], 2);
    s.ts = true;
    s.dm = true;
    let f = check_footer(&s);
    // 2 attributes + __coords + 2 dimensions + timestamps + 2 delete fields.
    assert_eq!(f.tile_offsets.len(), 8);
    assert_eq!(f.processed_conditions_offset, Some(1300));
}

#[test]
fn footer_v22_null_non_empty_domain() {
    let mut s = FooterShape::new(22, &[4, 4], 1);
    s.null_ned = true;
    s.ts = true;
    check_footer(&s);
}

#[test]
fn footer_v23_optional_sections() {
    let mut bounds = W::new();
    bounds.u64s(&[10, 11, 20, 21]);
    let mut s = FooterShape::new(23, &[8, 0], 1);
    s.sections = vec![(0, bounds.bytes()), (77, vec![1, 2, 3])];
    let f = check_footer(&s);
    let sections = f.optional_sections.unwrap();
    assert_eq!(sections.len(), 2);
    assert_eq!(
        sections[0].identifier,
        OptionalSectionIdentifier::TileGlobalOrderOffsets
    );
    assert_eq!(sections[0].data_size, 32);
    let b: TileGlobalOrderBounds = roundtrip(&sections[0].data, (2,));
    assert_eq!((b.min_offsets, b.max_offsets), (vec![10, 11], vec![20, 21]));
    assert_eq!(sections[1].identifier.known(), None);
    assert_eq!(sections[1].data, [1, 2, 3]);

    let empty = FooterShape::new(23, &[8], 1);
    assert_eq!(check_footer(&empty).optional_sections, Some(vec![]));
}

#[test]
fn footer_length_at_end_of_file() {
    let s = FooterShape::new(22, &[8], 1);
    let footer = footer_bytes(&s);
    let mut file = W::new();
    file.raw(&[0xAA; 50]).raw(&footer).u64(footer.len() as u64);
    let file = file.bytes();
    let len: FooterLength = roundtrip(&file[file.len() - 8..], ());
    assert_eq!(len.footer_length, footer.len() as u64);
    let start = file.len() - 8 - len.footer_length as usize;
    let f: FragmentFooter = roundtrip(&file[start..file.len() - 8], s.args());
    assert_eq!(f.rtree_offset, 999);
}

// ---------------------------------------------------------------------------
// Fragment metadata tiles

#[test]
fn rtree_v4() {
    // dim_num and datatype are present before version 5; two INT32 dimensions.
    let mut w = W::new();
    w.u32(2).u32(10).u8(Datatype::Int32.value()).u32(2);
    w.u64(1);
    for v in [1i32, 9, 1, 9] {
        w.i32(v);
    }
    w.u64(2);
    for v in [1i32, 4, 1, 9, 5, 9, 2, 3] {
        w.i32(v);
    }
    let t: RTree = roundtrip(&w.bytes(), (4, dims(&[4, 4])));
    assert_eq!(
        (t.dim_num, t.fanout, t.datatype, t.num_levels),
        (
            Some(2),
            10,
            Some(tiledb_codec::raw::format::Datatype::Int32),
            2
        )
    );
    assert_eq!(t.levels[0].num_mbrs, 1);
    assert_eq!(t.levels[1].mbrs.len(), 2);
    assert_eq!(
        t.levels[1].mbrs[1].ranges[0].range,
        [5i32.to_le_bytes(), 9i32.to_le_bytes()].concat()
    );
}

#[test]
fn rtree_v22_var_dimension() {
    let mut w = W::new();
    w.u32(10).u32(2);
    // Root: d1 [1, 8], d2 ["aaa", "zzzzz"].
    w.u64(1).u64(1).u64(8).u64(8).u64(3).raw(b"aaazzzzz");
    // Leaves: d1 [1, 4], d2 ["aaa", "z"]; d1 [2, 8], d2 ["mmm", "zz"].
    w.u64(2);
    w.u64(1).u64(4).u64(4).u64(3).raw(b"aaaz");
    w.u64(2).u64(8).u64(5).u64(3).raw(b"mmmzz");
    let t: RTree = roundtrip(&w.bytes(), (22, dims(&[8, 0])));
    assert_eq!((t.dim_num, t.datatype), (None, None));
    assert_eq!(t.levels.len(), 2);
    let leaf = &t.levels[1].mbrs[1].ranges;
    assert_eq!(
        leaf[0].range,
        [2u64.to_le_bytes(), 8u64.to_le_bytes()].concat()
    );
    assert_eq!(
        (leaf[1].range_length, leaf[1].min_length),
        (Some(5), Some(3))
    );
    assert_eq!(leaf[1].range, b"mmmzz");
}

#[test]
fn rtree_dense_has_no_levels() {
    let t: RTree = roundtrip(&W::new().u32(10).u32(0).bytes(), (23, dims(&[8, 8])));
    assert!(t.levels.is_empty());
}

#[test]
fn tile_offsets_sums_null_counts() {
    let bytes = W::new().u64(3).u64s(&[0, 120, 260]).bytes();
    let o: TileOffsets = roundtrip(&bytes, ());
    assert_eq!((o.num, o.values), (3, vec![0, 120, 260]));
    let s: TileSums = roundtrip(&W::new().u64(2).u64(5).u64((-3i64) as u64).bytes(), ());
    assert_eq!(s.values[1] as i64, -3);
    let n: TileNullCounts = roundtrip(&W::new().u64(1).u64(4).bytes(), ());
    assert_eq!(n.values, [4]);
    let empty: TileOffsets = roundtrip(&W::new().u64(0).bytes(), ());
    assert!(empty.values.is_empty());
}

#[test]
fn tile_min_max_engine_layout() {
    // Var-sized field, two tiles: fixed buffer = 2 offsets, var = "ab" "xyz".
    let bytes = W::new().u64(16).u64(5).u64(0).u64(2).raw(b"abxyz").bytes();
    let m: TileMinMax = roundtrip(&bytes, ());
    assert_eq!((m.fixed_size, m.var_size), (16, 5));
    assert_eq!(m.fixed, [0u64.to_le_bytes(), 2u64.to_le_bytes()].concat());
    assert_eq!(m.var, b"abxyz");
    // A field without min/max metadata: 16 zero bytes.
    let none: TileMinMax = roundtrip(&[0; 16], ());
    assert!(none.fixed.is_empty() && none.var.is_empty());
}

#[test]
fn fragment_min_max_sum_null_count() {
    let mut w = W::new();
    w.u64(4).i32(-1).u64(4).i32(8).u64(7).u64(0);
    w.u64(0).u64(0).u64(0).u64(2);
    let f: FragmentMinMaxSumNullCount = roundtrip(&w.bytes(), (2,));
    assert_eq!(f.fields.len(), 2);
    assert_eq!(f.fields[0].min, (-1i32).to_le_bytes());
    assert_eq!(f.fields[0].max, 8i32.to_le_bytes());
    assert_eq!((f.fields[0].sum, f.fields[0].null_count), (7, 0));
    assert_eq!(f.fields[1].null_count, 2);
}

#[test]
fn processed_conditions() {
    let mut w = W::new();
    w.u64(2)
        .str64("__5_5_0123456789abcdef0123456789abcdef_16.del")
        .str64("__6_6_x_16.upd");
    let p: ProcessedConditions = roundtrip(&w.bytes(), ());
    assert_eq!(p.num, 2);
    assert_eq!(p.conditions[1].condition, b"__6_6_x_16.upd");
}

#[test]
fn legacy_fragment_metadata_v2() {
    // Two INT32 dimensions (MBR = 16 bytes), one var-sized attribute.
    let mut w = W::new();
    w.u32(2).u64(16).raw(&[1; 16]);
    w.u64(2).raw(&[2; 32]);
    w.u64(1).raw(&[3; 16]);
    w.u64(2).u64s(&[0, 100]).u64(1).u64(0); // tile offsets: a, __coords
    w.u64(2).u64s(&[0, 50]); // var offsets: a
    w.u64(2).u64s(&[50, 60]); // var sizes: a
    w.u64(7).u64s(&[200, 300]).u64(110);
    let m: LegacyFragmentMetadata = roundtrip(&w.bytes(), (1, 16, 16));
    assert_eq!(m.version_number, 2);
    assert_eq!(m.non_empty_domain, vec![1; 16]);
    assert_eq!((m.num_mbrs, m.mbrs.len()), (2, 32));
    assert_eq!(m.bounding_coords, vec![3; 16]);
    assert_eq!(m.tile_offsets.lists.len(), 2);
    assert_eq!(m.tile_offsets.lists[0].values, [0, 100]);
    assert_eq!(m.tile_var_sizes.lists[0].values, [50, 60]);
    assert_eq!(m.last_tile_cell_num, 7);
    assert_eq!(
        (m.file_sizes, m.file_var_sizes),
        (vec![200, 300], vec![110])
    );
}

// ---------------------------------------------------------------------------
// Metadata, enumerations, groups

#[test]
fn array_metadata_entries() {
    let mut w = W::new();
    w.str32("a")
        .u8(0)
        .u8(Datatype::Int32.value())
        .u32(2)
        .i32(5)
        .i32(-5);
    w.str32("b").u8(1);
    w.str32("s")
        .u8(0)
        .u8(Datatype::Char.value())
        .u32(3)
        .raw(b"xyz");
    w.str32("z").u8(0).u8(Datatype::Float64.value()).u32(0);
    let m: ArrayMetadata = roundtrip(&w.bytes(), ());
    assert_eq!(m.entries.len(), 4);
    assert_eq!(m.entries[0].key, b"a");
    assert_eq!(m.entries[0].num_values, Some(2));
    assert_eq!(m.entries[0].value.as_ref().unwrap().len(), 8);
    assert_eq!(
        (
            m.entries[1].deletion,
            m.entries[1].value_type,
            m.entries[1].value.clone()
        ),
        (1, None, None)
    );
    assert_eq!(m.entries[2].value.as_deref(), Some(&b"xyz"[..]));
    assert_eq!(m.entries[3].value, Some(vec![]));
    let empty: ArrayMetadata = roundtrip(&[], ());
    assert!(empty.entries.is_empty());
}

#[test]
fn enumeration_fixed_and_var() {
    let mut w = W::new();
    w.u32(0)
        .str32("numbers")
        .str32("__0123456789abcdef0123456789abcdef_0");
    w.u8(Datatype::Int32.value())
        .u32(1)
        .u8(1)
        .u64(8)
        .i32(10)
        .i32(20);
    let e: Enumeration = roundtrip(&w.bytes(), ());
    assert_eq!(e.name, b"numbers");
    assert_eq!((e.cell_val_num, e.ordered, e.data_size), (1, 1, 8));
    assert_eq!((e.offsets_size, e.offsets), (None, None));

    let mut w = W::new();
    w.u32(0)
        .str32("colors")
        .str32("__fedcba9876543210fedcba9876543210_0");
    w.u8(Datatype::StringAscii.value())
        .u32(u32::MAX)
        .u8(0)
        .u64(8)
        .raw(b"redgreen");
    w.u64(16).u64s(&[0, 3]);
    let e: Enumeration = roundtrip(&w.bytes(), ());
    assert_eq!(e.data, b"redgreen");
    assert_eq!(e.offsets_size, Some(16));
    assert_eq!(
        e.offsets,
        Some([0u64.to_le_bytes(), 3u64.to_le_bytes()].concat())
    );
}

#[test]
fn group_details_v1_and_v2() {
    let mut w = W::new();
    w.u32(1).u64(2);
    w.u32(1)
        .u8(ObjectType::Array.value())
        .u8(1)
        .str64("arr")
        .u8(0);
    w.u32(1)
        .u8(ObjectType::Group.value())
        .u8(0)
        .str64("file:///g/sub")
        .u8(1)
        .str64("sub");
    let g: GroupDetails = roundtrip(&w.bytes(), ());
    assert_eq!((g.version, g.member_count), (1, 2));
    assert_eq!(
        (
            g.members[0].uri.as_slice(),
            g.members[0].name_length.is_none()
        ),
        (&b"arr"[..], true)
    );
    assert_eq!(g.members[0].deleted, None);
    assert_eq!(g.members[1].name.as_deref(), Some(&b"sub"[..]));

    let mut w = W::new();
    w.u32(2).u64(1);
    w.u32(2)
        .u8(ObjectType::Array.value())
        .u8(1)
        .str64("a1")
        .u8(1)
        .str64("first")
        .u8(1);
    let g: GroupDetails = roundtrip(&w.bytes(), ());
    assert_eq!(g.members[0].version, 2);
    assert_eq!(g.members[0].name_length, Some(5));
    assert_eq!(g.members[0].deleted, Some(1));
}

// ---------------------------------------------------------------------------
// Consolidation and commit files

#[test]
fn consolidated_fragment_metadata_with_footers() {
    let f1 = FooterShape::new(22, &[8], 1);
    let f2 = FooterShape::new(23, &[8], 1);
    let (b1, b2) = (footer_bytes(&f1), footer_bytes(&f2));
    let names = [
        "__1_1_0123456789abcdef0123456789abcdef_22",
        "__2_2_0123456789abcdef0123456789abcdef_23",
    ];
    let index_len = 4 + names.iter().map(|n| 16 + n.len()).sum::<usize>();
    let mut idx = W::new();
    idx.u32(2);
    idx.str64(names[0]).u64(index_len as u64);
    idx.str64(names[1]).u64((index_len + b1.len()) as u64);
    let index = idx.bytes();
    assert_eq!(index.len(), index_len);
    let c: ConsolidatedFragmentMetadata = roundtrip(&index, ());
    assert_eq!(c.fragment_num, 2);
    assert_eq!(c.fragments[1].name, names[1].as_bytes());

    // The footers follow; each is read at its offset, with no footer length.
    let data = [index.clone(), b1.clone(), b2.clone()].concat();
    for (entry, (shape, bytes)) in c.fragments.iter().zip([(&f1, &b1), (&f2, &b2)]) {
        let start = entry.offset as usize;
        let f: FragmentFooter = roundtrip(&data[start..start + bytes.len()], shape.args());
        assert_eq!(f.version_number, shape.v);
    }
}

#[test]
fn consolidated_commits_del_carries_tile() {
    let tile = [0x17u8; 11];
    let mut w = W::new();
    w.raw(b"__commits/__1_1_aaaa_22.wrt\n");
    w.raw(b"__commits/__2_2_bbbb_22.del\n")
        .u64(tile.len() as u64)
        .raw(&tile);
    w.raw(b"__3_3_cccc_11.ok\n");
    w.raw(b"__commits/__4_4_dddd_22.upd\n");
    let c: ConsolidatedCommits = roundtrip(&w.bytes(), ());
    assert_eq!(c.entries.len(), 4);
    assert_eq!(c.entries[0].uri, b"__commits/__1_1_aaaa_22.wrt");
    assert_eq!(c.entries[0].delete_tile, None);
    assert_eq!(c.entries[1].delete_tile_size, Some(11));
    assert_eq!(c.entries[1].delete_tile.as_deref(), Some(&tile[..]));
    assert_eq!(c.entries[3].delete_tile_size, None);
}

#[test]
fn ignore_and_vacuum_files() {
    let text = b"__commits/__1_1_aaaa_22.wrt\n__commits/__2_2_bbbb_22.wrt\n";
    let i: IgnoreFile = roundtrip(text, ());
    assert_eq!(i.entries.len(), 2);
    assert_eq!(i.entries[1].uri, b"__commits/__2_2_bbbb_22.wrt");
    let v: VacuumFile = roundtrip(
        b"file:///arr/__fragments/__1_1_a_18\n__fragments/__2_2_b_19\n",
        (),
    );
    assert_eq!(v.entries[0].uri, b"file:///arr/__fragments/__1_1_a_18");
    let none: VacuumFile = roundtrip(b"", ());
    assert!(none.entries.is_empty());
}

fn value_node(w: &mut W, op: QueryConditionOp, field: &str, value: &[u8]) {
    w.u8(1)
        .u8(op.value())
        .str32(field)
        .u64(value.len() as u64)
        .raw(value);
}

#[test]
fn delete_condition_tree() {
    // (a < 5) AND (s IN ["x", "yz"])
    let mut w = W::new();
    w.u8(0).u8(QueryConditionCombinationOp::And.value()).u64(2);
    value_node(&mut w, QueryConditionOp::Lt, "a", &5i32.to_le_bytes());
    value_node(&mut w, QueryConditionOp::In, "s", b"xyz");
    w.u64(16).u64s(&[0, 1]);
    let n: ConditionNode = roundtrip(&w.bytes(), (0,));
    assert_eq!(n.node_type, ConditionNodeType::Expression);
    let ConditionNodeBody::Expression(e) = &n.body else {
        panic!("{n:?}")
    };
    assert_eq!(
        (e.combination_op, e.num_children),
        (QueryConditionCombinationOp::And, 2)
    );
    let ConditionNodeBody::Value(lt) = &e.children[0].body else {
        panic!()
    };
    assert_eq!(
        (lt.op, lt.field_name.as_slice(), lt.offsets_size),
        (QueryConditionOp::Lt, &b"a"[..], None)
    );
    let ConditionNodeBody::Value(inn) = &e.children[1].body else {
        panic!()
    };
    assert_eq!(inn.value, b"xyz");
    assert_eq!(inn.offsets_size, Some(16));
}

#[test]
fn update_commit() {
    let mut w = W::new();
    value_node(&mut w, QueryConditionOp::Ge, "d", &3u64.to_le_bytes());
    w.u64(2);
    w.str64("a").u64(4).i32(9);
    w.str64("s").u64(0);
    let u: UpdateCommit = roundtrip(&w.bytes(), ());
    assert!(
        matches!(&u.condition.body, ConditionNodeBody::Value(v) if v.op == QueryConditionOp::Ge)
    );
    assert_eq!(u.num_values, 2);
    assert_eq!(u.values[0].field_name, b"a");
    assert_eq!(u.values[0].value, 9i32.to_le_bytes());
    assert!(u.values[1].value.is_empty());
}

/// `depth` nested NOT expressions around one value node.
fn nested_condition(depth: usize) -> Vec<u8> {
    let mut w = W::new();
    for _ in 0..depth {
        w.u8(0).u8(QueryConditionCombinationOp::Not.value()).u64(1);
    }
    value_node(&mut w, QueryConditionOp::Eq, "a", &[1]);
    w.bytes()
}

#[test]
fn deep_condition_is_refused() {
    // Nodes at depths 0..=63 are accepted.
    let n: ConditionNode = roundtrip(&nested_condition(63), (0,));
    assert_eq!(n.node_type, ConditionNodeType::Expression);
    // A node at depth 64 is refused by the depth assertion...
    let err = decode_err::<ConditionNode>(&nested_condition(0), (64,));
    assert!(err.contains("depth < MAX_CONDITION_DEPTH"), "{err}");
    // ...so one more level, or 100, fails (the union reports that no variant
    // matched, without the inner cause).
    decode_err::<ConditionNode>(&nested_condition(64), (0,));
    decode_err::<ConditionNode>(&nested_condition(100), (0,));
    decode_err::<UpdateCommit>(
        &[nested_condition(100), W::new().u64(0).bytes()].concat(),
        (),
    );
}

#[test]
fn unknown_node_type_is_an_error() {
    let err = decode_err::<ConditionNode>(&[2, 0, 0], (0,));
    assert!(!err.is_empty());
}

// ---------------------------------------------------------------------------
// Declared lengths longer than the buffer

#[test]
fn declared_lengths_beyond_the_buffer_are_errors() {
    fn too_long(err: String) {
        assert!(err.contains("declares"), "not a length error: {err}");
    }
    // A string length.
    too_long(decode_err::<ArrayMetadata>(
        &W::new().u32(1000).raw(b"abc").bytes(),
        (),
    ));
    // Counts of u64 values and of tables.
    too_long(decode_err::<TileOffsets>(
        &W::new().u64(u64::MAX).u64(1).bytes(),
        (),
    ));
    too_long(decode_err::<ProcessedConditions>(
        &W::new().u64(u64::MAX).bytes(),
        (),
    ));
    too_long(decode_err::<GroupDetails>(
        &W::new().u32(2).u64(u64::MAX).bytes(),
        (),
    ));
    too_long(decode_err::<FragmentMinMaxSumNullCount>(&[], (u64::MAX,)));
    // A count times a size that overflows u64.
    too_long(decode_err::<LegacyFragmentMetadata>(
        &W::new()
            .u32(2)
            .u64(0)
            .u64(u64::MAX / 2)
            .raw(&[0; 64])
            .bytes(),
        (1, 16, 16),
    ));
    // The footer's schema name, and its lists when the schema claims many attributes.
    too_long(decode_err::<FragmentFooter>(
        &W::new().u32(22).u64(1 << 40).bytes(),
        (dims(&[8]), 1),
    ));
    let short = footer_bytes(&FooterShape::new(22, &[8], 1));
    too_long(decode_err::<FragmentFooter>(
        &short,
        (dims(&[8]), 1_000_000),
    ));
    // An embedded delete tile.
    let mut w = W::new();
    w.raw(b"x.del\n").u64(1 << 50).raw(&[1, 2]);
    too_long(decode_err::<ConsolidatedCommits>(&w.bytes(), ()));
    // A var range of the R-tree.
    let mut w = W::new();
    w.u32(10).u32(1).u64(1).u64(u64::MAX).u64(0);
    too_long(decode_err::<RTree>(&w.bytes(), (22, dims(&[0]))));
    // A filter pipeline inside a schema.
    let mut s = schema_bytes(22);
    s.truncate(40);
    assert!(!decode_err::<ArraySchema>(&s, ()).is_empty());
    // A line without its newline.
    too_long(decode_err::<IgnoreFile>(b"__commits/x.wrt", ()));
    // A truncated fixed field is an error too.
    assert!(!decode_err::<GenericTileHeader>(&[23, 0, 0], ()).is_empty());
}
