//! The second half of `spec_tables.rs` (split to keep each file under 1,000 lines).

use super::*;

#[test]
pub(super) fn footer_v3_zipped_coords() {
    // Two INT32 dimensions, two attributes: sizes hold A + 1, var sizes A.
    let s = FooterShape::new(3, &[4, 4], 2);
    let f = check_footer(&s);
    assert_eq!(f.file_sizes.len(), 3);
    assert_eq!(f.tile_var_sizes.len(), 2);
    assert_eq!(f.legacy_non_empty_domain, Some(vec![7; 16]));
}

#[test]
pub(super) fn footer_v3_null_non_empty_domain() {
    let mut s = FooterShape::new(4, &[8, 8, 8], 1);
    s.null_ned = true;
    check_footer(&s);
}

#[test]
pub(super) fn footer_v7_var_dimension() {
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
pub(super) fn footer_v10_schema_name() {
    let f = check_footer(&FooterShape::new(10, &[4], 3));
    assert_eq!(f.array_schema_name_size, Some(38));
    assert_eq!(
        f.array_schema_name.as_deref(),
        Some(&b"__1_1_0123456789abcdef0123456789abcdef"[..])
    );
}

#[test]
pub(super) fn footer_v11_writer_layout() {
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
pub(super) fn footer_v16_timestamps_and_delete_metadata() {
    let mut s = FooterShape::new(16, &[8, 0], 2);
    s.ts = true;
    s.dm = true;
    let f = check_footer(&s);
    // 2 attributes + __coords + 2 dimensions + timestamps + 2 delete fields.
    assert_eq!(f.tile_offsets.len(), 8);
    assert_eq!(f.processed_conditions_offset, Some(1300));
}

#[test]
pub(super) fn footer_v22_null_non_empty_domain() {
    let mut s = FooterShape::new(22, &[4, 4], 1);
    s.null_ned = true;
    s.ts = true;
    check_footer(&s);
}

#[test]
pub(super) fn footer_v23_optional_sections() {
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
pub(super) fn footer_length_at_end_of_file() {
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
pub(super) fn rtree_v4() {
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
pub(super) fn rtree_v22_var_dimension() {
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
pub(super) fn rtree_dense_has_no_levels() {
    let t: RTree = roundtrip(&W::new().u32(10).u32(0).bytes(), (23, dims(&[8, 8])));
    assert!(t.levels.is_empty());
}

#[test]
pub(super) fn tile_offsets_sums_null_counts() {
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
pub(super) fn tile_min_max_engine_layout() {
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
pub(super) fn fragment_min_max_sum_null_count() {
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
pub(super) fn processed_conditions() {
    let mut w = W::new();
    w.u64(2)
        .str64("__5_5_0123456789abcdef0123456789abcdef_16.del")
        .str64("__6_6_x_16.upd");
    let p: ProcessedConditions = roundtrip(&w.bytes(), ());
    assert_eq!(p.num, 2);
    assert_eq!(p.conditions[1].condition, b"__6_6_x_16.upd");
}

#[test]
pub(super) fn legacy_fragment_metadata_v2() {
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
pub(super) fn array_metadata_entries() {
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
pub(super) fn enumeration_fixed_and_var() {
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
pub(super) fn group_details_v1_and_v2() {
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
pub(super) fn consolidated_fragment_metadata_with_footers() {
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
pub(super) fn consolidated_commits_del_carries_tile() {
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
pub(super) fn ignore_and_vacuum_files() {
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

pub(super) fn value_node(w: &mut W, op: QueryConditionOp, field: &str, value: &[u8]) {
    w.u8(1)
        .u8(op.value())
        .str32(field)
        .u64(value.len() as u64)
        .raw(value);
}

#[test]
pub(super) fn delete_condition_tree() {
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
pub(super) fn update_commit() {
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
pub(super) fn nested_condition(depth: usize) -> Vec<u8> {
    let mut w = W::new();
    for _ in 0..depth {
        w.u8(0).u8(QueryConditionCombinationOp::Not.value()).u64(1);
    }
    value_node(&mut w, QueryConditionOp::Eq, "a", &[1]);
    w.bytes()
}

#[test]
pub(super) fn deep_condition_is_refused() {
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
pub(super) fn unknown_node_type_is_an_error() {
    let err = decode_err::<ConditionNode>(&[2, 0, 0], (0,));
    assert!(!err.is_empty());
}

// ---------------------------------------------------------------------------
// Declared lengths longer than the buffer

#[test]
pub(super) fn declared_lengths_beyond_the_buffer_are_errors() {
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
