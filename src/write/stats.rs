//! Tile and fragment metadata: mins, maxes, sums and null counts, computed
//! as the engine computes them (tiledb/sm/tile/tile_metadata_generator.cc,
//! tiledb/sm/fragment/fragment_metadata.cc
//! `compute_fragment_min_max_sum_null_count`), quirks included: no null
//! count for var-sized fields without min/max, nulls of fixed-size fields
//! without min/max counted over the whole tile, strings compared with
//! `strncmp`, sums that saturate.

use crate::format::native::Native;
use crate::format::{Datatype, FieldMinMaxSumNullCount, Record};

/// The C type the engine's metadata generator uses for a datatype.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A number: the datatype's native type.
    Num(Native),
    /// `char`: CHAR and STRING_ASCII.
    Char,
    /// `std::byte`: BLOB, GEOM_WKB, GEOM_WKT.
    Byte,
    /// Not handled by the generator (ANY, STRING_UTF8/16/32, UCS2/4).
    Other,
}

/// CHAR and STRING_ASCII: the engine's `char` values.
fn is_chars(dt: Datatype) -> bool {
    matches!(dt, Datatype::Char | Datatype::StringAscii)
}

pub fn kind_of(dt: Datatype) -> Kind {
    use crate::format::DatatypeClass as C;
    match dt.class() {
        _ if is_chars(dt) => Kind::Char,
        C::Bytes => Kind::Byte,
        C::String | C::Any | C::Unknown => Kind::Other,
        // Numbers, BOOL (`uint8_t`), dates and times (`int64_t`).
        C::Signed | C::Unsigned | C::Float | C::Bool | C::Datetime | C::Time => {
            Kind::Num(Native::of(dt))
        }
        _ => Kind::Other,
    }
}

/// `TileMetadataGenerator::has_min_max_metadata`.
pub fn has_min_max(dt: Datatype, is_dim: bool, var: bool, cell_val_num: u32) -> bool {
    use crate::format::DatatypeClass as C;
    if is_dim {
        return false;
    }
    let chars = is_chars(dt);
    if var && !chars {
        return false;
    }
    if cell_val_num != 1 && !chars {
        return false;
    }
    match dt.class() {
        C::Any | C::Bytes => false,
        C::String => chars,
        _ => true,
    }
}

/// `TileMetadataGenerator::has_sum_metadata`.
pub fn has_sum(dt: Datatype, var: bool, cell_val_num: u32) -> bool {
    use crate::format::DatatypeClass as C;
    if var || cell_val_num != 1 {
        return false;
    }
    match dt.class() {
        C::Any | C::Bytes => false,
        // CHAR is summed, as the engine does (it lists the other text types).
        C::String => dt == Datatype::Char,
        _ => true,
    }
}

/// What the metadata of one entry of the engine's index map (an
/// attribute, `__coords` or a dimension) depends on.
#[derive(Debug, Clone)]
pub struct MetaSpec {
    pub datatype: Datatype,
    pub is_dim: bool,
    pub var: bool,
    /// Bytes of a fixed-size cell (8 for var-sized: the offsets).
    pub cell_size: u64,
    pub cell_val_num: u32,
    pub nullable: bool,
    /// Whether the fragment keeps any per-tile metadata for the entry (not
    /// for the dimensions of a dense fragment).
    pub kept: bool,
}

impl MetaSpec {
    pub fn min_max(&self) -> bool {
        self.kept && has_min_max(self.datatype, self.is_dim, self.var, self.cell_val_num)
    }
    pub fn sum(&self) -> bool {
        self.kept && has_sum(self.datatype, self.var, self.cell_val_num) && !self.var
    }
    pub fn null_counts(&self) -> bool {
        self.kept && self.nullable
    }
}

/// One tile of one field, unfiltered.
#[derive(Debug, Clone, Default)]
pub struct RawTile {
    /// Fixed-size values, or the var-sized data.
    pub data: Vec<u8>,
    /// Var-sized: where each cell starts in `data`.
    pub offsets: Option<Vec<u64>>,
    /// Nullable: one byte per cell, 0 = null.
    pub validity: Option<Vec<u8>>,
    pub cells: u64,
}

impl RawTile {
    /// The tile as borrowed slices.
    pub fn view(&self) -> TileView<'_> {
        TileView {
            data: &self.data,
            offsets: self.offsets.as_deref(),
            validity: self.validity.as_deref(),
            cells: self.cells,
        }
    }
}

/// One tile of one field, unfiltered, in memory someone else owns (a
/// [`RawTile`], or a run of a caller's column that is a whole tile).
#[derive(Debug, Clone, Copy)]
pub struct TileView<'a> {
    /// Fixed-size values, or the var-sized data.
    pub data: &'a [u8],
    /// Var-sized: where each cell starts in `data`.
    pub offsets: Option<&'a [u64]>,
    /// Nullable: one byte per cell, 0 = null.
    pub validity: Option<&'a [u8]>,
    pub cells: u64,
}

impl<'a> TileView<'a> {
    /// Cell `c` (`cell_size` is ignored for var-sized tiles).
    pub(crate) fn cell(&self, c: usize, cell_size: usize) -> &'a [u8] {
        match self.offsets {
            Some(o) => {
                let end = o.get(c + 1).map_or(self.data.len(), |e| *e as usize);
                &self.data[o[c] as usize..end]
            }
            None => &self.data[c * cell_size..(c + 1) * cell_size],
        }
    }
}

/// The metadata of one tile of one field.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TileStats {
    pub min: Vec<u8>,
    pub max: Vec<u8>,
    /// The bit pattern of an i64, u64 or f64 sum.
    pub sum: u64,
    pub null_count: u64,
}

/// `strncmp`: bytes as unsigned chars, up to `n` or a NUL in both.
pub fn strncmp(a: &[u8], b: &[u8], n: usize) -> std::cmp::Ordering {
    for i in 0..n {
        let x = a.get(i).copied().unwrap_or(0);
        let y = b.get(i).copied().unwrap_or(0);
        if x != y {
            return x.cmp(&y);
        }
        if x == 0 {
            break;
        }
    }
    std::cmp::Ordering::Equal
}

macro_rules! num_kind {
    ($kind:expr, $f:ident, $($args:expr),*) => {
        match $kind {
            Kind::Num(Native::I8) => $f::<i8>($($args),*),
            Kind::Num(Native::I16) => $f::<i16>($($args),*),
            Kind::Num(Native::I32) => $f::<i32>($($args),*),
            Kind::Num(Native::I64) => $f::<i64>($($args),*),
            Kind::Num(Native::U8) => $f::<u8>($($args),*),
            Kind::Num(Native::U16) => $f::<u16>($($args),*),
            Kind::Num(Native::U32) => $f::<u32>($($args),*),
            Kind::Num(Native::U64) => $f::<u64>($($args),*),
            Kind::Num(Native::F32) => $f::<f32>($($args),*),
            Kind::Num(Native::F64) => $f::<f64>($($args),*),
            Kind::Char => $f::<i8>($($args),*),
            Kind::Byte | Kind::Other => unreachable!(),
        }
    };
}

/// A number type of the generator.
pub trait Num: Copy + PartialOrd + Sized {
    const MAX: Self;
    const LOWEST: Self;
    const W: usize;
    /// f32 or f64: NaNs, and a +0 and a -0 that compare equal.
    const FLOAT: bool;
    fn read(b: &[u8]) -> Self;
    fn write(self) -> Vec<u8>;
    /// Adds to a sum of the engine's sum type, saturating as it does;
    /// returns false when the sum saturated (the engine stops the slab).
    fn add_to(self, sum: &mut u64) -> bool;
    /// The value as a double (what the engine adds floats as).
    fn to_f64(self) -> f64;
}

fn add_i64(sum: &mut u64, v: i64) -> bool {
    let s = *sum as i64;
    if s > 0 && v > 0 && s > i64::MAX - v {
        *sum = i64::MAX as u64;
        return false;
    }
    if s < 0 && v < 0 && s < i64::MIN - v {
        *sum = i64::MIN as u64;
        return false;
    }
    *sum = s.wrapping_add(v) as u64;
    true
}

fn add_u64(sum: &mut u64, v: u64) -> bool {
    if *sum > u64::MAX - v {
        *sum = u64::MAX;
        return false;
    }
    *sum += v;
    true
}

fn add_f64(sum: &mut u64, v: f64) -> bool {
    let s = f64::from_bits(*sum);
    if (s < 0.0) == (v < 0.0) && s.abs() > f64::MAX - v.abs() {
        *sum = if s < 0.0 { f64::MIN } else { f64::MAX }.to_bits();
        return false;
    }
    *sum = (s + v).to_bits();
    true
}

macro_rules! num_impl {
    ($t:ty, $w:expr, $add:ident, $conv:ty, $float:expr) => {
        impl Num for $t {
            const MAX: Self = <$t>::MAX;
            const LOWEST: Self = <$t>::MIN;
            const W: usize = $w;
            const FLOAT: bool = $float;
            fn read(b: &[u8]) -> Self {
                <$t>::from_le_bytes(b[..$w].try_into().unwrap())
            }
            fn write(self) -> Vec<u8> {
                self.to_le_bytes().to_vec()
            }
            fn add_to(self, sum: &mut u64) -> bool {
                $add(sum, self as $conv)
            }
            fn to_f64(self) -> f64 {
                self as f64
            }
        }
    };
}

num_impl!(i8, 1, add_i64, i64, false);
num_impl!(i16, 2, add_i64, i64, false);
num_impl!(i32, 4, add_i64, i64, false);
num_impl!(i64, 8, add_i64, i64, false);
num_impl!(u8, 1, add_u64, u64, false);
num_impl!(u16, 2, add_u64, u64, false);
num_impl!(u32, 4, add_u64, u64, false);
num_impl!(u64, 8, add_u64, u64, false);
num_impl!(f32, 4, add_f64, f64, true);
num_impl!(f64, 8, add_f64, f64, true);

/// The min and max of some values as the engine's loop (`min = min < v ?
/// min : v`, in order) finds them, from four interleaved lanes instead of
/// one chain. For numbers that compare equal only when their bits are equal
/// the order does not matter; floats may have NaNs (which the loop lets
/// through) or +0 and -0 (equal, different bits): then `None`, and the
/// caller runs the loop.
fn min_max_lanes<T: Num>(values: &[u8]) -> Option<(T, T)> {
    let (mut mins, mut maxs) = ([T::MAX; 4], [T::LOWEST; 4]);
    let mut nan = false;
    let mut quads = values.chunks_exact(4 * T::W);
    for q in &mut quads {
        for l in 0..4 {
            let v = T::read(&q[l * T::W..]);
            #[allow(clippy::eq_op)]
            let is_nan = v != v;
            nan |= is_nan;
            mins[l] = if mins[l] < v { mins[l] } else { v };
            maxs[l] = if maxs[l] > v { maxs[l] } else { v };
        }
    }
    for x in quads.remainder().chunks_exact(T::W) {
        let v = T::read(x);
        #[allow(clippy::eq_op)]
        let is_nan = v != v;
        nan |= is_nan;
        mins[0] = if mins[0] < v { mins[0] } else { v };
        maxs[0] = if maxs[0] > v { maxs[0] } else { v };
    }
    let min = mins
        .into_iter()
        .fold(T::MAX, |m, v| if m < v { m } else { v });
    let max = maxs
        .into_iter()
        .fold(T::LOWEST, |m, v| if m > v { m } else { v });
    let zero = T::read(&[0; 8]);
    if T::FLOAT && (nan || min == zero || max == zero) {
        return None;
    }
    Some((min, max))
}

/// Whether adding `n` floats of a block whose minimum and maximum are
/// `lanes` (finite, from [`min_max_lanes`]) to the double `sum` keeps every
/// partial sum within a quarter of `f64::MAX`, where the engine's test for
/// saturation (`|s| > MAX - |v|`) is false for every value.
fn float_sum_cannot_saturate<T: Num>(sum: u64, lanes: Option<(T, T)>, n: usize) -> bool {
    let Some((a, b)) = lanes else {
        return false;
    };
    let m = a.to_f64().abs().max(b.to_f64().abs());
    let s = f64::from_bits(sum).abs();
    m.is_finite() && s <= f64::MAX / 8.0 && m * n as f64 <= f64::MAX / 8.0
}

fn fixed_num<T: Num>(
    spec: &MetaSpec,
    tile: &TileView,
    ranges: &[(usize, usize)],
    out: &mut TileStats,
) {
    let mm = has_min_max(spec.datatype, spec.is_dim, false, spec.cell_val_num);
    let sum = has_sum(spec.datatype, false, spec.cell_val_num);
    let value = |c: usize| T::read(&tile.data[c * T::W..]);
    let (mut min, mut max) = (T::MAX, T::LOWEST);
    match &tile.validity {
        None => {
            // A block of values at a time (still in cache for the sum, which
            // stops for the rest of the run once it saturates).
            for &(s, e) in ranges {
                let mut summing = sum;
                for block in tile.data[s * T::W..e * T::W].chunks(4096 * T::W) {
                    let mut lanes = None;
                    if mm {
                        lanes = min_max_lanes::<T>(block);
                        if let Some((a, b)) = lanes {
                            min = if min < a { min } else { a };
                            max = if max > b { max } else { b };
                        } else {
                            for x in block.chunks_exact(T::W) {
                                let v = T::read(x);
                                min = if min < v { min } else { v };
                                max = if max > v { max } else { v };
                            }
                        }
                    }
                    if summing
                        && T::FLOAT
                        && float_sum_cannot_saturate(out.sum, lanes, block.len() / T::W)
                    {
                        // The same additions in the same order, without the
                        // saturation test that cannot fire.
                        let mut sum = f64::from_bits(out.sum);
                        for x in block.chunks_exact(T::W) {
                            sum += T::read(x).to_f64();
                        }
                        out.sum = sum.to_bits();
                    } else if summing {
                        for x in block.chunks_exact(T::W) {
                            if !T::read(x).add_to(&mut out.sum) {
                                summing = false;
                                break;
                            }
                        }
                    }
                }
            }
        }
        Some(valid) => {
            if !mm {
                // Without min/max the engine counts the nulls of the whole tile.
                out.null_count = valid.iter().filter(|v| **v == 0).count() as u64;
            }
            for &(s, e) in ranges {
                if mm {
                    for (c, ok) in valid.iter().enumerate().take(e).skip(s) {
                        let v = value(c);
                        let null = *ok == 0;
                        if !(null || min < v) {
                            min = v;
                        }
                        if !(null || max > v) {
                            max = v;
                        }
                        out.null_count += u64::from(null);
                    }
                }
                if sum {
                    for (c, ok) in valid.iter().enumerate().take(e).skip(s) {
                        if *ok != 0 && !value(c).add_to(&mut out.sum) {
                            break;
                        }
                    }
                }
            }
        }
    }
    if mm {
        out.min = min.write();
        out.max = max.write();
    }
}

fn fixed_char(spec: &MetaSpec, tile: &TileView, ranges: &[(usize, usize)], out: &mut TileStats) {
    let cs = spec.cell_size as usize;
    let mm = has_min_max(spec.datatype, spec.is_dim, false, spec.cell_val_num);
    let sum = has_sum(spec.datatype, false, spec.cell_val_num);
    let mut min: Option<usize> = None;
    let mut max: Option<usize> = None;
    let cell = |c: usize| &tile.data[c * cs..(c + 1) * cs];
    match &tile.validity {
        None => {
            if mm && !tile.data.is_empty() {
                for &(s, e) in ranges {
                    for c in s..e {
                        match (min, max) {
                            (Some(m), Some(x)) => {
                                if strncmp(cell(m), cell(c), cs).is_gt() {
                                    min = Some(c);
                                }
                                if strncmp(cell(x), cell(c), cs).is_lt() {
                                    max = Some(c);
                                }
                            }
                            _ => {
                                min = Some(c);
                                max = Some(c);
                            }
                        }
                    }
                }
            }
            if sum {
                for &(s, e) in ranges {
                    for c in s..e {
                        if !(tile.data[c] as i8).add_to(&mut out.sum) {
                            break;
                        }
                    }
                }
            }
        }
        Some(valid) => {
            if !mm {
                out.null_count = valid.iter().filter(|v| **v == 0).count() as u64;
            }
            for &(s, e) in ranges {
                if mm {
                    for (c, ok) in valid.iter().enumerate().take(e).skip(s) {
                        let null = *ok == 0;
                        if !null && min.is_none_or(|m| strncmp(cell(m), cell(c), cs).is_gt()) {
                            min = Some(c);
                        }
                        if !null && max.is_none_or(|x| strncmp(cell(x), cell(c), cs).is_lt()) {
                            max = Some(c);
                        }
                        out.null_count += u64::from(null);
                    }
                }
                if sum {
                    for (c, ok) in valid.iter().enumerate().take(e).skip(s) {
                        if *ok != 0 && !(tile.data[c] as i8).add_to(&mut out.sum) {
                            break;
                        }
                    }
                }
            }
        }
    }
    if mm {
        out.min = min.map_or(vec![0; cs], |m| cell(m).to_vec());
        out.max = max.map_or(vec![0; cs], |m| cell(m).to_vec());
    }
}

/// `min_max_var`: whether `b` should replace the current min `a` (the
/// engine's order of strings: `strncmp` over the shorter length, then the
/// length).
fn var_less(a: &[u8], b: &[u8]) -> bool {
    match strncmp(a, b, a.len().min(b.len())) {
        std::cmp::Ordering::Equal => b.len() < a.len(),
        o => o.is_gt(),
    }
}

/// Whether `b` should replace the current max `a`.
fn var_greater(a: &[u8], b: &[u8]) -> bool {
    match strncmp(a, b, a.len().min(b.len())) {
        std::cmp::Ordering::Equal => b.len() > a.len(),
        o => o.is_lt(),
    }
}

fn var_stats(spec: &MetaSpec, tile: &TileView, ranges: &[(usize, usize)], out: &mut TileStats) {
    let mm = has_min_max(spec.datatype, spec.is_dim, true, spec.cell_val_num);
    if !mm || tile.cells == 0 {
        return;
    }
    let mut min: Option<&[u8]> = None;
    let mut max: Option<&[u8]> = None;
    for &(s, e) in ranges {
        for c in s..e {
            if let Some(v) = &tile.validity {
                if v[c] == 0 {
                    out.null_count += 1;
                    continue;
                }
            }
            let value = tile.cell(c, 0);
            widen_var(&mut min, &mut max, value, value);
        }
    }
    out.min = min.map(<[u8]>::to_vec).unwrap_or_default();
    out.max = max.map(<[u8]>::to_vec).unwrap_or_default();
}

/// Takes `lo` and `hi` into a running var-sized minimum and maximum with
/// the engine's comparisons (`var_less`, `var_greater`); the first pair
/// sets both.
fn widen_var<'a>(
    min: &mut Option<&'a [u8]>,
    max: &mut Option<&'a [u8]>,
    lo: &'a [u8],
    hi: &'a [u8],
) {
    match (*min, *max) {
        (Some(m), Some(x)) => {
            if var_less(m, lo) {
                *min = Some(lo);
            }
            if var_greater(x, hi) {
                *max = Some(hi);
            }
        }
        _ => {
            *min = Some(lo);
            *max = Some(hi);
        }
    }
}

/// The metadata of one tile; `ranges` are the cells that count (all of a
/// sparse tile; the cells inside the written rectangle of a dense tile).
pub fn tile_stats(spec: &MetaSpec, tile: &TileView, ranges: &[(usize, usize)]) -> TileStats {
    let mut out = TileStats::default();
    if spec.var {
        var_stats(spec, tile, ranges, &mut out);
        return out;
    }
    match kind_of(spec.datatype) {
        Kind::Other => {}
        Kind::Byte => {
            if let Some(v) = &tile.validity {
                out.null_count = v.iter().filter(|x| **x == 0).count() as u64;
            }
        }
        Kind::Char => fixed_char(spec, tile, ranges, &mut out),
        k => num_kind!(k, fixed_num, spec, tile, ranges, &mut out),
    }
    out
}

/// Per-tile metadata of one index-map entry, as the fragment stores it.
#[derive(Debug, Clone, Default)]
pub struct FieldMeta {
    /// Fixed: `tiles * cell_size` bytes. Var: empty.
    pub mins: Vec<u8>,
    pub maxs: Vec<u8>,
    /// Var: each tile's min (max) one after another (nothing for a tile of
    /// nulls only), and where each tile's ends.
    pub min_var: Vec<u8>,
    pub max_var: Vec<u8>,
    pub min_ends: Vec<usize>,
    pub max_ends: Vec<usize>,
    pub sums: Vec<u64>,
    pub null_counts: Vec<u64>,
}

/// A var field's value of each tile, from the values joined and where
/// each ends.
pub fn var_parts<'a>(var: &'a [u8], ends: &[usize]) -> Vec<&'a [u8]> {
    let mut start = 0;
    ends.iter()
        .map(|&end| {
            let part = &var[start..end];
            start = end;
            part
        })
        .collect()
}

impl FieldMeta {
    /// Records the metadata of the next tile, which holds `cells` cells.
    pub fn push(&mut self, spec: &MetaSpec, s: &TileStats, cells: u64) {
        let all_null = s.null_count == cells;
        if spec.min_max() {
            if spec.var {
                if !all_null {
                    self.min_var.extend_from_slice(&s.min);
                    self.max_var.extend_from_slice(&s.max);
                }
                self.min_ends.push(self.min_var.len());
                self.max_ends.push(self.max_var.len());
            } else if all_null || s.min.len() as u64 != spec.cell_size {
                self.mins
                    .extend(std::iter::repeat_n(0, spec.cell_size as usize));
                self.maxs
                    .extend(std::iter::repeat_n(0, spec.cell_size as usize));
            } else {
                self.mins.extend_from_slice(&s.min);
                self.maxs.extend_from_slice(&s.max);
            }
        }
        if spec.sum() {
            self.sums.push(s.sum);
        }
        if spec.null_counts() {
            self.null_counts.push(s.null_count);
        }
    }

    /// Metadata for a tile of an entry nothing is written for (`__coords`,
    /// the dimensions of dense fragments): zeros where the engine keeps
    /// buffers.
    pub fn push_empty(&mut self, spec: &MetaSpec) {
        if spec.min_max() {
            if spec.var {
                self.min_ends.push(self.min_var.len());
                self.max_ends.push(self.max_var.len());
            } else {
                let w = spec.cell_size as usize;
                self.mins.extend(std::iter::repeat_n(0, w));
                self.maxs.extend(std::iter::repeat_n(0, w));
            }
        }
        if spec.sum() {
            self.sums.push(0);
        }
        if spec.null_counts() {
            self.null_counts.push(0);
        }
    }
}

fn frag_num<T: Num>(
    spec: &MetaSpec,
    m: &FieldMeta,
    tile_cells: &[u64],
    out: &mut FieldMinMaxSumNullCount,
) {
    let all_null = |t: usize| spec.nullable && m.null_counts.get(t) == Some(&tile_cells[t]);
    if spec.min_max() {
        let (mut min, mut max) = (T::MAX, T::LOWEST);
        for t in 0..tile_cells.len() {
            if !all_null(t) && m.mins.len() >= (t + 1) * T::W {
                let (a, b) = (T::read(&m.mins[t * T::W..]), T::read(&m.maxs[t * T::W..]));
                min = if min < a { min } else { a };
                max = if max > b { max } else { b };
            }
        }
        out.min = min.write();
        out.max = max.write();
    }
    if spec.sum() {
        let mut sum = 0u64;
        let kind = kind_of(spec.datatype);
        for t in 0..tile_cells.len() {
            if all_null(t) {
                continue;
            }
            let v = m.sums[t];
            let ok = match kind {
                Kind::Num(Native::F32 | Native::F64) => add_f64(&mut sum, f64::from_bits(v)),
                Kind::Num(Native::U8 | Native::U16 | Native::U32 | Native::U64) => {
                    add_u64(&mut sum, v)
                }
                _ => add_i64(&mut sum, v as i64),
            };
            if !ok {
                break;
            }
        }
        out.sum = sum;
    }
}

/// The fragment's min, max, sum and null count of one index-map entry
/// (`compute_fragment_min_max_sum_null_count`).
pub fn fragment_entry(
    spec: &MetaSpec,
    m: &FieldMeta,
    tile_cells: &[u64],
    dense: bool,
) -> FieldMinMaxSumNullCount {
    let mut out = crate::format::table!(FieldMinMaxSumNullCount {
        min: Vec::new(),
        max: Vec::new(),
        sum: 0,
        null_count: m.null_counts.iter().sum(),
    });
    let all_null = |t: usize| spec.nullable && m.null_counts.get(t) == Some(&tile_cells[t]);
    if spec.var {
        if has_min_max(spec.datatype, spec.is_dim, true, spec.cell_val_num) && spec.kept {
            let mut min: Option<&[u8]> = None;
            let mut max: Option<&[u8]> = None;
            let (mins, maxs) = (
                var_parts(&m.min_var, &m.min_ends),
                var_parts(&m.max_var, &m.max_ends),
            );
            for (t, (a, b)) in mins.into_iter().zip(maxs).enumerate() {
                if !all_null(t) {
                    widen_var(&mut min, &mut max, a, b);
                }
            }
            out.min = min.map(<[u8]>::to_vec).unwrap_or_default();
            out.max = max.map(<[u8]>::to_vec).unwrap_or_default();
        }
    } else if !(dense && spec.is_dim) {
        match kind_of(spec.datatype) {
            Kind::Char => {
                if has_min_max(spec.datatype, spec.is_dim, false, spec.cell_val_num) {
                    let w = spec.cell_val_num as usize;
                    let mut min: Option<&[u8]> = None;
                    let mut max: Option<&[u8]> = None;
                    let mut at = 0usize;
                    for t in 0..tile_cells.len() {
                        if all_null(t) {
                            continue;
                        }
                        let (a, b) = (&m.mins[at..at + w], &m.maxs[at..at + w]);
                        if min.is_none_or(|x| strncmp(x, a, w).is_gt()) {
                            min = Some(a);
                        }
                        if max.is_none_or(|x| strncmp(x, b, w).is_lt()) {
                            max = Some(b);
                        }
                        at += w;
                    }
                    out.min = min.map(<[u8]>::to_vec).unwrap_or_default();
                    out.max = max.map(<[u8]>::to_vec).unwrap_or_default();
                }
            }
            Kind::Byte | Kind::Other => {}
            k => num_kind!(k, frag_num, spec, m, tile_cells, &mut out),
        }
    }
    out.with_sizes()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine's loop, one value after the other.
    fn sequential<T: Num>(values: &[T]) -> (T, T) {
        let (mut min, mut max) = (T::MAX, T::LOWEST);
        for &v in values {
            min = if min < v { min } else { v };
            max = if max > v { max } else { v };
        }
        (min, max)
    }

    fn bits(v: f64) -> u64 {
        v.to_bits()
    }

    #[test]
    fn lanes_find_the_min_and_max_the_engine_loop_finds() {
        let mut cases: Vec<Vec<f64>> = vec![
            vec![],
            vec![1.5],
            vec![3.0, -2.0, 7.0, 7.0, -2.0, 0.5, 9.0],
            vec![0.0, -0.0, 1.0, 2.0, 3.0],
            vec![-0.0, 0.0, -1.0, -2.0, -3.0],
            vec![1.0, f64::NAN, 2.0, 3.0, 4.0, -5.0, 0.25],
            vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, f64::NAN],
            vec![f64::INFINITY, f64::NEG_INFINITY, 2.0, 1e300, -1e-300],
            vec![f64::INFINITY; 9],
        ];
        // A longer series with ties between lanes.
        cases.push(
            (0..10_000)
                .map(|i| ((i * 7919) % 1000) as f64 - 500.5)
                .collect(),
        );
        for values in cases {
            let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
            let want = sequential(&values);
            let got = min_max_lanes::<f64>(&bytes).unwrap_or_else(|| {
                // Not for lanes: the caller runs the loop.
                sequential(&values)
            });
            assert_eq!(
                (bits(got.0), bits(got.1)),
                (bits(want.0), bits(want.1)),
                "{values:?}"
            );
            if values.iter().any(|v| v.is_nan()) {
                assert!(min_max_lanes::<f64>(&bytes).is_none(), "{values:?}");
            }
        }
        let ints: Vec<i32> = (0..1003).map(|i| (i * 37 % 101) - 50).collect();
        let bytes: Vec<u8> = ints.iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(min_max_lanes::<i32>(&bytes), Some(sequential(&ints)));
    }
}
