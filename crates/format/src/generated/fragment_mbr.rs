// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

/// Spec: `format_spec/fragment.md#mbr` (table "MBR").
#[binrw::binrw]
#[brw(little)]
#[br(import(dims: rt::Dims))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Mbr {
    /// Spec field "1D range for dimension 1 … D" (`list<Range1D>`).
    #[br(err_context("Mbr.ranges"), parse_with = rt::list_each, args((dims).clone(), 1, "Mbr", "ranges"))]
    pub ranges: Vec<Range1D>,
}
impl Mbr {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#mbr";
}
impl Mbr {
    /// Where field `ranges` (spec "1D range for dimension 1 … D") starts in a `Mbr`.
    pub const OFFSET_RANGES: usize = 0;
    /// Bytes of a `Mbr` with these imports
    /// (its size depends on nothing else);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(dims: rt::Dims) -> Option<u64> {
        let mut __len: u64 = 0;
        for __e in (dims).iter() {
            __len = __len.checked_add(Range1D::size((__e).clone(), None)?)?;
        }
        Some(__len)
    }
}
impl crate::Record for Mbr {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.ranges);
        self.ranges = x.into_iter().map(|e| e.at_version(version)).collect();
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.ranges);
        self.ranges = x.into_iter().map(|e| e.with_sizes()).collect();
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.ranges;
            for e in x {
                e.check(version)?;
            }
        }
        Ok(())
    }
}
/// A fixed-size range (coord_size > 0) is min then max; a var-size one (coord_size == 0) carries its lengths.
///
/// Spec: `format_spec/fragment.md#mbr` (table "MBR").
#[binrw::binrw]
#[brw(little)]
#[br(import(coord_size: u64))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Range1D {
    /// Spec field "Range length" (`u64`).
    #[br(err_context("Range1D.range_length"), if(((coord_size == 0))))]
    pub range_length: Option<u64>,
    /// Spec field "Minimum value length" (`u64`).
    ///
    /// The length of the minimum, the first part of `range`. `range` is one field
    /// here (its minimum and maximum are read and written together), so the
    /// minimum is an `outside`: the writer that joins a range passes it to
    /// `with_outside_sizes` (`src/model/table.rs`, `src/write/fragment/rtree.rs`).
    #[br(err_context("Range1D.min_length"), if(((coord_size == 0))))]
    pub min_length: Option<u64>,
    /// Spec field "Range minimum, Range maximum" (`bytes`).
    #[br(err_context("Range1D.range"), parse_with = rt::bytes, args((rt::pick((coord_size == 0), range_length.clone().unwrap_or_default(), 2 * coord_size)) as u64, "Range1D", "range"))]
    pub range: Vec<u8>,
}
impl Range1D {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#mbr";
}
impl Range1D {
    /// Where field `range_length` (spec "Range length") starts in a `Range1D`.
    pub const OFFSET_RANGE_LENGTH: usize = 0;
    /// Bytes of a `Range1D` with these imports
    /// and the values of its fields
    /// `range_length`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(coord_size: u64, range_length: Option<u64>) -> Option<u64> {
        let mut __len: u64 = 0;
        if ((coord_size == 0)) {
            range_length?;
            __len = __len.checked_add(8)?;
        }
        if ((coord_size == 0)) {
            __len = __len.checked_add(8)?;
        }
        __len = __len
            .checked_add(
                (rt::pick(
                    (coord_size == 0),
                    range_length.clone().unwrap_or_default(),
                    2 * coord_size,
                )) as u64,
            )?;
        Some(__len)
    }
}
impl crate::Record for Range1D {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        if self.range_length.is_some() {
            self.range_length = Some(
                crate::decode::encode_unchecked(&self.range).len() as u64,
            );
        }
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if let Some(stated) = self.range_length {
            let actual = crate::decode::encode_unchecked(&self.range).len() as u64;
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "Range1D",
                        "range_length",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
impl Range1D {
    /// Sets the sizes a `Range1D` states of bytes it does not hold, from those
    /// bytes (its [`with_sizes`](crate::Record::with_sizes) sets the sizes of what it
    /// holds, and the counts of the lists set here):
    ///
    /// * `min_length` of `min`: The minimum of a var-sized range: the first `min_length` bytes of `range` (the maximum follows it).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the field when a length does not fit it.
    pub fn with_outside_sizes(mut self, min: &[u8]) -> Result<Self, crate::EncodeError> {
        if self.min_length.is_some() {
            let n = min.len() as u64;
            let v = n as u64;
            if v as u64 != n {
                return Err(
                    crate::EncodeError::size("Range1D", "min_length", v as u64, n),
                );
            }
            self.min_length = Some(v);
        }
        Ok(self)
    }
    /// Whether the sizes a `Range1D` states of bytes it does not hold agree
    /// with those bytes ([`with_outside_sizes`](Self::with_outside_sizes)).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the first field that disagrees
    /// (for a list of sizes, first its length, then each size).
    pub fn check_outside_sizes(&self, min: &[u8]) -> Result<(), crate::EncodeError> {
        if let Some(v) = self.min_length {
            let n = min.len() as u64;
            if v as u64 != n {
                return Err(
                    crate::EncodeError::size("Range1D", "min_length", v as u64, n),
                );
            }
        }
        Ok(())
    }
}
