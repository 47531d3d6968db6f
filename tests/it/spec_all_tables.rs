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

mod more;
#[allow(unused_imports)]
use more::*;
