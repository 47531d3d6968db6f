//! Conditions built in Rust (`col("a").gt(5)...`) are the conditions their
//! text parses to (the same syntax tree), their rendering parses back to
//! them, and they read the same cells as the text through the facade.

use tiledb_codec::raw::read::query_condition::{attr, dim};
use tiledb_codec::raw::read::QueryCondition;
use tiledb_codec::{col, Array, Error};

fn fixture(name: &str) -> std::path::PathBuf {
    crate::common::root().join("tests/fixtures/v22").join(name)
}

fn rows(array: &Array, cond: impl Into<tiledb_codec::Condition>) -> Vec<serde_json::Value> {
    let b = array.reader().condition(cond).read().unwrap();
    (0..b.len())
        .map(|i| tiledb_codec::raw::cells(&b).row(i))
        .collect()
}

#[test]
fn typed_conditions_are_the_parsed_text_and_read_the_same_cells() {
    // (fixture, typed, the same in text)
    let cases: Vec<(&str, QueryCondition, &str)> = vec![
        (
            "sparse_int_2d",
            col("a").gt(5).and(col("r").lt(40)),
            "a > 5 and r < 40",
        ),
        (
            "sparse_int_2d",
            col("a").le(3).or(col("c").ge(90)).not(),
            "not (a <= 3 or c >= 90)",
        ),
        (
            "sparse_int_2d",
            col("a")
                .ne(7)
                .and(col("b").lt(50.5))
                .and(col("r").is_in([10, 20, 30, 40])),
            "a != 7 and b < 50.5 and r in [10, 20, 30, 40]",
        ),
        (
            "sparse_int_2d",
            attr("a").ge(-3).and(dim("c").le(50).or(dim("r").gt(60u8))),
            r#"attr("a") >= -3 and (dim("c") <= 50 or dim("r") > 60)"#,
        ),
        (
            "sparse_strdim",
            col("s").ge("b").and(col("i").not_in([0, 5])),
            "s >= 'b' and i not in [0, 5]",
        ),
        (
            "nullable_var_sparse",
            col("n")
                .is_null()
                .or(col("s").is_not_null().and(col("n").gt(1i32))),
            "n is None or (s != None and n > 1)",
        ),
        (
            "types_strings",
            col("a").ne(b"zzz").and(col("u").ne("it's \"q\"")),
            r#"a != b'zzz' and u != 'it\'s "q"'"#,
        ),
        (
            "enumerations",
            col("color")
                .is_in(["red", "blue"])
                .and(col("x").ge(-1.5e3f32)),
            "color in ['red', 'blue'] and x >= -1.5e3",
        ),
    ];
    for (name, typed, text) in cases {
        let parsed = QueryCondition::parse(text).unwrap();
        assert_eq!(typed, parsed, "{name}: {text}");
        // The rendering is faithful: it parses back to the same tree.
        let again =
            QueryCondition::parse(typed.text()).unwrap_or_else(|e| panic!("{}: {e}", typed.text()));
        assert_eq!(again, typed, "{}", typed.text());
        assert_eq!(typed.field_names(), parsed.field_names(), "{text}");

        let array = Array::open(fixture(name)).unwrap();
        let all = array.reader().read().unwrap().len();
        let got = rows(&array, typed.clone());
        assert_eq!(got, rows(&array, text), "{name}: {text}");
        assert!(
            !got.is_empty() && got.len() < all,
            "{name}: {text}: {got:?}"
        );
    }
}

#[test]
fn nesting_renderings_and_mistakes() {
    // `and` chains flatten as the text's do; a nested one stays nested.
    let (x, y, z) = (|| col("a").gt(1), || col("b").lt(2), || col("c").eq(3));
    let flat = x().and(y()).and(z());
    assert_eq!(
        flat,
        QueryCondition::parse("a > 1 and b < 2 and c == 3").unwrap()
    );
    assert_eq!(flat.text(), "a > 1 and b < 2 and c == 3");
    let nested = x().and(y().and(z()));
    assert_eq!(
        nested,
        QueryCondition::parse("a > 1 and (b < 2 and c == 3)").unwrap()
    );
    assert_ne!(nested, flat);
    assert_eq!(!x(), QueryCondition::parse("not a > 1").unwrap());

    // Names that are not identifiers, and literals needing escapes.
    let odd = col("b a r")
        .eq("tab\there \\ \"")
        .or(col("and").is_in([b"\x00\xff".to_vec()]));
    assert_eq!(
        odd.text(),
        r#"col("b a r") == "tab\x09here \\ \"" or col("and") in [b"\x00\xff"]"#
    );
    assert_eq!(QueryCondition::parse(odd.text()).unwrap(), odd);

    // Mistakes are reported when the read is built, naming the field.
    let array = Array::open(fixture("sparse_int_2d")).unwrap();
    let err = array
        .reader()
        .condition(col("nope").gt(1))
        .read()
        .unwrap_err();
    assert!(err.to_string().contains("unknown field nope"), "{err}");
    let empty: [i64; 0] = [];
    let err = array
        .reader()
        .condition(col("a").is_in(empty))
        .read()
        .unwrap_err();
    assert!(
        err.to_string().contains("needs at least one value"),
        "{err}"
    );
    let err = array.reader().condition("a >").read().unwrap_err();
    assert!(matches!(err, Error::Condition { .. }), "{err}");

    // Several filters all hold, text and typed alike.
    let both = rows(&array, col("a").gt(5).and(col("r").lt(40)));
    let b = array
        .reader()
        .condition("a > 5")
        .condition(col("r").lt(40))
        .read()
        .unwrap();
    assert_eq!(
        (0..b.len())
            .map(|i| tiledb_codec::raw::cells(&b).row(i))
            .collect::<Vec<_>>(),
        both
    );
}
