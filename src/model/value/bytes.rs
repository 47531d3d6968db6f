//! Values and ranges from and to their little-endian bytes, given a
//! datatype: how a [`Datatype`] maps to a [`Value`] variant.

// The [`Value`] variant that holds values of a datatype is the one of its
// native type.
use crate::format::native::Native as Kind;
use crate::model::{Datatype, DomainRange, Range, Value};

fn kind_of(v: &Value) -> Option<Kind> {
    Some(match v {
        Value::Int8(_) => Kind::I8,
        Value::Int16(_) => Kind::I16,
        Value::Int32(_) => Kind::I32,
        Value::Int64(_) => Kind::I64,
        Value::UInt8(_) => Kind::U8,
        Value::UInt16(_) => Kind::U16,
        Value::UInt32(_) => Kind::U32,
        Value::UInt64(_) => Kind::U64,
        Value::Float32(_) => Kind::F32,
        Value::Float64(_) => Kind::F64,
        Value::Bytes(_) => return None,
    })
}

impl Value {
    /// Decodes one value of `dt` from exactly `dt.size()` little-endian
    /// bytes; `None` for any other length.
    pub fn from_le_bytes(dt: Datatype, b: &[u8]) -> Option<Value> {
        if b.len() as u64 != dt.size() {
            return None;
        }
        Some(match Kind::of(dt) {
            Kind::I8 => Value::Int8(i8::from_le_bytes(b.try_into().ok()?)),
            Kind::I16 => Value::Int16(i16::from_le_bytes(b.try_into().ok()?)),
            Kind::I32 => Value::Int32(i32::from_le_bytes(b.try_into().ok()?)),
            Kind::I64 => Value::Int64(i64::from_le_bytes(b.try_into().ok()?)),
            Kind::U8 => Value::UInt8(b[0]),
            Kind::U16 => Value::UInt16(u16::from_le_bytes(b.try_into().ok()?)),
            Kind::U32 => Value::UInt32(u32::from_le_bytes(b.try_into().ok()?)),
            Kind::U64 => Value::UInt64(u64::from_le_bytes(b.try_into().ok()?)),
            Kind::F32 => Value::Float32(f32::from_le_bytes(b.try_into().ok()?)),
            Kind::F64 => Value::Float64(f64::from_le_bytes(b.try_into().ok()?)),
        })
    }

    /// The value's little-endian bytes (a [`Value::Bytes`] as is).
    pub fn to_le_bytes(&self) -> Vec<u8> {
        match self {
            Value::Int8(v) => v.to_le_bytes().to_vec(),
            Value::Int16(v) => v.to_le_bytes().to_vec(),
            Value::Int32(v) => v.to_le_bytes().to_vec(),
            Value::Int64(v) => v.to_le_bytes().to_vec(),
            Value::UInt8(v) => vec![*v],
            Value::UInt16(v) => v.to_le_bytes().to_vec(),
            Value::UInt32(v) => v.to_le_bytes().to_vec(),
            Value::UInt64(v) => v.to_le_bytes().to_vec(),
            Value::Float32(v) => v.to_le_bytes().to_vec(),
            Value::Float64(v) => v.to_le_bytes().to_vec(),
            Value::Bytes(v) => v.clone(),
        }
    }

    /// Whether this is the variant that holds one value of `dt`.
    pub fn is_of(&self, dt: Datatype) -> bool {
        kind_of(self) == Some(Kind::of(dt))
    }

    /// The value as an integer, for integer (and date and time) values.
    pub fn as_i128(&self) -> Option<i128> {
        Some(match *self {
            Value::Int8(v) => v.into(),
            Value::Int16(v) => v.into(),
            Value::Int32(v) => v.into(),
            Value::Int64(v) => v.into(),
            Value::UInt8(v) => v.into(),
            Value::UInt16(v) => v.into(),
            Value::UInt32(v) => v.into(),
            Value::UInt64(v) => v.into(),
            _ => return None,
        })
    }

    /// The value as a float, for numeric values.
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::Float32(v) => Some(v.into()),
            Value::Float64(v) => Some(v),
            _ => self.as_i128().map(|i| i as f64),
        }
    }
}

impl DomainRange {
    /// Decodes a range of `dt` from its bounds' bytes: var-sized bounds
    /// (`var`, string dimensions) as they are, fixed-size ones of exactly
    /// `dt.size()` bytes each (`None` otherwise).
    pub fn from_le_bytes(dt: Datatype, var: bool, lo: &[u8], hi: &[u8]) -> Option<DomainRange> {
        if var {
            return Some(DomainRange::Bytes(Range::new(lo.to_vec(), hi.to_vec())));
        }
        let (a, b) = (Value::from_le_bytes(dt, lo)?, Value::from_le_bytes(dt, hi)?);
        Some(match (a, b) {
            (Value::Int8(a), Value::Int8(b)) => DomainRange::Int8(Range::new(a, b)),
            (Value::Int16(a), Value::Int16(b)) => DomainRange::Int16(Range::new(a, b)),
            (Value::Int32(a), Value::Int32(b)) => DomainRange::Int32(Range::new(a, b)),
            (Value::Int64(a), Value::Int64(b)) => DomainRange::Int64(Range::new(a, b)),
            (Value::UInt8(a), Value::UInt8(b)) => DomainRange::UInt8(Range::new(a, b)),
            (Value::UInt16(a), Value::UInt16(b)) => DomainRange::UInt16(Range::new(a, b)),
            (Value::UInt32(a), Value::UInt32(b)) => DomainRange::UInt32(Range::new(a, b)),
            (Value::UInt64(a), Value::UInt64(b)) => DomainRange::UInt64(Range::new(a, b)),
            (Value::Float32(a), Value::Float32(b)) => DomainRange::Float32(Range::new(a, b)),
            (Value::Float64(a), Value::Float64(b)) => DomainRange::Float64(Range::new(a, b)),
            _ => return None,
        })
    }

    /// Decodes a fixed-size range of `dt` from `2 * dt.size()` bytes
    /// (low bound, then high bound), as domains are stored.
    pub fn from_le_pair(dt: Datatype, bytes: &[u8]) -> Option<DomainRange> {
        if bytes.len() as u64 != 2 * dt.size() {
            return None;
        }
        let (lo, hi) = bytes.split_at(bytes.len() / 2);
        Self::from_le_bytes(dt, false, lo, hi)
    }

    /// The bounds' little-endian bytes.
    pub fn to_le_bytes(&self) -> (Vec<u8>, Vec<u8>) {
        (self.start().to_le_bytes(), self.end().to_le_bytes())
    }

    /// The low bound.
    pub fn start(&self) -> Value {
        self.bound(true)
    }

    /// The high bound.
    pub fn end(&self) -> Value {
        self.bound(false)
    }

    fn bound(&self, start: bool) -> Value {
        fn pick<T: Clone>(r: &Range<T>, start: bool) -> T {
            if start {
                r.start.clone()
            } else {
                r.end.clone()
            }
        }
        match self {
            DomainRange::Int8(r) => Value::Int8(pick(r, start)),
            DomainRange::Int16(r) => Value::Int16(pick(r, start)),
            DomainRange::Int32(r) => Value::Int32(pick(r, start)),
            DomainRange::Int64(r) => Value::Int64(pick(r, start)),
            DomainRange::UInt8(r) => Value::UInt8(pick(r, start)),
            DomainRange::UInt16(r) => Value::UInt16(pick(r, start)),
            DomainRange::UInt32(r) => Value::UInt32(pick(r, start)),
            DomainRange::UInt64(r) => Value::UInt64(pick(r, start)),
            DomainRange::Float32(r) => Value::Float32(pick(r, start)),
            DomainRange::Float64(r) => Value::Float64(pick(r, start)),
            DomainRange::Bytes(r) => Value::Bytes(pick(r, start)),
        }
    }

    /// Whether the range is var-sized ([`DomainRange::Bytes`]).
    pub fn is_var(&self) -> bool {
        matches!(self, DomainRange::Bytes(_))
    }

    /// Whether this is the variant that holds ranges of `dt` (`var`: of a
    /// var-sized dimension).
    pub fn is_of(&self, dt: Datatype, var: bool) -> bool {
        if var {
            return self.is_var();
        }
        self.start().is_of(dt)
    }

    /// The bounds as integers, for integer (and date and time) ranges.
    pub fn as_i128(&self) -> Option<Range<i128>> {
        Some(Range::new(self.start().as_i128()?, self.end().as_i128()?))
    }

    /// The bounds as floats, for numeric ranges.
    pub fn as_f64(&self) -> Option<Range<f64>> {
        Some(Range::new(self.start().as_f64()?, self.end().as_f64()?))
    }
}

/// The engine's default fill value of one value of `dt`
/// (tiledb/sm/misc/constants.cc `fill_value`).
pub fn default_fill_value(dt: Datatype) -> Vec<u8> {
    dt.default_fill().to_vec()
}
