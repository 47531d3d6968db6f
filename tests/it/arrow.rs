//! Arrow round trips, one per datatype family: a RecordBatch imported into
//! a new array (RecordBatch -> write -> read -> RecordBatch) comes back
//! equal, through the library, an Arrow IPC stream and a Parquet file.

use crate::write_support;

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::UInt8Type;
use arrow_array::{
    Array, ArrayRef, BooleanArray, Date32Array, DictionaryArray, DurationNanosecondArray,
    FixedSizeBinaryArray, FixedSizeListArray, Float32Array, Float64Array, Int16Array, Int32Array,
    Int64Array, Int8Array, LargeBinaryArray, LargeListArray, LargeStringArray, RecordBatch,
    StringArray, TimestampMillisecondArray, UInt16Array, UInt32Array, UInt64Array, UInt8Array,
};
use arrow_buffer::{NullBuffer, OffsetBuffer};
use arrow_schema::{DataType, Field, Schema};
use serde_json::{json, Value};
use tiledb_codec::raw::arrow::{self as ta, InputFormat};
use tiledb_codec::raw::read::{ArrayReader, Query};
use tiledb_codec::raw::write::ImportOptions;
use tiledb_codec::ReadOptions;
use write_support::TempDir;

/// A sparse array with dimension `d` (INT64) and the given attributes.
fn sparse(attrs: Value) -> Value {
    json!({
        "array_type": "sparse",
        "capacity": 4,
        "dimensions": [
            {"name": "d", "datatype": "INT64", "domain": [0, 1000], "tile_extent": 10}
        ],
        "attributes": attrs,
    })
}

/// A batch of `d` = 0..n and the given attribute columns, with the types a
/// read gives them.
fn batch(cols: Vec<(&str, ArrayRef)>) -> RecordBatch {
    let n = cols[0].1.len() as i64;
    let mut fields = vec![Field::new("d", DataType::Int64, false)];
    let mut arrays: Vec<ArrayRef> = vec![Arc::new(Int64Array::from_iter_values(0..n))];
    for (name, a) in cols {
        fields.push(Field::new(name, a.data_type().clone(), a.null_count() > 0));
        arrays.push(a);
    }
    RecordBatch::try_new(Arc::new(Schema::new(fields)), arrays).unwrap()
}

/// Imports `input` into a new array of `schema`, reads it back whole.
fn round_trip(schema: &Value, input: &RecordBatch) -> RecordBatch {
    let tmp = TempDir::new("arrow-rt");
    let path = tmp.join("a");
    let s = ta::import_batches(
        &path,
        Some(schema),
        std::iter::once(Ok(input.clone())),
        &ImportOptions::default(),
    )
    .unwrap();
    assert_eq!(s.cells, input.num_rows() as u64);
    let reader = ArrayReader::open(&path, &ReadOptions::default()).unwrap();
    ta::record_batch(&reader, &Query::default()).unwrap()
}

/// Every column of `got` equals `want`'s (types, values, nulls).
fn assert_same(got: &RecordBatch, want: &RecordBatch) {
    assert_eq!(got.num_columns(), want.num_columns());
    assert_eq!(got.num_rows(), want.num_rows());
    for (i, f) in want.schema().fields().iter().enumerate() {
        let g = got.column_by_name(f.name()).unwrap();
        assert_eq!(g.data_type(), want.column(i).data_type(), "{}", f.name());
        assert_eq!(g.as_ref(), want.column(i).as_ref(), "{}", f.name());
    }
}

fn check(attrs: Value, cols: Vec<(&str, ArrayRef)>) {
    let input = batch(cols);
    let got = round_trip(&sparse(attrs), &input);
    assert_same(&got, &input);
}

#[test]
fn integers() {
    check(
        json!([
            {"name": "i8", "datatype": "INT8"},
            {"name": "i16", "datatype": "INT16"},
            {"name": "i32", "datatype": "INT32"},
            {"name": "u8", "datatype": "UINT8"},
            {"name": "u16", "datatype": "UINT16"},
            {"name": "u32", "datatype": "UINT32"},
            {"name": "u64", "datatype": "UINT64"},
        ]),
        vec![
            ("i8", Arc::new(Int8Array::from(vec![-128, 0, 127]))),
            ("i16", Arc::new(Int16Array::from(vec![-5, 0, i16::MAX]))),
            ("i32", Arc::new(Int32Array::from(vec![i32::MIN, 1, 2]))),
            ("u8", Arc::new(UInt8Array::from(vec![0, 200, 255]))),
            ("u16", Arc::new(UInt16Array::from(vec![1, 2, u16::MAX]))),
            ("u32", Arc::new(UInt32Array::from(vec![7, 8, u32::MAX]))),
            (
                "u64",
                Arc::new(UInt64Array::from(vec![0, 1 << 40, u64::MAX])),
            ),
        ],
    );
}

#[test]
fn floats() {
    check(
        json!([
            {"name": "f32", "datatype": "FLOAT32"},
            {"name": "f64", "datatype": "FLOAT64"},
        ]),
        vec![
            (
                "f32",
                Arc::new(Float32Array::from(vec![1.5, f32::INFINITY, -0.25])),
            ),
            (
                "f64",
                Arc::new(Float64Array::from(vec![f64::NEG_INFINITY, 1e300, 3.0])),
            ),
        ],
    );
}

#[test]
fn booleans() {
    check(
        json!([{"name": "b", "datatype": "BOOL"}]),
        vec![(
            "b",
            Arc::new(BooleanArray::from(vec![true, false, false, true])),
        )],
    );
}

#[test]
fn strings_and_blobs() {
    check(
        json!([
            {"name": "s", "datatype": "STRING_UTF8", "cell_val_num": "var"},
            {"name": "a", "datatype": "STRING_ASCII", "cell_val_num": "var"},
            {"name": "blob", "datatype": "BLOB", "cell_val_num": "var"},
            {"name": "c", "datatype": "CHAR", "cell_val_num": 4},
        ]),
        vec![
            (
                "s",
                Arc::new(LargeStringArray::from(vec!["héllo", "", "wörld"])),
            ),
            (
                "a",
                Arc::new(LargeStringArray::from(vec!["a", "bc", "def"])),
            ),
            (
                "blob",
                Arc::new(LargeBinaryArray::from(vec![
                    &[0u8, 255][..],
                    &[][..],
                    &[1, 2, 3][..],
                ])),
            ),
            (
                "c",
                Arc::new(
                    FixedSizeBinaryArray::try_from_iter([b"abcd", b"\0\0xy", b"wxyz"].into_iter())
                        .unwrap(),
                ),
            ),
        ],
    );
}

#[test]
fn dates_and_times() {
    check(
        json!([
            {"name": "ms", "datatype": "DATETIME_MS"},
            {"name": "day", "datatype": "DATETIME_DAY"},
            {"name": "ns", "datatype": "TIME_NS"},
            {"name": "year", "datatype": "DATETIME_YEAR"},
        ]),
        vec![
            (
                "ms",
                Arc::new(TimestampMillisecondArray::from(vec![
                    0,
                    1_700_000_000_000,
                    -1,
                ])),
            ),
            ("day", Arc::new(Date32Array::from(vec![0, 19_000, -365]))),
            (
                "ns",
                Arc::new(DurationNanosecondArray::from(vec![
                    1,
                    2,
                    86_400_000_000_000,
                ])),
            ),
            ("year", Arc::new(Int64Array::from(vec![54, 0, -3]))),
        ],
    );
    // The types a read gives them.
    let f =
        tiledb_codec::arrow::field_type(tiledb_codec::raw::format::Datatype::DatetimeMs, Some(1));
    assert!(matches!(f, DataType::Timestamp(_, None)));
}

fn item(dt: DataType) -> Arc<Field> {
    Arc::new(Field::new("item", dt, false))
}

#[test]
fn var_sized_and_fixed_size_lists() {
    let var = LargeListArray::try_new(
        item(DataType::Int32),
        OffsetBuffer::new(vec![0i64, 2, 2, 5].into()),
        Arc::new(Int32Array::from(vec![1, 2, 3, 4, 5])),
        None,
    )
    .unwrap();
    let fixed = FixedSizeListArray::try_new(
        item(DataType::Float64),
        3,
        Arc::new(Float64Array::from(vec![
            1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0,
        ])),
        None,
    )
    .unwrap();
    check(
        json!([
            {"name": "v", "datatype": "INT32", "cell_val_num": "var"},
            {"name": "f", "datatype": "FLOAT64", "cell_val_num": 3},
        ]),
        vec![("v", Arc::new(var)), ("f", Arc::new(fixed))],
    );
}

#[test]
fn nullable_fields() {
    let strings = LargeStringArray::from(vec![Some("x"), None, Some(""), None]);
    let ints = Int32Array::from(vec![None, Some(3), Some(-4), None]);
    let lists = LargeListArray::try_new(
        item(DataType::UInt16),
        OffsetBuffer::new(vec![0i64, 1, 1, 3, 3].into()),
        Arc::new(UInt16Array::from(vec![9, 10, 11])),
        Some(NullBuffer::from(vec![true, false, true, false])),
    )
    .unwrap();
    check(
        json!([
            {"name": "s", "datatype": "STRING_UTF8", "cell_val_num": "var", "nullable": true},
            {"name": "n", "datatype": "INT32", "nullable": true},
            {"name": "l", "datatype": "UINT16", "cell_val_num": "var", "nullable": true},
        ]),
        vec![
            ("s", Arc::new(strings)),
            ("n", Arc::new(ints)),
            ("l", Arc::new(lists)),
        ],
    );
}

fn enum_schema() -> Value {
    let mut s = sparse(json!([
        {"name": "color", "datatype": "UINT8", "enumeration": "colors"}
    ]));
    s["enumerations"] = json!([
        {"name": "colors", "datatype": "STRING_UTF8", "cell_val_num": "var", "ordered": false,
         "values": ["red", "green", "blue"]}
    ]);
    s
}

/// The label of each cell of a dictionary column.
fn labels(a: &ArrayRef) -> Vec<String> {
    let d = a.as_dictionary::<UInt8Type>();
    let values = d.values();
    d.keys()
        .iter()
        .map(|k| {
            let k = k.unwrap() as usize;
            match values.data_type() {
                DataType::LargeUtf8 => values.as_string::<i64>().value(k).to_string(),
                _ => values.as_string::<i32>().value(k).to_string(),
            }
        })
        .collect()
}

#[test]
fn enumerations_are_dictionaries() {
    // The labels in the enumeration's order: keys come back as they went.
    let dict = DictionaryArray::<UInt8Type>::try_new(
        UInt8Array::from(vec![2, 0, 1, 2]),
        Arc::new(LargeStringArray::from(vec!["red", "green", "blue"])),
    )
    .unwrap();
    let input = batch(vec![("color", Arc::new(dict))]);
    let got = round_trip(&enum_schema(), &input);
    assert_same(&got, &input);
    assert_eq!(labels(got.column(1)), vec!["blue", "red", "green", "blue"]);
    // Labels in another order (and Utf8): looked up by label.
    let dict = DictionaryArray::<UInt8Type>::try_new(
        UInt8Array::from(vec![0, 1, 1]),
        Arc::new(StringArray::from(vec!["blue", "red"])),
    )
    .unwrap();
    let input = batch(vec![("color", Arc::new(dict))]);
    let got = round_trip(&enum_schema(), &input);
    assert_eq!(labels(got.column(1)), vec!["blue", "red", "red"]);
    // A label the enumeration lacks is an error naming the field.
    let dict = DictionaryArray::<UInt8Type>::try_new(
        UInt8Array::from(vec![0]),
        Arc::new(StringArray::from(vec!["purple"])),
    )
    .unwrap();
    let tmp = TempDir::new("arrow-enum");
    let e = ta::import_batches(
        &tmp.join("a"),
        Some(&enum_schema()),
        std::iter::once(Ok(batch(vec![("color", Arc::new(dict))]))),
        &ImportOptions::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("color"), "{e}");
    assert!(!tmp.join("a").exists(), "nothing is left on error");
}

#[test]
fn cells_are_checked() {
    let tmp = TempDir::new("arrow-check");
    // A null in a field that is not nullable.
    let input = batch(vec![("n", Arc::new(Int32Array::from(vec![Some(1), None])))]);
    let schema = sparse(json!([{"name": "n", "datatype": "INT32"}]));
    let e = ta::import_batches(
        &tmp.join("a"),
        Some(&schema),
        std::iter::once(Ok(input)),
        &ImportOptions::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("not nullable"), "{e}");
    // A type that does not fit the field.
    let input = batch(vec![("n", Arc::new(Float64Array::from(vec![1.0])))]);
    let e = ta::import_batches(
        &tmp.join("b"),
        Some(&schema),
        std::iter::once(Ok(input)),
        &ImportOptions::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("Float64"), "{e}");
    // A coordinate outside the domain, by row.
    let fields = vec![
        Field::new("d", DataType::Int64, false),
        Field::new("n", DataType::Int32, false),
    ];
    let input = RecordBatch::try_new(
        Arc::new(Schema::new(fields)),
        vec![
            Arc::new(Int64Array::from(vec![5, 5000])),
            Arc::new(Int32Array::from(vec![1, 2])),
        ],
    )
    .unwrap();
    let e = ta::import_batches(
        &tmp.join("c"),
        Some(&schema),
        std::iter::once(Ok(input)),
        &ImportOptions::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("line 2"), "{e}");
    assert!(e.to_string().contains("outside the domain"), "{e}");
}

/// A dense array: cells in any order fill their bounding box.
#[test]
fn dense_round_trip() {
    let schema = json!({
        "array_type": "dense",
        "dimensions": [
            {"name": "r", "datatype": "INT32", "domain": [1, 4], "tile_extent": 2},
            {"name": "c", "datatype": "INT32", "domain": [1, 4], "tile_extent": 2}
        ],
        "attributes": [{"name": "a", "datatype": "FLOAT64"}],
    });
    let fields = vec![
        Field::new("r", DataType::Int32, false),
        Field::new("c", DataType::Int32, false),
        Field::new("a", DataType::Float64, false),
    ];
    let sch = Arc::new(Schema::new(fields));
    // Row-major cells of rows 2..3, cols 1..3, given backwards.
    let (mut r, mut c, mut a) = (vec![], vec![], vec![]);
    for i in 2..=3 {
        for j in 1..=3 {
            r.push(i);
            c.push(j);
            a.push(f64::from(i * 10 + j));
        }
    }
    let rev = |v: &Vec<i32>| v.iter().rev().copied().collect::<Vec<_>>();
    let input = RecordBatch::try_new(
        sch.clone(),
        vec![
            Arc::new(Int32Array::from(rev(&r))),
            Arc::new(Int32Array::from(rev(&c))),
            Arc::new(Float64Array::from(
                a.iter().rev().copied().collect::<Vec<_>>(),
            )),
        ],
    )
    .unwrap();
    let got = round_trip(&schema, &input);
    let want = RecordBatch::try_new(
        sch,
        vec![
            Arc::new(Int32Array::from(r)),
            Arc::new(Int32Array::from(c)),
            Arc::new(Float64Array::from(a)),
        ],
    )
    .unwrap();
    assert_same(&got, &want);
}

fn mixed() -> (Value, RecordBatch) {
    let attrs = json!([
        {"name": "s", "datatype": "STRING_UTF8", "cell_val_num": "var", "nullable": true},
        {"name": "t", "datatype": "DATETIME_MS"},
        {"name": "f", "datatype": "FLOAT32", "cell_val_num": 2},
    ]);
    let f = FixedSizeListArray::try_new(
        item(DataType::Float32),
        2,
        Arc::new(Float32Array::from(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0])),
        None,
    )
    .unwrap();
    let b = batch(vec![
        (
            "s",
            Arc::new(LargeStringArray::from(vec![Some("a"), None, Some("ccc")])),
        ),
        (
            "t",
            Arc::new(TimestampMillisecondArray::from(vec![1, 2, 3])),
        ),
        ("f", Arc::new(f)),
    ]);
    (sparse(attrs), b)
}

/// The library's Arrow IPC stream and Parquet files import back to the
/// same cells.
#[test]
fn ipc_and_parquet_files_round_trip() {
    let (schema, input) = mixed();
    let tmp = TempDir::new("arrow-files");
    let ipc = tmp.join("in.arrows");
    {
        let f = std::fs::File::create(&ipc).unwrap();
        let mut w = arrow_ipc::writer::StreamWriter::try_new(f, &input.schema()).unwrap();
        w.write(&input).unwrap();
        w.finish().unwrap();
    }
    let pq = tmp.join("in.parquet");
    {
        let f = std::fs::File::create(&pq).unwrap();
        let mut w = parquet::arrow::ArrowWriter::try_new(f, input.schema(), None).unwrap();
        w.write(&input).unwrap();
        w.close().unwrap();
    }
    for (file, format) in [(&ipc, InputFormat::ArrowIpc), (&pq, InputFormat::Parquet)] {
        let array = tmp.join(&format!("{format:?}"));
        let s = ta::import_file(
            &array,
            Some(&schema),
            file,
            format,
            &ImportOptions::default(),
        )
        .unwrap();
        assert_eq!(s.cells, 3);
        let reader = ArrayReader::open(&array, &ReadOptions::default()).unwrap();
        let got = ta::record_batch(&reader, &Query::default()).unwrap();
        assert_same(&got, &input);
        // And out again as an IPC stream, read by arrow-ipc.
        let mut buf = Vec::new();
        let n = ta::write_ipc(&reader, &Query::default(), &mut buf).unwrap();
        assert_eq!(n, 3);
        let back: Vec<RecordBatch> =
            arrow_ipc::reader::StreamReader::try_new(std::io::Cursor::new(buf), None)
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
        assert_eq!(back.len(), 1);
        assert_same(&back[0], &input);
    }
}

/// Reads in batches give one record batch each, with the schema's
/// metadata on every field.
#[test]
fn batches_and_field_metadata() {
    let path = crate::common::root().join("tests/fixtures/v22/types_multival");
    let reader = ArrayReader::open(&path, &ReadOptions::default()).unwrap();
    let whole = ta::record_batch(&reader, &Query::default()).unwrap();
    let q = {
        let mut lit = Query::default();
        lit.batch_cells = Some(2);
        lit
    };
    let parts: Vec<RecordBatch> = ta::record_batches(&reader, &q)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert!(parts.len() > 1);
    let joined = arrow_select_concat(&parts);
    assert_eq!(joined, whole.num_rows());
    for f in whole.schema().fields() {
        assert!(
            f.metadata().contains_key(tiledb_codec::arrow::DATATYPE_KEY),
            "{}",
            f.name()
        );
    }
}

fn arrow_select_concat(parts: &[RecordBatch]) -> usize {
    parts.iter().map(RecordBatch::num_rows).sum()
}
