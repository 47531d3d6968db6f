//! The second half of `spec_all_tables.rs` (split to keep each file under 1,000 lines).

use super::*;

/// The metadata files of `dir` (`__meta`); `version` is the object's
/// format version, for vacuum files whose names carry none.
pub(super) fn walk_meta(
    cov: &mut Coverage,
    dir: &Path,
    key: Option<[u8; 32]>,
    version: Option<u32>,
) {
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

pub(super) fn vacuum_file(cov: &mut Coverage, f: &Path, fallback: Option<u32>) {
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

pub(super) fn walk_array(cov: &mut Coverage, root: &Path, key: Option<[u8; 32]>) {
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

pub(super) fn commit_file(cov: &mut Coverage, f: &Path, key: Option<[u8; 32]>) {
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
pub(super) fn footer_schema<'s>(
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
pub(super) enum Held {
    RTree,
    Offsets,
    Sizes,
    MinMax,
    Sums,
    NullCounts,
    FragmentSummary,
    ProcessedConditions,
}

pub(super) fn walk_fragment(
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
pub(super) fn data_file_field(schema: &ArraySchema, name: &str) -> (FieldInfo, DataFile) {
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

pub(super) fn data_file(
    cov: &mut Coverage,
    f: &Path,
    schema: &ArraySchema,
    fv: u32,
    key: Option<[u8; 32]>,
) {
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

pub(super) fn consolidated_fragment_metadata(
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
pub(super) fn walk_all(cov: &mut Coverage, dir: &Path, key: Option<[u8; 32]>) {
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
pub(super) fn missing(cov: &Coverage) -> Vec<&'static str> {
    SPEC_TABLES
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| !cov.seen.contains_key(n))
        .filter(|n| !NOT_ENGINE_WRITTEN.iter().any(|(x, _)| x == n))
        .collect()
}

/// The engine's files of the kinds the fixtures lack (see the module doc).
pub(super) fn engine_extras() -> PathBuf {
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
pub(super) fn every_table_round_trips_on_engine_bytes() {
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
pub(super) fn own_bytes_round_trip() {
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
pub(super) fn a_table_without_coverage_is_reported() {
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
