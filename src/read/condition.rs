//! Delete conditions (format_spec/delete_commit_file.md): the serialized
//! query condition tree of a `.del` file, evaluated on cells.
//!
//! The engine stores the *negation* of the condition the user gave
//! (tiledb/sm/query/deletes_and_updates): a cell survives a delete when the
//! stored condition holds for it.

use crate::format::{
    ConditionNode, ConditionNodeBody, Datatype, ExpressionNode,
    QueryConditionCombinationOp as Comb, QueryConditionOp as Op, ValueNode,
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
            match e.combination_op {
                Comb::And => kids.all(|k| k),
                Comb::Or => kids.any(|k| k),
                Comb::Not => !kids.next().unwrap_or(false),
                Comb::Unknown(_) => false,
            }
        }
        ConditionNodeBody::Value(v) => {
            let op = v.op;
            match (op, value(&v.field_name)) {
                (Op::AlwaysTrue, _) => true,
                (Op::AlwaysFalse, _) => false,
                (Op::In | Op::NotIn, Some(CellValue::Bytes(dt, cell))) => {
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
                    found == (op == Op::In)
                }
                (op, Some(CellValue::Bytes(dt, cell))) => {
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
                (Op::Eq, Some(CellValue::Null)) => v.value.is_empty(),
                (Op::Ne, Some(CellValue::Null)) => !v.value.is_empty(),
                _ => false,
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Building and serializing condition trees (the writer's side of `.del`)
// ---------------------------------------------------------------------------

/// A value node: `field op value` (`offsets`: the start of each member, for
/// `IN`/`NOT_IN`, written as the engine writes them: u64 each).
pub fn value_node(op: Op, field: &[u8], value: Vec<u8>, offsets: Option<&[u64]>) -> ConditionNode {
    let set = matches!(op, Op::In | Op::NotIn);
    let offsets: Option<Vec<u8>> = set.then(|| {
        offsets
            .unwrap_or(&[])
            .iter()
            .flat_map(|o| o.to_le_bytes())
            .collect()
    });
    ConditionNode {
        node_type: 1,
        body: ConditionNodeBody::Value(ValueNode {
            op,
            field_name_size: field.len() as u32,
            field_name: field.to_vec(),
            value_size: value.len() as u64,
            value,
            offsets_size: offsets.as_ref().map(|o| o.len() as u64),
            offsets,
        }),
    }
}

/// An expression node combining `children` with `op`.
pub fn expression_node(op: Comb, children: Vec<ConditionNode>) -> ConditionNode {
    ConditionNode {
        node_type: 0,
        body: ConditionNodeBody::Expression(ExpressionNode {
            combination_op: op,
            num_children: children.len() as u64,
            children,
        }),
    }
}

/// `lhs op rhs` as the engine combines conditions (`ASTNode::combine`):
/// the children of either side that is already combined with `op` are
/// taken over, so `a & (b & c)` is one node of three children.
pub fn combine(lhs: ConditionNode, rhs: ConditionNode, op: Comb) -> ConditionNode {
    let mut children = Vec::new();
    for side in [lhs, rhs] {
        match side.body {
            ConditionNodeBody::Expression(e) if e.combination_op == op => {
                children.extend(e.children)
            }
            body => children.push(ConditionNode {
                node_type: side.node_type,
                body,
            }),
        }
    }
    expression_node(op, children)
}

/// Why a tree cannot be negated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NegationError(pub String);

/// The negation of `node`, pushed down to the leaves as the engine negates
/// (`ASTNode::get_negated_tree`): `<` becomes `>=`, `IN` `NOT_IN`, `AND`
/// `OR`. Like the engine, it refuses `ALWAYS_TRUE`/`ALWAYS_FALSE` (what a
/// rewrite for the schema leaves of a null test of a field that cannot be
/// null, or of a label the enumeration lacks) and `NOT` nodes.
pub fn negated(node: &ConditionNode) -> Result<ConditionNode, NegationError> {
    match &node.body {
        ConditionNodeBody::Expression(e) => {
            let op = match e.combination_op {
                Comb::And => Comb::Or,
                Comb::Or => Comb::And,
                _ => {
                    return Err(NegationError(format!(
                        "combination op {} cannot be negated",
                        e.combination_op.value()
                    )))
                }
            };
            let children = e.children.iter().map(negated).collect::<Result<_, _>>()?;
            Ok(expression_node(op, children))
        }
        ConditionNodeBody::Value(v) => {
            let op = match v.op {
                Op::Lt => Op::Ge,
                Op::Ge => Op::Lt,
                Op::Le => Op::Gt,
                Op::Gt => Op::Le,
                Op::Eq => Op::Ne,
                Op::Ne => Op::Eq,
                Op::In => Op::NotIn,
                Op::NotIn => Op::In,
                Op::AlwaysTrue | Op::AlwaysFalse => {
                    return Err(NegationError(format!(
                        "the comparison of {} holds always or never for this schema \
                         (a null test of a field that cannot be null, or a label its \
                         enumeration lacks); the engine cannot negate it",
                        String::from_utf8_lossy(&v.field_name)
                    )))
                }
                Op::Unknown(code) => return Err(NegationError(format!("unknown op {code}"))),
            };
            let mut v = v.clone();
            v.op = op;
            Ok(ConditionNode {
                node_type: 1,
                body: ConditionNodeBody::Value(v),
            })
        }
    }
}

/// The bytes of a serialized condition (the data of a `.del` file's generic
/// tile), as `serialize_condition` writes them.
pub fn serialize(node: &ConditionNode) -> Vec<u8> {
    crate::format::encode(node)
}

/// A serialized condition read back (`file` names the `.del` file in
/// errors).
pub fn deserialize(bytes: &[u8], file: &std::path::Path) -> crate::error::Result<ConditionNode> {
    crate::format::decode_all(bytes, file, 0, (0,))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(op: Op, field: &str, v: i32) -> ConditionNode {
        value_node(op, field.as_bytes(), v.to_le_bytes().to_vec(), None)
    }

    fn set(op: Op, field: &str, members: &[&[u8]]) -> ConditionNode {
        let mut data = Vec::new();
        let mut offsets = Vec::new();
        for m in members {
            offsets.push(data.len() as u64);
            data.extend_from_slice(m);
        }
        value_node(op, field.as_bytes(), data, Some(&offsets))
    }

    #[test]
    fn serialized_trees_read_back() {
        let tree = combine(
            combine(
                num(Op::Lt, "a", 5),
                set(Op::In, "s", &[b"x", b"", b"yz"]),
                Comb::Or,
            ),
            expression_node(
                Comb::And,
                vec![
                    num(Op::Ne, "b", -1),
                    set(Op::NotIn, "c", &[&7i32.to_le_bytes()]),
                ],
            ),
            Comb::Or,
        );
        let bytes = serialize(&tree);
        let back = deserialize(&bytes, std::path::Path::new("x.del")).unwrap();
        assert_eq!(back, tree);
        assert_eq!(serialize(&back), bytes);
    }

    #[test]
    fn serialized_as_the_engine_lays_it_out() {
        // format_spec/delete_commit_file.md: node type, op, name size and
        // name, value size and value; a set adds its offsets.
        let mut want = vec![1u8, Op::Ge.value()];
        want.extend(1u32.to_le_bytes());
        want.push(b'a');
        want.extend(4u64.to_le_bytes());
        want.extend(5i32.to_le_bytes());
        assert_eq!(serialize(&num(Op::Ge, "a", 5)), want);

        let mut want = vec![1u8, Op::In.value()];
        want.extend(1u32.to_le_bytes());
        want.push(b's');
        want.extend(3u64.to_le_bytes());
        want.extend(b"xyz");
        want.extend(16u64.to_le_bytes());
        want.extend(0u64.to_le_bytes());
        want.extend(1u64.to_le_bytes());
        assert_eq!(serialize(&set(Op::In, "s", &[b"x", b"yz"])), want);

        let e = expression_node(Comb::Or, vec![num(Op::Eq, "a", 1), num(Op::Eq, "a", 2)]);
        let bytes = serialize(&e);
        assert_eq!(&bytes[..10], &[0, Comb::Or.value(), 2, 0, 0, 0, 0, 0, 0, 0]);
    }

    #[test]
    fn combining_takes_over_children_of_the_same_op() {
        let (a, b, c, d) = (
            num(Op::Lt, "a", 1),
            num(Op::Lt, "b", 1),
            num(Op::Lt, "c", 1),
            num(Op::Lt, "d", 1),
        );
        let ab = combine(a.clone(), b.clone(), Comb::And);
        let cd = combine(c.clone(), d.clone(), Comb::And);
        assert_eq!(
            combine(ab.clone(), cd.clone(), Comb::And),
            expression_node(Comb::And, vec![a.clone(), b.clone(), c.clone(), d.clone()])
        );
        assert_eq!(
            combine(ab.clone(), cd.clone(), Comb::Or),
            expression_node(Comb::Or, vec![ab, cd])
        );
    }

    #[test]
    fn negation_goes_down_to_the_leaves() {
        let tree = expression_node(
            Comb::And,
            vec![
                num(Op::Lt, "a", 1),
                expression_node(
                    Comb::Or,
                    vec![num(Op::Eq, "b", 2), set(Op::In, "c", &[b"q"])],
                ),
            ],
        );
        let want = expression_node(
            Comb::Or,
            vec![
                num(Op::Ge, "a", 1),
                expression_node(
                    Comb::And,
                    vec![num(Op::Ne, "b", 2), set(Op::NotIn, "c", &[b"q"])],
                ),
            ],
        );
        assert_eq!(negated(&tree).unwrap(), want);
        assert_eq!(negated(&want).unwrap(), tree);
        // What a rewrite for the schema made constant cannot be negated.
        let always = value_node(Op::AlwaysFalse, b"a", Vec::new(), None);
        assert!(negated(&expression_node(Comb::And, vec![tree, always])).is_err());
    }
}
