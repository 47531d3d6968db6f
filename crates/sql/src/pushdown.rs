//! DataFusion filters as TileDB reads: comparisons of dimensions with
//! literals become typed ranges, comparisons of attributes become a query
//! condition, each marked Exact only where the engine's meaning is SQL's.
//!
//! Where the meanings part:
//! - Arrow compares floating-point values in IEEE 754's total order (every
//!   NaN has a place, `-0.0 < 0.0`), the engine as IEEE numbers (NaN
//!   compares false, `-0.0 == 0.0`). Ranges on floating-point dimensions
//!   (which hold no NaN) are therefore pushed widened to inclusive bounds
//!   and marked Inexact, and comparisons of floating-point attributes are
//!   not pushed (the engine would drop NaN cells that SQL keeps).
//! - A dense array's condition gives the failing cells fill values instead
//!   of dropping them: on dense arrays only ranges are pushed.
//! - A string range `x < 'b'` has no inclusive upper bound: it is pushed as
//!   `x <= 'b'` and marked Inexact. `x > 'b'` is exactly `x >= 'b\0'`.
//! - Fixed-size `CHAR`, blob, boolean and date/time attributes, fields of
//!   several values per cell, and orderings of enumerated attributes are not
//!   pushed; equality and `IN` on enumerated attributes compare labels, as
//!   SQL does on the dictionary's values.

use datafusion::common::ScalarValue;
use datafusion::logical_expr::expr::InList;
use datafusion::logical_expr::{
    Between, BinaryExpr, Expr, Operator, TableProviderFilterPushDown as Push,
};

use tiledb_codec::raw::format::{Datatype, DatatypeClass};
use tiledb_codec::raw::read::query_condition::{
    attr, dim, ConditionField, Literal, MAX_CONDITION_DEPTH,
};
use tiledb_codec::raw::read::range::{bound_kind, BoundKind};
use tiledb_codec::raw::read::{Bound, DimRange, QueryCondition};

/// A column of the table, as pushdown sees it.
#[derive(Debug, Clone)]
pub(crate) struct Col {
    /// The field's name (the column's).
    pub name: String,
    /// Its TileDB datatype.
    pub datatype: Datatype,
    /// Its Arrow type: a literal is taken only when DataFusion made it of
    /// this type (the value then means what a cell of the column means).
    pub arrow: datafusion::arrow::datatypes::DataType,
    /// Dimension or attribute.
    pub kind: ColKind,
}

/// Dimension or attribute, with what pushdown needs of each.
#[derive(Debug, Clone)]
pub(crate) enum ColKind {
    /// A dimension, with the extent of the table's cells on it: the union
    /// of the fragments' non-empty domains (`None`: the array holds no
    /// cells).
    Dim { span: Option<(Bound, Bound)> },
    /// An attribute.
    Attr {
        /// One value per cell, or a var-sized string.
        single: bool,
        /// Whether its values index an enumeration (compared by label).
        enumerated: bool,
    },
}

/// The table's columns and whether the array is dense.
#[derive(Debug, Clone)]
pub(crate) struct Columns {
    pub cols: Vec<Col>,
    pub dense: bool,
}

/// Per dimension, a union of ranges; the entries intersect.
pub(crate) type RangeEntries = Vec<(String, Vec<DimRange>)>;

/// What one filter becomes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Pushed {
    /// Ranges: each entry is a union of ranges on a dimension; the entries
    /// intersect (as [`tiledb_codec::raw::read::Query::ranges`] entries do).
    Ranges { entries: RangeEntries, exact: bool },
    /// A query condition, built from the expression (never through
    /// text).
    Condition { cond: QueryCondition, exact: bool },
    /// Not pushed: DataFusion evaluates it.
    No,
}

impl Pushed {
    /// How DataFusion is told of it.
    pub fn kind(&self) -> Push {
        match self {
            Pushed::Ranges { exact: true, .. } | Pushed::Condition { exact: true, .. } => {
                Push::Exact
            }
            Pushed::Ranges { .. } | Pushed::Condition { .. } => Push::Inexact,
            Pushed::No => Push::Unsupported,
        }
    }
}

impl Columns {
    fn col(&self, e: &Expr) -> Option<&Col> {
        match e {
            Expr::Column(c) => self.cols.iter().find(|k| k.name == c.name),
            _ => None,
        }
    }

    /// What `filter` becomes: ranges if it speaks of one dimension only,
    /// else (sparse arrays) a condition, else nothing.
    pub fn classify(&self, filter: &Expr) -> Pushed {
        if let Some((entries, exact)) = self.ranges(filter) {
            return Pushed::Ranges { entries, exact };
        }
        if self.dense {
            return Pushed::No;
        }
        match self.condition(filter) {
            // A Ballista executor gets the condition as its text, which
            // must parse: its rendering nests at most 2 * depth + 1 deep.
            Some((cond, exact)) if 2 * cond.depth() < MAX_CONDITION_DEPTH => {
                Pushed::Condition { cond, exact }
            }
            _ => Pushed::No,
        }
    }

    // ---- ranges ----

    fn ranges(&self, e: &Expr) -> Option<(RangeEntries, bool)> {
        match e {
            Expr::BinaryExpr(BinaryExpr { left, op, right }) => match op {
                Operator::And => {
                    let (mut a, ea) = self.ranges(left)?;
                    let (b, eb) = self.ranges(right)?;
                    a.extend(b);
                    Some((a, ea && eb))
                }
                Operator::Or => {
                    let (a, ea) = self.ranges(left)?;
                    let (b, eb) = self.ranges(right)?;
                    match (&a[..], &b[..]) {
                        ([(da, ra)], [(db, rb)]) if da == db => {
                            let mut u = ra.clone();
                            u.extend(rb.iter().cloned());
                            Some((vec![(da.clone(), u)], ea && eb))
                        }
                        _ => None,
                    }
                }
                _ => {
                    let (col, op, v) = self.comparison(left, *op, right)?;
                    let (rs, exact) = dim_compare(col, op, v)?;
                    Some((vec![(col.name.clone(), rs)], exact))
                }
            },
            Expr::Between(Between {
                expr,
                negated: false,
                low,
                high,
            }) => {
                let col = self.dim(expr)?;
                let lo = literal(col, low)?;
                let hi = literal(col, high)?;
                let (a, ea) = dim_compare(col, Operator::GtEq, lo)?;
                let (b, eb) = dim_compare(col, Operator::LtEq, hi)?;
                let r = intersect(&a, &b);
                Some((vec![(col.name.clone(), r)], ea && eb))
            }
            Expr::InList(InList {
                expr,
                list,
                negated: false,
            }) => {
                let col = self.dim(expr)?;
                let mut out = Vec::new();
                let mut exact = true;
                for item in list {
                    let (rs, e) = dim_compare(col, Operator::Eq, literal(col, item)?)?;
                    out.extend(rs);
                    exact &= e;
                }
                Some((vec![(col.name.clone(), out)], exact))
            }
            _ => None,
        }
    }

    fn dim(&self, e: &Expr) -> Option<&Col> {
        self.col(e)
            .filter(|c| matches!(c.kind, ColKind::Dim { .. }))
    }

    /// `col OP literal` or `literal OP col` (flipped) on a dimension.
    fn comparison<'c>(
        &'c self,
        left: &Expr,
        op: Operator,
        right: &Expr,
    ) -> Option<(&'c Col, Operator, Bound)> {
        if let Some(col) = self.dim(left) {
            return Some((col, op, literal(col, right)?));
        }
        let col = self.dim(right)?;
        Some((col, flip(op)?, literal(col, left)?))
    }

    // ---- conditions ----

    /// `e` as a condition that holds exactly where `e` is true (dimensions
    /// included, dense arrays too), or `None`: a delete's predicate.
    pub fn exact_condition(&self, e: &Expr) -> Option<QueryCondition> {
        match self.condition(e)? {
            (c, true) if 2 * c.depth() < MAX_CONDITION_DEPTH => Some(c),
            _ => None,
        }
    }

    fn condition(&self, e: &Expr) -> Option<(QueryCondition, bool)> {
        match e {
            Expr::BinaryExpr(BinaryExpr { left, op, right })
                if matches!(op, Operator::And | Operator::Or) =>
            {
                let (a, ea) = self.condition(left)?;
                let (b, eb) = self.condition(right)?;
                let c = if *op == Operator::And {
                    a.and(b)
                } else {
                    a.or(b)
                };
                Some((c, ea && eb))
            }
            Expr::BinaryExpr(BinaryExpr { left, op, right }) => {
                let (col, op, lit) = match self.cond_col(left) {
                    Some(c) => (c, *op, right.as_ref()),
                    None => (self.cond_col(right)?, flip(*op)?, left.as_ref()),
                };
                if enumerated(col) && !matches!(op, Operator::Eq | Operator::NotEq) {
                    return None;
                }
                let (f, v) = (field(col), cond_literal(col, lit)?);
                let c = match op {
                    Operator::Eq => f.eq(v),
                    Operator::NotEq => f.ne(v),
                    Operator::Lt => f.lt(v),
                    Operator::LtEq => f.le(v),
                    Operator::Gt => f.gt(v),
                    Operator::GtEq => f.ge(v),
                    _ => return None,
                };
                Some((c, true))
            }
            Expr::Not(inner) => {
                // The negation of a superset is no superset: exact only.
                match self.condition(inner)? {
                    (c, true) => Some((c.not(), true)),
                    _ => None,
                }
            }
            Expr::IsNull(inner) => Some((field(self.cond_col(inner)?).is_null(), true)),
            Expr::IsNotNull(inner) => Some((field(self.cond_col(inner)?).is_not_null(), true)),
            Expr::InList(InList {
                expr,
                list,
                negated,
            }) => {
                let col = self.cond_col(expr)?;
                let items = list
                    .iter()
                    .map(|l| cond_literal(col, l))
                    .collect::<Option<Vec<_>>>()?;
                if items.is_empty() {
                    return None;
                }
                let f = field(col);
                Some((
                    if *negated {
                        f.not_in(items)
                    } else {
                        f.is_in(items)
                    },
                    true,
                ))
            }
            Expr::Between(Between {
                expr,
                negated: false,
                low,
                high,
            }) => {
                let col = self.cond_col(expr)?;
                if enumerated(col) {
                    return None;
                }
                let (lo, hi) = (cond_literal(col, low)?, cond_literal(col, high)?);
                Some((field(col).ge(lo).and(field(col).le(hi)), true))
            }
            _ => None,
        }
    }

    /// A column a condition can test: integer and string fields of one
    /// value per cell (dimensions too: sparse arrays only), enumerated
    /// attributes (seen through a cast to their labels' type).
    fn cond_col(&self, e: &Expr) -> Option<&Col> {
        let e = match e {
            Expr::Cast(c) => c.expr.as_ref(),
            e => e,
        };
        let col = self.col(e)?;
        let single = match &col.kind {
            ColKind::Dim { .. } => true,
            ColKind::Attr { single, .. } => *single,
        };
        if !single {
            return None;
        }
        if enumerated(col) {
            return Some(col);
        }
        let ok = match bound_kind(col.datatype) {
            Some(BoundKind::Int) => is_plain_int(col.datatype),
            Some(BoundKind::Text) => {
                matches!(col.datatype, Datatype::StringAscii | Datatype::StringUtf8)
            }
            // Floating-point: see the module's notes.
            _ => false,
        };
        ok.then_some(col)
    }
}

fn enumerated(col: &Col) -> bool {
    matches!(
        col.kind,
        ColKind::Attr {
            enumerated: true,
            ..
        }
    )
}

fn is_plain_int(dt: Datatype) -> bool {
    matches!(dt.class(), DatatypeClass::Signed | DatatypeClass::Unsigned)
}

/// The column as a condition's field: `attr("name")` / `dim("name")`.
fn field(col: &Col) -> ConditionField {
    match col.kind {
        ColKind::Dim { .. } => dim(&col.name),
        ColKind::Attr { .. } => attr(&col.name),
    }
}

/// The literal `e` as a condition's value for a test of `col`.
fn cond_literal(col: &Col, e: &Expr) -> Option<Literal> {
    let v = scalar(e)?;
    let v = match v {
        ScalarValue::Dictionary(_, inner) => inner.as_ref(),
        v => v,
    };
    // Text: a string literal, as the engine's labels and strings are UTF-8.
    let text = |v: &ScalarValue| {
        text_value(v)
            .and_then(|t| String::from_utf8(t).ok())
            .map(Literal::from)
    };
    if enumerated(col) {
        // The condition compares the label (as the engine's does): text
        // labels by a string literal, integer labels by an integer that is
        // a value of the labels' type. Float labels are not compared (a
        // float literal and a label of another width need not be the same
        // number: DataFusion would compare the widened label).
        return match label_type(col) {
            Some(t) if t.is_integer() => {
                let n = int_value(v)?;
                ScalarValue::Int64(i64::try_from(n).ok())
                    .cast_to(t)
                    .ok()
                    .and_then(|c| int_value(&c))
                    .filter(|back| *back == n)
                    .map(Literal::from)
            }
            _ => text(v),
        };
    }
    let kind = bound_kind(col.datatype)?;
    // Strings are bytes whatever their Arrow flavour (Utf8, LargeUtf8, ..).
    if kind != BoundKind::Text && v.data_type() != col.arrow {
        return None;
    }
    match kind {
        BoundKind::Int => int_value(v).map(Literal::from),
        BoundKind::Text => text(v),
        BoundKind::Float => None,
    }
}

/// The Arrow type of an enumerated column's labels (`None`: not a
/// dictionary).
pub(crate) fn label_type(col: &Col) -> Option<&datafusion::arrow::datatypes::DataType> {
    match &col.arrow {
        datafusion::arrow::datatypes::DataType::Dictionary(_, v) => Some(v.as_ref()),
        _ => None,
    }
}

fn scalar(e: &Expr) -> Option<&ScalarValue> {
    match e {
        Expr::Literal(v, _) if !v.is_null() => Some(v),
        _ => None,
    }
}

fn int_value(v: &ScalarValue) -> Option<i128> {
    Some(match v {
        ScalarValue::Int8(Some(x)) => i128::from(*x),
        ScalarValue::Int16(Some(x)) => i128::from(*x),
        ScalarValue::Int32(Some(x)) => i128::from(*x),
        ScalarValue::Int64(Some(x)) => i128::from(*x),
        ScalarValue::UInt8(Some(x)) => i128::from(*x),
        ScalarValue::UInt16(Some(x)) => i128::from(*x),
        ScalarValue::UInt32(Some(x)) => i128::from(*x),
        ScalarValue::UInt64(Some(x)) => i128::from(*x),
        ScalarValue::Date32(Some(x)) => i128::from(*x),
        ScalarValue::Date64(Some(x)) => i128::from(*x),
        ScalarValue::TimestampSecond(Some(x), _)
        | ScalarValue::TimestampMillisecond(Some(x), _)
        | ScalarValue::TimestampMicrosecond(Some(x), _)
        | ScalarValue::TimestampNanosecond(Some(x), _)
        | ScalarValue::DurationSecond(Some(x))
        | ScalarValue::DurationMillisecond(Some(x))
        | ScalarValue::DurationMicrosecond(Some(x))
        | ScalarValue::DurationNanosecond(Some(x)) => i128::from(*x),
        _ => return None,
    })
}

fn float_value(v: &ScalarValue) -> Option<f64> {
    match v {
        ScalarValue::Float32(Some(x)) => Some(f64::from(*x)),
        ScalarValue::Float64(Some(x)) => Some(*x),
        _ => None,
    }
    .filter(|f| !f.is_nan())
}

fn text_value(v: &ScalarValue) -> Option<Vec<u8>> {
    match v {
        ScalarValue::Utf8(Some(s))
        | ScalarValue::LargeUtf8(Some(s))
        | ScalarValue::Utf8View(Some(s)) => Some(s.as_bytes().to_vec()),
        ScalarValue::Binary(Some(b))
        | ScalarValue::LargeBinary(Some(b))
        | ScalarValue::BinaryView(Some(b)) => Some(b.clone()),
        _ => None,
    }
}

/// The literal `e` as a bound on dimension `col`, when DataFusion made it
/// of the column's own type.
fn literal(col: &Col, e: &Expr) -> Option<Bound> {
    let v = scalar(e)?;
    let kind = bound_kind(col.datatype)?;
    if kind != BoundKind::Text && v.data_type() != col.arrow {
        return None;
    }
    match kind {
        BoundKind::Int => int_value(v).map(Bound::Int),
        BoundKind::Float => float_value(v).map(Bound::Float),
        BoundKind::Text => text_value(v).map(Bound::Text),
    }
}

/// `l OP r` as `r OP' l`.
fn flip(op: Operator) -> Option<Operator> {
    Some(match op {
        Operator::Eq => Operator::Eq,
        Operator::NotEq => Operator::NotEq,
        Operator::Lt => Operator::Gt,
        Operator::LtEq => Operator::GtEq,
        Operator::Gt => Operator::Lt,
        Operator::GtEq => Operator::LtEq,
        _ => return None,
    })
}

/// The ranges of dimension `col` where `col OP v` holds, clipped to the
/// table's extent on it, and whether they are exactly those cells.
fn dim_compare(col: &Col, op: Operator, v: Bound) -> Option<(Vec<DimRange>, bool)> {
    let ColKind::Dim { span } = &col.kind else {
        return None;
    };
    let Some((lo, hi)) = span else {
        // No cells: no range holds any.
        return Some((Vec::new(), true));
    };
    let r = |a: Bound, b: Bound| DimRange::new(a, b);
    let (rs, exact) = match (&v, op) {
        (_, Operator::Eq) => (vec![r(v.clone(), v.clone())], !matches!(v, Bound::Float(_))),
        (_, Operator::LtEq) => (
            vec![r(lo.clone(), v.clone())],
            !matches!(v, Bound::Float(_)),
        ),
        (_, Operator::GtEq) => (
            vec![r(v.clone(), hi.clone())],
            !matches!(v, Bound::Float(_)),
        ),
        (Bound::Int(i), Operator::Lt) => (vec![r(lo.clone(), Bound::Int(i - 1))], true),
        (Bound::Int(i), Operator::Gt) => (vec![r(Bound::Int(i + 1), hi.clone())], true),
        (Bound::Int(i), Operator::NotEq) => (
            vec![
                r(lo.clone(), Bound::Int(i - 1)),
                r(Bound::Int(i + 1), hi.clone()),
            ],
            true,
        ),
        (Bound::Text(t), Operator::Gt) => {
            let mut next = t.clone();
            next.push(0);
            (vec![r(Bound::Text(next), hi.clone())], true)
        }
        // No inclusive bound says "below v": the range includes v.
        (Bound::Text(_) | Bound::Float(_), Operator::Lt) => (vec![r(lo.clone(), v.clone())], false),
        (Bound::Float(_), Operator::Gt) => (vec![r(v.clone(), hi.clone())], false),
        _ => return None,
    };
    let whole = vec![r(lo.clone(), hi.clone())];
    Some((intersect(&rs, &whole), exact))
}

/// The ranges of both unions' intersection (empty ranges dropped).
pub(crate) fn intersect(a: &[DimRange], b: &[DimRange]) -> Vec<DimRange> {
    let mut out = Vec::new();
    for x in a {
        for y in b {
            let lo = max_bound(&x.lo, &y.lo);
            let hi = min_bound(&x.hi, &y.hi);
            if lo.partial_cmp(&hi).is_some_and(|o| o.is_le()) {
                out.push(DimRange::new(lo, hi));
            }
        }
    }
    out
}

fn max_bound(a: &Bound, b: &Bound) -> Bound {
    if a.partial_cmp(b).is_some_and(|o| o.is_lt()) {
        b.clone()
    } else {
        a.clone()
    }
}

fn min_bound(a: &Bound, b: &Bound) -> Bound {
    if b.partial_cmp(a).is_some_and(|o| o.is_lt()) {
        b.clone()
    } else {
        a.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use datafusion::arrow::datatypes::DataType;
    use datafusion::logical_expr::{col, lit};

    fn cols() -> Columns {
        let dim = |name: &str, dt, arrow, span| Col {
            name: name.into(),
            datatype: dt,
            arrow,
            kind: ColKind::Dim { span },
        };
        let attr = |name: &str, dt, arrow| Col {
            name: name.into(),
            datatype: dt,
            arrow,
            kind: ColKind::Attr {
                single: true,
                enumerated: false,
            },
        };
        Columns {
            cols: vec![
                dim(
                    "x",
                    Datatype::Int32,
                    DataType::Int32,
                    Some((Bound::Int(1), Bound::Int(100))),
                ),
                dim(
                    "s",
                    Datatype::StringAscii,
                    DataType::LargeUtf8,
                    Some((Bound::Text(b"a".to_vec()), Bound::Text(b"zz".to_vec()))),
                ),
                dim(
                    "f",
                    Datatype::Float64,
                    DataType::Float64,
                    Some((Bound::Float(0.0), Bound::Float(1.0))),
                ),
                attr("a", Datatype::Int64, DataType::Int64),
                attr("v", Datatype::Float64, DataType::Float64),
                attr("t", Datatype::StringUtf8, DataType::LargeUtf8),
            ],
            dense: false,
        }
    }

    fn ints(rs: &[(i128, i128)]) -> Vec<DimRange> {
        rs.iter()
            .map(|(a, b)| DimRange::new(Bound::Int(*a), Bound::Int(*b)))
            .collect()
    }

    #[test]
    fn integer_dimension_comparisons_are_exact_ranges_clipped_to_the_cells() {
        let c = cols();
        let p = c.classify(&col("x").gt(lit(10i32)));
        assert_eq!(
            p,
            Pushed::Ranges {
                entries: vec![("x".into(), ints(&[(11, 100)]))],
                exact: true
            }
        );
        let p = c.classify(&lit(10i32).gt_eq(col("x")));
        assert_eq!(
            p,
            Pushed::Ranges {
                entries: vec![("x".into(), ints(&[(1, 10)]))],
                exact: true
            }
        );
        let p = c.classify(&col("x").not_eq(lit(50i32)));
        assert_eq!(
            p,
            Pushed::Ranges {
                entries: vec![("x".into(), ints(&[(1, 49), (51, 100)]))],
                exact: true
            }
        );
        let p = c.classify(&col("x").between(lit(-5i32), lit(3i32)));
        assert_eq!(
            p,
            Pushed::Ranges {
                entries: vec![("x".into(), ints(&[(1, 3)]))],
                exact: true
            }
        );
        let p = c.classify(&col("x").lt(lit(0i32)));
        assert_eq!(
            p,
            Pushed::Ranges {
                entries: vec![("x".into(), vec![])],
                exact: true
            }
        );
        let p = c.classify(&col("x").eq(lit(3i32)).or(col("x").eq(lit(7i32))));
        assert_eq!(
            p,
            Pushed::Ranges {
                entries: vec![("x".into(), ints(&[(3, 3), (7, 7)]))],
                exact: true
            }
        );
        // A literal of another type (DataFusion would have cast the column).
        assert_eq!(c.classify(&col("x").gt(lit(10i64))), Pushed::No);
    }

    #[test]
    fn string_and_float_dimensions() {
        let c = cols();
        let p = c.classify(&col("s").gt(lit("m")));
        assert_eq!(
            p,
            Pushed::Ranges {
                entries: vec![(
                    "s".into(),
                    vec![DimRange::new(
                        Bound::Text(b"m\0".to_vec()),
                        Bound::Text(b"zz".to_vec())
                    )]
                )],
                exact: true
            }
        );
        assert_eq!(c.classify(&col("s").lt(lit("m"))).kind(), Push::Inexact);
        assert_eq!(
            c.classify(&col("f").lt_eq(lit(0.5f64))).kind(),
            Push::Inexact
        );
    }

    #[test]
    fn attribute_comparisons_are_conditions() {
        use tiledb_codec::raw::read::query_condition::{attr, dim};
        let c = cols();
        let cond = |p: Pushed| match p {
            Pushed::Condition { cond, exact: true } => cond,
            other => panic!("not an exact condition: {other:?}"),
        };
        let p = c.classify(&col("a").gt(lit(5i64)).and(col("t").eq(lit("x\"y"))));
        let want = attr("a").gt(5).and(attr("t").eq("x\"y"));
        assert_eq!(cond(p.clone()), want);
        assert_eq!(cond(p).text(), r#"attr("a") > 5 and attr("t") == "x\"y""#);
        let p = c.classify(&col("a").in_list(vec![lit(1i64), lit(2i64)], true));
        assert_eq!(cond(p), attr("a").not_in([1, 2]));
        let p = c.classify(&col("a").is_null().or(col("x").lt(lit(3i32))));
        assert_eq!(cond(p), attr("a").is_null().or(dim("x").lt(3)));
        let p = c.classify(&!col("a").between(lit(2i64), lit(4i64)));
        assert_eq!(cond(p), attr("a").ge(2).and(attr("a").le(4)).not());
        // An empty list is no condition (binding would refuse it).
        assert_eq!(c.classify(&col("a").in_list(vec![], false)), Pushed::No);
        // Deeper than a Ballista executor could parse back: not pushed.
        let mut deep = col("a").gt(lit(0i64));
        for i in 0..40i64 {
            deep = if i % 2 == 0 {
                col("a").lt(lit(i)).or(deep)
            } else {
                col("a").gt(lit(i)).and(deep)
            };
        }
        assert_eq!(c.classify(&deep), Pushed::No);
        // Floating-point attributes: IEEE and total order part on NaN.
        assert_eq!(c.classify(&col("v").lt(lit(0.5f64))), Pushed::No);
        // Dense arrays: conditions give fill values, not fewer rows.
        let mut d = cols();
        d.dense = true;
        assert_eq!(d.classify(&col("a").gt(lit(5i64))), Pushed::No);
    }
}
