//! Delete conditions (format_spec/delete_commit_file.md): the serialized
//! query condition tree of a `.del` file, evaluated on cells.
//!
//! The engine stores the *negation* of the condition the user gave
//! (tiledb/sm/query/deletes_and_updates): a cell survives a delete when the
//! stored condition holds for it.

use crate::format::{
    ConditionNode, ConditionNodeBody, Datatype, QueryConditionCombinationOp as Comb,
    QueryConditionOp as Op,
};

/// A field's value in one cell, as the condition sees it.
pub enum CellValue<'a> {
    /// Raw bytes of a fixed- or var-sized value of `Datatype`.
    Bytes(Datatype, &'a [u8]),
    /// A null cell.
    Null,
}

fn compare(dt: Datatype, a: &[u8], b: &[u8]) -> Option<std::cmp::Ordering> {
    macro_rules! num {
        ($t:ty) => {{
            let w = std::mem::size_of::<$t>();
            if a.len() < w || b.len() < w {
                return None;
            }
            let x = <$t>::from_le_bytes(a[..w].try_into().ok()?);
            let y = <$t>::from_le_bytes(b[..w].try_into().ok()?);
            x.partial_cmp(&y)
        }};
    }
    match dt {
        Datatype::Int8 => num!(i8),
        Datatype::Uint8 | Datatype::Bool => num!(u8),
        Datatype::Int16 => num!(i16),
        Datatype::Uint16 => num!(u16),
        Datatype::Int32 => num!(i32),
        Datatype::Uint32 => num!(u32),
        Datatype::Uint64 => num!(u64),
        Datatype::Float32 => num!(f32),
        Datatype::Float64 => num!(f64),
        d if d.size() == 8 && !matches!(d, Datatype::Blob) => num!(i64),
        // Strings and bytes compare bytewise.
        _ => Some(a.cmp(b)),
    }
}

/// Evaluates `node` for one cell; `value` gives a field's value by name.
pub fn holds<'a>(node: &ConditionNode, value: &dyn Fn(&[u8]) -> Option<CellValue<'a>>) -> bool {
    match &node.body {
        ConditionNodeBody::Expression(e) => {
            let mut kids = e.children.iter().map(|c| holds(c, value));
            match Comb::from_value(e.combination_op) {
                Some(Comb::And) => kids.all(|k| k),
                Some(Comb::Or) => kids.any(|k| k),
                Some(Comb::Not) => !kids.next().unwrap_or(false),
                None => false,
            }
        }
        ConditionNodeBody::Value(v) => {
            let op = Op::from_value(v.op);
            match (op, value(&v.field_name)) {
                (Some(Op::AlwaysTrue), _) => true,
                (Some(Op::AlwaysFalse), _) => false,
                (Some(Op::In | Op::NotIn), Some(CellValue::Bytes(dt, cell))) => {
                    // The value holds the members back to back; offsets say where each starts.
                    let offsets: Vec<usize> = v
                        .offsets
                        .as_deref()
                        .unwrap_or(&[])
                        .chunks_exact(8)
                        .map(|c| u64::from_le_bytes(c.try_into().unwrap()) as usize)
                        .collect();
                    let member = |i: usize| {
                        let s = offsets[i].min(v.value.len());
                        let e = offsets
                            .get(i + 1)
                            .copied()
                            .unwrap_or(v.value.len())
                            .min(v.value.len());
                        &v.value[s..e.max(s)]
                    };
                    let found = (0..offsets.len())
                        .any(|i| compare(dt, cell, member(i)) == Some(std::cmp::Ordering::Equal));
                    found == (op == Some(Op::In))
                }
                (Some(op), Some(CellValue::Bytes(dt, cell))) => {
                    let Some(ord) = compare(dt, cell, &v.value) else {
                        return false;
                    };
                    use std::cmp::Ordering::*;
                    match op {
                        Op::Lt => ord == Less,
                        Op::Le => ord != Greater,
                        Op::Gt => ord == Greater,
                        Op::Ge => ord != Less,
                        Op::Eq => ord == Equal,
                        Op::Ne => ord != Equal,
                        _ => false,
                    }
                }
                // A null cell: EQ/NE against a null (empty) value.
                (Some(Op::Eq), Some(CellValue::Null)) => v.value.is_empty(),
                (Some(Op::Ne), Some(CellValue::Null)) => !v.value.is_empty(),
                _ => false,
            }
        }
    }
}
