//! Conditions as the engine serializes them (format_spec/delete_commit_file.md):
//! the condition tree of a `.del` file (and of an update commit), built,
//! negated, serialized and read back; and bound for evaluation
//! ([`BoundCondition::from_stored`]) with the rules query conditions are
//! evaluated by, so that a delete and a query compare cells alike.
//!
//! The engine stores the *negation* of the condition the user gave
//! (tiledb/sm/query/deletes_and_updates): a cell survives a delete when the
//! stored condition holds for it.

use std::collections::BTreeSet;

use super::ast::{Bound, BoundCondition, Op as CmpOp, Value};
use super::bind::{datatype_name, numeric_width};
use super::eval::member_value;
use crate::array::FieldInfo;
use crate::error::{Error, Result};
use crate::format::{
    ArraySchema, ConditionNode, ConditionNodeBody, ConditionNodeType, Datatype, ExpressionNode,
    QueryConditionCombinationOp as Comb, QueryConditionOp as Op, Record, ValueNode,
};

// ---------------------------------------------------------------------------
// Building and serializing condition trees (the writer's side of `.del`)
// ---------------------------------------------------------------------------

/// A value node: `field op value`, `value` a comparison's value (the
/// empty one for `ALWAYS_TRUE`/`ALWAYS_FALSE`). An `IN` or `NOT_IN` node
/// is made by [`set_node`], which states where each member starts: made
/// here, it has no offsets and is refused where it is read.
pub fn value_node(op: Op, field: &[u8], value: Vec<u8>) -> ConditionNode {
    node(crate::format::table!(ValueNode {
        op,
        field_name: field.to_vec(),
        value,
    }))
}

/// A set node: `field IN members` (or `NOT_IN`): the members joined, with
/// where each starts, as the engine writes them.
pub fn set_node(op: Op, field: &[u8], members: &[impl AsRef<[u8]>]) -> ConditionNode {
    node(
        crate::format::table!(ValueNode {
            op,
            field_name: field.to_vec(),
            offsets_size: Some(0),
            offsets: Some(Vec::new()),
        })
        .with_joined(members),
    )
}

fn node(value: ValueNode) -> ConditionNode {
    crate::format::table!(ConditionNode {
        node_type: ConditionNodeType::Value,
        body: ConditionNodeBody::Value(value),
    })
    .with_sizes()
}

/// An expression node combining `children` with `op`.
pub fn expression_node(op: Comb, children: Vec<ConditionNode>) -> ConditionNode {
    crate::format::table!(ConditionNode {
        node_type: ConditionNodeType::Expression,
        body: ConditionNodeBody::Expression(crate::format::table!(ExpressionNode {
            combination_op: op,
            children,
        })),
    })
    .with_sizes()
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
            body => children.push(crate::format::table!(ConditionNode {
                node_type: side.node_type,
                body,
            })),
        }
    }
    expression_node(op, children)
}

/// Why a tree cannot be negated.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct NegationError(pub String);

/// The negation of `node`, pushed down to the leaves as the engine negates
/// (`ASTNode::get_negated_tree`): `<` becomes `>=`, `IN` `NOT_IN`, `AND`
/// `OR`. Like the engine, it refuses `ALWAYS_TRUE`/`ALWAYS_FALSE` (what a
/// rewrite for the schema leaves of a null test of a field that cannot be
/// null, or of a label the enumeration lacks) and `NOT` nodes.
pub fn negated(node: &ConditionNode) -> Result<ConditionNode, NegationError> {
    match &node.body {
        ConditionNodeBody::Expression(e) => {
            let op = match e.combination_op.known() {
                Some(Comb::And) => Comb::Or,
                Some(Comb::Or) => Comb::And,
                _ => {
                    return Err(NegationError(format!(
                        "combination op {} cannot be negated",
                        e.combination_op
                    )))
                }
            };
            let children = e.children.iter().map(negated).collect::<Result<_, _>>()?;
            Ok(expression_node(op, children))
        }
        ConditionNodeBody::Value(v) => {
            let op = match v.op.known() {
                Some(Op::Lt) => Op::Ge,
                Some(Op::Ge) => Op::Lt,
                Some(Op::Le) => Op::Gt,
                Some(Op::Gt) => Op::Le,
                Some(Op::Eq) => Op::Ne,
                Some(Op::Ne) => Op::Eq,
                Some(Op::In) => Op::NotIn,
                Some(Op::NotIn) => Op::In,
                Some(Op::AlwaysTrue | Op::AlwaysFalse) => {
                    return Err(NegationError(format!(
                        "the comparison of {} holds always or never for this schema \
                         (a null test of a field that cannot be null, or a label its \
                         enumeration lacks); the engine cannot negate it",
                        String::from_utf8_lossy(&v.field_name)
                    )))
                }
                None | Some(_) => return Err(NegationError(format!("unknown op {}", v.op))),
            };
            let mut v = v.clone();
            v.op = op;
            Ok(crate::format::table!(ConditionNode {
                node_type: ConditionNodeType::Value,
                body: ConditionNodeBody::Value(v),
            }))
        }
        _ => Err(NegationError(
            "a node of a kind this crate does not know".into(),
        )),
    }
}

/// The bytes of a serialized condition (the data of a `.del` file's generic
/// tile), as `serialize_condition` writes them.
///
/// # Errors
/// A node the format cannot hold (a wrong stated size), naming its table
/// and field.
pub fn serialize(node: &ConditionNode) -> std::result::Result<Vec<u8>, crate::format::EncodeError> {
    crate::format::encode(node)
}

/// A serialized condition read back (`file` names the `.del` file in
/// errors).
pub fn deserialize(bytes: &[u8], file: &std::path::Path) -> Result<ConditionNode> {
    crate::format::decode_all(bytes, file, 0, (0,))
}

// ---------------------------------------------------------------------------
// Binding a stored tree (the reader's side of `.del`)
// ---------------------------------------------------------------------------

/// What binding a stored condition needs to know of a field it names: how
/// the schema describes it, and whether it is an attribute with an
/// enumeration (whose set members are indexes of any size).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct StoredField {
    /// The field as the schema describes it.
    pub info: FieldInfo,
    /// Whether it is an attribute with an enumeration.
    pub enumerated: bool,
}

impl StoredField {
    /// The field `info`, an attribute with an enumeration when `enumerated`.
    pub fn new(info: FieldInfo, enumerated: bool) -> Self {
        StoredField { info, enumerated }
    }
}

impl StoredField {
    /// The field `name` of `schema`, if the schema has it (with a datatype
    /// this crate knows).
    pub fn lookup(schema: &ArraySchema, name: &str) -> Option<StoredField> {
        let info = FieldInfo::lookup(schema, name)?;
        let enumerated = !info.is_dimension
            && schema.attributes.iter().any(|a| {
                a.name == name.as_bytes()
                    && a.enumeration_name.as_ref().is_some_and(|n| !n.is_empty())
            });
        Some(StoredField { info, enumerated })
    }
}

impl BoundCondition {
    /// A stored condition tree (a delete commit's, see [`deserialize`])
    /// bound for [`BoundCondition::evaluate`]: checked as the engine checks
    /// the conditions it loads (`QueryCondition::check`,
    /// `ASTNodeVal::check_node_validity`) and evaluated by the rules of
    /// query conditions, which are the engine's (`apply_sparse`): a null
    /// cell satisfies no comparison and no `IN`/`NOT_IN`, a fixed-size
    /// `CHAR` field compares its first byte as a signed char, strings
    /// compare bytewise, numbers by value as the field's datatype, an
    /// enumerated attribute by index. The value of a comparison is never a
    /// null test: the engine reads an empty value back as the empty string
    /// (a fixed-size field of another kind is refused for its size).
    /// `ALWAYS_TRUE` holds for the cells that are not null, `ALWAYS_FALSE`
    /// for none.
    ///
    /// `field` describes the fields by name (`None`: no such field, which
    /// is refused); `text` names the condition in errors (e.g. its file).
    pub fn from_stored(
        node: &ConditionNode,
        text: impl Into<String>,
        field: &dyn Fn(&str) -> Option<StoredField>,
    ) -> Result<BoundCondition> {
        let mut b = StoredBinder {
            text: text.into(),
            lookup: field,
            fields: Vec::new(),
        };
        let tree = b.node(node)?;
        Ok(BoundCondition {
            text: b.text,
            fields: b.fields.into_iter().map(|f| f.info).collect(),
            tree,
        })
    }

    /// [`BoundCondition::from_stored`] with the fields of `schema`.
    pub fn from_stored_in(
        node: &ConditionNode,
        text: impl Into<String>,
        schema: &ArraySchema,
    ) -> Result<BoundCondition> {
        Self::from_stored(node, text, &|name| StoredField::lookup(schema, name))
    }

    /// The condition on cells that lack the fields `absent` names (a
    /// fragment written before an evolution added them), as the engine's
    /// `apply_ast_node_sparse` treats a field the fragment's schema lacks:
    /// it zeroes the bitmap the comparison writes into. So the comparison
    /// fails, and within an `OR` so do the siblings before it (their
    /// results are in that bitmap); `None` when no field is absent.
    pub fn with_absent_fields(
        &self,
        absent: &dyn Fn(&FieldInfo) -> bool,
    ) -> Option<BoundCondition> {
        let gone: Vec<bool> = self.fields.iter().map(absent).collect();
        if !gone.contains(&true) {
            return None;
        }
        let lacks = |n: &Bound| match n {
            Bound::Valid(f)
            | Bound::Null { field: f, .. }
            | Bound::Cmp { field: f, .. }
            | Bound::Set { field: f, .. } => gone[*f],
            _ => false,
        };
        fn walk(n: &Bound, lacks: &dyn Fn(&Bound) -> bool) -> Bound {
            match n {
                Bound::And(k) => Bound::And(k.iter().map(|c| walk(c, lacks)).collect()),
                Bound::Or(k) => {
                    let from = k.iter().rposition(lacks).map_or(0, |i| i + 1);
                    Bound::Or(k[from..].iter().map(|c| walk(c, lacks)).collect())
                }
                leaf if lacks(leaf) => Bound::Const(false),
                other => other.clone(),
            }
        }
        Some(BoundCondition {
            text: self.text.clone(),
            fields: self.fields.clone(),
            tree: walk(&self.tree, &lacks),
        })
    }
}

struct StoredBinder<'a> {
    text: String,
    lookup: &'a dyn Fn(&str) -> Option<StoredField>,
    fields: Vec<StoredField>,
}

impl StoredBinder<'_> {
    fn err(&self, what: String) -> Error {
        Error::Condition {
            text: self.text.clone(),
            what,
        }
    }

    fn node(&mut self, node: &ConditionNode) -> Result<Bound> {
        match &node.body {
            ConditionNodeBody::Expression(e) => {
                let and = match e.combination_op.known() {
                    Some(Comb::And) => true,
                    Some(Comb::Or) => false,
                    // The engine throws when it applies a NOT node.
                    Some(Comb::Not) => {
                        return Err(self.err("a NOT node, which the engine cannot apply".into()))
                    }
                    None | Some(_) => {
                        return Err(self.err(format!("unknown combination op {}", e.combination_op)))
                    }
                };
                if e.children.len() < 2 {
                    return Err(self.err(format!(
                        "a combination of {} nodes; the engine needs at least 2",
                        e.children.len()
                    )));
                }
                let kids = e
                    .children
                    .iter()
                    .map(|c| self.node(c))
                    .collect::<Result<Vec<_>>>()?;
                Ok(if and {
                    Bound::And(kids)
                } else {
                    Bound::Or(kids)
                })
            }
            ConditionNodeBody::Value(v) => self.value(v),
            _ => Err(self.err("a node of a kind this crate does not know".into())),
        }
    }

    /// The index of field `name` in the bound fields, resolving it first.
    fn field(&mut self, name: &[u8]) -> Result<usize> {
        let name = String::from_utf8_lossy(name);
        if let Some(i) = self.fields.iter().position(|f| f.info.name == name) {
            return Ok(i);
        }
        let f = (self.lookup)(&name).ok_or_else(|| {
            self.err(format!(
                "it names the field {name:?}, which the array's schema does not have (a schema \
                 evolution dropped it?)"
            ))
        })?;
        self.fields.push(f);
        Ok(self.fields.len() - 1)
    }

    fn value(&mut self, v: &ValueNode) -> Result<Bound> {
        let op =
            v.op.known()
                .ok_or_else(|| self.err(format!("unknown op {}", v.op)))?;
        let i = self.field(&v.field_name)?;
        let StoredField { info, enumerated } = self.fields[i].clone();
        let name = &info.name;
        // `check_node_validity`, for a value that is never null.
        let dt = info.datatype;
        let string = crate::model::value::is_text(dt);
        if !string && numeric_width(dt).is_none() {
            return Err(self.err(format!(
                "it compares {name}, a {} field; the engine compares numbers, datetimes and \
                 CHAR/ASCII/UTF-8 strings only",
                datatype_name(dt)
            )));
        }
        let cell_size = info.cell_val_num.map(|_| info.cell_size() as usize);
        match info.cell_val_num {
            None if !string => {
                return Err(self.err(format!(
                    "it compares {name}, a var-sized {} field; only strings may be var-sized",
                    datatype_name(dt)
                )))
            }
            Some(n) if n != 1 && !string => {
                return Err(self.err(format!(
                    "it compares {name}, which holds {n} values per cell; the engine compares \
                     fields of one value per cell"
                )))
            }
            _ => {}
        }
        let set = matches!(op, Op::In | Op::NotIn);
        if let Some(size) = cell_size.filter(|_| !string && !set) {
            if v.value.len() != size {
                return Err(self.err(format!(
                    "it compares {name}, whose cells hold {size} bytes, with a value of {} \
                     (the engine: \"value size mismatch\"; a null test is stored so)",
                    v.value.len()
                )));
            }
        }
        let cmp = |op: CmpOp| -> Bound {
            let value = if dt == Datatype::Char && info.cell_val_num.is_some() {
                // The first char of the value; an empty value is its NUL.
                Value::Char(v.value.first().copied().unwrap_or(0) as i8)
            } else {
                member_value(dt, &v.value).unwrap_or_else(|| Value::Bytes(v.value.clone()))
            };
            Bound::Cmp {
                field: i,
                op,
                value,
            }
        };
        Ok(match op {
            Op::Lt => cmp(CmpOp::Lt),
            Op::Le => cmp(CmpOp::Le),
            Op::Gt => cmp(CmpOp::Gt),
            Op::Ge => cmp(CmpOp::Ge),
            Op::Eq => cmp(CmpOp::Eq),
            Op::Ne => cmp(CmpOp::Ne),
            Op::AlwaysTrue => Bound::Valid(i),
            Op::AlwaysFalse => Bound::Const(false),
            Op::In | Op::NotIn => {
                let members = self.members(v, name)?;
                if let Some(size) = cell_size.filter(|_| !enumerated) {
                    if let Some(m) = members.iter().find(|m| m.len() != size) {
                        return Err(self.err(format!(
                            "a member of its set for {name} has {} bytes; the cells hold {size}",
                            m.len()
                        )));
                    }
                }
                Bound::Set {
                    field: i,
                    negated: op == Op::NotIn,
                    members: members.into_iter().collect(),
                }
            }
            other => return Err(self.err(format!("unknown op {}", other.value()))),
        })
    }

    /// The members of a set node, checked as the engine's `ASTNodeVal`
    /// set constructor checks them.
    fn members(&self, v: &ValueNode, name: &str) -> Result<BTreeSet<Vec<u8>>> {
        let offsets = v.offsets.as_deref().unwrap_or(&[]);
        if v.value.is_empty() || offsets.is_empty() || !offsets.len().is_multiple_of(8) {
            return Err(self.err(format!(
                "its set for {name} has {} bytes of members and {} of offsets; the engine \
                 needs members and whole u64 offsets",
                v.value.len(),
                offsets.len()
            )));
        }
        let starts: Vec<u64> = offsets
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
            .collect();
        let len = v.value.len() as u64;
        let mut out = BTreeSet::new();
        for (k, &s) in starts.iter().enumerate() {
            let e = starts.get(k + 1).copied().unwrap_or(len);
            if s > e || e > len {
                return Err(self.err(format!(
                    "the offsets of its set for {name} decrease or pass its {len} bytes"
                )));
            }
            out.insert(v.value[s as usize..e as usize].to_vec());
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::column::{Cells, Column};

    fn num(op: Op, field: &str, v: i32) -> ConditionNode {
        value_node(op, field.as_bytes(), v.to_le_bytes().to_vec())
    }

    fn set(op: Op, field: &str, members: &[&[u8]]) -> ConditionNode {
        set_node(op, field.as_bytes(), members)
    }

    /// A set node whose offsets are planted (not where its members start).
    fn planted_set(op: Op, value: &[u8], starts: &[u64]) -> ConditionNode {
        node(crate::format::table!(ValueNode {
            op,
            field_name: b"s".to_vec(),
            value: value.to_vec(),
            offsets_size: Some(0),
            offsets: Some(starts.iter().flat_map(|o| o.to_le_bytes()).collect()),
        }))
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
        let bytes = serialize(&tree).unwrap();
        let back = deserialize(&bytes, std::path::Path::new("x.del")).unwrap();
        assert_eq!(back, tree);
        assert_eq!(serialize(&back).unwrap(), bytes);
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
        assert_eq!(serialize(&num(Op::Ge, "a", 5)).unwrap(), want);

        let mut want = vec![1u8, Op::In.value()];
        want.extend(1u32.to_le_bytes());
        want.push(b's');
        want.extend(3u64.to_le_bytes());
        want.extend(b"xyz");
        want.extend(16u64.to_le_bytes());
        want.extend(0u64.to_le_bytes());
        want.extend(1u64.to_le_bytes());
        assert_eq!(serialize(&set(Op::In, "s", &[b"x", b"yz"])).unwrap(), want);

        let e = expression_node(Comb::Or, vec![num(Op::Eq, "a", 1), num(Op::Eq, "a", 2)]);
        let bytes = serialize(&e).unwrap();
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
        let always = value_node(Op::AlwaysFalse, b"a", Vec::new());
        assert!(negated(&expression_node(Comb::And, vec![tree, always])).is_err());
    }

    fn field(
        name: &str,
        datatype: Datatype,
        cell_val_num: Option<u32>,
        nullable: bool,
    ) -> StoredField {
        StoredField {
            info: FieldInfo {
                name: name.to_string(),
                idx: 0,
                is_dimension: false,
                datatype,
                cell_val_num,
                nullable,
                filters: Vec::new(),
            },
            enumerated: false,
        }
    }

    /// The fields of the tests: `c` CHAR of 3, `n` a nullable int32, `i`
    /// an int32, `s` a var-sized string, `b` a blob.
    fn fields(name: &str) -> Option<StoredField> {
        Some(match name {
            "c" => field(name, Datatype::Char, Some(3), false),
            "n" => field(name, Datatype::Int32, Some(1), true),
            "i" => field(name, Datatype::Int32, Some(1), false),
            "s" => field(name, Datatype::StringAscii, None, false),
            "b" => field(name, Datatype::Blob, Some(1), false),
            _ => return None,
        })
    }

    fn bind(node: &ConditionNode) -> Result<BoundCondition> {
        BoundCondition::from_stored(node, "x.del", &fields)
    }

    fn column(name: &str, data: Vec<u8>, validity: Option<Vec<u8>>, len: usize) -> Column {
        let f = fields(name).unwrap().info;
        Column::from_parts(f, data, None, validity, len)
    }

    #[test]
    fn stored_conditions_compare_as_query_conditions_do() {
        let cells = Cells {
            len: 3,
            columns: vec![
                column("c", b"abcbcdaaa".to_vec(), None, 3),
                column(
                    "n",
                    [1i32, 0, 5].iter().flat_map(|v| v.to_le_bytes()).collect(),
                    Some(vec![1, 0, 1]),
                    3,
                ),
            ],
        };
        let eval = |node: ConditionNode| bind(&node).unwrap().evaluate(&cells).unwrap();
        // A fixed-size CHAR field: the first char decides.
        let c = |op, v: &[u8]| value_node(op, b"c", v.to_vec());
        assert_eq!(eval(c(Op::Eq, b"abx")), [true, false, true]);
        assert_eq!(eval(c(Op::Ne, b"bzz")), [true, false, true]);
        assert_eq!(eval(c(Op::Gt, b"a")), [false, true, false]);
        // A set compares whole cells.
        assert_eq!(
            eval(set(Op::In, "c", &[b"aaa", b"abx"])),
            [false, false, true]
        );
        // A null cell satisfies no comparison, not even `!=`.
        assert_eq!(eval(num(Op::Ge, "n", 3)), [false, false, true]);
        assert_eq!(eval(num(Op::Ne, "n", 3)), [true, false, true]);
        // ALWAYS_TRUE holds for the cells that are not null.
        let always = value_node(Op::AlwaysTrue, b"n", 0i32.to_le_bytes().to_vec());
        assert_eq!(eval(always), [true, false, true]);
        let either = expression_node(Comb::Or, vec![c(Op::Eq, b"b"), num(Op::Lt, "n", 2)]);
        assert_eq!(eval(either), [true, true, false]);
    }

    #[test]
    fn stored_conditions_the_engine_cannot_apply_are_refused() {
        let refused = |node: ConditionNode, says: &str| {
            let e = bind(&node).expect_err(says).to_string();
            assert!(e.contains(says), "{e}");
        };
        // A null test is stored as an empty value: a size mismatch.
        refused(value_node(Op::Eq, b"n", Vec::new()), "value size mismatch");
        refused(num(Op::Lt, "gone", 1), "\"gone\"");
        refused(
            value_node(Op::Eq, b"b", vec![1]),
            "compares numbers, datetimes and CHAR/ASCII/UTF-8 strings only",
        );
        refused(
            expression_node(Comb::Not, vec![num(Op::Lt, "i", 1)]),
            "NOT node",
        );
        refused(
            expression_node(Comb::And, vec![num(Op::Lt, "i", 1)]),
            "at least 2",
        );
        refused(set(Op::In, "i", &[&[1, 0]]), "the cells hold 4");
        refused(planted_set(Op::In, b"", &[0]), "members");
        refused(planted_set(Op::NotIn, b"ab", &[0, 3]), "offsets");
        // The empty string of a var-sized string field is a value.
        assert!(bind(&value_node(Op::Eq, b"s", Vec::new())).is_ok());
    }

    #[test]
    fn a_field_the_cells_lack_fails_and_erases_the_or_before_it() {
        let tree = expression_node(
            Comb::Or,
            vec![
                num(Op::Lt, "i", 1),
                num(Op::Lt, "n", 1),
                num(Op::Eq, "i", 2),
            ],
        );
        let bound = bind(&tree).unwrap();
        assert!(bound.with_absent_fields(&|_| false).is_none());
        let lacking = bound.with_absent_fields(&|f| f.name == "n").unwrap();
        // Only the sibling after the absent field's comparison is left.
        let want = Bound::Cmp {
            field: 0,
            op: CmpOp::Eq,
            value: Value::I32(2),
        };
        assert_eq!(lacking.tree, Bound::Or(vec![want]));
        let and = bind(&expression_node(
            Comb::And,
            vec![num(Op::Lt, "i", 1), num(Op::Lt, "n", 1)],
        ))
        .unwrap();
        let lacking = and.with_absent_fields(&|f| f.name == "n").unwrap();
        assert!(matches!(&lacking.tree, Bound::And(k) if k[1] == Bound::Const(false)));
    }
}
