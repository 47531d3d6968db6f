//! `ReaderBuilder::arrow`: the same batches as the facade's, as Arrow
//! record batches (same sizes, same values, in the same order).

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, Float64Type, Int32Type, Int64Type};
use tiledb_codec::arrow::RecordBatchReader;
use tiledb_codec::{col, Array, Batch, ReaderBuilder};

fn fixture(name: &str) -> std::path::PathBuf {
    crate::common::root().join("tests/fixtures/v22").join(name)
}

/// Runs `make` twice: the facade's batches and the Arrow ones; checks the
/// Arrow schema's names and each batch's size; returns both.
fn both<'a>(
    array: &'a Array,
    make: impl Fn(ReaderBuilder<'a>) -> ReaderBuilder<'a>,
) -> (Vec<Batch>, Vec<arrow_array::RecordBatch>) {
    let ours: Vec<Batch> = make(array.reader())
        .build()
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let reader = make(array.reader()).arrow().unwrap();
    let schema = reader.schema();
    let arrow: Vec<_> = reader.collect::<Result<_, _>>().unwrap();
    assert!(ours.len() > 1, "several batches");
    assert_eq!(ours.len(), arrow.len());
    for (o, a) in ours.iter().zip(&arrow) {
        assert_eq!(o.len(), a.num_rows());
        let names: Vec<&str> = schema.fields().iter().map(|f| f.name().as_str()).collect();
        assert_eq!(a.schema().fields().len(), names.len());
        let ours: Vec<String> = tiledb_codec::raw::cells(o)
            .columns
            .iter()
            .map(|c| c.field.name.clone())
            .collect();
        assert_eq!(ours, names);
    }
    (ours, arrow)
}

#[test]
fn arrow_batches_are_the_facades_batches() {
    let array = Array::open(fixture("sparse_int_2d")).unwrap();
    let (ours, arrow) = both(&array, |r| {
        r.range("r", 0..=79).condition(col("a").ge(2)).batch_size(7)
    });
    let mut rows = 0;
    for (o, a) in ours.iter().zip(&arrow) {
        let col = |n: &str| a.column(a.schema().index_of(n).unwrap()).clone();
        assert_eq!(
            col("r").as_primitive::<Int32Type>().values(),
            &*o.column::<i32>("r").unwrap()
        );
        assert_eq!(
            col("c").as_primitive::<Int32Type>().values(),
            &*o.column::<i32>("c").unwrap()
        );
        assert_eq!(
            col("a").as_primitive::<Int64Type>().values(),
            &*o.column::<i64>("a").unwrap()
        );
        assert!(o.column::<i64>("a").unwrap().iter().all(|a| *a >= 2));
        let b = col("b");
        let b = b.as_primitive::<Float64Type>().values();
        let want = o.column::<f64>("b").unwrap();
        assert!(b
            .iter()
            .zip(want.iter())
            .all(|(x, y)| x.to_bits() == y.to_bits()));
        rows += a.num_rows();
    }
    assert!(rows > 7);

    // Strings, a projection, no coordinates.
    let array = Array::open(fixture("sparse_strdim")).unwrap();
    let (ours, arrow) = both(&array, |r| {
        r.attributes(["t", "v"]).coordinates(false).batch_size(2)
    });
    for (o, a) in ours.iter().zip(&arrow) {
        let t = a.column(0).as_string::<i64>();
        let t: Vec<&str> = t.iter().map(|s| s.unwrap()).collect();
        assert_eq!(t, o.strings("t").unwrap());
        let v = a.column(1).as_primitive::<Float32Type>().values();
        assert_eq!(v.len(), o.column::<f32>("v").unwrap().len());
        assert!(v
            .iter()
            .zip(o.column::<f32>("v").unwrap().iter())
            .all(|(x, y)| x.to_bits() == y.to_bits()));
    }

    // Mistakes are the facade's.
    let Err(err) = array.reader().attributes(["nope"]).arrow() else {
        panic!("an unknown attribute was read");
    };
    assert!(err.to_string().contains("nope"), "{err}");
}
