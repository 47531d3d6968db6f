//! Accumulators with the engine's result types and overflow rules.

use std::path::Path;

use super::parse::*;
use crate::array::FieldInfo;
use crate::error::{Error, Result};
use crate::format::Datatype;
use crate::model::value;

/// The engine's classes of aggregated values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Num {
    /// Signed integers, dates and times (summed as `i64`).
    I,
    /// Unsigned integers (summed as `u64`).
    U,
    /// FLOAT32, FLOAT64 (summed as `f64`).
    F,
    /// STRING_ASCII (min and max only).
    Text,
}

pub(super) fn class_of(dt: Datatype) -> Option<Num> {
    use crate::format::DatatypeClass as C;
    match dt.class() {
        // DATETIME_* and TIME_*: int64 in the engine's `apply_with_type`.
        C::Signed | C::Datetime | C::Time => Some(Num::I),
        C::Unsigned => Some(Num::U),
        C::Float => Some(Num::F),
        C::String if dt == Datatype::StringAscii => Some(Num::Text),
        _ => None,
    }
}

/// Checks an aggregate against its field as the engine does; the class of
/// the values it folds (`None` for counts).
pub(super) fn check(root: &Path, agg: &Aggregate, f: &FieldInfo) -> Result<Option<Num>> {
    let refuse = |what: String| {
        Err(Error::Query {
            path: root.to_path_buf(),
            what: format!("{agg}: {what}"),
        })
    };
    match agg.op {
        AggregateOp::Count => return Ok(None),
        AggregateOp::NullCount => {
            if !f.nullable {
                return refuse(format!(
                    "{:?} is not nullable (null_count needs a nullable field)",
                    f.name
                ));
            }
            return Ok(None);
        }
        _ => {}
    }
    let Some(class) = class_of(f.datatype) else {
        return refuse(format!(
            "the engine aggregates no {} fields ({:?})",
            f.datatype.name(),
            f.name
        ));
    };
    let numeric = matches!(agg.op, AggregateOp::Sum | AggregateOp::Mean);
    if numeric && class == Num::Text {
        return refuse(format!(
            "{} needs a numeric field, {:?} is {}",
            agg.op.name(),
            f.name,
            f.datatype.name()
        ));
    }
    if class != Num::Text {
        if f.cell_val_num.is_none() {
            return refuse(format!(
                "{:?} is var-sized (numbers are aggregated one value per cell)",
                f.name
            ));
        }
        if f.cell_val_num != Some(1) {
            return refuse(format!(
                "{:?} holds {} values per cell (numbers are aggregated one value per cell)",
                f.name,
                f.cell_val_num.unwrap_or(0)
            ));
        }
    }
    Ok(Some(class))
}

/// Adds `v` to `sum` as the engine's `SafeSum` does: false (and `sum`
/// unchanged) on overflow.
pub(super) fn add_i(sum: &mut i64, v: i64) -> bool {
    match sum.checked_add(v) {
        Some(s) => {
            *sum = s;
            true
        }
        None => false,
    }
}

pub(super) fn add_u(sum: &mut u64, v: u64) -> bool {
    match sum.checked_add(v) {
        Some(s) => {
            *sum = s;
            true
        }
        None => false,
    }
}

pub(super) fn add_f(sum: &mut f64, v: f64) -> bool {
    // Same signs and a magnitude past the largest double: overflow (an
    // infinity always is; a NaN never is, and sticks).
    if (*sum < 0.0) == (v < 0.0) && sum.abs() > f64::MAX - v.abs() {
        return false;
    }
    *sum += v;
    true
}

/// A value folded by min/max.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Best {
    I(i64),
    U(u64),
    F(f64),
    T(Vec<u8>),
}

impl Best {
    pub(super) fn of(class: Num, dt: Datatype, bytes: &[u8]) -> Option<Best> {
        if class == Num::Text {
            return Some(Best::T(bytes.to_vec()));
        }
        match value::scalar(dt, bytes)? {
            value::Scalar::Int(v) => Some(Best::I(v)),
            value::Scalar::Uint(v) => Some(Best::U(v)),
            value::Scalar::Float(v) => Some(Best::F(v)),
            value::Scalar::Bool(_) => None,
        }
    }

    /// `std::less` (`max`: `std::greater`) of the engine: false for NaNs.
    pub(super) fn beats(&self, other: &Best, max: bool) -> bool {
        let o = match (self, other) {
            (Best::I(a), Best::I(b)) => a.partial_cmp(b),
            (Best::U(a), Best::U(b)) => a.partial_cmp(b),
            (Best::F(a), Best::F(b)) => a.partial_cmp(b),
            (Best::T(a), Best::T(b)) => a.partial_cmp(b),
            _ => None,
        };
        match o {
            Some(std::cmp::Ordering::Less) => !max,
            Some(std::cmp::Ordering::Greater) => max,
            _ => false,
        }
    }

    pub(super) fn value(self) -> AggregateValue {
        match self {
            Best::I(v) => AggregateValue::Int(v),
            Best::U(v) => AggregateValue::Uint(v),
            Best::F(v) => AggregateValue::Float(v),
            Best::T(v) => AggregateValue::Text(v),
        }
    }
}

/// The running state of one aggregate.
#[derive(Debug, Clone)]
pub(super) enum Acc {
    Count(u64),
    NullCount(u64),
    Sum {
        class: Num,
        i: i64,
        u: u64,
        f: f64,
        /// Non-null values summed.
        count: u64,
        overflow: bool,
        mean: bool,
    },
    Best {
        class: Num,
        max: bool,
        best: Option<Best>,
    },
}

impl Acc {
    pub(super) fn new(op: AggregateOp, class: Option<Num>) -> Acc {
        let class = class.unwrap_or(Num::I);
        match op {
            AggregateOp::Count => Acc::Count(0),
            AggregateOp::NullCount => Acc::NullCount(0),
            AggregateOp::Sum | AggregateOp::Mean => Acc::Sum {
                class,
                i: 0,
                u: 0,
                f: 0.0,
                count: 0,
                overflow: false,
                mean: op == AggregateOp::Mean,
            },
            AggregateOp::Min | AggregateOp::Max => Acc::Best {
                class,
                max: op == AggregateOp::Max,
                best: None,
            },
        }
    }

    /// Folds one cell (`None`: null) of a field of `dt`.
    pub(super) fn cell(&mut self, dt: Datatype, cell: Option<&[u8]>) {
        match self {
            Acc::Count(n) => *n += 1,
            Acc::NullCount(n) => *n += u64::from(cell.is_none()),
            Acc::Sum {
                class,
                i,
                u,
                f,
                count,
                overflow,
                ..
            } => {
                let Some(b) = cell else { return };
                if *overflow {
                    return;
                }
                let ok = match value::scalar(dt, b) {
                    Some(value::Scalar::Int(v)) => add_i(i, v),
                    Some(value::Scalar::Uint(v)) => add_u(u, v),
                    Some(value::Scalar::Float(v)) => add_f(f, v),
                    _ => return,
                };
                let _ = class;
                *count += 1;
                *overflow = !ok;
            }
            Acc::Best { class, max, best } => {
                let Some(b) = cell else { return };
                let Some(v) = Best::of(*class, dt, b) else {
                    return;
                };
                if best.as_ref().is_none_or(|cur| v.beats(cur, *max)) {
                    *best = Some(v);
                }
            }
        }
    }

    /// Folds a tile from its metadata: `cells` cells, `nulls` of them null,
    /// its sum's bit pattern, its min or max.
    pub(super) fn tile(
        &mut self,
        cells: u64,
        nulls: u64,
        sum: Option<u64>,
        min: Option<Best>,
        maxv: Option<Best>,
    ) {
        let valid = cells.saturating_sub(nulls);
        match self {
            Acc::Count(n) => *n += cells,
            Acc::NullCount(n) => *n += nulls,
            Acc::Sum {
                class,
                i,
                u,
                f,
                count,
                overflow,
                ..
            } => {
                let Some(s) = sum else { return };
                if *overflow {
                    return;
                }
                let ok = match class {
                    Num::I => add_i(i, s as i64),
                    Num::U => add_u(u, s),
                    _ => add_f(f, f64::from_bits(s)),
                };
                if ok {
                    *count += valid;
                } else {
                    *overflow = true;
                }
            }
            Acc::Best { max, best, .. } => {
                let v = if *max { maxv } else { min };
                let Some(v) = v else { return };
                if valid > 0 && best.as_ref().is_none_or(|cur| v.beats(cur, *max)) {
                    *best = Some(v);
                }
            }
        }
    }

    /// The same aggregate with nothing folded yet.
    pub(super) fn fresh(&self) -> Acc {
        match self {
            Acc::Best { class, max, .. } => Acc::Best {
                class: *class,
                max: *max,
                best: None,
            },
            Acc::Count(_) => Acc::Count(0),
            Acc::NullCount(_) => Acc::NullCount(0),
            Acc::Sum { class, mean, .. } => Acc::Sum {
                class: *class,
                i: 0,
                u: 0,
                f: 0.0,
                count: 0,
                overflow: false,
                mean: *mean,
            },
        }
    }

    /// Whether the engine aggregates this by parts whose results it merges
    /// (sums, means, mins and maxes).
    pub(super) fn by_parts(&self) -> bool {
        matches!(self, Acc::Sum { .. } | Acc::Best { .. })
    }

    /// Folds the result of a part as the engine merges its parts' results.
    /// Min/max: the first one seeds, a later one replaces it when smaller
    /// (larger), so a NaN part sticks only when first. Sums: the part's sum
    /// (from 0) is added with the overflow check, an overflow in the part
    /// or in the addition sticks.
    pub(super) fn merge(&mut self, part: Acc) {
        match (self, part) {
            (Acc::Best { max, best, .. }, Acc::Best { best: Some(v), .. })
                if best.as_ref().is_none_or(|cur| v.beats(cur, *max)) =>
            {
                *best = Some(v);
            }
            (
                Acc::Sum {
                    class,
                    i,
                    u,
                    f,
                    count,
                    overflow,
                    ..
                },
                Acc::Sum {
                    i: pi,
                    u: pu,
                    f: pf,
                    count: pc,
                    overflow: po,
                    ..
                },
            ) => {
                if *overflow {
                    return;
                }
                let ok = !po
                    && match class {
                        Num::I => add_i(i, pi),
                        Num::U => add_u(u, pu),
                        _ => add_f(f, pf),
                    };
                if ok {
                    *count += pc;
                } else {
                    *overflow = true;
                }
            }
            _ => {}
        }
    }

    pub(super) fn finish(self, nullable: bool, region_cells: u64) -> AggregateValue {
        match self {
            Acc::Count(n) | Acc::NullCount(n) => AggregateValue::Uint(n),
            Acc::Sum {
                class,
                i,
                u,
                f,
                count,
                overflow,
                mean,
            } => {
                if nullable && (overflow || count == 0) {
                    return AggregateValue::Null;
                }
                if mean {
                    if overflow {
                        return AggregateValue::Float(f64::MAX);
                    }
                    let s = match class {
                        Num::I => i as f64,
                        Num::U => u as f64,
                        _ => f,
                    };
                    return AggregateValue::Float(s / count as f64);
                }
                match (class, overflow) {
                    (Num::I, true) => AggregateValue::Int(i64::MAX),
                    (Num::I, false) => AggregateValue::Int(i),
                    (Num::U, true) => AggregateValue::Uint(u64::MAX),
                    (Num::U, false) => AggregateValue::Uint(u),
                    (_, true) => AggregateValue::Float(f64::MAX),
                    (_, false) => AggregateValue::Float(f),
                }
            }
            Acc::Best { class, best, .. } => match best {
                Some(b) => b.value(),
                None if nullable || region_cells == 0 => AggregateValue::Null,
                // The engine's default of a non-nullable min/max with no
                // value (a dense region of cells nobody wrote).
                None => match class {
                    Num::I => AggregateValue::Int(0),
                    Num::U => AggregateValue::Uint(0),
                    Num::F => AggregateValue::Float(0.0),
                    Num::Text => AggregateValue::Text(Vec::new()),
                },
            },
        }
    }
}
