//! Shared by the SQL tests: the `sql` command and a small sparse schema.

use std::process::Output;

use tiledb_codec::{AttributeBuilder, Datatype, DimensionBuilder, SchemaBuilder};

use super::cli;

/// `tiledb-codec sql -q QUERY` (the table format).
pub fn sql(query: &str) -> Output {
    cli(&["sql", "-q", query])
}

/// The table `sql` prints for `query`, which must succeed.
pub fn ok(query: &str) -> String {
    succeeded(query, sql(query))
}

/// The CSV `sql --format csv` prints for `query`, which must succeed.
pub fn csv(query: &str) -> String {
    succeeded(query, cli(&["sql", "-q", "--format", "csv", query]))
}

/// The error `sql` prints for `query`, which must fail.
pub fn refused(query: &str) -> String {
    let out = sql(query);
    assert!(!out.status.success(), "{query} should fail");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn succeeded(query: &str, out: Output) -> String {
    assert!(
        out.status.success(),
        "{query}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A sparse schema: dimension `d` (Int64, 0..=999, tiles of 100), Int32
/// attribute `a` and var-sized string attribute `s` (nullable if asked).
pub fn sparse_d_a_s(nullable_s: bool) -> SchemaBuilder {
    let s = AttributeBuilder::new("s", Datatype::StringUtf8).var();
    SchemaBuilder::sparse()
        .dimension(
            DimensionBuilder::new("d", Datatype::Int64)
                .domain(0i64..=999)
                .tile_extent(100i64),
        )
        .attribute(AttributeBuilder::new("a", Datatype::Int32))
        .attribute(if nullable_s { s.nullable() } else { s })
}
