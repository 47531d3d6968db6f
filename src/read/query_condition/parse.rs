//! The parser: tokens to the syntax tree (Python's precedence).

use super::ast::*;
use super::lex::*;

/// What an expression is while it is parsed: a condition or an operand.
#[derive(Debug)]
pub(super) enum Expr {
    Cond(Node),
    Field(FieldRef),
    Value(Lit),
    List(Vec<Lit>),
}

impl Expr {
    pub(super) fn describe(&self) -> String {
        match self {
            Expr::Cond(_) => "a condition".into(),
            Expr::Field(f) => format!("the field {}", f.name),
            Expr::Value(v) => format!("the value {v}"),
            Expr::List(_) => "a list".into(),
        }
    }
}

pub(super) struct Parser {
    pub(super) toks: Vec<(usize, Tok)>,
    pub(super) at: usize,
    pub(super) depth: usize,
}

pub(super) type PResult<T> = std::result::Result<T, SyntaxError>;

impl Parser {
    pub(super) fn peek(&self) -> &Tok {
        &self.toks[self.at.min(self.toks.len() - 1)].1
    }

    pub(super) fn peek2(&self) -> &Tok {
        &self.toks[(self.at + 1).min(self.toks.len() - 1)].1
    }

    pub(super) fn pos(&self) -> usize {
        self.toks[self.at.min(self.toks.len() - 1)].0
    }

    pub(super) fn next(&mut self) -> Tok {
        let t = self.peek().clone();
        self.at += 1;
        t
    }

    pub(super) fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == w)
    }

    pub(super) fn expect(&mut self, t: Tok) -> PResult<()> {
        if *self.peek() == t {
            self.next();
            Ok(())
        } else {
            Err((self.pos(), format!("expected {t}, found {}", self.peek())))
        }
    }

    pub(super) fn deeper(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_CONDITION_DEPTH {
            return Err((
                self.pos(),
                format!("nested more than {MAX_CONDITION_DEPTH} deep"),
            ));
        }
        Ok(())
    }

    pub(super) fn cond(&self, e: Expr, at: usize, what: &str) -> PResult<Node> {
        let hint = if matches!(what, "&" | "|") {
            " (& and | bind tighter than comparisons, as in Python: \
             parenthesize the comparisons, (a > 1) & (b < 2))"
        } else {
            ""
        };
        match e {
            Expr::Cond(n) => Ok(n),
            other => Err((
                at,
                format!("{what} needs a condition, not {}{hint}", other.describe()),
            )),
        }
    }

    /// `or` (Python's lowest precedence).
    pub(super) fn or(&mut self) -> PResult<Expr> {
        let at = self.pos();
        let first = self.and()?;
        if !self.is_word("or") {
            return Ok(first);
        }
        let mut kids = vec![self.cond(first, at, "or")?];
        while self.is_word("or") {
            self.next();
            let at = self.pos();
            let e = self.and()?;
            kids.push(self.cond(e, at, "or")?);
        }
        Ok(Expr::Cond(Node::Or(kids)))
    }

    pub(super) fn and(&mut self) -> PResult<Expr> {
        let at = self.pos();
        let first = self.not()?;
        if !self.is_word("and") {
            return Ok(first);
        }
        let mut kids = vec![self.cond(first, at, "and")?];
        while self.is_word("and") {
            self.next();
            let at = self.pos();
            let e = self.not()?;
            kids.push(self.cond(e, at, "and")?);
        }
        Ok(Expr::Cond(Node::And(kids)))
    }

    pub(super) fn not(&mut self) -> PResult<Expr> {
        if !self.is_word("not") {
            return self.comparison();
        }
        self.next();
        self.deeper()?;
        let at = self.pos();
        let e = self.not()?;
        self.depth -= 1;
        Ok(Expr::Cond(Node::Not(Box::new(self.cond(e, at, "not")?))))
    }

    /// A comparison, possibly chained (`1 < a < 5`), a membership test or
    /// a null test; or a lone operand.
    pub(super) fn comparison(&mut self) -> PResult<Expr> {
        let at = self.pos();
        let first = self.bitor()?;
        // Membership and null tests.
        let negated_in = self.is_word("not") && matches!(self.peek2(), Tok::Ident(w) if w == "in");
        if self.is_word("in") || negated_in {
            let op_at = self.pos();
            self.next();
            if negated_in {
                self.next();
            }
            let field = self.field_of(first, at, if negated_in { "not in" } else { "in" })?;
            let list_at = self.pos();
            let values = match self.bitor()? {
                Expr::List(v) => v,
                other => {
                    return Err((
                        list_at,
                        format!("`in` takes a list such as [1, 2], not {}", other.describe()),
                    ))
                }
            };
            if values.is_empty() {
                return Err((list_at, "`in` needs at least one value".into()));
            }
            if let Some(v) = values.iter().find(|v| **v == Lit::None) {
                return Err((list_at, format!("`in` cannot hold {v}")));
            }
            self.no_chain(op_at)?;
            return Ok(Expr::Cond(Node::Set {
                field,
                negated: negated_in,
                values,
            }));
        }
        if self.is_word("is") {
            let op_at = self.pos();
            self.next();
            let negated = self.is_word("not");
            if negated {
                self.next();
            }
            let null = matches!(self.peek(), Tok::Lit(Lit::None))
                || self.is_word("null")
                || self.is_word("NULL");
            if !null {
                return Err((self.pos(), format!("`is` takes None, not {}", self.peek())));
            }
            self.next();
            let field = self.field_of(first, at, "is")?;
            self.no_chain(op_at)?;
            return Ok(Expr::Cond(Node::Cmp {
                field,
                op: if negated { Op::Ne } else { Op::Eq },
                value: Lit::None,
            }));
        }
        let Tok::Cmp(_) = self.peek() else {
            return Ok(first);
        };
        // Chained comparisons: each neighbouring pair, all of them true.
        let mut left = (at, first);
        let mut pairs = Vec::new();
        while let Tok::Cmp(op) = *self.peek() {
            self.next();
            let at = self.pos();
            let right = self.bitor()?;
            let node = self.pair(&left, op, (at, &right))?;
            pairs.push(node);
            left = (at, right);
        }
        if self.is_word("in")
            || self.is_word("is")
            || (self.is_word("not") && !self.at_end_of_not())
        {
            return Err((
                self.pos(),
                "`in` and `is` do not chain with other comparisons: use `and`".into(),
            ));
        }
        Ok(Expr::Cond(if pairs.len() == 1 {
            pairs.remove(0)
        } else {
            Node::And(pairs)
        }))
    }

    /// Whether a `not` here starts something other than `not in` (always an
    /// error after a comparison, reported by the caller as unexpected).
    pub(super) fn at_end_of_not(&self) -> bool {
        !matches!(self.peek2(), Tok::Ident(w) if w == "in")
    }

    pub(super) fn no_chain(&self, op_at: usize) -> PResult<()> {
        if matches!(self.peek(), Tok::Cmp(_)) || self.is_word("in") || self.is_word("is") {
            return Err((
                op_at,
                "`in` and `is` do not chain with other comparisons: use `and`".into(),
            ));
        }
        Ok(())
    }

    pub(super) fn field_of(&self, e: Expr, at: usize, op: &str) -> PResult<FieldRef> {
        match e {
            Expr::Field(f) => Ok(f),
            other => Err((
                at,
                format!("`{op}` needs a field on its left, not {}", other.describe()),
            )),
        }
    }

    /// One comparison of a chain: a field and a value, either way round.
    pub(super) fn pair(
        &self,
        left: &(usize, Expr),
        op: Op,
        right: (usize, &Expr),
    ) -> PResult<Node> {
        let (field, op, value) = match (&left.1, right.1) {
            (Expr::Field(f), Expr::Value(v)) => (f.clone(), op, v.clone()),
            (Expr::Value(v), Expr::Field(f)) => (f.clone(), op.swapped(), v.clone()),
            (Expr::Field(a), Expr::Field(b)) => {
                return Err((
                    right.0,
                    format!(
                        "{} {} {} compares two fields; one side must be a value \
                         (quote {} if it is a string)",
                        a.name,
                        op.symbol(),
                        b.name,
                        b.name
                    ),
                ))
            }
            (Expr::Value(a), Expr::Value(b)) => {
                return Err((
                    left.0,
                    format!(
                        "{a} {} {b} compares two values; one side must be a field",
                        op.symbol()
                    ),
                ))
            }
            (l, r) => {
                let (at, bad) = if matches!(l, Expr::Field(_) | Expr::Value(_)) {
                    (right.0, r)
                } else {
                    (left.0, l)
                };
                return Err((
                    at,
                    format!(
                        "{} compares a field with a value, not {} (& and | bind \
                         tighter than comparisons: parenthesize the comparisons)",
                        op.symbol(),
                        bad.describe()
                    ),
                ));
            }
        };
        if value == Lit::None && !matches!(op, Op::Eq | Op::Ne) {
            return Err((
                right.0,
                format!("None compares with == and != only, not {}", op.symbol()),
            ));
        }
        Ok(Node::Cmp { field, op, value })
    }

    /// `|` of conditions (Python's bitwise or: tighter than comparisons).
    pub(super) fn bitor(&mut self) -> PResult<Expr> {
        let at = self.pos();
        let first = self.bitand()?;
        if *self.peek() != Tok::Pipe {
            return Ok(first);
        }
        let mut kids = vec![self.cond(first, at, "|")?];
        while *self.peek() == Tok::Pipe {
            self.next();
            let at = self.pos();
            let e = self.bitand()?;
            kids.push(self.cond(e, at, "|")?);
        }
        Ok(Expr::Cond(Node::Or(kids)))
    }

    pub(super) fn bitand(&mut self) -> PResult<Expr> {
        let at = self.pos();
        let first = self.unary()?;
        if *self.peek() != Tok::Amp {
            return Ok(first);
        }
        let mut kids = vec![self.cond(first, at, "&")?];
        while *self.peek() == Tok::Amp {
            self.next();
            let at = self.pos();
            let e = self.unary()?;
            kids.push(self.cond(e, at, "&")?);
        }
        Ok(Expr::Cond(Node::And(kids)))
    }

    /// A sign before a number.
    pub(super) fn unary(&mut self) -> PResult<Expr> {
        let negative = match self.peek() {
            Tok::Minus => true,
            Tok::Plus => false,
            _ => return self.atom(),
        };
        let at = self.pos();
        self.next();
        self.deeper()?;
        let e = self.unary()?;
        self.depth -= 1;
        match e {
            Expr::Value(v) => Ok(Expr::Value(signed(v, negative, at)?)),
            other => Err((
                at,
                format!("a sign goes before a number, not {}", other.describe()),
            )),
        }
    }

    pub(super) fn atom(&mut self) -> PResult<Expr> {
        let at = self.pos();
        match self.next() {
            Tok::LParen => {
                self.deeper()?;
                let e = self.or()?;
                self.depth -= 1;
                self.expect(Tok::RParen)?;
                Ok(e)
            }
            Tok::LBracket => {
                self.deeper()?;
                let mut values = Vec::new();
                while *self.peek() != Tok::RBracket {
                    let vat = self.pos();
                    match self.unary()? {
                        Expr::Value(v) => values.push(v),
                        other => {
                            return Err((
                                vat,
                                format!("a list holds values, not {}", other.describe()),
                            ))
                        }
                    }
                    if *self.peek() == Tok::Comma {
                        self.next();
                    } else if *self.peek() != Tok::RBracket {
                        return Err((
                            self.pos(),
                            format!("expected , or ] in a list, found {}", self.peek()),
                        ));
                    }
                }
                self.next();
                self.depth -= 1;
                Ok(Expr::List(values))
            }
            Tok::Lit(l) => Ok(Expr::Value(l)),
            Tok::Ident(name) if *self.peek() == Tok::LParen => self.call(name, at),
            Tok::Ident(name) => {
                if matches!(name.as_str(), "and" | "or" | "not" | "in" | "is") {
                    return Err((at, format!("expected a field or a value, found {name}")));
                }
                Ok(Expr::Field(FieldRef {
                    name,
                    kind: FieldKind::Any,
                }))
            }
            t => Err((at, format!("expected a field or a value, found {t}"))),
        }
    }

    /// `attr("name")`, `dim("name")`, `col("name")`, `val(value)`.
    pub(super) fn call(&mut self, name: String, at: usize) -> PResult<Expr> {
        self.expect(Tok::LParen)?;
        self.deeper()?;
        let arg_at = self.pos();
        let arg = self.unary()?;
        self.depth -= 1;
        self.expect(Tok::RParen)?;
        let kind = match name.as_str() {
            "val" => {
                return match arg {
                    Expr::Value(v) => Ok(Expr::Value(v)),
                    other => Err((
                        arg_at,
                        format!("val() takes a value, not {}", other.describe()),
                    )),
                }
            }
            "attr" => FieldKind::Attr,
            "dim" => FieldKind::Dim,
            "col" => FieldKind::Any,
            _ => {
                return Err((
                    at,
                    format!("unknown function {name} (attr, dim, col or val)"),
                ))
            }
        };
        match arg {
            Expr::Value(Lit::Str(s)) => Ok(Expr::Field(FieldRef {
                name: String::from_utf8_lossy(&s).into_owned(),
                kind,
            })),
            other => Err((
                arg_at,
                format!("{name}() takes a quoted name, not {}", other.describe()),
            )),
        }
    }
}

/// `-v` / `+v` of a number.
pub(super) fn signed(v: Lit, negative: bool, at: usize) -> PResult<Lit> {
    match v {
        Lit::Int(i) if negative => Ok(Lit::Int(-i)),
        Lit::Float(f) if negative => Ok(Lit::Float(-f)),
        Lit::Bool(b) if negative => Ok(Lit::Int(-i128::from(b))),
        Lit::Int(_) | Lit::Float(_) | Lit::Bool(_) => Ok(v),
        other => Err((at, format!("a sign goes before a number, not {other}"))),
    }
}
