//! `write::import`: NDJSON and CSV cells into new or existing arrays, with
//! errors naming the line and the field, and nothing committed on error.

use crate::write_support;

use std::io::Cursor;

use serde_json::{json, Value};
use tiledb_codec::raw::array::ArrayDirectory;
use tiledb_codec::raw::read::export::write_csv;
use tiledb_codec::raw::read::{ArrayReader, Query};
use tiledb_codec::raw::write::{
    import, import_with, CellFormat, ImportOptions, WriteError, WriteOptions,
};
use write_support::{diff_cells, engine_cells, our_cells, TempDir};

fn sparse_schema() -> Value {
    json!({
        "array_type": "sparse",
        "capacity": 3,
        "dimensions": [
            {"name": "x", "datatype": "INT32", "domain": [0, 99], "tile_extent": 10},
            {"name": "s", "datatype": "STRING_ASCII", "cell_val_num": "var", "domain": null, "tile_extent": null}
        ],
        "attributes": [
            {"name": "v", "datatype": "FLOAT64"},
            {"name": "t", "datatype": "STRING_UTF8", "cell_val_num": "var", "nullable": true},
            {"name": "l", "datatype": "INT16", "cell_val_num": "var"},
            {"name": "b", "datatype": "BOOL"},
        ],
    })
}

fn dense_schema() -> Value {
    json!({
        "array_type": "dense",
        "dimensions": [
            {"name": "r", "datatype": "INT64", "domain": [1, 10], "tile_extent": 3},
            {"name": "c", "datatype": "INT64", "domain": [1, 10], "tile_extent": 4}
        ],
        "attributes": [
            {"name": "a", "datatype": "INT32", "fill_value": -1},
            {"name": "n", "datatype": "UINT8", "nullable": true},
        ],
    })
}

const SPARSE_CELLS: &str = r#"{"x": 5, "s": "b", "v": 1.5, "t": "héllo", "l": [1, 2], "b": true}
{"x": 5, "s": "a", "v": "NaN", "t": null, "l": [], "b": false}

{"x": 99, "s": "", "v": "-inf", "t": "", "l": [-3], "b": true}
{"x": 0, "s": "zz", "v": 0, "t": "x", "l": [7, 8, 9], "b": false}
"#;

#[test]
fn ndjson_into_a_new_sparse_array() {
    let tmp = TempDir::new("write-import");
    let path = tmp.join("a");
    let s = import(
        &path,
        &sparse_schema(),
        Cursor::new(SPARSE_CELLS),
        CellFormat::Ndjson,
    )
    .unwrap();
    assert!(s.created);
    assert_eq!(s.cells, 4);
    let expected: Vec<Value> = SPARSE_CELLS
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(diff_cells(engine_cells(&path).unwrap(), expected.clone()).is_none());
    assert!(diff_cells(our_cells(&path).unwrap(), expected).is_none());
}

#[test]
fn csv_round_trips_through_export() {
    let tmp = TempDir::new("write-import-csv");
    let path = tmp.join("a");
    import(
        &path,
        &sparse_schema(),
        Cursor::new(SPARSE_CELLS),
        CellFormat::Ndjson,
    )
    .unwrap();
    // Export as CSV (lists as JSON, null as empty), import into a second array.
    let r = ArrayReader::open(&path, &Default::default()).unwrap();
    let cells = r.read(&Query::default()).unwrap();
    let mut csv = Vec::new();
    write_csv(&cells, &mut csv).unwrap();
    let path2 = tmp.join("b");
    let s = import(&path2, &sparse_schema(), Cursor::new(csv), CellFormat::Csv).unwrap();
    assert_eq!(s.cells, 4);
    // The empty UTF-8 string of a nullable attribute comes back as null (CSV
    // has one empty field for both); everything else is the same.
    let mut want = engine_cells(&path).unwrap();
    for c in &mut want {
        if c["t"] == json!("") {
            c["t"] = Value::Null;
        }
    }
    assert_eq!(diff_cells(engine_cells(&path2).unwrap(), want), None);
}

#[test]
fn csv_with_quotes_and_column_order() {
    let tmp = TempDir::new("write-import-csv2");
    let path = tmp.join("a");
    let csv =
        "b,l,t,v,s,x\ntrue,\"[1,2]\",\"a, \"\"quoted\"\"\nline\",2.5,k,3\nfalse,[],,NaN,j,4\n";
    import(&path, &sparse_schema(), Cursor::new(csv), CellFormat::Csv).unwrap();
    let want = vec![
        json!({"x": 3, "s": "k", "v": 2.5, "t": "a, \"quoted\"\nline", "l": [1, 2], "b": true}),
        json!({"x": 4, "s": "j", "v": "NaN", "t": null, "l": [], "b": false}),
    ];
    assert_eq!(diff_cells(engine_cells(&path).unwrap(), want), None);
}

#[test]
fn dense_cells_fill_their_bounding_box() {
    let tmp = TempDir::new("write-import-dense");
    let path = tmp.join("a");
    let mut lines = Vec::new();
    let mut want = Vec::new();
    // Rows 2..=5, cols 3..=7, given in reverse.
    for r in (2..=5).rev() {
        for c in (3..=7).rev() {
            let n = if (r + c) % 3 == 0 {
                Value::Null
            } else {
                json!(r * c)
            };
            let cell = json!({"r": r, "c": c, "a": r * 100 + c, "n": n});
            lines.push(cell.to_string());
            want.push(cell);
        }
    }
    let s = import(
        &path,
        &dense_schema(),
        Cursor::new(lines.join("\n")),
        CellFormat::Ndjson,
    )
    .unwrap();
    assert_eq!(s.cells, 20);
    assert_eq!(diff_cells(engine_cells(&path).unwrap(), want.clone()), None);
    // In small batches with a small sort budget (sorted runs spilled): same.
    let path2 = tmp.join("b");
    let opts = {
        let mut lit = ImportOptions::default();
        lit.batch = Some(3);
        lit.write = WriteOptions::default().with_sort_memory(100);
        lit
    };
    import_with(
        &path2,
        &dense_schema(),
        Cursor::new(lines.join("\n")),
        CellFormat::Ndjson,
        &opts,
    )
    .unwrap();
    assert_eq!(diff_cells(engine_cells(&path2).unwrap(), want), None);
}

fn import_err(
    schema: &Value,
    input: &str,
    format: CellFormat,
) -> (WriteError, std::path::PathBuf, TempDir) {
    let tmp = TempDir::new("write-import-err");
    let path = tmp.join("a");
    let e = import(&path, schema, Cursor::new(input.to_string()), format).unwrap_err();
    (e, path, tmp)
}

fn expect(e: &WriteError, line: u64, field: &str, what: &str) {
    match e {
        WriteError::Input {
            line: l,
            field: f,
            what: w,
        } => {
            assert_eq!((*l, f.as_str()), (line, field), "{e}");
            assert!(w.contains(what), "{e}");
        }
        other => panic!("expected an input error, got {other}"),
    }
}

#[test]
fn errors_name_the_line_and_field_and_nothing_is_left() {
    let s = sparse_schema();
    let ok = r#"{"x": 1, "s": "a", "v": 1, "t": "x", "l": [], "b": true}"#;
    let cell = |fields: &str| format!("{ok}\n{{{fields}}}");
    let cases: Vec<(String, u64, &str, &str)> = vec![
        (
            cell(r#""x": 1, "s": "a", "v": "one", "t": "x", "l": [], "b": true"#),
            2,
            "v",
            "not a FLOAT64",
        ),
        (
            format!(
                "{ok}\n\n{}",
                r#"{"x": 100, "s": "a", "v": 1, "t": "x", "l": [], "b": true}"#
            ),
            3,
            "x",
            "outside the domain [0, 99]",
        ),
        (
            cell(r#""x": 1, "s": "a", "v": 1, "l": [], "b": true"#),
            2,
            "t",
            "missing attribute",
        ),
        (
            r#"{"s": "a", "v": 1, "t": null, "l": [], "b": true}"#.to_string(),
            1,
            "x",
            "missing dimension",
        ),
        (
            cell(r#""x": 1, "s": "a", "v": null, "t": "x", "l": [], "b": true"#),
            2,
            "v",
            "null in a non-nullable attribute",
        ),
        (
            cell(r#""x": 1, "s": "a", "v": 1, "t": "x", "l": [70000], "b": true"#),
            2,
            "l",
            "out of range for INT16",
        ),
        (
            cell(r#""x": 1, "s": "a", "v": 1, "t": "x", "l": [], "b": true, "zz": 1"#),
            2,
            "zz",
            "not a field",
        ),
        (
            format!("{ok}\n{{\"x\": 1, \"s\": "),
            2,
            "",
            "malformed JSON",
        ),
        (format!("{ok}\n[1, 2]"), 2, "", "expected a JSON object"),
    ];
    for (input, line, field, what) in cases {
        let (e, path, _tmp) = import_err(&s, &input, CellFormat::Ndjson);
        expect(&e, line, field, what);
        assert!(
            !path.exists(),
            "the array this import created is removed: {e}"
        );
    }
    // CSV.
    let (e, _, _t) = import_err(&s, "x,s,v,t,l\n1,a,1,x,[]\n", CellFormat::Csv);
    expect(&e, 1, "b", "missing attribute in the header");
    let (e, _, _t) = import_err(&s, "x,s,v,t,l,b\n1,a,1,x,[],true\n2,a,1\n", CellFormat::Csv);
    expect(&e, 3, "", "3 fields, the header has 6");
    let (e, _, _t) = import_err(&s, "x,s,v,t,l,b\n1,a,1,x,[],maybe\n", CellFormat::Csv);
    expect(&e, 2, "b", "not an integer");
    let (e, _, _t) = import_err(&s, "x,s,v,t,l,b\n1,a,,x,[],true\n", CellFormat::Csv);
    expect(&e, 2, "v", "null in a non-nullable");
    // Dense: a hole in the bounding box, and a cell given twice.
    let d = dense_schema();
    let (e, _, _t) = import_err(
        &d,
        "{\"r\": 1, \"c\": 1, \"a\": 1, \"n\": 1}\n{\"r\": 2, \"c\": 2, \"a\": 1, \"n\": 1}",
        CellFormat::Ndjson,
    );
    assert!(
        e.to_string().contains("the cell (r=1, c=2) is missing"),
        "{e}"
    );
    let (e, _, _t) = import_err(
        &d,
        "{\"r\": 1, \"c\": 1, \"a\": 1, \"n\": 1}\n{\"r\": 1, \"c\": 1, \"a\": 2, \"n\": 1}",
        CellFormat::Ndjson,
    );
    expect(&e, 2, "r,c", "also on line 1");
}

#[test]
fn an_existing_array_keeps_its_committed_state_on_error() {
    let tmp = TempDir::new("write-import-existing");
    let path = tmp.join("a");
    let s = sparse_schema();
    import(&path, &s, Cursor::new(SPARSE_CELLS), CellFormat::Ndjson).unwrap();
    let before = engine_cells(&path).unwrap();
    let bad = r#"{"x": 1, "s": "a", "v": 1, "t": "x", "l": [], "b": true}
{"x": 1, "s": "a", "v": 1, "t": "x", "l": [], "b": 2}"#;
    let e = import(&path, &s, Cursor::new(bad), CellFormat::Ndjson).unwrap_err();
    expect(&e, 2, "b", "out of range for BOOL");
    assert!(path.exists());
    let dir = ArrayDirectory::open(&path).unwrap();
    assert_eq!(dir.fragments.len(), 1);
    assert!(
        dir.uncommitted.is_empty(),
        "no partial fragment folder is left"
    );
    assert_eq!(diff_cells(engine_cells(&path).unwrap(), before), None);
    // A second import adds a fragment; later cells win.
    let more = r#"{"x": 5, "s": "b", "v": 7.25, "t": "new", "l": [], "b": false}"#;
    let s2 = import(&path, &s, Cursor::new(more), CellFormat::Ndjson).unwrap();
    assert!(!s2.created);
    let cells = engine_cells(&path).unwrap();
    assert_eq!(cells.len(), 4);
    assert!(cells
        .iter()
        .any(|c| c["t"] == json!("new") && c["v"] == json!(7.25)));
    // Another schema for the same path is refused.
    let mut other = s.clone();
    other["attributes"][0]["datatype"] = json!("FLOAT32");
    let e = import(&path, &other, Cursor::new(more), CellFormat::Ndjson).unwrap_err();
    assert!(e.to_string().contains("different schema"), "{e}");
}

#[test]
fn a_large_sparse_import_streams_through_sorted_runs() {
    let tmp = TempDir::new("write-import-large");
    let path = tmp.join("a");
    let schema = json!({
        "array_type": "sparse",
        "capacity": 1000,
        "dimensions": [
            {"name": "x", "datatype": "UINT32", "domain": [0, 999999], "tile_extent": 5000},
            {"name": "y", "datatype": "UINT32", "domain": [0, 999], "tile_extent": 100}
        ],
        "attributes": [{"name": "v", "datatype": "INT64", "filters": [{"type": "DELTA"}, {"type": "ZSTD"}]}],
    });
    let n = 120_000u64;
    let mut input = String::new();
    for i in 0..n {
        // A scrambled order, no duplicates.
        let k = (i * 7919) % n;
        input.push_str(&format!(
            "{{\"x\": {}, \"y\": {}, \"v\": {}}}\n",
            k * 3,
            k % 1000,
            k as i64 - 5000
        ));
    }
    let opts = {
        let mut lit = ImportOptions::default();
        lit.batch = Some(10_000);
        lit.write = WriteOptions::default().with_sort_memory(256 << 10);
        lit
    };
    let s = import_with(
        &path,
        &schema,
        Cursor::new(input),
        CellFormat::Ndjson,
        &opts,
    )
    .unwrap();
    assert_eq!(s.cells, n);
    assert_eq!(s.fragment.as_ref().unwrap().tiles, n / 1000);
    let cells = engine_cells(&path).unwrap();
    assert_eq!(cells.len() as u64, n);
    for c in cells.iter().step_by(997) {
        let x = c["x"].as_u64().unwrap();
        let k = x / 3;
        assert_eq!(c["y"], json!(k % 1000));
        assert_eq!(c["v"], json!(k as i64 - 5000));
    }
}

#[test]
fn enumerations_are_written_and_an_existing_array_takes_bare_names() {
    let tmp = TempDir::new("write-import-enum");
    let fixture = write_support::common::root().join("tests/fixtures/v22/enumerations");
    let path = tmp.join("a");
    let with_values = write_support::schema_json_with_enumerations(&fixture);
    let (_, cells) = write_support::ndjson_cells(&fixture).unwrap();
    import(
        &path,
        &with_values,
        Cursor::new(cells.clone()),
        CellFormat::Ndjson,
    )
    .unwrap();
    // The engine sees the enumerations (names, values) as in the fixture.
    let theirs = write_support::engine_account(&fixture).unwrap();
    let ours = write_support::engine_account(&path).unwrap();
    assert_eq!(
        ours["schema"]["enumerations"],
        theirs["schema"]["enumerations"]
    );
    // The bare `schema_json` of the array (enumeration names only) is
    // refused for a new array, accepted for the existing one.
    let dir = ArrayDirectory::open(&path).unwrap();
    let s = tiledb_codec::raw::array::schema::read_schema(
        &dir.latest_schema().unwrap(),
        &Default::default(),
    )
    .unwrap();
    let bare = tiledb_codec_cli::inspect::schema_json(&s, &path).unwrap();
    let e = import(
        &tmp.join("b"),
        &bare,
        Cursor::new(cells.clone()),
        CellFormat::Ndjson,
    )
    .unwrap_err();
    assert!(e.to_string().contains("no values"), "{e}");
    import(&path, &bare, Cursor::new(cells), CellFormat::Ndjson).unwrap();
    assert_eq!(ArrayDirectory::open(&path).unwrap().fragments.len(), 2);
}
