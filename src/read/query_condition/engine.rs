//! The engine's tree of a condition (what a delete serializes).

use super::ast::*;
use super::bind::*;
use super::serialized as condition;
use crate::error::Result;
use crate::format::{
    ConditionNode, QueryConditionCombinationOp as CombOp, QueryConditionOp as EngineOp,
};

impl Binder<'_> {
    /// The engine's tree of `node`, negated when `negate` (TileDB-Py's
    /// `not` negates the tree built so far, before the rewrite for the
    /// schema; negation keeps a tree's shape, so it is pushed down here).
    pub(super) fn engine(&mut self, node: &Node, negate: bool) -> Result<ConditionNode> {
        Ok(match node {
            Node::And(kids) | Node::Or(kids) => {
                let op = if matches!(node, Node::And(_)) != negate {
                    CombOp::And
                } else {
                    CombOp::Or
                };
                let mut acc: Option<ConditionNode> = None;
                for k in kids {
                    let k = self.engine(k, negate)?;
                    acc = Some(match acc {
                        None => k,
                        Some(a) => condition::combine(a, k, op),
                    });
                }
                acc.ok_or_else(|| self.err("an empty combination".into()))?
            }
            Node::Not(k) => self.engine(k, !negate)?,
            Node::Cmp { field, op, value } => {
                let op = if negate { op.negated() } else { *op };
                self.engine_cmp(field, op, value)?
            }
            Node::Set {
                field,
                negated,
                values,
            } => self.engine_set(field, *negated != negate, values)?,
        })
    }

    pub(super) fn engine_cmp(
        &mut self,
        f: &FieldRef,
        op: Op,
        value: &Lit,
    ) -> Result<ConditionNode> {
        let i = self.field(f)?;
        let field = self.fields[i].clone();
        let name = field.name.as_bytes();
        let eop = engine_op(op);
        if *value == Lit::None {
            let op = if field.nullable {
                eop
            } else if op == Op::Eq {
                EngineOp::AlwaysFalse
            } else {
                EngineOp::AlwaysTrue
            };
            return Ok(condition::value_node(op, name, Vec::new()));
        }
        if let Some(labels) = self.labels(&field)? {
            if !labels.ordered && !matches!(op, Op::Eq | Op::Ne) {
                return Err(self.err(format!(
                    "{} has an unordered enumeration: compare it with == or != only, not {}",
                    field.name,
                    op.symbol()
                )));
            }
            let label = self.label_bytes(&field, &labels, value)?;
            return Ok(match labels.values.iter().position(|l| *l == label) {
                Some(idx) => {
                    let v = self.index_value(&field, idx)?.to_bytes();
                    condition::value_node(eop, name, v)
                }
                None => {
                    let op = if op == Op::Ne {
                        EngineOp::AlwaysTrue
                    } else {
                        EngineOp::AlwaysFalse
                    };
                    let zero = vec![0u8; field.datatype.size() as usize];
                    condition::value_node(op, name, zero)
                }
            });
        }
        self.check_comparable(&field)?;
        let v = convert(&field, value).map_err(|w| self.err(w))?;
        Ok(condition::value_node(eop, name, v.to_bytes()))
    }

    pub(super) fn engine_set(
        &mut self,
        f: &FieldRef,
        negated: bool,
        values: &[Lit],
    ) -> Result<ConditionNode> {
        self.check_set(f, values)?;
        let i = self.field(f)?;
        let field = self.fields[i].clone();
        let mut members: Vec<Vec<u8>> = Vec::new();
        if let Some(labels) = self.labels(&field)? {
            // The engine keeps the indexes of the labels it knows, each once
            // (in an order of its own: its members are a hash set).
            for v in values {
                let label = self.label_bytes(&field, &labels, v)?;
                if let Some(idx) = labels.values.iter().position(|l| *l == label) {
                    let m = self.index_value(&field, idx)?.to_bytes();
                    if !members.contains(&m) {
                        members.push(m);
                    }
                }
            }
        } else {
            self.check_comparable(&field)?;
            for v in values {
                members.push(self.set_member(&field, v)?);
            }
        }
        let op = if negated {
            EngineOp::NotIn
        } else {
            EngineOp::In
        };
        Ok(condition::set_node(op, field.name.as_bytes(), &members))
    }
}

/// The engine's code of a comparison.
pub(super) fn engine_op(op: Op) -> EngineOp {
    match op {
        Op::Lt => EngineOp::Lt,
        Op::Le => EngineOp::Le,
        Op::Gt => EngineOp::Gt,
        Op::Ge => EngineOp::Ge,
        Op::Eq => EngineOp::Eq,
        Op::Ne => EngineOp::Ne,
    }
}
