//! Writes the seed corpora `fuzz/seeds/<target>/` from the fixture arrays
//! of `tests/fixtures`, in the input layouts the targets document. Run by
//! `fuzz/make_seeds.sh`; deterministic, so the committed seeds can be
//! regenerated and compared.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use tiledb_codec::raw::array::directory::ArrayDirectory;
use tiledb_codec::raw::array::fragment::{dims_for, Fragment, Metadata};
use tiledb_codec::raw::array::{FieldInfo, FieldPipelines};
use tiledb_codec::raw::format::{
    decode, decode_all, encode, ChunkHeader, ConditionNode, ConditionNodeBody, ConditionNodeType,
    Datatype, ExpressionNode, FilterPipeline, FragmentFooter, QueryConditionCombinationOp,
    QueryConditionOp, Record, Tile, UpdateCommit, UpdateValue, ValueNode,
};
use tiledb_codec::raw::storage::MappedFile;
use tiledb_codec::raw::tile::read_generic_tile;

#[path = "../../src/lib.rs"]
#[allow(dead_code)]
mod shared;

/// Largest seed written (bytes); larger inputs are skipped.
const MAX_SEED: usize = 6 * 1024;
/// Most seeds per target and fixture version (the name's first part).
fn max_per_version(target: &str) -> usize {
    match target {
        "array_open_export" => usize::MAX,
        "generic_tile" => 8,
        "filter_pipeline" => 128,
        _ => 16,
    }
}

#[derive(Default)]
struct Seeds {
    /// target -> name -> bytes; a target never holds the same bytes twice.
    by_target: BTreeMap<&'static str, BTreeMap<String, Vec<u8>>>,
    seen: BTreeSet<(&'static str, Vec<u8>)>,
    count: BTreeMap<(&'static str, String), usize>,
}

impl Seeds {
    fn add(&mut self, target: &'static str, name: &str, bytes: Vec<u8>) {
        self.add_keyed(target, name, bytes.clone(), bytes);
    }

    /// Adds a seed unless one with the same `key` is there.
    fn add_keyed(&mut self, target: &'static str, name: &str, bytes: Vec<u8>, key: Vec<u8>) {
        if bytes.len() > MAX_SEED || !self.seen.insert((target, key)) {
            return;
        }
        let version = name.split(['-', '/']).next().unwrap_or("").to_string();
        let n = self.count.entry((target, version)).or_default();
        if *n < max_per_version(target) {
            *n += 1;
            self.by_target
                .entry(target)
                .or_default()
                .insert(name.replace('/', "-"), bytes);
        }
    }
}

fn opts(key: Option<&str>) -> tiledb_codec::ReadOptions {
    let o = shared::opts();
    match key {
        Some(k) => o.with_encryption_key(k.as_bytes().try_into().ok()),
        None => o,
    }
}

/// The prefix of the targets that import dimensions: count and size codes.
fn dims_prefix(dims: &[u64]) -> Option<Vec<u8>> {
    if dims.len() > 4 {
        return None;
    }
    let mut out = vec![dims.len() as u8];
    let mut sizes = [0u8; 4];
    for (i, d) in dims.iter().enumerate() {
        sizes[i] = shared::size_code(*d)?;
    }
    out.extend_from_slice(&sizes);
    Some(out)
}

fn tile_data(file: &MappedFile, offset: u64, key: Option<&str>) -> Option<Vec<u8>> {
    read_generic_tile(file, offset, &opts(key))
        .ok()
        .map(|t| t.data.into_owned())
}

/// The first chunk of the tile at `offset` of a data file: (metadata, data).
fn first_chunk(bytes: &[u8], offset: u64) -> Option<(Vec<u8>, Vec<u8>)> {
    let rest = bytes.get(offset as usize..)?;
    let p = Path::new("x");
    let (n, _) = decode::<u64>(rest, p, 0, ()).ok()?;
    if n == 0 {
        return None;
    }
    let (h, _) = decode::<ChunkHeader>(rest.get(8..)?, p, 0, ()).ok()?;
    let md_start = 20usize;
    let md_end = md_start + h.metadata_length as usize;
    let data_end = md_end + h.filtered_length as usize;
    Some((
        rest.get(md_start..md_end)?.to_vec(),
        rest.get(md_end..data_end)?.to_vec(),
    ))
}

/// What a pipeline seed says of its tile besides the pipeline: the format
/// version, the cells' datatype and size, and the flags byte.
struct SeedTile {
    version: u32,
    datatype: Datatype,
    cell_size: u64,
    flags: u8,
}

fn pipeline_seed(
    seeds: &mut Seeds,
    name: &str,
    filters: &FilterPipeline,
    tile: SeedTile,
    chunk: (Vec<u8>, Vec<u8>),
) {
    let SeedTile {
        version,
        datatype,
        cell_size,
        flags,
    } = tile;
    let pipeline = encode(filters).unwrap();
    let (md, data) = chunk;
    let (Ok(p_len), Ok(m_len), Ok(cell)) = (
        u16::try_from(pipeline.len()),
        u16::try_from(md.len()),
        u16::try_from(cell_size),
    ) else {
        return;
    };
    let mut s = vec![version as u8, shared::datatype_code(datatype)];
    s.extend_from_slice(&cell.to_le_bytes());
    s.push(flags);
    s.extend_from_slice(&p_len.to_le_bytes());
    s.extend_from_slice(&m_len.to_le_bytes());
    s.extend_from_slice(&pipeline);
    s.extend_from_slice(&md);
    s.extend_from_slice(&data);
    // One seed per pipeline (filters and their options), datatype and flags.
    let mut key = vec![s[1], s[4]];
    key.extend_from_slice(&pipeline);
    seeds.add_keyed("filter_pipeline", name, s, key);
}

// The format's structs are `#[non_exhaustive]`: made from their defaults.
fn pipeline_of(filters: &[tiledb_codec::raw::format::Filter]) -> FilterPipeline {
    let mut p = FilterPipeline::default();
    p.max_chunk_size = 65536;
    p.filters = filters.to_vec();
    p.with_sizes()
}

fn fragment_seeds(seeds: &mut Seeds, id: &str, frag: &Fragment, key: Option<&str>) {
    let Metadata::Footer(footer) = &frag.metadata else {
        return;
    };
    let meta = match MappedFile::open(frag.metadata_path()) {
        Ok(m) => m,
        Err(_) => return,
    };
    let fname = format!("{id}-{}", frag.name.name.get(..8).unwrap_or(""));
    let dims = dims_for(&frag.schema);
    let nattrs = frag.schema.attributes.len();
    // The footer.
    let (off, len) = frag.footer_range;
    if let Some(prefix) = dims_prefix(&dims).filter(|_| nattrs <= 8) {
        let mut s = prefix.clone();
        s.push(nattrs as u8);
        s.extend_from_slice(&meta.bytes()[off as usize..(off + len) as usize]);
        seeds.add("fragment_footer", &fname, s);
        // The R-tree.
        if let Some(data) = tile_data(&meta, footer.rtree_offset, key) {
            let mut s = vec![footer.version_number as u8];
            s.extend_from_slice(&prefix);
            s.extend_from_slice(&data);
            seeds.add("rtree", &fname, s);
        }
    }
    seeds.add(
        "generic_tile",
        &format!("{fname}-meta"),
        meta.bytes().to_vec(),
    );
    // The other generic tiles of the metadata file.
    let table = |t: u8, count: u8, bytes: Vec<u8>| {
        let mut s = vec![t, count, 0, 0, 0, 0, 0, 0];
        if let Some(p) = dims_prefix(&dims) {
            s[2..7].copy_from_slice(&p);
        }
        s[7] = nattrs.min(8) as u8;
        s.extend_from_slice(&bytes);
        s
    };
    let n_fields = footer.tile_offsets.len() as u8;
    let lists: Vec<(u8, &[u64])> = vec![
        (0, &footer.tile_offsets),
        (0, &footer.tile_var_offsets),
        (0, &footer.tile_var_sizes),
        (0, footer.tile_validity_offsets.as_deref().unwrap_or(&[])),
        (1, footer.tile_mins_offsets.as_deref().unwrap_or(&[])),
        (1, footer.tile_maxes_offsets.as_deref().unwrap_or(&[])),
        (2, footer.tile_sums_offsets.as_deref().unwrap_or(&[])),
        (3, footer.tile_null_counts_offsets.as_deref().unwrap_or(&[])),
    ];
    let mut singles: Vec<(u8, u64)> = Vec::new();
    for (t, list) in lists {
        for o in list.iter().take(4) {
            singles.push((t, *o));
        }
    }
    if let Some(o) = footer.fragment_min_max_sum_null_count_offset {
        singles.push((4, o));
    }
    if let Some(o) = footer.processed_conditions_offset {
        singles.push((5, o));
    }
    for (i, (t, o)) in singles.into_iter().enumerate() {
        if let Some(data) = tile_data(&meta, o, key) {
            seeds.add(
                "tile_metadata",
                &format!("{fname}-{t}-{i}"),
                table(t, n_fields, data),
            );
        }
    }
    for (i, s) in footer.optional_sections.iter().flatten().enumerate() {
        seeds.add(
            "tile_metadata",
            &format!("{fname}-optional-{i}"),
            table(8, 0, encode(s).unwrap()),
        );
    }
    field_seeds(seeds, &fname, frag, footer, key);
}

/// One chunk of every field's tiles, with the field's pipelines (and
/// the AES-256-GCM stage the engine appends when the array is encrypted:
/// flag 4).
fn field_seeds(
    seeds: &mut Seeds,
    fname: &str,
    frag: &Fragment,
    footer: &FragmentFooter,
    key: Option<&str>,
) {
    let nattrs = frag.schema.attributes.len();
    let aes = if key.is_some() { 4 } else { 0 };
    let schema = &frag.schema;
    let v = schema.array_version;
    let names: Vec<String> = schema
        .attributes
        .iter()
        .map(|a| &a.name)
        .chain(schema.domain.dimensions.iter().map(|d| &d.name))
        .map(|n| String::from_utf8_lossy(n).into_owned())
        .collect();
    for name in names {
        let Some(field) = FieldInfo::lookup(schema, &name) else {
            continue;
        };
        if field.is_dimension && frag.dense {
            continue;
        }
        let base = if field.is_dimension {
            format!("d{}", field.idx - nattrs - 1)
        } else {
            format!("a{}", field.idx)
        };
        let first_tile = |list: &[u64], file: &str| -> Option<(Vec<u8>, Vec<u8>)> {
            let o = frag
                .generic_tile_offsets(*list.get(field.idx)?, &opts(key))
                .ok()?;
            let bytes = std::fs::read(frag.path.join(file)).ok()?;
            first_chunk(&bytes, *o.values.first()?)
        };
        let var = field.cell_val_num.is_none();
        let sname = format!("{fname}-{base}");
        if var {
            if let Some(c) = first_tile(&footer.tile_offsets, &format!("{base}.tdb")) {
                let p = pipeline_of(&schema.offsets_filters.filters);
                pipeline_seed(
                    seeds,
                    &format!("{sname}-offsets"),
                    &p,
                    SeedTile {
                        version: v,
                        datatype: Datatype::Uint64,
                        cell_size: 8,
                        flags: aes,
                    },
                    c,
                );
            }
            if let Some(c) = first_tile(&footer.tile_var_offsets, &format!("{base}_var.tdb")) {
                let folded =
                    FieldPipelines::new(schema, &field, None).is_ok_and(|p| p.offsets_in_data);
                let flags = aes | if folded { 2 } else { 0 };
                let p = pipeline_of(&field.filters);
                let cell = field.datatype.size();
                pipeline_seed(
                    seeds,
                    &format!("{sname}-var"),
                    &p,
                    SeedTile {
                        version: v,
                        datatype: field.datatype,
                        cell_size: cell,
                        flags,
                    },
                    c,
                );
            }
        } else if let Some(c) = first_tile(&footer.tile_offsets, &format!("{base}.tdb")) {
            let p = pipeline_of(&field.filters);
            pipeline_seed(
                seeds,
                &sname,
                &p,
                SeedTile {
                    version: v,
                    datatype: field.datatype,
                    cell_size: field.cell_size(),
                    flags: aes,
                },
                c,
            );
        }
        if field.nullable {
            let list = footer.tile_validity_offsets.as_deref().unwrap_or(&[]);
            if let Some(c) = first_tile(list, &format!("{base}_validity.tdb")) {
                let filters = schema
                    .validity_filters
                    .as_ref()
                    .map_or(&[][..], |p| &p.filters);
                let p = pipeline_of(filters);
                pipeline_seed(
                    seeds,
                    &format!("{sname}-validity"),
                    &p,
                    SeedTile {
                        version: v,
                        datatype: Datatype::Uint8,
                        cell_size: 1,
                        flags: aes,
                    },
                    c,
                );
            }
        }
    }
}

/// A delete condition as an update commit: the condition, then one value
/// (`a` = 7i32).
fn update_commit(condition: ConditionNode) -> Vec<u8> {
    let mut value = UpdateValue::default();
    value.field_name = "a".into();
    value.value = 7i32.to_le_bytes().to_vec();
    let mut commit = UpdateCommit::default();
    commit.condition = condition;
    commit.values = vec![value];
    encode(&commit.with_sizes()).unwrap()
}

fn value_node(op: u8, field: &str, value: &[u8]) -> ConditionNode {
    let mut v = ValueNode::default();
    // Raw operator codes: the seeds include one the format does not define.
    v.op = QueryConditionOp::from_raw(op);
    v.field_name = field.as_bytes().to_vec();
    v.value = value.to_vec();
    node(v)
}

/// A set node (IN, NOT_IN): its members joined, with where each starts,
/// by the generated writer.
fn set_node(op: u8, field: &str, members: &[&[u8]]) -> ConditionNode {
    let mut v = ValueNode::default();
    v.op = QueryConditionOp::from_raw(op);
    v.field_name = field.as_bytes().to_vec();
    v.offsets_size = Some(0);
    v.offsets = Some(Vec::new());
    node(v.with_joined(members))
}

fn node(v: ValueNode) -> ConditionNode {
    let mut n = ConditionNode::default();
    n.node_type = ConditionNodeType::Value;
    n.body = ConditionNodeBody::Value(v);
    // The sizes and counts from the contents, as the spec's writers set them.
    n.with_sizes()
}

fn expression(op: u8, children: Vec<ConditionNode>) -> ConditionNode {
    let mut e = ExpressionNode::default();
    e.combination_op = QueryConditionCombinationOp::from_raw(op);
    e.children = children;
    let mut n = ConditionNode::default();
    n.node_type = ConditionNodeType::Expression;
    n.body = ConditionNodeBody::Expression(e);
    n.with_sizes()
}

/// Conditions the fixtures do not hold: every combination op, IN and
/// NOT_IN with their offsets, always true/false, a string comparison.
fn synthetic_conditions(seeds: &mut Seeds) {
    let three = [1i32, 2, 3].map(i32::to_le_bytes);
    let three: Vec<&[u8]> = three.iter().map(|m| &m[..]).collect();
    let tree = expression(
        1,
        vec![
            expression(
                0,
                vec![
                    value_node(0, "a", &5i32.to_le_bytes()),
                    set_node(6, "a", &three),
                ],
            ),
            expression(2, vec![set_node(7, "a", &three)]),
            value_node(253, "a", &[]),
            value_node(4, "s", b"abc"),
        ],
    );
    for (i, dt) in [Datatype::Int32, Datatype::StringAscii, Datatype::Float64]
        .into_iter()
        .enumerate()
    {
        let mut s = vec![0, shared::datatype_code(dt), 2, 4];
        let mut cell = [0u8; 16];
        cell[..4].copy_from_slice(&2i32.to_le_bytes());
        s.extend_from_slice(&cell);
        s.extend_from_slice(&encode(&tree).unwrap());
        seeds.add("conditions", &format!("synthetic-tree-{i}"), s);
    }
    let mut s = vec![1, 0, 0, 4];
    s.extend_from_slice(&[0u8; 16]);
    s.extend_from_slice(&update_commit(value_node(5, "a", &[])));
    seeds.add("conditions", "synthetic-null", s);
}

fn files_below(root: &Path) -> Vec<PathBuf> {
    shared::array_files(root)
        .into_iter()
        .map(|r| root.join(r))
        .collect()
}

fn array_seeds(seeds: &mut Seeds, id: &str, root: &Path, key: Option<&str>) {
    let Ok(dir) = ArrayDirectory::open(root) else {
        return;
    };
    let o = opts(key);
    let schemas = dir
        .schemas
        .iter()
        .map(|e| e.path.clone())
        .chain(dir.legacy_schema.clone());
    for (i, p) in schemas.enumerate() {
        let Ok(f) = MappedFile::open(&p) else {
            continue;
        };
        seeds.add(
            "generic_tile",
            &format!("{id}-schema-{i}"),
            f.bytes().to_vec(),
        );
        if let Some(data) = tile_data(&f, 0, key) {
            seeds.add("array_schema", &format!("{id}-{i}"), data);
        }
    }
    for e in &dir.fragments {
        if let Ok(frag) = Fragment::open(&dir, e, &o) {
            fragment_seeds(seeds, id, &frag, key);
        }
    }
    for (i, e) in dir.metadata.iter().enumerate() {
        let Ok(f) = MappedFile::open(&e.path) else {
            continue;
        };
        seeds.add(
            "generic_tile",
            &format!("{id}-meta-{i}"),
            f.bytes().to_vec(),
        );
        if let Some(data) = tile_data(&f, 0, key) {
            seeds.add("array_metadata", &format!("{id}-{i}"), data);
        }
    }
    for (i, e) in dir.deletes.iter().enumerate() {
        let Ok(f) = MappedFile::open(&e.path) else {
            continue;
        };
        seeds.add("generic_tile", &format!("{id}-del-{i}"), f.bytes().to_vec());
        if let Some(data) = tile_data(&f, 0, key) {
            // ConditionNode, INT32 cell 3 (the fixtures' conditions compare int32 attributes).
            let mut prefix = vec![0, shared::datatype_code(Datatype::Int32), 2, 4];
            let mut cell = [0u8; 16];
            cell[..4].copy_from_slice(&3i32.to_le_bytes());
            prefix.extend_from_slice(&cell);
            let mut s = prefix.clone();
            s.extend_from_slice(&data);
            seeds.add("conditions", &format!("{id}-del-{i}"), s);
            prefix[0] = 1;
            if let Ok(condition) =
                decode_all::<ConditionNode>(&data, Path::new("condition"), 0, (0,))
            {
                let mut s = prefix;
                s.extend_from_slice(&update_commit(condition));
                seeds.add("conditions", &format!("{id}-upd-{i}"), s);
            }
        }
    }
    for (i, e) in dir.fragment_meta.iter().enumerate() {
        let Ok(f) = MappedFile::open(&e.path) else {
            continue;
        };
        seeds.add(
            "generic_tile",
            &format!("{id}-fragmeta-{i}"),
            f.bytes().to_vec(),
        );
        if let Some(data) = tile_data(&f, 0, key) {
            let mut s = vec![3];
            s.extend_from_slice(&data);
            seeds.add("commit_files", &format!("{id}-fragmeta-{i}"), s);
        }
    }
    for (i, p) in dir
        .enumeration_files()
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let Ok(f) = MappedFile::open(p) else { continue };
        seeds.add(
            "generic_tile",
            &format!("{id}-enum-{i}"),
            f.bytes().to_vec(),
        );
        if let Some(data) = tile_data(&f, 0, key) {
            let mut s = vec![0];
            s.extend_from_slice(&data);
            seeds.add("enumeration_group", &format!("{id}-{i}"), s);
        }
    }
    // Plain commit files, wherever they are.
    for p in files_below(root) {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let table = match name.rsplit('.').next() {
            Some("con") => 0,
            Some("ign") => 1,
            Some("vac") => 2,
            _ => continue,
        };
        let mut s = vec![table];
        s.extend_from_slice(&std::fs::read(&p).unwrap());
        seeds.add("commit_files", &format!("{id}-{name}"), s);
    }
}

fn group_seeds(seeds: &mut Seeds, id: &str, root: &Path) {
    for (i, p) in files_below(&root.join("__group")).into_iter().enumerate() {
        let Ok(f) = MappedFile::open(&p) else {
            continue;
        };
        seeds.add(
            "generic_tile",
            &format!("{id}-group-{i}"),
            f.bytes().to_vec(),
        );
        if let Some(data) = tile_data(&f, 0, None) {
            let mut s = vec![1];
            s.extend_from_slice(&data);
            seeds.add("enumeration_group", &format!("{id}-{i}"), s);
        }
    }
}

fn name_seeds(seeds: &mut Seeds, id: &str, root: &Path) {
    // Every distinct shape of name: one of each extension and depth.
    let mut shapes = BTreeSet::new();
    for p in files_below(root) {
        for c in p.strip_prefix(root).unwrap().components() {
            let n = c.as_os_str().to_string_lossy().into_owned();
            let shape: String = n
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { 'x' } else { c })
                .collect();
            if shapes.insert(shape) {
                seeds.add("names", &format!("{id}-{}", seeds_name(&n)), n.into_bytes());
            }
        }
    }
}

fn seeds_name(n: &str) -> String {
    n.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '.')
        .take(24)
        .collect()
}

/// `array_open_export`: for every file of its arrays, a patch of the file's
/// first bytes with themselves (offset 0), and for fragment metadata the
/// footer and its length too, so that mutations land where it matters.
fn open_seeds(seeds: &mut Seeds, fixtures: &Path) {
    for (a, f) in shared::OPEN_FIXTURES.iter().enumerate() {
        let root = fixtures.join(f);
        for (i, rel) in shared::array_files(&root).iter().enumerate() {
            let bytes = std::fs::read(root.join(rel)).unwrap();
            let mut at = vec![(0usize, bytes.len().min(48))];
            if rel.ends_with("__fragment_metadata.tdb") && bytes.len() >= 8 {
                let len = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().unwrap()) as usize;
                let start = bytes.len().saturating_sub(8 + len);
                at.push((start, (bytes.len() - start).min(96)));
            }
            // Generic tiles whose data the target can rewrite (mode 4): the
            // decoded data, unfiltered.
            let name = rel.to_string_lossy();
            let wrapped = name.starts_with("__schema/")
                || name.starts_with("__meta/") && !name.ends_with(".vac")
                || name.ends_with(".del");
            if wrapped {
                let file = MappedFile::from_vec(rel, bytes.clone());
                if let Some(data) = tile_data(&file, 0, None) {
                    let mut s = vec![a as u8];
                    s.extend_from_slice(&(i as u16).to_le_bytes());
                    s.push(4);
                    s.extend_from_slice(&0u32.to_le_bytes());
                    s.extend_from_slice(&data);
                    seeds.add("array_open_export", &format!("{f}-{i}-tile"), s);
                }
            }
            for (k, (off, n)) in at.into_iter().enumerate() {
                let mut s = vec![a as u8];
                s.extend_from_slice(&(i as u16).to_le_bytes());
                s.push(2);
                s.extend_from_slice(&(off as u32).to_le_bytes());
                s.extend_from_slice(&bytes[off..off + n]);
                let name = format!("{f}-{i}-{k}");
                seeds.add("array_open_export", &name, s);
            }
        }
    }
}

/// Seeds of `tile_stream`: unfiltered stored tiles (one chunk, three with
/// metadata on one, two, none) with the flags, piece size and unfiltered
/// length its input starts with.
fn synthetic_tile_streams(seeds: &mut Seeds) {
    let data: Vec<u8> = (0..300u32).map(|i| (i * 7 % 251) as u8).collect();
    let tile = |chunks: &[(&[u8], &[u8])]| {
        let mut out = Tile::head(chunks.len()).unwrap();
        for (md, d) in chunks {
            let header = ChunkHeader::default().with_outside_sizes(d, d, md).unwrap();
            out.extend_from_slice(&encode(&header).unwrap());
            out.extend_from_slice(md);
            out.extend_from_slice(d);
        }
        out
    };
    let cases: [(&str, u16, u16, Vec<u8>); 4] = [
        ("unfiltered-1-chunk", 7, 300, tile(&[(b"", &data)])),
        (
            "unfiltered-3-chunks",
            13,
            300,
            tile(&[
                (b"", &data[..100]),
                (b"md", &data[100..250]),
                (b"", &data[250..]),
            ]),
        ),
        (
            "unfiltered-whole",
            0,
            300,
            tile(&[(b"", &data[..128]), (b"", &data[128..])]),
        ),
        ("empty", 1, 0, tile(&[])),
    ];
    for (name, step, len, stored) in cases {
        let mut s = vec![0u8];
        s.extend_from_slice(&step.to_le_bytes());
        s.extend_from_slice(&len.to_le_bytes());
        s.extend_from_slice(&stored);
        seeds.add("tile_stream", name, s);
    }
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let fixtures = root.join("tests/fixtures");
    let out = root.join("fuzz/seeds");
    let mut seeds = Seeds::default();
    open_seeds(&mut seeds, &fixtures);
    synthetic_conditions(&mut seeds);
    synthetic_tile_streams(&mut seeds);
    let mut versions: Vec<PathBuf> = std::fs::read_dir(&fixtures)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("MANIFEST.json").is_file())
        .collect();
    versions.sort();
    // Newest first: the current format gets the seed slots first.
    versions.reverse();
    for v in versions {
        let vname = v.file_name().unwrap().to_string_lossy().into_owned();
        let manifest: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(v.join("MANIFEST.json")).unwrap())
                .unwrap();
        for e in manifest.as_array().into_iter().flatten() {
            let name = e["name"].as_str().unwrap();
            let path = v.join(name);
            if !path.is_dir() {
                continue;
            }
            let id = format!("{vname}-{name}");
            let key = e["encrypted_key"].as_str();
            name_seeds(&mut seeds, &id, &path);
            match e["kind"].as_str() {
                Some("group") => group_seeds(&mut seeds, &id, &path),
                _ => array_seeds(&mut seeds, &id, &path, key),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&out);
    let mut total = 0;
    for (target, files) in &seeds.by_target {
        let dir = out.join(target);
        std::fs::create_dir_all(&dir).unwrap();
        let mut size = 0;
        for (name, bytes) in files {
            std::fs::write(dir.join(name), bytes).unwrap();
            size += bytes.len();
        }
        println!("{target}: {} seeds, {size} bytes", files.len());
        total += size;
    }
    println!("total: {total} bytes");
}
