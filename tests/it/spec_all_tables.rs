//! Every table of `spec/` (the generated list `SPEC_TABLES`) decoded and
//! re-encoded through its generated codec, byte for byte, on files the
//! TileDB engine wrote: every file of every fixture under `tests/fixtures`
//! (format versions 16, 20, 21 and 22), and the files of the kinds those
//! lack, which `tests/engine/spec_all_tables.py` has the engine write at
//! test time (delete commits with expression nodes and IN values, an update
//! commit, consolidated commits holding deletes, a commit ignore file,
//! consolidated fragments with delete metadata, a group with a removed
//! member).
//!
//! Each file is taken apart the way the engine reads it: generic tiles
//! (header, `Tile`, each `Chunk`), the filters of each chunk run backward
//! one by one with the chunk metadata of each decoded at its place (and the
//! parts of the compressors that have a layout: DELTA, DOUBLE_DELTA, RLE,
//! DICTIONARY; the WEBP filter's image lengths), then the table the tile
//! holds. Data files are walked tile by
//! tile with the pipeline of their field. A table nested in another counts
//! when its parent round-trips and it was decoded; a union counts with the
//! arms seen (the matrix names them).
//!
//! The test fails when a table of `SPEC_TABLES` was not round-tripped on
//! engine bytes and is not in [`NOT_ENGINE_WRITTEN`], whose tables are then
//! exercised on bytes of our own writer (or laid out by hand) instead.

use crate::common;

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use binrw::{BinRead, BinWrite};
use tiledb_codec::raw::array::{DataFile, FieldInfo};
use tiledb_codec::raw::filters::delta::{integer_type, reinterpret_of};
use tiledb_codec::raw::filters::{
    codec_for, encryption_codec, FilterCodec, FilterContext, Pipeline,
};
use tiledb_codec::raw::format::*;

/// Tables no engine-written file of the fixtures holds, with the reason and
/// where [`own_bytes_round_trip`] exercises them instead.
const NOT_ENGINE_WRITTEN: &[(&str, &str)] = &[
    (
        "LegacyFragmentMetadata",
        "format versions 1 and 2 only (TileDB 1.4); the fixtures hold 16 to 22. \
         Exercised on bytes laid out by hand here.",
    ),
    (
        "LegacyTileOffsets",
        "inside LegacyFragmentMetadata (versions 1 and 2). Exercised on bytes laid out by hand here.",
    ),
    (
        "OptionalSection",
        "footers of format version 23; the engine here (TileDB 2.30) writes 22. \
         Exercised on a version 23 array of our writer.",
    ),
    (
        "TileGlobalOrderBounds",
        "optional section 0 of version 23 footers (see OptionalSection). \
         Exercised on a version 23 array of our writer.",
    ),
];

// ---------------------------------------------------------------------------
// Coverage

#[derive(Default)]
struct Coverage {
    /// Table -> format versions it round-tripped on.
    seen: BTreeMap<&'static str, BTreeSet<u32>>,
    /// `Union::Arm` -> format versions.
    arms: BTreeMap<String, BTreeSet<u32>>,
    /// Files taken apart.
    files: BTreeSet<PathBuf>,
    /// Files that did not round-trip, with the reason.
    failures: Vec<String>,
}

impl Coverage {
    /// Takes `file` apart with `body`; a failure is kept, and the walk goes on.
    fn guarded(&mut self, file: &Path, body: impl FnOnce(&mut Coverage)) {
        self.files.insert(file.to_path_buf());
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| body(self)));
        if let Err(e) = run {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            self.failures.push(format!("{}: {msg}", file.display()));
        }
    }

    fn note(&mut self, table: &'static str, version: u32) {
        self.seen.entry(table).or_default().insert(version);
    }

    /// Notes a union value and its arm (the variant's name, from `Debug`).
    fn arm(&mut self, union: &'static str, value: &impl std::fmt::Debug, version: u32) {
        self.note(union, version);
        let text = format!("{value:?}");
        let arm = text.split(['(', ' ', '{']).next().unwrap_or("").to_string();
        self.arms
            .entry(format!("{union}::{arm}"))
            .or_default()
            .insert(version);
    }

    /// The table x versions matrix, one line per table of `SPEC_TABLES`.
    fn matrix(&self) -> String {
        let versions: BTreeSet<u32> = self.seen.values().flatten().copied().collect();
        let mut out = format!("{:<34}", "table \\ version");
        for v in &versions {
            write!(out, "{v:>4}").unwrap();
        }
        out.push('\n');
        for (name, _) in SPEC_TABLES {
            write!(out, "{name:<34}").unwrap();
            let got = self.seen.get(name);
            for v in &versions {
                let mark = if got.is_some_and(|s| s.contains(v)) {
                    "x"
                } else {
                    "."
                };
                write!(out, "{mark:>4}").unwrap();
            }
            if got.is_none() {
                out.push_str("   MISSING");
            }
            out.push('\n');
        }
        for (arm, vs) in &self.arms {
            writeln!(out, "  arm {arm}: {vs:?}").unwrap();
        }
        out
    }
}

/// Where bytes come from (for messages) and the format version to note.
#[derive(Clone)]
struct At {
    file: PathBuf,
    version: u32,
}

impl At {
    fn v(&self, version: u32) -> At {
        At {
            file: self.file.clone(),
            version,
        }
    }
}

fn short_name<T>() -> &'static str {
    let full = std::any::type_name::<T>();
    full.rsplit("::").next().unwrap_or(full)
}

/// Decodes a `T` from the start of `bytes` (all of them when `whole`),
/// re-encodes it and asserts the bytes are the same; notes the table.
fn rt<T>(
    cov: &mut Coverage,
    at: &At,
    bytes: &[u8],
    args: <T as BinRead>::Args<'_>,
    whole: bool,
) -> (T, usize)
where
    T: BinRead + BinWrite + std::fmt::Debug + tiledb_codec::raw::format::Record,
    for<'a> <T as BinWrite>::Args<'a>: Default,
{
    let table = short_name::<T>();
    let (value, used) = decode::<T>(bytes, &at.file, 0, args)
        .unwrap_or_else(|e| panic!("{table} in {}: {e}", at.file.display()));
    let used = used as usize;
    if whole {
        assert_eq!(
            used,
            bytes.len(),
            "{table} in {} takes {used} of its {} bytes",
            at.file.display(),
            bytes.len()
        );
    }
    let again = encode(&value).unwrap();
    if again != bytes[..used] {
        let at_byte = again
            .iter()
            .zip(bytes)
            .position(|(a, b)| a != b)
            .unwrap_or(again.len().min(used));
        panic!(
            "{table} (version {}) in {} re-encodes to other bytes: {} bytes for {used}, \
             first difference at byte {at_byte}\n{value:?}",
            at.version,
            at.file.display(),
            again.len()
        );
    }
    cov.note(table, at.version);
    (value, used)
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap())
}

/// The format version at the end of a timestamped name
/// (`__t1_t2_uuid_v[.ext]`).
fn name_version(path: &Path) -> u32 {
    let name = path.file_name().unwrap().to_string_lossy();
    name_version_or(path, None).unwrap_or_else(|| panic!("no format version in the name {name}"))
}

/// [`name_version`], or `fallback` for a name without one (the `.vac`
/// files of `__meta`: `__t1_t2_uuid.vac`).
fn name_version_or(path: &Path, fallback: Option<u32>) -> Option<u32> {
    let name = path.file_name().unwrap().to_string_lossy();
    let stem = name.split('.').next().unwrap();
    let parts: Vec<&str> = stem.trim_start_matches('_').split('_').collect();
    match parts.as_slice() {
        [_, _, _, v] => v.parse().ok(),
        _ => fallback,
    }
}

fn entries(dir: &Path, want_dirs: bool) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = rd
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir() == want_dirs)
        .collect();
    out.sort();
    out
}

fn all_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for f in entries(dir, false) {
        out.push(f);
    }
    for d in entries(dir, true) {
        all_files(&d, out);
    }
}

// ---------------------------------------------------------------------------
// Tiles and filters

/// A filter pipeline as it runs over the tiles of one file.
struct Pipe {
    filters: Vec<Filter>,
    datatype: Datatype,
    cell_size: u64,
    /// The schema's (or generic tile's) format version.
    version: u32,
    /// The fragment's format version.
    tile_version: u32,
    key: Option<[u8; 32]>,
    /// Whether the engine appends AES-256-GCM in memory (data tiles of
    /// encrypted arrays).
    encrypt: bool,
    /// Whether RLE or DICTIONARY fold the var offsets into this file's tiles.
    fold: bool,
}

/// The `Tile` at the start of `bytes`, each of its chunks, and the chunk
/// metadata of each filter; returns the unfiltered bytes and the tile's size.
fn tile(cov: &mut Coverage, at: &At, bytes: &[u8], pipe: &Pipe) -> (Vec<u8>, usize) {
    let (t, used) = rt::<Tile>(cov, at, bytes, (), false);
    let mut pos = 8;
    let mut out = Vec::new();
    for _ in 0..t.num_chunks {
        let (chunk, n) = rt::<Chunk>(cov, at, &bytes[pos..], (), false);
        rt::<ChunkHeader>(cov, at, &bytes[pos..pos + 12], (), true);
        let plain = reverse(cov, at, pipe, &chunk.metadata, &chunk.filtered_data);
        assert_eq!(
            plain.len(),
            chunk.header.original_length as usize,
            "a chunk at byte {pos} of {} unfilters to another length",
            at.file.display()
        );
        out.extend_from_slice(&plain);
        pos += n;
    }
    assert_eq!(pos, used);
    (out, used)
}

/// Runs the filters of `pipe` backward over one chunk, decoding the chunk
/// metadata each one finds at the front of what it is given.
fn reverse(cov: &mut Coverage, at: &At, pipe: &Pipe, metadata: &[u8], data: &[u8]) -> Vec<u8> {
    let mut stages: Vec<(Box<dyn FilterCodec>, Datatype, Option<&Filter>)> = Vec::new();
    let mut dt = pipe.datatype;
    for f in &pipe.filters {
        let codec = codec_for(f).unwrap_or_else(|e| panic!("{}: {e}", at.file.display()));
        let next = codec.output_datatype(dt);
        stages.push((codec, dt, Some(f)));
        dt = next;
    }
    if pipe.encrypt {
        stages.push((encryption_codec().unwrap(), dt, None));
    }
    let offsets = RefCell::new(Vec::new());
    let (mut md, mut d) = (metadata.to_vec(), data.to_vec());
    for (codec, dt, filter) in stages.iter().rev() {
        let cx = {
            let mut lit = FilterContext::new(*dt, pipe.cell_size, pipe.version);
            lit.tile_version = pipe.tile_version;
            lit.key = pipe.key.as_ref();
            lit.var_offsets = pipe.fold.then_some(&offsets);
            lit.max_output = u64::MAX;
            lit
        };
        chunk_metadata(cov, at, &cx, *filter, &md, &d);
        let r = codec
            .reverse(&cx, &md, &d)
            .unwrap_or_else(|e| panic!("{}: {e}", at.file.display()));
        md = r.metadata;
        d = r.data;
    }
    d
}

/// Whether RLE (from `ascii_from`) or DICTIONARY folds the offsets of this
/// stage's strings (as `filters::rle::folded` decides).
fn folded(cx: &FilterContext, ascii_from: u32) -> bool {
    cx.var_offsets.is_some()
        && match cx.datatype {
            Datatype::StringAscii => cx.version >= ascii_from,
            Datatype::StringUtf8 => cx.version >= 17,
            _ => false,
        }
}

/// The chunk metadata `filter` (`None`: the AES-256-GCM filter appended in
/// memory) finds at the front of `md`, and the layout of its parts in `data`.
fn chunk_metadata(
    cov: &mut Coverage,
    at: &At,
    cx: &FilterContext,
    filter: Option<&Filter>,
    md: &[u8],
    data: &[u8],
) {
    use FilterType as F;
    let kind = filter.map_or(F::Aes256Gcm, |f| {
        f.filter_type.known().expect("a known filter")
    });
    match kind {
        F::None | F::Deprecated => {}
        F::Webp => {
            // The images' count and lengths, then the input metadata.
            let (m, _) = rt::<WebpChunkMetadata>(cov, at, md, (), false);
            let total: u64 = m.part_sizes.iter().map(|&n| u64::from(n)).sum();
            assert_eq!(
                total,
                data.len() as u64,
                "{}: the images fill the chunk",
                at.file.display()
            );
        }
        F::Aes256Gcm => {
            let (m, _) = rt::<EncryptionChunkMetadata>(cov, at, md, (), false);
            if !m.metadata_parts.is_empty() || !m.data_parts.is_empty() {
                cov.note("AesPart", at.version);
            }
        }
        F::Rle if folded(cx, 12) => {
            let (m, _) = rt::<RleStringsChunkMetadata>(cov, at, md, (), false);
            let runs = &data[..m.compressed_length as usize];
            let mut pos = 0;
            while pos < runs.len() {
                let args = (m.run_length_width, m.string_length_width);
                pos += rt::<RleStringRun>(cov, at, &runs[pos..], args, false).1;
            }
        }
        F::Dictionary if folded(cx, 13) => {
            let (m, _) = rt::<DictionaryChunkMetadata>(cov, at, md, (), false);
            let mut pos = 0;
            while pos < m.dictionary.len() {
                let args = (m.string_length_width,);
                pos += rt::<DictionaryEntry>(cov, at, &m.dictionary[pos..], args, false).1;
            }
            let ids = &data[..m.compressed_length as usize];
            let mut pos = 0;
            while pos < ids.len() {
                pos += rt::<DictionaryWordId>(cov, at, &ids[pos..], (m.id_width,), false).1;
            }
        }
        F::Gzip
        | F::Zstd
        | F::Lz4
        | F::Bzip2
        | F::Rle
        | F::DoubleDelta
        | F::Delta
        | F::Dictionary => {
            let (m, _) = rt::<CompressionChunkMetadata>(cov, at, md, (), false);
            let mut pos = 0;
            for p in m.metadata_parts.iter().chain(&m.data_parts) {
                cov.note("CompressedPartMd", at.version);
                let part = &data[pos..pos + p.part_compressed_length as usize];
                pos += part.len();
                if part.is_empty() {
                    continue;
                }
                let filter = filter.expect("a compressor of the pipeline");
                match kind {
                    F::Delta => {
                        let dt = reinterpret_of("DELTA", filter).unwrap();
                        let w = integer_type("DELTA", dt.unwrap_or(cx.datatype)).unwrap().0;
                        rt::<DeltaPart>(cov, at, part, (w as u64,), true);
                    }
                    F::DoubleDelta => {
                        rt::<DoubleDeltaHeader>(cov, at, part, (), false);
                    }
                    F::Rle => {
                        let mut q = 0;
                        while q < part.len() {
                            let args = (cx.cell_size.max(1),);
                            q += rt::<RleRun>(cov, at, &part[q..], args, false).1;
                        }
                    }
                    _ => {}
                }
            }
        }
        F::Bitshuffle | F::Byteshuffle | F::Xor => {
            rt::<ShuffleChunkMetadata>(cov, at, md, (), false);
        }
        F::BitWidthReduction => {
            let (m, _) =
                rt::<BitWidthReductionChunkMetadata>(cov, at, md, (cx.datatype.size(),), false);
            if !m.windows.is_empty() {
                cov.note("BitWidthReductionWindowMd", at.version);
            }
        }
        F::PositiveDelta => {
            let (m, _) =
                rt::<PositiveDeltaChunkMetadata>(cov, at, md, (cx.datatype.size(),), false);
            if !m.windows.is_empty() {
                cov.note("PositiveDeltaWindowMd", at.version);
            }
        }
        F::ChecksumMd5 | F::ChecksumSha256 => {
            let size = if kind == F::ChecksumMd5 { 16 } else { 32 };
            let (m, _) = rt::<ChecksumChunkMetadata>(cov, at, md, (size,), false);
            if !m.metadata_checksums.is_empty() || !m.data_checksums.is_empty() {
                cov.note("ChecksumEntry", at.version);
            }
        }
        F::ScaleFloat => {
            rt::<FloatScaleChunkMetadata>(cov, at, md, (), false);
        }
        F::Unknown(code) => panic!("filter type {code} is not in spec/"),
        other => panic!("filter type {other:?} is not covered here: add its chunk metadata"),
    }
}

/// The generic tile at `off` of `bytes`: its header, tile and chunks round
/// trip; returns the header, the unfiltered data and where the tile ends.
fn generic_tile(
    cov: &mut Coverage,
    at: &At,
    bytes: &[u8],
    off: usize,
    key: Option<[u8; 32]>,
) -> (GenericTileHeader, Vec<u8>, usize) {
    let at = at.v(u32_at(bytes, off));
    let (h, used) = rt::<GenericTileHeader>(cov, &at, &bytes[off..], (), false);
    note_pipeline(cov, &h.filter_pipeline, at.version);
    let start = off + used;
    let persisted = &bytes[start..start + h.persisted_size as usize];
    let pipe = Pipe {
        filters: h.filter_pipeline.filters.clone(),
        datatype: h.datatype.known().unwrap_or(Datatype::Char),
        cell_size: h.cell_size,
        version: h.version_number,
        tile_version: h.version_number,
        key,
        encrypt: false,
        fold: false,
    };
    let (data, n) = tile(cov, &at, persisted, &pipe);
    assert_eq!(n, persisted.len(), "{}", at.file.display());
    assert_eq!(data.len() as u64, h.tile_size, "{}", at.file.display());
    (h, data, start + persisted.len())
}

/// A file that is one generic tile: its unfiltered data and version.
fn only_generic_tile(cov: &mut Coverage, file: &Path, key: Option<[u8; 32]>) -> (Vec<u8>, At) {
    let bytes = std::fs::read(file).unwrap();
    let at = At {
        file: file.to_path_buf(),
        version: 0,
    };
    let (h, data, end) = generic_tile(cov, &at, &bytes, 0, key);
    assert_eq!(end, bytes.len(), "{} is one generic tile", file.display());
    (data, at.v(h.version_number))
}

// ---------------------------------------------------------------------------
// Nested tables, noted when their parent round-tripped

fn note_pipeline(cov: &mut Coverage, p: &FilterPipeline, v: u32) {
    cov.note("FilterPipeline", v);
    for f in &p.filters {
        cov.note("Filter", v);
        cov.arm("FilterOptions", &f.filter_options, v);
        let table = match &f.filter_options {
            FilterOptions::Compressor(_) => "CompressorOptions",
            FilterOptions::BitWidthReduction(_) => "BitWidthReductionOptions",
            FilterOptions::PositiveDelta(_) => "PositiveDeltaOptions",
            FilterOptions::FloatScale(_) => "FloatScaleOptions",
            FilterOptions::Webp(_) => "WebpOptions",
            FilterOptions::NoOptions => continue,
            other => panic!("FilterOptions arm {other:?} is not covered here: add its table"),
        };
        cov.note(table, v);
    }
}

fn note_mbr(cov: &mut Coverage, m: &Mbr, v: u32) {
    cov.note("Mbr", v);
    if !m.ranges.is_empty() {
        cov.note("Range1D", v);
    }
}

fn note_schema(cov: &mut Coverage, s: &ArraySchema) {
    let v = s.array_version;
    note_pipeline(cov, &s.coords_filters, v);
    note_pipeline(cov, &s.offsets_filters, v);
    if let Some(p) = &s.validity_filters {
        note_pipeline(cov, p, v);
    }
    cov.note("Domain", v);
    for d in &s.domain.dimensions {
        cov.note("Dimension", v);
        if let Some(p) = &d.filters {
            note_pipeline(cov, p, v);
        }
    }
    for a in &s.attributes {
        cov.note("Attribute", v);
        note_pipeline(cov, &a.filters, v);
    }
    if s.labels.as_ref().is_some_and(|l| !l.is_empty()) {
        cov.note("DimensionLabel", v);
    }
    if s.enumerations.as_ref().is_some_and(|l| !l.is_empty()) {
        cov.note("EnumerationEntry", v);
    }
    if let Some(cd) = &s.current_domain {
        cov.note("CurrentDomain", v);
        if let Some(m) = &cd.ndrectangle {
            note_mbr(cov, m, v);
        }
    }
}

fn note_condition(cov: &mut Coverage, node: &ConditionNode, v: u32) {
    cov.note("ConditionNode", v);
    cov.arm("ConditionNodeBody", &node.body, v);
    match &node.body {
        ConditionNodeBody::Expression(e) => {
            cov.note("ExpressionNode", v);
            for c in &e.children {
                note_condition(cov, c, v);
            }
        }
        ConditionNodeBody::Value(_) => cov.note("ValueNode", v),
        other => panic!("ConditionNodeBody arm {other:?} is not covered here: add its table"),
    }
}

// ---------------------------------------------------------------------------
// Files

/// Walks a TileDB object (array or group) and the objects inside it.
fn walk_object(cov: &mut Coverage, dir: &Path, key: Option<[u8; 32]>) {
    if dir.join("__schema").is_dir() {
        walk_array(cov, dir, key);
    } else if dir.join("__group").is_dir() || dir.join("__tiledb_group.tdb").is_file() {
        let mut version = None;
        for f in entries(&dir.join("__group"), false) {
            cov.guarded(&f, |cov| {
                let (data, at) = only_generic_tile(cov, &f, key);
                version = Some(at.version);
                let (g, _) = rt::<GroupDetails>(cov, &at, &data, (), true);
                if !g.members.is_empty() {
                    cov.note("GroupMember", at.version);
                }
            });
        }
        walk_meta(cov, &dir.join("__meta"), key, version);
    }
    for d in entries(dir, true) {
        let name = d.file_name().unwrap().to_string_lossy().into_owned();
        if !name.starts_with("__") {
            walk_object(cov, &d, key);
        }
    }
}

/// The metadata files of `dir` (`__meta`); `version` is the object's
/// format version, for vacuum files whose names carry none.
fn walk_meta(cov: &mut Coverage, dir: &Path, key: Option<[u8; 32]>, version: Option<u32>) {
    for f in entries(dir, false) {
        cov.guarded(&f, |cov| {
            if f.extension().is_some_and(|e| e == "vac") {
                vacuum_file(cov, &f, version);
                return;
            }
            let (data, at) = only_generic_tile(cov, &f, key);
            let (m, _) = rt::<ArrayMetadata>(cov, &at, &data, (), true);
            let mut pos = 0;
            for _ in &m.entries {
                pos += rt::<MetadataEntry>(cov, &at, &data[pos..], (), false).1;
            }
            assert_eq!(pos, data.len());
        });
    }
}

fn vacuum_file(cov: &mut Coverage, f: &Path, fallback: Option<u32>) {
    let bytes = std::fs::read(f).unwrap();
    let version = name_version_or(f, fallback)
        .unwrap_or_else(|| panic!("no format version for {}", f.display()));
    let at = At {
        file: f.to_path_buf(),
        version,
    };
    let (v, _) = rt::<VacuumFile>(cov, &at, &bytes, (), true);
    let mut pos = 0;
    for _ in &v.entries {
        pos += rt::<VacuumEntry>(cov, &at, &bytes[pos..], (), false).1;
    }
}

fn walk_array(cov: &mut Coverage, root: &Path, key: Option<[u8; 32]>) {
    let mut schemas = BTreeMap::new();
    let schema_dir = root.join("__schema");
    for f in entries(&schema_dir, false) {
        cov.files.insert(f.clone());
        let (data, at) = only_generic_tile(cov, &f, key);
        let (s, _) = rt::<ArraySchema>(cov, &at.v(u32_at(&data, 0)), &data, (), true);
        note_schema(cov, &s);
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        schemas.insert(name, s);
    }
    assert!(!schemas.is_empty(), "no schema in {}", root.display());
    let version = schemas.values().map(|s| s.array_version).max();
    for f in entries(&schema_dir.join("__enumerations"), false) {
        cov.guarded(&f, |cov| {
            let (data, at) = only_generic_tile(cov, &f, key);
            rt::<Enumeration>(cov, &at, &data, (), true);
        });
    }
    for d in entries(&root.join("__fragments"), true) {
        cov.guarded(&d, |cov| walk_fragment(cov, &d, &schemas, key));
    }
    for f in entries(&root.join("__commits"), false) {
        cov.guarded(&f, |cov| commit_file(cov, &f, key));
    }
    for f in entries(&root.join("__fragment_meta"), false) {
        cov.guarded(&f, |cov| {
            consolidated_fragment_metadata(cov, &f, &schemas, key)
        });
    }
    walk_meta(cov, &root.join("__meta"), key, version);
    for d in entries(&root.join("__labels"), true) {
        walk_object(cov, &d, key);
    }
}

fn commit_file(cov: &mut Coverage, f: &Path, key: Option<[u8; 32]>) {
    let ext = f.extension().unwrap().to_string_lossy().into_owned();
    let bytes = std::fs::read(f).unwrap();
    let at = At {
        file: f.to_path_buf(),
        version: name_version(f),
    };
    match ext.as_str() {
        "wrt" => assert!(bytes.is_empty(), "{} is not empty", f.display()),
        "del" => {
            let (data, at) = only_generic_tile(cov, f, key);
            let (node, _) = rt::<ConditionNode>(cov, &at, &data, (0,), true);
            note_condition(cov, &node, at.version);
        }
        "upd" => {
            let (data, at) = only_generic_tile(cov, f, key);
            let (u, _) = rt::<UpdateCommit>(cov, &at, &data, (), true);
            note_condition(cov, &u.condition, at.version);
            if !u.values.is_empty() {
                cov.note("UpdateValue", at.version);
            }
        }
        "con" => {
            let (c, _) = rt::<ConsolidatedCommits>(cov, &at, &bytes, (), true);
            let mut pos = 0;
            for _ in &c.entries {
                let (e, n) = rt::<ConsolidatedCommit>(cov, &at, &bytes[pos..], (), false);
                if let Some(tile) = &e.delete_tile {
                    let (h, data, end) = generic_tile(cov, &at, tile, 0, key);
                    assert_eq!(end, tile.len());
                    let at = at.v(h.version_number);
                    let (node, _) = rt::<ConditionNode>(cov, &at, &data, (0,), true);
                    note_condition(cov, &node, at.version);
                }
                pos += n;
            }
        }
        "vac" => vacuum_file(cov, f, None),
        "ign" => {
            let (c, _) = rt::<IgnoreFile>(cov, &at, &bytes, (), true);
            let mut pos = 0;
            for _ in &c.entries {
                pos += rt::<IgnoreEntry>(cov, &at, &bytes[pos..], (), false).1;
            }
        }
        other => panic!("a commit file of unknown kind .{other}: {}", f.display()),
    }
}

/// The schema a footer at the start of `footer` names (version 10 on).
fn footer_schema<'s>(
    footer: &[u8],
    schemas: &'s BTreeMap<String, ArraySchema>,
    file: &Path,
) -> &'s ArraySchema {
    let version = u32_at(footer, 0);
    assert!(
        version >= 10,
        "a version {version} footer in {}",
        file.display()
    );
    let len = u64_at(footer, 4) as usize;
    let name = String::from_utf8_lossy(&footer[12..12 + len]).into_owned();
    schemas
        .get(&name)
        .unwrap_or_else(|| panic!("{} names the unknown schema {name}", file.display()))
}

/// What the generic tile at an offset of a fragment metadata file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Held {
    RTree,
    Offsets,
    Sizes,
    MinMax,
    Sums,
    NullCounts,
    FragmentSummary,
    ProcessedConditions,
}

fn walk_fragment(
    cov: &mut Coverage,
    dir: &Path,
    schemas: &BTreeMap<String, ArraySchema>,
    key: Option<[u8; 32]>,
) {
    let path = dir.join("__fragment_metadata.tdb");
    cov.files.insert(path.clone());
    let bytes = std::fs::read(&path).unwrap();
    let fv = name_version(dir);
    let at = At {
        file: path.clone(),
        version: fv,
    };
    let n = bytes.len();
    let (len, _) = rt::<FooterLength>(cov, &at, &bytes[n - 8..], (), true);
    let start = n - 8 - len.footer_length as usize;
    let schema = footer_schema(&bytes[start..], schemas, &path);
    let dims = schema.domain.coord_sizes();
    let attrs = schema.attributes.len() as u64;
    let (footer, _) =
        rt::<FragmentFooter>(cov, &at, &bytes[start..n - 8], (dims.clone(), attrs), true);
    assert_eq!(footer.version_number, fv);
    if let Some(m) = &footer.non_empty_domain {
        note_mbr(cov, m, fv);
    }
    let mut bounds = Vec::new();
    for s in footer.optional_sections.iter().flatten() {
        cov.note("OptionalSection", fv);
        if s.identifier == OptionalSectionIdentifier::TileGlobalOrderOffsets {
            let num_dims = dims.len() as u64;
            let (b, _) = rt::<TileGlobalOrderBounds>(cov, &at, &s.data, (num_dims,), true);
            bounds.extend(b.min_offsets.iter().chain(&b.max_offsets).copied());
        }
    }
    // What each generic tile holds, by the footer's offsets.
    let mut held: BTreeMap<u64, Held> = BTreeMap::new();
    let mut put = |off: u64, h: Held| {
        let before = held.insert(off, h);
        assert!(
            before.is_none() || before == Some(h),
            "{}: offset {off} holds {before:?} and {h:?}",
            path.display()
        );
    };
    put(footer.rtree_offset, Held::RTree);
    let lists = [
        (Some(&footer.tile_offsets), Held::Offsets),
        (Some(&footer.tile_var_offsets), Held::Offsets),
        (Some(&footer.tile_var_sizes), Held::Sizes),
        (footer.tile_validity_offsets.as_ref(), Held::Offsets),
        (footer.tile_mins_offsets.as_ref(), Held::MinMax),
        (footer.tile_maxes_offsets.as_ref(), Held::MinMax),
        (footer.tile_sums_offsets.as_ref(), Held::Sums),
        (footer.tile_null_counts_offsets.as_ref(), Held::NullCounts),
    ];
    for (list, h) in lists {
        for off in list.into_iter().flatten() {
            put(*off, h);
        }
    }
    if let Some(off) = footer.fragment_min_max_sum_null_count_offset {
        put(off, Held::FragmentSummary);
    }
    if let Some(off) = footer.processed_conditions_offset {
        put(off, Held::ProcessedConditions);
    }
    // The tiles' global order bounds (version 23): min/max tiles.
    for off in bounds {
        put(off, Held::MinMax);
    }
    let fields = footer.tile_offsets.len() as u64;
    let mut pos = 0;
    while pos < start {
        let (_, data, end) = generic_tile(cov, &at, &bytes, pos, key);
        let at = at.v(fv);
        let h = *held.get(&(pos as u64)).unwrap_or_else(|| {
            panic!(
                "{}: no footer offset points at the generic tile at {pos}",
                path.display()
            )
        });
        match h {
            Held::RTree => {
                let (r, _) = rt::<RTree>(cov, &at, &data, (fv, dims.clone()), true);
                for level in &r.levels {
                    cov.note("RTreeLevel", fv);
                    for m in &level.mbrs {
                        note_mbr(cov, m, fv);
                    }
                }
            }
            Held::Offsets => {
                rt::<TileOffsets>(cov, &at, &data, (), true);
            }
            Held::Sizes => {
                rt::<TileSizes>(cov, &at, &data, (), true);
            }
            Held::MinMax => {
                rt::<TileMinMax>(cov, &at, &data, (), true);
            }
            Held::Sums => {
                rt::<TileSums>(cov, &at, &data, (), true);
            }
            Held::NullCounts => {
                rt::<TileNullCounts>(cov, &at, &data, (), true);
            }
            Held::FragmentSummary => {
                let (s, _) = rt::<FragmentMinMaxSumNullCount>(cov, &at, &data, (fields,), true);
                if !s.fields.is_empty() {
                    cov.note("FieldMinMaxSumNullCount", fv);
                }
            }
            Held::ProcessedConditions => {
                let (p, _) = rt::<ProcessedConditions>(cov, &at, &data, (), true);
                if !p.conditions.is_empty() {
                    cov.note("ProcessedCondition", fv);
                }
            }
        }
        pos = end;
    }
    assert_eq!(
        pos,
        start,
        "{}: generic tiles run into the footer",
        path.display()
    );
    for f in entries(dir, false) {
        if f != path {
            cov.guarded(&f, |cov| data_file(cov, &f, schema, fv, key));
        }
    }
}

/// The field and file kind of a data file name (version 9 on).
fn data_file_field(schema: &ArraySchema, name: &str) -> (FieldInfo, DataFile) {
    let stem = name.strip_suffix(".tdb").expect("a .tdb file");
    let (base, kind) = if let Some(b) = stem.strip_suffix("_var") {
        (b, DataFile::Var)
    } else if let Some(b) = stem.strip_suffix("_validity") {
        (b, DataFile::Validity)
    } else {
        (stem, DataFile::Fixed)
    };
    // The timestamps' field (u64 cells with the coords filters), renamed.
    let special = |name: &str| {
        let mut f = FieldInfo::timestamps(schema);
        f.name = name.into();
        f.idx = usize::MAX;
        f
    };
    let field = match base {
        "t" => FieldInfo::timestamps(schema),
        // Delete metadata of fragments consolidated over deletes: u64 cells
        // with the coords filters (ArraySchema::type and ::filters).
        "dt" => special("__delete_timestamps"),
        "dci" => special("__delete_condition_index"),
        _ => {
            let (names, i) = if let Some(i) = base.strip_prefix('a') {
                let n: Vec<Vec<u8>> = schema.attributes.iter().map(|a| a.name.clone()).collect();
                (n, i)
            } else if let Some(i) = base.strip_prefix('d') {
                let dims = &schema.domain.dimensions;
                (dims.iter().map(|d| d.name.clone()).collect(), i)
            } else {
                panic!("a data file of unknown kind: {name}")
            };
            let i: usize = i.parse().unwrap_or_else(|_| panic!("data file {name}"));
            let field = String::from_utf8(names[i].clone()).unwrap();
            FieldInfo::lookup(schema, &field).unwrap()
        }
    };
    (field, kind)
}

fn data_file(cov: &mut Coverage, f: &Path, schema: &ArraySchema, fv: u32, key: Option<[u8; 32]>) {
    let name = f.file_name().unwrap().to_string_lossy().into_owned();
    let (field, kind) = data_file_field(schema, &name);
    let v = schema.array_version;
    let var = field.cell_val_num.is_none();
    let (filters, datatype, cell_size) = match kind {
        DataFile::Fixed if var => (schema.offsets_filters.filters.clone(), Datatype::Uint64, 8),
        DataFile::Fixed => (field.filters.clone(), field.datatype, field.cell_size()),
        DataFile::Var => (field.filters.clone(), field.datatype, field.datatype.size()),
        DataFile::Validity => (
            schema
                .validity_filters
                .as_ref()
                .map_or_else(Vec::new, |p| p.filters.clone()),
            Datatype::Uint8,
            1,
        ),
    };
    let fold = kind == DataFile::Var
        && Pipeline::new(&filters, datatype, cell_size, v)
            .unwrap()
            .folds_var_offsets();
    let pipe = Pipe {
        filters,
        datatype,
        cell_size,
        version: v,
        tile_version: fv,
        key,
        encrypt: key.is_some(),
        fold,
    };
    let bytes = std::fs::read(f).unwrap();
    let at = At {
        file: f.to_path_buf(),
        version: fv,
    };
    let mut pos = 0;
    while pos < bytes.len() {
        pos += tile(cov, &at, &bytes[pos..], &pipe).1;
    }
}

fn consolidated_fragment_metadata(
    cov: &mut Coverage,
    f: &Path,
    schemas: &BTreeMap<String, ArraySchema>,
    key: Option<[u8; 32]>,
) {
    let (data, at) = only_generic_tile(cov, f, key);
    let (index, used) = rt::<ConsolidatedFragmentMetadata>(cov, &at, &data, (), false);
    if !index.fragments.is_empty() {
        cov.note("ConsolidatedFragmentEntry", at.version);
    }
    let mut starts: Vec<usize> = index.fragments.iter().map(|e| e.offset as usize).collect();
    starts.sort();
    assert_eq!(starts.first().copied().unwrap_or(used), used);
    for (i, s) in starts.iter().enumerate() {
        let end = starts.get(i + 1).copied().unwrap_or(data.len());
        let footer = &data[*s..end];
        let schema = footer_schema(footer, schemas, f);
        let at = at.v(u32_at(footer, 0));
        let args = (schema.domain.coord_sizes(), schema.attributes.len() as u64);
        let (footer, _) = rt::<FragmentFooter>(cov, &at, footer, args, true);
        if let Some(m) = &footer.non_empty_domain {
            note_mbr(cov, m, at.version);
        }
    }
}

// ---------------------------------------------------------------------------
// The tests

/// Takes apart every file of the object at `dir`; every file must be one
/// the walk read or an empty marker.
fn walk_all(cov: &mut Coverage, dir: &Path, key: Option<[u8; 32]>) {
    walk_object(cov, dir, key);
    let mut files = Vec::new();
    all_files(dir, &mut files);
    let left: Vec<&PathBuf> = files
        .iter()
        .filter(|f| !cov.files.contains(*f) && std::fs::metadata(f).unwrap().len() > 0)
        .collect();
    assert!(
        left.is_empty(),
        "{}: files the walk did not take apart: {left:#?}",
        dir.display()
    );
}

/// The tables of `SPEC_TABLES` that `cov` did not see, but for those of
/// [`NOT_ENGINE_WRITTEN`].
fn missing(cov: &Coverage) -> Vec<&'static str> {
    SPEC_TABLES
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| !cov.seen.contains_key(n))
        .filter(|n| !NOT_ENGINE_WRITTEN.iter().any(|(x, _)| x == n))
        .collect()
}

/// The engine's files of the kinds the fixtures lack (see the module doc).
fn engine_extras() -> PathBuf {
    let root = common::scratch("spec-all-tables");
    let out = Command::new(common::engine_python())
        .arg(common::root().join("tests/engine/spec_all_tables.py"))
        .arg(&root)
        .output()
        .expect("the engine's python runs");
    assert!(
        out.status.success(),
        "spec_all_tables.py: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        report["update"],
        serde_json::json!(true),
        "the engine did not write the update commit"
    );
    root
}

#[test]
fn every_table_round_trips_on_engine_bytes() {
    let mut cov = Coverage::default();
    let mut fixture_versions = BTreeSet::new();
    for fx in common::fixtures() {
        let v = fx.id.split('/').next().and_then(|v| v.strip_prefix('v'));
        fixture_versions.insert(v.and_then(|v| v.parse::<u32>().ok()).unwrap());
        let key = fx
            .key
            .as_deref()
            .map(|k| <[u8; 32]>::try_from(k.as_bytes()).unwrap());
        walk_all(&mut cov, &fx.path, key);
    }
    let extras = engine_extras();
    walk_all(&mut cov, &extras.join("commits"), None);
    walk_all(&mut cov, &extras.join("group"), None);
    let _ = std::fs::remove_dir_all(&extras);

    let spec: BTreeSet<&str> = SPEC_TABLES.iter().map(|(n, _)| *n).collect();
    for (name, _) in NOT_ENGINE_WRITTEN {
        assert!(spec.contains(name), "{name} is not a table of spec/");
        assert!(
            !cov.seen.contains_key(name),
            "{name} round-tripped on engine bytes: take it off NOT_ENGINE_WRITTEN"
        );
    }
    let missing = missing(&cov);
    assert!(
        missing.is_empty() && cov.failures.is_empty(),
        "files that did not round-trip:\n{}\ntables of spec/ no engine-written file \
         round-tripped: {missing:?}\n{} files\n{}",
        cov.failures.join("\n"),
        cov.files.len(),
        cov.matrix()
    );
    // Every format version the fixtures hold shows in the matrix.
    for v in &fixture_versions {
        for table in ["ArraySchema", "GenericTileHeader", "FragmentFooter", "Tile"] {
            assert!(
                cov.seen[table].contains(v),
                "no {table} of version {v}\n{}",
                cov.matrix()
            );
        }
    }
    println!("{} files\n{}", cov.files.len(), cov.matrix());
}

/// The tables of [`NOT_ENGINE_WRITTEN`] on bytes of our own writer (a
/// version 23 array) and, for the legacy metadata of versions 1 and 2, on
/// bytes laid out here by hand, field by field.
#[test]
fn own_bytes_round_trip() {
    use serde_json::json;
    use tiledb_codec::raw::write::schema::create_array_with;
    use tiledb_codec::raw::write::{Column, CreateOptions, FragmentWriter, WriteOptions};

    let mut cov = Coverage::default();
    // Version 23: a sparse fragment, whose footer carries optional section 0.
    let dir = common::scratch("spec-all-tables-v23");
    let array = dir.join("a");
    let opts = CreateOptions::default().with_version(23);
    let schema = json!({
        "array_type": "sparse",
        "capacity": 2,
        "dimensions": [
            {"name": "x", "datatype": "INT32", "domain": [0, 9], "tile_extent": 5},
            {"name": "y", "datatype": "INT64", "domain": [0, 9], "tile_extent": 5}
        ],
        "attributes": [{"name": "a", "datatype": "INT32"}],
    });
    create_array_with(&array, &schema, &opts).unwrap();
    let le32 = |v: &[i32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let le64 = |v: &[i64]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let mut w = FragmentWriter::sparse(&array, WriteOptions::default()).unwrap();
    w.write(&[
        Column::fixed("x", le32(&[1, 2, 7])),
        Column::fixed("y", le64(&[3, 1, 9])),
        Column::fixed("a", le32(&[10, 20, 30])),
    ])
    .unwrap();
    assert_eq!(w.finish().unwrap().version, 23);
    walk_all(&mut cov, &array, None);
    let _ = std::fs::remove_dir_all(&dir);

    // Versions 1 and 2: one INT32 dimension, one fixed-size attribute, one
    // tile (MBR and bounding coords of 8 bytes each).
    let mut b = Vec::new();
    b.extend_from_slice(&2u32.to_le_bytes()); // version
    b.extend_from_slice(&8u64.to_le_bytes()); // non-empty domain size
    b.extend_from_slice(&[1, 0, 0, 0, 4, 0, 0, 0]); // [1, 4]
    b.extend_from_slice(&1u64.to_le_bytes()); // num MBRs
    b.extend_from_slice(&[1, 0, 0, 0, 4, 0, 0, 0]);
    b.extend_from_slice(&1u64.to_le_bytes()); // num bounding coords
    b.extend_from_slice(&[1, 0, 0, 0, 4, 0, 0, 0]);
    for list in [&[0u64][..], &[0], &[], &[]] {
        // tile offsets of `a` and `__coords`, var offsets and var sizes of `a`
        b.extend_from_slice(&(list.len() as u64).to_le_bytes());
        for o in list {
            b.extend_from_slice(&o.to_le_bytes());
        }
    }
    b.extend_from_slice(&4u64.to_le_bytes()); // last tile cell num
    for size in [16u64, 32, 0] {
        // file sizes of `a`, `__coords`; file var size of `a`
        b.extend_from_slice(&size.to_le_bytes());
    }
    let at = At {
        file: PathBuf::from("legacy __fragment_metadata.tdb"),
        version: 2,
    };
    let (md, _) = rt::<LegacyFragmentMetadata>(&mut cov, &at, &b, (1, 8, 8), true);
    assert_eq!((md.num_mbrs, md.last_tile_cell_num), (1, 4));
    assert_eq!(md.tile_offsets.lists.len(), 2);
    cov.note("LegacyTileOffsets", 2);

    let missing: Vec<&str> = NOT_ENGINE_WRITTEN
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| !cov.seen.contains_key(n))
        .collect();
    assert!(
        missing.is_empty() && cov.failures.is_empty(),
        "files that did not round-trip:\n{}\nnot exercised on our own bytes: {missing:?}\n{}",
        cov.failures.join("\n"),
        cov.matrix()
    );
}

/// The check itself: a table of `SPEC_TABLES` nothing round-tripped is
/// reported (here `Enumeration`, with every other table noted).
#[test]
fn a_table_without_coverage_is_reported() {
    let mut cov = Coverage::default();
    for (name, _) in SPEC_TABLES {
        if *name != "Enumeration" {
            cov.note(name, 22);
        }
    }
    assert_eq!(missing(&cov), ["Enumeration"]);
    assert!(cov.matrix().contains("Enumeration"));
    assert!(cov
        .matrix()
        .lines()
        .any(|l| l.starts_with("Enumeration") && l.ends_with("MISSING")));
    cov.note("Enumeration", 22);
    assert!(missing(&cov).is_empty());
}
