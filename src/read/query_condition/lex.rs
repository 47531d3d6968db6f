//! The lexer: TileDB-Py's condition text to tokens.

use super::ast::*;

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    Ident(String),
    Lit(Lit),
    Cmp(Op),
    LParen,
    RParen,
    LBracket,
    RBracket,
    Comma,
    Amp,
    Pipe,
    Minus,
    Plus,
    End,
}

impl std::fmt::Display for Tok {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tok::Ident(s) => write!(f, "{s}"),
            Tok::Lit(l) => write!(f, "{l}"),
            Tok::Cmp(op) => write!(f, "{}", op.symbol()),
            Tok::LParen => write!(f, "("),
            Tok::RParen => write!(f, ")"),
            Tok::LBracket => write!(f, "["),
            Tok::RBracket => write!(f, "]"),
            Tok::Comma => write!(f, ","),
            Tok::Amp => write!(f, "&"),
            Tok::Pipe => write!(f, "|"),
            Tok::Minus => write!(f, "-"),
            Tok::Plus => write!(f, "+"),
            Tok::End => write!(f, "the end"),
        }
    }
}

/// A syntax error: where (byte offset) and what.
pub(super) type SyntaxError = (usize, String);

/// Splits `text` into tokens with their byte offsets.
pub(super) fn lex(text: &str) -> std::result::Result<Vec<(usize, Tok)>, SyntaxError> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let two = b.get(i..i + 2).unwrap_or_default();
        let tok = match c {
            b'(' => Tok::LParen,
            b')' => Tok::RParen,
            b'[' => Tok::LBracket,
            b']' => Tok::RBracket,
            b',' => Tok::Comma,
            b'&' => Tok::Amp,
            b'|' => Tok::Pipe,
            b'-' => Tok::Minus,
            b'+' => Tok::Plus,
            b'<' if two == b"<=" => Tok::Cmp(Op::Le),
            b'>' if two == b">=" => Tok::Cmp(Op::Ge),
            b'=' if two == b"==" => Tok::Cmp(Op::Eq),
            b'!' if two == b"!=" => Tok::Cmp(Op::Ne),
            b'<' => Tok::Cmp(Op::Lt),
            b'>' => Tok::Cmp(Op::Gt),
            b'=' => return Err((i, "= assigns in Python; compare with ==".into())),
            b'0'..=b'9' | b'.' => {
                let (tok, end) = lex_number(text, i)?;
                i = end;
                out.push((start, tok));
                continue;
            }
            b'"' | b'\'' => {
                let (s, end) = lex_string(text, i, false, false)?;
                i = end;
                out.push((start, Tok::Lit(Lit::Str(s))));
                continue;
            }
            _ => {
                // An identifier, or a string prefix (b, r, u, br, rb).
                let rest = &text[i..];
                let len: usize = rest
                    .char_indices()
                    .find(|(_, ch)| !(ch.is_alphanumeric() || *ch == '_'))
                    .map_or(rest.len(), |(k, _)| k);
                if len == 0 {
                    let ch = rest.chars().next().unwrap_or('?');
                    return Err((i, format!("unexpected character {ch:?}")));
                }
                let word = &rest[..len];
                let quote = b.get(i + len).is_some_and(|q| *q == b'"' || *q == b'\'');
                let prefix = word.to_ascii_lowercase();
                if quote && matches!(prefix.as_str(), "b" | "r" | "u" | "br" | "rb") {
                    let bytes = prefix.contains('b');
                    let raw = prefix.contains('r');
                    let (s, end) = lex_string(text, i + len, bytes, raw)?;
                    i = end;
                    let lit = if bytes { Lit::Bytes(s) } else { Lit::Str(s) };
                    out.push((start, Tok::Lit(lit)));
                    continue;
                }
                if word.chars().next().is_some_and(|ch| ch.is_numeric()) {
                    return Err((i, format!("{word} is not a name or a number")));
                }
                i += len;
                let tok = match word {
                    "None" => Tok::Lit(Lit::None),
                    "True" => Tok::Lit(Lit::Bool(true)),
                    "False" => Tok::Lit(Lit::Bool(false)),
                    _ => Tok::Ident(word.to_string()),
                };
                out.push((start, tok));
                continue;
            }
        };
        i += match tok {
            Tok::Cmp(Op::Le | Op::Ge | Op::Eq | Op::Ne) => 2,
            _ => 1,
        };
        out.push((start, tok));
    }
    out.push((b.len(), Tok::End));
    Ok(out)
}

/// A Python number at `at`: decimal, hexadecimal, octal or binary integers
/// (with `_` between digits) and decimal floats.
pub(super) fn lex_number(text: &str, at: usize) -> std::result::Result<(Tok, usize), SyntaxError> {
    let b = text.as_bytes();
    let mut end = at;
    while end < b.len() && (b[end].is_ascii_alphanumeric() || b[end] == b'_' || b[end] == b'.') {
        // An exponent's sign belongs to the number.
        if (b[end] == b'e' || b[end] == b'E')
            && !text[at..end].starts_with("0x")
            && !text[at..end].starts_with("0X")
            && matches!(b.get(end + 1), Some(b'+' | b'-'))
        {
            end += 1;
        }
        end += 1;
    }
    let word = &text[at..end];
    let bad = || (at, format!("{word} is not a number"));
    let clean: String = word.chars().filter(|c| *c != '_').collect();
    if word.starts_with('_') || word.ends_with('_') || word.contains("__") {
        return Err(bad());
    }
    let lower = clean.to_ascii_lowercase();
    let radix = match lower.get(..2) {
        Some("0x") => Some(16),
        Some("0o") => Some(8),
        Some("0b") => Some(2),
        _ => None,
    };
    if let Some(r) = radix {
        let v = i128::from_str_radix(&lower[2..], r).map_err(|_| bad())?;
        return Ok((Tok::Lit(Lit::Int(v)), end));
    }
    if lower.ends_with('j') {
        return Err((at, format!("{word} is a complex number")));
    }
    if lower.bytes().all(|c| c.is_ascii_digit()) {
        let v = lower
            .parse::<i128>()
            .map_err(|_| (at, format!("{word} is too large")))?;
        return Ok((Tok::Lit(Lit::Int(v)), end));
    }
    let is_float = lower
        .bytes()
        .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'+' | b'-'))
        && lower.bytes().any(|c| c.is_ascii_digit());
    match lower.parse::<f64>() {
        Ok(v) if is_float => Ok((Tok::Lit(Lit::Float(v)), end)),
        _ => Err(bad()),
    }
}

/// A quoted string whose opening quote is at `at`; returns its bytes (UTF-8
/// for str literals) and where it ends.
pub(super) fn lex_string(
    text: &str,
    at: usize,
    bytes: bool,
    raw: bool,
) -> std::result::Result<(Vec<u8>, usize), SyntaxError> {
    let b = text.as_bytes();
    let quote = b[at];
    let triple = b.get(at..at + 3) == Some(&[quote, quote, quote][..]);
    let open = if triple { 3 } else { 1 };
    let mut out = Vec::new();
    let mut chars = text[at + open..].char_indices().peekable();
    let pos = |k: usize| at + open + k;
    while let Some((k, ch)) = chars.next() {
        if ch as u32 == u32::from(quote)
            && (!triple || b.get(pos(k)..pos(k) + 3) == Some(&[quote, quote, quote][..]))
        {
            return Ok((out, pos(k) + open));
        }
        if ch == '\n' && !triple {
            return Err((pos(k), "a string runs past the end of the line".into()));
        }
        if bytes && !ch.is_ascii() {
            return Err((pos(k), "bytes literals hold ASCII characters only".into()));
        }
        if ch != '\\' || raw {
            if raw && ch == '\\' {
                // A raw string still cannot end in an odd backslash.
                out.push(b'\\');
                if let Some((_, next)) = chars.next() {
                    let mut buf = [0; 4];
                    out.extend_from_slice(next.encode_utf8(&mut buf).as_bytes());
                }
                continue;
            }
            let mut buf = [0; 4];
            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        let Some((_, e)) = chars.next() else { break };
        let simple = match e {
            '\n' => Some(None),
            '\\' => Some(Some(b'\\')),
            '\'' => Some(Some(b'\'')),
            '"' => Some(Some(b'"')),
            'a' => Some(Some(7)),
            'b' => Some(Some(8)),
            'f' => Some(Some(12)),
            'n' => Some(Some(b'\n')),
            'r' => Some(Some(b'\r')),
            't' => Some(Some(b'\t')),
            'v' => Some(Some(11)),
            _ => None,
        };
        if let Some(v) = simple {
            out.extend(v);
            continue;
        }
        let mut hex = |n: usize| -> std::result::Result<u32, SyntaxError> {
            let mut v = 0u32;
            for _ in 0..n {
                let d = chars
                    .next()
                    .and_then(|(_, c)| c.to_digit(16))
                    .ok_or((pos(k), format!("\\{e} needs {n} hexadecimal digits")))?;
                v = v * 16 + d;
            }
            Ok(v)
        };
        let code = match e {
            'x' => {
                let v = hex(2)?;
                if bytes {
                    out.push(v as u8);
                    continue;
                }
                v
            }
            'u' if !bytes => hex(4)?,
            'U' if !bytes => hex(8)?,
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|(_, c)| c.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                if bytes {
                    out.push((v & 0xff) as u8);
                    continue;
                }
                v
            }
            other => {
                // Python keeps an unknown escape as written.
                out.push(b'\\');
                let mut buf = [0; 4];
                out.extend_from_slice(other.encode_utf8(&mut buf).as_bytes());
                continue;
            }
        };
        let ch = char::from_u32(code)
            .ok_or((pos(k), format!("\\{e} names no character ({code:#x})")))?;
        let mut buf = [0; 4];
        out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
    }
    Err((at, "a string is not closed".into()))
}
