//! Query conditions in TileDB-Py's `query(cond=...)` syntax: parsed into a
//! tree, bound to an array's schema (enumerations compared by label), and
//! evaluated on columns of cells; tiles whose min/max/null counts prove that
//! no cell matches can be skipped.
//!
//! The syntax is TileDB-Py's (`tiledb/query_condition.py`, a Python
//! expression): comparisons `< <= > >= == !=` with the field on either side,
//! chained comparisons (`1 < a < 5`), `in [..]` / `not in [..]`, `and`,
//! `or`, `not`, `&` and `|` (Python's precedence: tighter than comparisons,
//! so `(a > 1) & (b < 2)` needs its parentheses), `attr("name")`,
//! `dim("name")`, `val(..)`, string and bytes literals, and `== None` /
//! `!= None` for null tests. Beyond TileDB-Py: negative numbers inside
//! `in` lists and `val(..)`, `is None` / `is not None` (also `is null`),
//! `col("name")` (a field of any kind, for names that are not
//! identifiers), and `in` on every numeric width.
//!
//! The same conditions are built in Rust with [`col`], [`attr`] and [`dim`]
//! (`col("a").gt(5).and(col("s").eq("x"))`): the tree the text parses to,
//! built directly.
//!
//! The meaning is the engine's (tiledb/sm/query/query_condition.cc,
//! `apply_ast_node_sparse`; tiledb/sm/query/ast/query_ast.cc):
//! - a null cell satisfies no comparison, not even `!=`, and no `in` or
//!   `not in`; only `== None` holds for it;
//! - `not` is pushed down to the leaves (`not (a < 5)` is `a >= 5`, De
//!   Morgan for `and`/`or`), so `not` of a comparison does not hold for
//!   null cells either;
//! - numbers compare by value as the field's datatype (NaN compares false,
//!   but `!=` holds for it; `-0.0 == 0.0`); `in`/`not in` compare the
//!   cells' bytes with the members' (so `-0.0` is not `in [0.0]`);
//! - strings compare bytewise, a prefix first; a fixed-size `CHAR` field
//!   compares only the first byte of the cell and of the value, as a signed
//!   char;
//! - fields of several values per cell (other than strings), var-sized
//!   fields other than strings, and blob/UTF-16/UTF-32 fields take null
//!   tests only;
//! - an enumerated attribute compares by label: the label becomes its
//!   index; a label the enumeration lacks makes `==` (and `<`..`>=`) match
//!   nothing and `!=` match every non-null cell, and is dropped from an
//!   `in`/`not in` list; `<`..`>=` need an ordered enumeration.

use crate::error::{Error, Result};
use crate::format::ConditionNode;

mod ast;
mod bind;
mod build;
mod engine;
mod eval;
mod lex;
mod parse;
pub mod serialized;
#[cfg(test)]
mod tests;

pub use ast::{BoundCondition, FieldTileStats, QueryCondition, MAX_CONDITION_DEPTH};
pub use bind::BindContext;
pub use build::{attr, col, dim, ConditionField, Literal};

use ast::*;
use bind::*;
use lex::{lex, SyntaxError, Tok};
use parse::*;

#[cfg(any(test, feature = "fail-points"))]
thread_local! {
    /// How many times [`QueryCondition::parse`] ran on this thread (tests
    /// of code that must build conditions without text; test builds only).
    #[doc(hidden)]
    pub static PARSES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// A condition's text that does not parse ([`QueryCondition::parse`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("condition {}: {what}", crate::error::condition_excerpt(text))]
#[non_exhaustive]
pub struct ConditionError {
    /// The condition's text.
    pub text: String,
    /// What is wrong with it, and at which byte.
    pub what: String,
}

impl From<ConditionError> for Error {
    fn from(e: ConditionError) -> Self {
        Error::Condition {
            text: e.text,
            what: e.what,
        }
    }
}

impl QueryCondition {
    /// Parses `text`, e.g. `a > 5 and (b == "x" or c in [1, 2])`.
    pub fn parse(text: &str) -> std::result::Result<Self, ConditionError> {
        #[cfg(any(test, feature = "fail-points"))]
        PARSES.with(|n| n.set(n.get() + 1));
        let err = |(at, what): SyntaxError| ConditionError {
            text: text.to_string(),
            what: format!("at byte {at}: {what}"),
        };
        let toks = lex(text).map_err(err)?;
        let mut p = Parser {
            toks,
            at: 0,
            depth: 0,
        };
        if *p.peek() == Tok::End {
            return Err(err((0, "the condition is empty".into())));
        }
        let e = p.or().map_err(err)?;
        if *p.peek() != Tok::End {
            return Err(err((p.pos(), format!("unexpected {}", p.peek()))));
        }
        let tree = p.cond(e, 0, "a query").map_err(err)?;
        Ok(QueryCondition {
            text: text.to_string(),
            tree,
        })
    }

    /// The text the condition was parsed from; for a condition built in
    /// Rust ([`col`]), the rendering of its tree, which parses back to it.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The names of the fields the condition reads.
    pub fn field_names(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.tree.fields(&mut out);
        out.into_iter().map(str::to_string).collect()
    }

    /// The fields the condition tests for null (`== None`, `is None`,
    /// `!= None`, ...), each once.
    pub fn null_tested_fields(&self) -> Vec<String> {
        fn walk(n: &Node, out: &mut Vec<String>) {
            match n {
                Node::And(k) | Node::Or(k) => k.iter().for_each(|c| walk(c, out)),
                Node::Not(c) => walk(c, out),
                Node::Cmp {
                    field,
                    value: Lit::None,
                    ..
                } => {
                    if !out.contains(&field.name) {
                        out.push(field.name.clone());
                    }
                }
                Node::Cmp { .. } | Node::Set { .. } => {}
            }
        }
        let mut out = Vec::new();
        walk(&self.tree, &mut out);
        out
    }

    /// Binds the condition to an array's newest schema (an
    /// [`crate::read::ArrayReader`] gives its own).
    pub fn bind<'a>(&self, on: impl Into<BindContext<'a>>) -> Result<BoundCondition> {
        let mut b = Binder {
            ctx: on.into(),
            text: &self.text,
            fields: Vec::new(),
        };
        let tree = b.node(&self.tree, false)?;
        Ok(BoundCondition {
            text: self.text.clone(),
            fields: b.fields,
            tree,
        })
    }

    /// The condition tree as the engine builds it from this text for the
    /// array `reader` opened (its latest schema), before any negation: what
    /// a delete serializes, negated ([`serialized::negated`]).
    ///
    /// Built as TileDB-Py builds it (`tiledb/query_condition.py`: values
    /// cast to the field's datatype, an enumerated attribute's labels to
    /// its enumeration's; `and`/`&` and `or`/`|` combined left to right,
    /// `not` negating its operand), combined as the engine combines
    /// (`ASTNode::combine`: children of a node of the same op are taken
    /// over), rewritten as the engine rewrites it for the schema
    /// (`ASTNodeVal::rewrite_for_schema`: a null test of a field that
    /// cannot be null becomes `ALWAYS_FALSE` (`==`) or `ALWAYS_TRUE`
    /// (`!=`); an enumerated attribute's label becomes its index, a label
    /// the enumeration lacks `ALWAYS_TRUE` (`!=`) or `ALWAYS_FALSE`, and is
    /// dropped from a set) and checked as the engine checks it
    /// (`check_node_validity`).
    pub fn engine_tree<'a>(&self, on: impl Into<BindContext<'a>>) -> Result<ConditionNode> {
        let mut b = Binder {
            ctx: on.into(),
            text: &self.text,
            fields: Vec::new(),
        };
        b.engine(&self.tree, false)
    }
}
