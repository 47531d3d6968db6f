//! Conditions built in Rust: `col("a").gt(5).and(col("s").eq("x"))` is the
//! [`QueryCondition`] the text `a > 5 and s == "x"` parses to (the same
//! tree, so binding and evaluation are the text's), without text in
//! between. Its [`QueryCondition::text`] is a rendering of the tree that
//! parses back to it.

use super::ast::*;

/// A field to test in a condition: made by [`col`] (any field), [`attr`]
/// (an attribute) or [`dim`] (a dimension). Its methods make conditions.
#[derive(Debug, Clone)]
pub struct ConditionField(FieldRef);

/// The field `name`, an attribute or a dimension (the text's bare name, or
/// `col("name")` for a name that is not an identifier).
///
/// ```
/// use tiledb_codec::{col, Array};
///
/// let array = Array::open("tests/fixtures/v22/sparse_int_2d")?;
/// let cond = col("a").gt(5).and(col("r").lt(40));
/// assert_eq!(cond.text(), "a > 5 and r < 40");
/// let batch = array.reader().condition(cond).read()?;
/// assert!(batch.column::<i64>("a")?.iter().all(|a| *a > 5));
/// # Ok::<(), tiledb_codec::Error>(())
/// ```
pub fn col(name: impl Into<String>) -> ConditionField {
    field(name, FieldKind::Any)
}

/// The attribute `name` (the text's `attr("name")`): binding fails if it
/// is a dimension.
pub fn attr(name: impl Into<String>) -> ConditionField {
    field(name, FieldKind::Attr)
}

/// The dimension `name` (the text's `dim("name")`): binding fails if it is
/// an attribute.
pub fn dim(name: impl Into<String>) -> ConditionField {
    field(name, FieldKind::Dim)
}

fn field(name: impl Into<String>, kind: FieldKind) -> ConditionField {
    ConditionField(FieldRef {
        name: name.into(),
        kind,
    })
}

/// A value a condition compares with: an integer, a float, a string
/// (`&str`, `String`), bytes (`&[u8]`, `Vec<u8>`, `b"..."`) or a boolean.
/// It is converted to the field's datatype when the condition is bound,
/// as the text's literals are.
#[derive(Debug, Clone, PartialEq)]
pub struct Literal(Lit);

macro_rules! int_literal {
    ($($t:ty),*) => {$(
        impl From<$t> for Literal {
            fn from(v: $t) -> Self {
                Literal(Lit::Int(i128::from(v)))
            }
        }
    )*};
}
int_literal!(i8, i16, i32, i64, u8, u16, u32, u64, i128);

impl From<f64> for Literal {
    fn from(v: f64) -> Self {
        Literal(Lit::Float(v))
    }
}

impl From<f32> for Literal {
    fn from(v: f32) -> Self {
        Literal(Lit::Float(f64::from(v)))
    }
}

impl From<bool> for Literal {
    fn from(v: bool) -> Self {
        Literal(Lit::Bool(v))
    }
}

impl From<&str> for Literal {
    fn from(v: &str) -> Self {
        Literal(Lit::Str(v.as_bytes().to_vec()))
    }
}

impl From<String> for Literal {
    fn from(v: String) -> Self {
        Literal(Lit::Str(v.into_bytes()))
    }
}

impl From<&String> for Literal {
    fn from(v: &String) -> Self {
        Literal::from(v.as_str())
    }
}

impl From<&[u8]> for Literal {
    fn from(v: &[u8]) -> Self {
        Literal(Lit::Bytes(v.to_vec()))
    }
}

impl<const N: usize> From<&[u8; N]> for Literal {
    fn from(v: &[u8; N]) -> Self {
        Literal(Lit::Bytes(v.to_vec()))
    }
}

impl From<Vec<u8>> for Literal {
    fn from(v: Vec<u8>) -> Self {
        Literal(Lit::Bytes(v))
    }
}

impl ConditionField {
    fn cmp(self, op: Op, v: impl Into<Literal>) -> QueryCondition {
        QueryCondition::from_tree(Node::Cmp {
            field: self.0,
            op,
            value: v.into().0,
        })
    }

    /// `field < v`.
    pub fn lt(self, v: impl Into<Literal>) -> QueryCondition {
        self.cmp(Op::Lt, v)
    }

    /// `field <= v`.
    pub fn le(self, v: impl Into<Literal>) -> QueryCondition {
        self.cmp(Op::Le, v)
    }

    /// `field > v`.
    pub fn gt(self, v: impl Into<Literal>) -> QueryCondition {
        self.cmp(Op::Gt, v)
    }

    /// `field >= v`.
    pub fn ge(self, v: impl Into<Literal>) -> QueryCondition {
        self.cmp(Op::Ge, v)
    }

    /// `field == v`.
    pub fn eq(self, v: impl Into<Literal>) -> QueryCondition {
        self.cmp(Op::Eq, v)
    }

    /// `field != v` (a null cell satisfies no comparison, not even this).
    pub fn ne(self, v: impl Into<Literal>) -> QueryCondition {
        self.cmp(Op::Ne, v)
    }

    /// `field is None`: the cell is null.
    pub fn is_null(self) -> QueryCondition {
        QueryCondition::from_tree(Node::Cmp {
            field: self.0,
            op: Op::Eq,
            value: Lit::None,
        })
    }

    /// `field is not None`.
    pub fn is_not_null(self) -> QueryCondition {
        QueryCondition::from_tree(Node::Cmp {
            field: self.0,
            op: Op::Ne,
            value: Lit::None,
        })
    }

    /// `field in [v1, v2, ..]` (binding refuses an empty list, as the text
    /// does).
    pub fn is_in<I>(self, values: I) -> QueryCondition
    where
        I: IntoIterator,
        I::Item: Into<Literal>,
    {
        self.set(false, values)
    }

    /// `field not in [v1, v2, ..]`.
    pub fn not_in<I>(self, values: I) -> QueryCondition
    where
        I: IntoIterator,
        I::Item: Into<Literal>,
    {
        self.set(true, values)
    }

    fn set<I>(self, negated: bool, values: I) -> QueryCondition
    where
        I: IntoIterator,
        I::Item: Into<Literal>,
    {
        QueryCondition::from_tree(Node::Set {
            field: self.0,
            negated,
            values: values.into_iter().map(|v| v.into().0).collect(),
        })
    }
}

impl QueryCondition {
    /// The condition of `tree`, its text the tree's rendering.
    pub(super) fn from_tree(tree: Node) -> Self {
        QueryCondition {
            text: render(&tree),
            tree,
        }
    }

    /// How many levels the tree has (a comparison: 1; `a and not b`: 3).
    pub fn depth(&self) -> usize {
        fn depth(n: &Node) -> usize {
            1 + match n {
                Node::And(k) | Node::Or(k) => k.iter().map(depth).max().unwrap_or(0),
                Node::Not(k) => depth(k),
                Node::Cmp { .. } | Node::Set { .. } => 0,
            }
        }
        depth(&self.tree)
    }

    /// Both this and `other` hold (the text's `and`; `a.and(b).and(c)` is
    /// `a and b and c`).
    pub fn and(self, other: QueryCondition) -> QueryCondition {
        QueryCondition::from_tree(match self.tree {
            Node::And(mut kids) => {
                kids.push(other.tree);
                Node::And(kids)
            }
            t => Node::And(vec![t, other.tree]),
        })
    }

    /// This or `other` holds (the text's `or`).
    pub fn or(self, other: QueryCondition) -> QueryCondition {
        QueryCondition::from_tree(match self.tree {
            Node::Or(mut kids) => {
                kids.push(other.tree);
                Node::Or(kids)
            }
            t => Node::Or(vec![t, other.tree]),
        })
    }

    /// This does not hold (the text's `not`: pushed down to the
    /// comparisons when bound, so it does not hold for null cells either).
    #[allow(clippy::should_implement_trait)]
    pub fn not(self) -> QueryCondition {
        QueryCondition::from_tree(Node::Not(Box::new(self.tree)))
    }
}

impl std::ops::Not for QueryCondition {
    type Output = QueryCondition;

    fn not(self) -> QueryCondition {
        QueryCondition::not(self)
    }
}

/// `tree` as condition text that parses back to `tree` (floats other than
/// NaN and infinities, which the syntax has no literal for, are written
/// Python's way, `float('nan')`).
pub(super) fn render(tree: &Node) -> String {
    let mut out = String::new();
    write_node(tree, &mut out);
    out
}

fn write_node(n: &Node, out: &mut String) {
    match n {
        Node::And(kids) | Node::Or(kids) => {
            let word = if matches!(n, Node::And(_)) {
                " and "
            } else {
                " or "
            };
            for (i, k) in kids.iter().enumerate() {
                if i > 0 {
                    out.push_str(word);
                }
                // Parentheses keep a nested `and`/`or` one node of its own.
                if matches!(k, Node::And(_) | Node::Or(_)) {
                    out.push('(');
                    write_node(k, out);
                    out.push(')');
                } else {
                    write_node(k, out);
                }
            }
        }
        Node::Not(k) => {
            out.push_str("not (");
            write_node(k, out);
            out.push(')');
        }
        Node::Cmp {
            field,
            op,
            value: Lit::None,
        } => {
            write_field(field, out);
            out.push_str(if *op == Op::Ne {
                " is not None"
            } else {
                " is None"
            });
        }
        Node::Cmp { field, op, value } => {
            write_field(field, out);
            out.push(' ');
            out.push_str(op.symbol());
            out.push(' ');
            write_lit(value, out);
        }
        Node::Set {
            field,
            negated,
            values,
        } => {
            write_field(field, out);
            out.push_str(if *negated { " not in [" } else { " in [" });
            for (i, v) in values.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_lit(v, out);
            }
            out.push(']');
        }
    }
}

/// Whether the lexer reads `name` as one identifier naming a field.
fn is_identifier(name: &str) -> bool {
    let keyword = matches!(
        name,
        "and" | "or" | "not" | "in" | "is" | "None" | "True" | "False" | "null" | "NULL"
    );
    !keyword
        && name
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_alphanumeric() || c == '_')
}

fn write_field(f: &FieldRef, out: &mut String) {
    let call = match f.kind {
        FieldKind::Any if is_identifier(&f.name) => {
            out.push_str(&f.name);
            return;
        }
        FieldKind::Any => "col",
        FieldKind::Attr => "attr",
        FieldKind::Dim => "dim",
    };
    out.push_str(call);
    out.push('(');
    write_str(f.name.as_bytes(), out);
    out.push(')');
}

fn write_lit(v: &Lit, out: &mut String) {
    match v {
        Lit::Float(x) if x.is_nan() => out.push_str("float('nan')"),
        Lit::Float(x) if x.is_infinite() => {
            out.push_str(if *x > 0.0 {
                "float('inf')"
            } else {
                "float('-inf')"
            });
        }
        Lit::Str(s) => write_str(s, out),
        Lit::Bytes(b) => {
            out.push_str("b\"");
            for &c in b {
                match c {
                    b'\\' => out.push_str("\\\\"),
                    b'"' => out.push_str("\\\""),
                    0x20..=0x7e => out.push(char::from(c)),
                    c => out.push_str(&format!("\\x{c:02x}")),
                }
            }
            out.push('"');
        }
        // Integers as decimals, finite floats as Rust's shortest
        // round-tripping form (`5.0`, `1e-7`), booleans and None as Python's.
        v => out.push_str(&v.to_string()),
    }
}

/// A double-quoted string literal holding `bytes` (UTF-8 text).
fn write_str(bytes: &[u8], out: &mut String) {
    out.push('"');
    for ch in String::from_utf8_lossy(bytes).chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}
