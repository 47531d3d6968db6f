//! The condition language against fixtures: parse, bind, evaluate.

use super::ast::*;
use crate::read::query::Query;
use crate::read::ArrayReader;
use std::path::PathBuf;

fn parse(text: &str) -> Node {
    QueryCondition::parse(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .tree
}

fn parse_err(text: &str) -> String {
    match QueryCondition::parse(text) {
        Ok(c) => panic!("{text} parsed: {:?}", c.tree),
        Err(e) => e.to_string(),
    }
}

fn field(name: &str) -> FieldRef {
    FieldRef {
        name: name.into(),
        kind: FieldKind::Any,
    }
}

fn cmp(name: &str, op: Op, value: Lit) -> Node {
    Node::Cmp {
        field: field(name),
        op,
        value,
    }
}

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/v22")
        .join(name)
}

fn reader(name: &str) -> ArrayReader {
    ArrayReader::open(&fixture(name), &crate::ReadOptions::default()).unwrap()
}

/// The cells of `name` for which `cond` holds, as `field` values.
fn matching(name: &str, cond: &str, key: &str) -> Vec<serde_json::Value> {
    let r = reader(name);
    let cells = r.read(&Query::default()).unwrap();
    let bound = QueryCondition::parse(cond).unwrap().bind(&r).unwrap();
    let keep = bound.evaluate(&cells).unwrap();
    assert_eq!(keep.len(), cells.len);
    let col = cells.column(key).unwrap();
    (0..cells.len)
        .filter(|i| keep[*i])
        .map(|i| col.json(i))
        .collect()
}

fn bind_err(name: &str, cond: &str) -> String {
    let r = reader(name);
    match QueryCondition::parse(cond).unwrap().bind(&r) {
        Ok(b) => panic!("{cond} bound: {:?}", b.tree),
        Err(e) => e.to_string(),
    }
}

#[test]
fn tiledb_py_examples_parse() {
    // The examples of TileDB-Py's QueryCondition docstring.
    assert_eq!(
        parse("foo > 5 or ('asdf' == attr('b a r') and baz <= val(1.0))"),
        Node::Or(vec![
            cmp("foo", Op::Gt, Lit::Int(5)),
            Node::And(vec![
                Node::Cmp {
                    field: FieldRef {
                        name: "b a r".into(),
                        kind: FieldKind::Attr
                    },
                    op: Op::Eq,
                    value: Lit::Str(b"asdf".to_vec()),
                },
                cmp("baz", Op::Le, Lit::Float(1.0)),
            ]),
        ])
    );
    assert_eq!(
        parse("foo in [1, 2, 3]"),
        Node::Set {
            field: field("foo"),
            negated: false,
            values: vec![Lit::Int(1), Lit::Int(2), Lit::Int(3)],
        }
    );
    // `and` binds tighter than `or`.
    assert_eq!(
        parse("a == 1 or a == 2 and b == 3"),
        Node::Or(vec![
            cmp("a", Op::Eq, Lit::Int(1)),
            Node::And(vec![
                cmp("a", Op::Eq, Lit::Int(2)),
                cmp("b", Op::Eq, Lit::Int(3))
            ]),
        ])
    );
    // Chained comparisons are an `and` of each pair; a value on the
    // left swaps the operator.
    assert_eq!(
        parse("1 < a <= 5"),
        Node::And(vec![
            cmp("a", Op::Gt, Lit::Int(1)),
            cmp("a", Op::Le, Lit::Int(5))
        ])
    );
    assert_eq!(
        parse("(a > 1) & (b < 2) | (c != 'x')"),
        Node::Or(vec![
            Node::And(vec![
                cmp("a", Op::Gt, Lit::Int(1)),
                cmp("b", Op::Lt, Lit::Int(2))
            ]),
            cmp("c", Op::Ne, Lit::Str(b"x".to_vec())),
        ])
    );
    assert_eq!(
        parse("not a < 5"),
        Node::Not(Box::new(cmp("a", Op::Lt, Lit::Int(5))))
    );
    assert_eq!(
        parse("dim('d') not in [-1, b'\\x00z', val(-2.5)]"),
        Node::Set {
            field: FieldRef {
                name: "d".into(),
                kind: FieldKind::Dim
            },
            negated: true,
            values: vec![Lit::Int(-1), Lit::Bytes(vec![0, b'z']), Lit::Float(-2.5)],
        }
    );
    assert_eq!(parse("a > -5"), cmp("a", Op::Gt, Lit::Int(-5)));
    assert_eq!(parse("a == None"), cmp("a", Op::Eq, Lit::None));
    assert_eq!(parse("a is None"), cmp("a", Op::Eq, Lit::None));
    assert_eq!(parse("a is not null"), cmp("a", Op::Ne, Lit::None));
    assert_eq!(parse("a == 0x1F_0"), cmp("a", Op::Eq, Lit::Int(0x1f0)));
    assert_eq!(parse("a == 1e3"), cmp("a", Op::Eq, Lit::Float(1000.0)));
    assert_eq!(parse("a == True"), cmp("a", Op::Eq, Lit::Bool(true)));
    assert_eq!(
        parse(r#"s == "é\n\u00e9\"" "#),
        cmp("s", Op::Eq, Lit::Str("é\né\"".as_bytes().to_vec()))
    );
    assert_eq!(
        parse(r"s == r'\d'"),
        cmp("s", Op::Eq, Lit::Str(b"\\d".to_vec()))
    );
}

#[test]
fn field_names_in_order() {
    let c = QueryCondition::parse("b > 1 and (a < 2 or b in [3]) and attr('x y') == 1").unwrap();
    assert_eq!(c.field_names(), vec!["b", "a", "x y"]);
}

#[test]
fn syntax_errors_say_where_and_why() {
    assert!(parse_err("").contains("empty"));
    assert!(parse_err("a >").contains("at byte 3"));
    assert!(parse_err("a = 5").contains("=="));
    assert!(parse_err("a < b").contains("compares two fields"));
    assert!(parse_err("1 < 2").contains("compares two values"));
    assert!(parse_err("a").contains("not the field a"));
    // Python's precedence: `&` binds tighter than `>`.
    assert!(parse_err("a > 1 & b < 2").contains("parenthesize"));
    assert!(parse_err("a in 5").contains("list"));
    assert!(parse_err("a in []").contains("at least one"));
    assert!(parse_err("a < None").contains("== and !="));
    assert!(parse_err("a is 5").contains("None"));
    assert!(parse_err("f(1) > 2").contains("unknown function"));
    assert!(parse_err("attr(a) > 2").contains("quoted name"));
    assert!(parse_err("a > 'x").contains("not closed"));
    assert!(parse_err("a > 1j").contains("complex"));
    assert!(parse_err("a in [1] == 2").contains("chain"));
    assert!(parse_err("(a > 1").contains("expected )"));
    assert!(parse_err("a > 1 b").contains("unexpected b"));
    assert!(parse_err("a > 99999999999999999999999999999999999999999").contains("too large"));
}

#[test]
fn garbage_and_deep_nesting_are_errors_not_panics() {
    let deep = format!("{}a > 1{}", "(".repeat(100_000), ")".repeat(100_000));
    assert!(parse_err(&deep).contains("nested more than"));
    assert!(parse_err(&format!("{}a > 1", "not ".repeat(100_000))).contains("nested"));
    assert!(parse_err(&format!("a > {}1", "-".repeat(100_000))).contains("nested"));
    assert!(parse_err(&format!("a in {}1", "[".repeat(100_000))).contains("nested"));
    assert!(parse_err(&format!("a > {}1", "val(".repeat(100_000))).contains("nested"));
    // Nesting up to the limit parses.
    let ok = format!("{}a > 1{}", "(".repeat(60), ")".repeat(60));
    assert_eq!(parse(&ok), cmp("a", Op::Gt, Lit::Int(1)));
    // Every prefix of some valid conditions, and bytes of all kinds.
    let texts = [
        "a > 5 and (b == \"x\" or c in [1, -2.5e3, b'\\xff']) | not d is not None",
        "attr('é') not in ['\\u00e9', r\"\\\"\", '''x''', 0b101, 0o7, .5]",
    ];
    for t in texts {
        for (i, _) in t.char_indices() {
            let _ = QueryCondition::parse(&t[..i]);
        }
    }
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let alphabet = "ab()[],'\"\\&|-+<>=!. 0129xeEnotandorinisNone_é\u{0}";
    let chars: Vec<char> = alphabet.chars().collect();
    for _ in 0..20_000 {
        let mut s = String::new();
        for _ in 0..(x % 24) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            s.push(chars[(x % chars.len() as u64) as usize]);
        }
        let _ = QueryCondition::parse(&s);
    }
}

#[test]
fn binding_checks_fields_and_literals() {
    let e = bind_err("sparse_int_2d", "x > 1");
    assert!(e.contains("unknown field x"), "{e}");
    let e = bind_err("sparse_int_2d", "a > 'five'");
    assert!(e.contains("a is a INT64 field"), "{e}");
    let e = bind_err("nullable_var_sparse", "s == 5");
    assert!(e.contains("s is a string field; 5 is not a string"), "{e}");
    let e = bind_err("sparse_int_2d", "r > 2.5");
    assert!(e.contains("not a whole number"), "{e}");
    let e = bind_err("sparse_int_2d", "r > 2147483648");
    assert!(e.contains("out of its range"), "{e}");
    let e = bind_err("sparse_int_2d", "attr('r') > 1");
    assert!(e.contains("is a dimension"), "{e}");
    let e = bind_err("sparse_int_2d", "dim('a') > 1");
    assert!(e.contains("is an attribute"), "{e}");
    // TileDB-Py refuses conditions on the dimensions of dense arrays.
    let e = bind_err("dense_int_2d", "dim('rows') > 1");
    assert!(e.contains("dense"), "{e}");
    // The engine compares blobs and multi-valued numbers with nothing.
    let e = bind_err("types_strings", "bl == b'B'");
    assert!(e.contains("BLOB"), "{e}");
    let e = bind_err("types_multival", "t3 == 1");
    assert!(e.contains("3 values per cell"), "{e}");
    // Set members of a fixed-size string field have its cell size.
    let e = bind_err("types_strings", "f3 in ['fo']");
    assert!(e.contains("3 bytes"), "{e}");
    // Inequalities need an ordered enumeration.
    let e = bind_err("enumerations", "color < 'red'");
    assert!(e.contains("unordered enumeration"), "{e}");
    // Labels have the enumeration's datatype.
    let e = bind_err("enumerations", "color == 1");
    assert!(e.contains("labels"), "{e}");
    // An integral float is a whole number; a negative one fits a signed field.
    assert!(QueryCondition::parse("a > -3.0")
        .unwrap()
        .bind(&reader("sparse_int_2d"))
        .is_ok());
}

#[test]
fn evaluates_numbers_strings_and_nulls() {
    let j = |v: &[i64]| v.iter().map(|x| serde_json::json!(x)).collect::<Vec<_>>();
    assert_eq!(
        matching("sparse_int_2d", "a >= 100", "a"),
        j(&[201, 100, 101, 102, 200])
    );
    assert_eq!(
        matching("sparse_int_2d", "a > -5 and 7 >= a", "a"),
        j(&[0, 2, 4, 5, 6, 7])
    );
    assert_eq!(
        matching("sparse_int_2d", "not (a < 200)", "a"),
        j(&[201, 200])
    );
    assert_eq!(
        matching("sparse_int_2d", "a in [8, 102, -1]", "a"),
        j(&[8, 102])
    );
    assert_eq!(
        matching("sparse_int_2d", "r == 1 and c != 1", "a"),
        j(&[100])
    );
    // Null cells satisfy no comparison, not `!=`, not `not in`, not a
    // negated comparison (`not` is pushed into the comparison).
    let n = "nullable_var_sparse";
    assert_eq!(matching(n, "n != 2", "n"), j(&[0, 4, 5]));
    assert_eq!(matching(n, "n not in [2]", "n"), j(&[0, 4, 5]));
    assert_eq!(matching(n, "not (n < 3)", "n"), j(&[4, 5]));
    assert_eq!(matching(n, "not (n < 3 or n == None)", "n"), j(&[4, 5]));
    // Over `and`/`or` too (De Morgan to the leaves): `n >= 3 or d <= 0`,
    // false for the null cells at d = 10 and 30.
    assert_eq!(matching(n, "not (n < 3 and d > 0)", "d"), j(&[0, 40, 50]));
    assert_eq!(matching(n, "not (not (n < 3))", "d"), j(&[0, 20]));
    assert_eq!(matching(n, "n == None", "d"), j(&[10, 30]));
    assert_eq!(matching(n, "n is not None", "d"), j(&[0, 20, 40, 50]));
    // A null test of a field that cannot be null.
    assert_eq!(matching(n, "v is None", "d"), j(&[]));
    assert_eq!(matching(n, "v != None", "d").len(), 6);
    // Strings: bytewise, a prefix first.
    assert_eq!(
        matching(n, "s >= 'dd'", "s"),
        vec![serde_json::json!("dd"), serde_json::json!("e")]
    );
    assert_eq!(matching(n, "a in ['A', 'EEEE', 'zz']", "d"), j(&[0, 40]));
    assert_eq!(matching("sparse_strdim", "s < 'b'", "s").len(), 3);
}

#[test]
fn engine_quirks_in_evaluation() {
    let j = |v: &[i64]| v.iter().map(|x| serde_json::json!(x)).collect::<Vec<_>>();
    // A fixed-size CHAR field compares its first byte only: "fxx"
    // equals "foo" (checked against the engine in
    // tests/it/query_condition_engine.rs).
    assert_eq!(matching("types_strings", "f3 == 'fxx'", "d"), j(&[0]));
    // ...but `in` compares whole cells.
    assert_eq!(matching("types_strings", "f3 in ['fxx']", "d"), j(&[]));
    assert_eq!(
        matching("types_strings", "f3 in ['foo', 'baz']", "d"),
        j(&[0, 5])
    );
    // Enumerations compare by label; a label the enumeration lacks
    // matches nothing with `==` and `<`, everything with `!=`.
    let e = "enumerations";
    assert_eq!(matching(e, "color == 'blue'", "d"), j(&[4]));
    assert_eq!(matching(e, "color == 'purple'", "d"), j(&[]));
    assert_eq!(matching(e, "color != 'purple'", "d"), j(&[0, 2, 4, 9]));
    assert_eq!(
        matching(e, "color in ['red', 'purple', 'ünïcode']", "d"),
        j(&[0, 9])
    );
    assert_eq!(
        matching(e, "color not in ['purple']", "d"),
        j(&[0, 2, 4, 9])
    );
    // The ordered enumeration compares indexes: 40 is index 2.
    assert_eq!(matching(e, "size < 40", "d"), j(&[4, 9]));
    assert_eq!(matching(e, "size < 30", "d"), j(&[]));
    assert_eq!(matching(e, "not (size < 30)", "d"), j(&[]));
}

fn bound(name: &str, cond: &str) -> BoundCondition {
    QueryCondition::parse(cond)
        .unwrap()
        .bind(&reader(name))
        .unwrap()
}

/// `may_match` of `cond` on `name` with these statistics per field.
fn may(name: &str, cond: &str, stats: &[(&str, FieldTileStats<'_>)]) -> bool {
    bound(name, cond).may_match(&|f: &str| stats.iter().find(|(n, _)| *n == f).map(|(_, s)| *s))
}

fn minmax<'a>(min: &'a [u8], max: &'a [u8]) -> FieldTileStats<'a> {
    FieldTileStats {
        min: Some(min),
        max: Some(max),
        null_count: None,
        cell_count: 4,
    }
}

#[test]
fn may_match_prunes_only_what_stats_prove() {
    let s = "sparse_int_2d";
    let (zero, five, six) = (0i64.to_le_bytes(), 5i64.to_le_bytes(), 6i64.to_le_bytes());
    let a05 = [("a", minmax(&zero, &five))];
    assert!(!may(s, "a > 5", &a05));
    assert!(may(s, "a > 5", &[("a", minmax(&zero, &six))]));
    // No statistics, or statistics that do not decode: maybe.
    assert!(may(s, "a > 5", &[]));
    assert!(may(s, "a > 5", &[("a", minmax(&[0], &[1]))]));
    assert!(!may(s, "a == 7", &a05));
    assert!(may(s, "a == 5", &a05));
    assert!(!may(s, "a < 0", &a05));
    assert!(may(s, "a <= 0", &a05));
    assert!(!may(s, "a in [6, 9]", &a05));
    assert!(may(s, "a in [6, 3]", &a05));
    assert!(may(s, "a not in [6]", &a05));
    assert!(!may(s, "a != 5", &[("a", minmax(&five, &five))]));
    assert!(may(s, "a != 5", &a05));
    // and / or / not.
    assert!(!may(s, "a > 5 and a < 100", &a05));
    assert!(may(s, "a > 5 or a < 100", &a05));
    assert!(!may(s, "not (a <= 5)", &a05));
    // A field without statistics keeps the tile.
    assert!(may(s, "a > 5 or b > 0.5", &a05));

    // Null counts.
    let nulls = |n: u64| FieldTileStats {
        min: None,
        max: None,
        null_count: Some(n),
        cell_count: 6,
    };
    let nv = "nullable_var_sparse";
    assert!(!may(nv, "n is None", &[("n", nulls(0))]));
    assert!(may(nv, "n is None", &[("n", nulls(1))]));
    assert!(!may(nv, "n is not None", &[("n", nulls(6))]));
    assert!(may(nv, "n is not None", &[("n", nulls(5))]));
    assert!(!may(nv, "n != 3", &[("n", nulls(6))]));
    assert!(!may(nv, "not (n == None)", &[("n", nulls(6))]));
    assert!(!may(nv, "n not in [3]", &[("n", nulls(6))]));
    // Strings compare bytewise against their min/max.
    let sdd = [("s", minmax(b"a", b"dd"))];
    assert!(!may(nv, "s > 'dd'", &sdd));
    assert!(may(nv, "s > 'd'", &sdd));
    assert!(!may(nv, "s == 'e'", &sdd));
    assert!(!may(nv, "s in ['e', 'ee']", &sdd));
    // Floats: `!=` may hold for a NaN cell whatever min and max say.
    let one = 1.0f64.to_le_bytes();
    let b11 = [("b", minmax(&one, &one))];
    assert!(may(s, "b != 1.0", &b11));
    assert!(!may(s, "b > 1.0", &b11));
    // Constant conditions.
    assert!(!may(s, "a == None", &[]));
    assert!(may(s, "a != None", &[]));
    assert!(!may("enumerations", "color == 'purple'", &[]));
}
