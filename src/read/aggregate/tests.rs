//! Aggregates on fixtures and the accumulators' edge cases.

use serde_json::{json, Value};

use super::{accumulate::*, parse::*};
use crate::error::Error;
use crate::format::Datatype;

#[test]
fn aggregates_parse_with_whitespace_and_say_what_is_wrong() {
    let a = Aggregate::parse("  null_count ( n )").unwrap();
    assert_eq!(a.op, AggregateOp::NullCount);
    assert_eq!(a.field.as_deref(), Some("n"));
    assert_eq!(
        Aggregate::parse("COUNT( * )").unwrap().to_string(),
        "count(*)"
    );
    assert_eq!(
        Aggregate::parse(r#"mean("a b")"#).unwrap().field.as_deref(),
        Some("a b")
    );
    for bad in ["sum(*)", "sum()", "sum a", "median(a)", "sum(a"] {
        let e = Aggregate::parse(bad).unwrap_err();
        assert!(matches!(e, Error::Query { .. }), "{bad}: {e}");
    }
    assert!(Aggregate::parse("median(a)")
        .unwrap_err()
        .to_string()
        .contains("unknown aggregate"));
}

#[test]
fn sums_overflow_as_the_engine_says() {
    let mut s = Acc::new(AggregateOp::Sum, Some(Num::I));
    s.cell(Datatype::Int64, Some(&i64::MAX.to_le_bytes()));
    s.cell(Datatype::Int64, Some(&1i64.to_le_bytes()));
    s.cell(Datatype::Int64, Some(&(-5i64).to_le_bytes()));
    assert_eq!(s.clone().finish(false, 3), AggregateValue::Int(i64::MAX));
    assert_eq!(s.finish(true, 3), AggregateValue::Null);
    let mut m = Acc::new(AggregateOp::Mean, Some(Num::U));
    m.cell(Datatype::Uint64, Some(&u64::MAX.to_le_bytes()));
    m.cell(Datatype::Uint64, Some(&1u64.to_le_bytes()));
    assert_eq!(m.finish(false, 2), AggregateValue::Float(f64::MAX));
    let mut f = Acc::new(AggregateOp::Sum, Some(Num::F));
    f.cell(Datatype::Float64, Some(&1.0f64.to_le_bytes()));
    f.cell(Datatype::Float64, Some(&f64::INFINITY.to_le_bytes()));
    assert_eq!(f.finish(false, 2), AggregateValue::Float(f64::MAX));
    // Below i64::MIN: also i64::MAX.
    let mut n = Acc::new(AggregateOp::Sum, Some(Num::I));
    n.cell(Datatype::Int64, Some(&i64::MIN.to_le_bytes()));
    n.cell(Datatype::Int64, Some(&(-1i64).to_le_bytes()));
    assert_eq!(n.finish(false, 2), AggregateValue::Int(i64::MAX));
}

#[test]
fn empty_inputs_and_nulls() {
    let sum = Acc::new(AggregateOp::Sum, Some(Num::I));
    assert_eq!(sum.clone().finish(false, 0), AggregateValue::Int(0));
    assert_eq!(sum.finish(true, 0), AggregateValue::Null);
    let mean = Acc::new(AggregateOp::Mean, Some(Num::F));
    assert!(matches!(mean.finish(false, 0), AggregateValue::Float(v) if v.is_nan()));
    let min = Acc::new(AggregateOp::Min, Some(Num::I));
    assert_eq!(min.clone().finish(false, 0), AggregateValue::Null);
    assert_eq!(min.finish(false, 4), AggregateValue::Int(0));
    let mut mx = Acc::new(AggregateOp::Max, Some(Num::I));
    mx.cell(Datatype::Int32, None);
    mx.cell(Datatype::Int32, Some(&7i32.to_le_bytes()));
    mx.cell(Datatype::Int32, Some(&(-7i32).to_le_bytes()));
    assert_eq!(mx.finish(true, 3), AggregateValue::Int(7));
    let mut nc = Acc::new(AggregateOp::NullCount, None);
    nc.cell(Datatype::Int32, None);
    nc.cell(Datatype::Int32, Some(&[0; 4]));
    assert_eq!(nc.finish(true, 2), AggregateValue::Uint(1));
}

#[test]
fn min_max_keep_a_first_nan_and_compare_strings_bytewise() {
    let mut m = Acc::new(AggregateOp::Min, Some(Num::F));
    m.cell(Datatype::Float32, Some(&1.5f32.to_le_bytes()));
    m.cell(Datatype::Float32, Some(&f32::NAN.to_le_bytes()));
    m.cell(Datatype::Float32, Some(&(-2.0f32).to_le_bytes()));
    assert_eq!(m.finish(false, 3), AggregateValue::Float(-2.0));
    let mut n = Acc::new(AggregateOp::Max, Some(Num::F));
    n.cell(Datatype::Float64, Some(&f64::NAN.to_le_bytes()));
    n.cell(Datatype::Float64, Some(&3.0f64.to_le_bytes()));
    assert!(matches!(n.finish(false, 2), AggregateValue::Float(v) if v.is_nan()));
    let mut s = Acc::new(AggregateOp::Max, Some(Num::Text));
    for w in [&b"abc"[..], b"abd", b"ab", b""] {
        s.cell(Datatype::StringAscii, Some(w));
    }
    assert_eq!(s.finish(false, 4), AggregateValue::Text(b"abd".to_vec()));
    let mut t = Acc::new(AggregateOp::Min, Some(Num::Text));
    for w in [&b"b"[..], b"ab", b"abc"] {
        t.cell(Datatype::StringAscii, Some(w));
    }
    assert_eq!(t.finish(false, 3), AggregateValue::Text(b"ab".to_vec()));
}

#[test]
fn tile_extremes_merge_in_order_a_nan_tile_sticking_only_when_first() {
    let f = |v: f32| v.to_le_bytes();
    let tile = |vals: &[f32]| {
        let mut t = Acc::new(AggregateOp::Min, Some(Num::F));
        for v in vals {
            t.cell(Datatype::Float32, Some(&f(*v)));
        }
        t
    };
    // A tile that starts at a NaN is NaN, whatever follows in it.
    let nan_tile = tile(&[f32::NAN, 1.5, -4.0]);
    assert!(matches!(nan_tile.clone().finish(false, 3), AggregateValue::Float(v) if v.is_nan()));
    // A NaN tile after a value is passed over ...
    let mut m = Acc::new(AggregateOp::Min, Some(Num::F));
    m.merge(tile(&[2.0, 3.0]));
    m.merge(nan_tile.clone());
    m.merge(tile(&[1.0]));
    assert_eq!(m.finish(false, 6), AggregateValue::Float(1.0));
    // ... and sticks when first.
    let mut m = Acc::new(AggregateOp::Min, Some(Num::F));
    m.merge(nan_tile);
    m.merge(tile(&[1.0]));
    assert!(matches!(m.finish(false, 4), AggregateValue::Float(v) if v.is_nan()));
    // A tile with no value (all null) changes nothing.
    let mut m = Acc::new(AggregateOp::Max, Some(Num::F));
    m.merge(Acc::new(AggregateOp::Max, Some(Num::F)));
    m.merge(tile(&[5.0]).fresh());
    assert_eq!(m.finish(true, 2), AggregateValue::Null);
}

#[test]
fn part_sums_start_afresh_and_an_overflow_sticks() {
    let part = |vals: &[f64]| {
        let mut t = Acc::new(AggregateOp::Sum, Some(Num::F));
        for v in vals {
            t.cell(Datatype::Float64, Some(&v.to_le_bytes()));
        }
        t
    };
    // One part: a NaN first hides the overflow of inf.
    let p = part(&[f64::NAN, f64::INFINITY]);
    assert!(matches!(p.clone().finish(false, 2), AggregateValue::Float(v) if v.is_nan()));
    // Two parts: inf alone overflows, and that sticks over the NaN.
    let mut s = Acc::new(AggregateOp::Sum, Some(Num::F));
    s.merge(part(&[f64::NAN]));
    s.merge(part(&[f64::INFINITY]));
    assert_eq!(s.finish(false, 2), AggregateValue::Float(f64::MAX));
    // Integer parts add up, their counts too (the mean).
    let ipart = |vals: &[i64]| {
        let mut t = Acc::new(AggregateOp::Mean, Some(Num::I));
        for v in vals {
            t.cell(Datatype::Int64, Some(&v.to_le_bytes()));
        }
        t
    };
    let mut m = Acc::new(AggregateOp::Mean, Some(Num::I));
    m.merge(ipart(&[1, 2]));
    m.merge(ipart(&[]));
    m.merge(ipart(&[6]));
    assert_eq!(m.finish(false, 3), AggregateValue::Float(3.0));
    let mut o = Acc::new(AggregateOp::Sum, Some(Num::I));
    o.merge(ipart(&[i64::MAX]).fresh());
    o.merge(ipart(&[i64::MAX]));
    o.merge(ipart(&[1]));
    o.merge(ipart(&[-5]));
    assert_eq!(o.finish(false, 4), AggregateValue::Int(i64::MAX));
}

#[test]
fn tile_metadata_folds_like_cells() {
    let mut s = Acc::new(AggregateOp::Mean, Some(Num::I));
    s.tile(4, 1, Some((-6i64) as u64), None, None);
    s.cell(Datatype::Int16, Some(&10i16.to_le_bytes()));
    assert_eq!(s.finish(true, 5), AggregateValue::Float(1.0));
    let mut m = Acc::new(AggregateOp::Min, Some(Num::U));
    // A tile of nulls only says nothing.
    m.tile(2, 2, None, Some(Best::U(0)), Some(Best::U(0)));
    m.tile(2, 0, None, Some(Best::U(5)), Some(Best::U(9)));
    assert_eq!(m.finish(true, 4), AggregateValue::Uint(5));
}

#[test]
fn values_as_json() {
    assert_eq!(AggregateValue::Float(f64::NAN).json(), json!("NaN"));
    assert_eq!(AggregateValue::Uint(u64::MAX).json(), json!(u64::MAX));
    assert_eq!(AggregateValue::Text(b"hi".to_vec()).json(), json!("hi"));
    assert_eq!(AggregateValue::Null.json(), Value::Null);
}
