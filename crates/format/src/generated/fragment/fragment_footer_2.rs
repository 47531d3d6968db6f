// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

impl FragmentFooter {
    /// Sets the offsets a `FragmentFooter` states of the parts of its file from
    /// where `parts` measured them (the fields its version or conditions
    /// lack stay absent).
    ///
    /// # Errors
    /// [`EncodeError::Part`](crate::EncodeError::Part) naming the part when
    /// the record points at one that was not appended, or lacks the field
    /// of one that was; [`EncodeError::Offset`](crate::EncodeError::Offset)
    /// when an offset does not fit its field.
    pub fn with_outside_offsets(
        mut self,
        parts: &FragmentFooterParts,
    ) -> Result<Self, crate::EncodeError> {
        match parts.rtree_tile {
            Some(at) => {
                let v = at as u64;
                if v as u64 != at {
                    return Err(
                        crate::EncodeError::offset(
                            "FragmentFooter",
                            "rtree_offset",
                            v as u64,
                            at,
                        ),
                    );
                }
                self.rtree_offset = v;
            }
            None => {
                return Err(
                    crate::EncodeError::part(
                        "FragmentFooter",
                        "rtree_tile",
                        "not appended, but the record's `rtree_offset` points at it",
                    ),
                );
            }
        }
        {
            let mut l = alloc::vec::Vec::with_capacity(parts.tile_offsets_tiles.len());
            for &at in &parts.tile_offsets_tiles {
                let v = at as u64;
                if v as u64 != at {
                    return Err(
                        crate::EncodeError::offset(
                            "FragmentFooter",
                            "tile_offsets",
                            v as u64,
                            at,
                        ),
                    );
                }
                l.push(v);
            }
            self.tile_offsets = l;
        }
        {
            let mut l = alloc::vec::Vec::with_capacity(
                parts.tile_var_offsets_tiles.len(),
            );
            for &at in &parts.tile_var_offsets_tiles {
                let v = at as u64;
                if v as u64 != at {
                    return Err(
                        crate::EncodeError::offset(
                            "FragmentFooter",
                            "tile_var_offsets",
                            v as u64,
                            at,
                        ),
                    );
                }
                l.push(v);
            }
            self.tile_var_offsets = l;
        }
        {
            let mut l = alloc::vec::Vec::with_capacity(parts.tile_var_sizes_tiles.len());
            for &at in &parts.tile_var_sizes_tiles {
                let v = at as u64;
                if v as u64 != at {
                    return Err(
                        crate::EncodeError::offset(
                            "FragmentFooter",
                            "tile_var_sizes",
                            v as u64,
                            at,
                        ),
                    );
                }
                l.push(v);
            }
            self.tile_var_sizes = l;
        }
        if self.tile_validity_offsets.is_some() {
            let mut l = alloc::vec::Vec::with_capacity(
                parts.tile_validity_offsets_tiles.len(),
            );
            for &at in &parts.tile_validity_offsets_tiles {
                let v = at as u64;
                if v as u64 != at {
                    return Err(
                        crate::EncodeError::offset(
                            "FragmentFooter",
                            "tile_validity_offsets",
                            v as u64,
                            at,
                        ),
                    );
                }
                l.push(v);
            }
            self.tile_validity_offsets = Some(l);
        } else if !parts.tile_validity_offsets_tiles.is_empty() {
            return Err(
                crate::EncodeError::part(
                    "FragmentFooter",
                    "tile_validity_offsets_tiles",
                    "appended, but the record has no `tile_validity_offsets` (its version or condition lacks it)",
                ),
            );
        }
        if self.tile_mins_offsets.is_some() {
            let mut l = alloc::vec::Vec::with_capacity(parts.tile_mins_tiles.len());
            for &at in &parts.tile_mins_tiles {
                let v = at as u64;
                if v as u64 != at {
                    return Err(
                        crate::EncodeError::offset(
                            "FragmentFooter",
                            "tile_mins_offsets",
                            v as u64,
                            at,
                        ),
                    );
                }
                l.push(v);
            }
            self.tile_mins_offsets = Some(l);
        } else if !parts.tile_mins_tiles.is_empty() {
            return Err(
                crate::EncodeError::part(
                    "FragmentFooter",
                    "tile_mins_tiles",
                    "appended, but the record has no `tile_mins_offsets` (its version or condition lacks it)",
                ),
            );
        }
        if self.tile_maxes_offsets.is_some() {
            let mut l = alloc::vec::Vec::with_capacity(parts.tile_maxes_tiles.len());
            for &at in &parts.tile_maxes_tiles {
                let v = at as u64;
                if v as u64 != at {
                    return Err(
                        crate::EncodeError::offset(
                            "FragmentFooter",
                            "tile_maxes_offsets",
                            v as u64,
                            at,
                        ),
                    );
                }
                l.push(v);
            }
            self.tile_maxes_offsets = Some(l);
        } else if !parts.tile_maxes_tiles.is_empty() {
            return Err(
                crate::EncodeError::part(
                    "FragmentFooter",
                    "tile_maxes_tiles",
                    "appended, but the record has no `tile_maxes_offsets` (its version or condition lacks it)",
                ),
            );
        }
        if self.tile_sums_offsets.is_some() {
            let mut l = alloc::vec::Vec::with_capacity(parts.tile_sums_tiles.len());
            for &at in &parts.tile_sums_tiles {
                let v = at as u64;
                if v as u64 != at {
                    return Err(
                        crate::EncodeError::offset(
                            "FragmentFooter",
                            "tile_sums_offsets",
                            v as u64,
                            at,
                        ),
                    );
                }
                l.push(v);
            }
            self.tile_sums_offsets = Some(l);
        } else if !parts.tile_sums_tiles.is_empty() {
            return Err(
                crate::EncodeError::part(
                    "FragmentFooter",
                    "tile_sums_tiles",
                    "appended, but the record has no `tile_sums_offsets` (its version or condition lacks it)",
                ),
            );
        }
        if self.tile_null_counts_offsets.is_some() {
            let mut l = alloc::vec::Vec::with_capacity(
                parts.tile_null_counts_tiles.len(),
            );
            for &at in &parts.tile_null_counts_tiles {
                let v = at as u64;
                if v as u64 != at {
                    return Err(
                        crate::EncodeError::offset(
                            "FragmentFooter",
                            "tile_null_counts_offsets",
                            v as u64,
                            at,
                        ),
                    );
                }
                l.push(v);
            }
            self.tile_null_counts_offsets = Some(l);
        } else if !parts.tile_null_counts_tiles.is_empty() {
            return Err(
                crate::EncodeError::part(
                    "FragmentFooter",
                    "tile_null_counts_tiles",
                    "appended, but the record has no `tile_null_counts_offsets` (its version or condition lacks it)",
                ),
            );
        }
        match (
            self.fragment_min_max_sum_null_count_offset.is_some(),
            parts.fragment_min_max_sum_null_count_tile,
        ) {
            (true, Some(at)) => {
                let v = at as u64;
                if v as u64 != at {
                    return Err(
                        crate::EncodeError::offset(
                            "FragmentFooter",
                            "fragment_min_max_sum_null_count_offset",
                            v as u64,
                            at,
                        ),
                    );
                }
                self.fragment_min_max_sum_null_count_offset = Some(v);
            }
            (true, None) => {
                return Err(
                    crate::EncodeError::part(
                        "FragmentFooter",
                        "fragment_min_max_sum_null_count_tile",
                        "not appended, but the record's `fragment_min_max_sum_null_count_offset` points at it",
                    ),
                );
            }
            (false, Some(_)) => {
                return Err(
                    crate::EncodeError::part(
                        "FragmentFooter",
                        "fragment_min_max_sum_null_count_tile",
                        "appended, but the record has no `fragment_min_max_sum_null_count_offset` (its version or condition lacks it)",
                    ),
                );
            }
            (false, None) => {}
        }
        match (
            self.processed_conditions_offset.is_some(),
            parts.processed_conditions_tile,
        ) {
            (true, Some(at)) => {
                let v = at as u64;
                if v as u64 != at {
                    return Err(
                        crate::EncodeError::offset(
                            "FragmentFooter",
                            "processed_conditions_offset",
                            v as u64,
                            at,
                        ),
                    );
                }
                self.processed_conditions_offset = Some(v);
            }
            (true, None) => {
                return Err(
                    crate::EncodeError::part(
                        "FragmentFooter",
                        "processed_conditions_tile",
                        "not appended, but the record's `processed_conditions_offset` points at it",
                    ),
                );
            }
            (false, Some(_)) => {
                return Err(
                    crate::EncodeError::part(
                        "FragmentFooter",
                        "processed_conditions_tile",
                        "appended, but the record has no `processed_conditions_offset` (its version or condition lacks it)",
                    ),
                );
            }
            (false, None) => {}
        }
        Ok(self)
    }
    /// Whether the offsets a `FragmentFooter` states are where `parts` measured
    /// the parts of its file ([`with_outside_offsets`](Self::with_outside_offsets)).
    ///
    /// # Errors
    /// [`EncodeError::Offset`](crate::EncodeError::Offset) naming the first
    /// field that disagrees (for a list, first its length, then each
    /// offset); [`EncodeError::Part`](crate::EncodeError::Part) when the
    /// record and the parts disagree on whether a part is there.
    pub fn check_outside_offsets(
        &self,
        parts: &FragmentFooterParts,
    ) -> Result<(), crate::EncodeError> {
        match parts.rtree_tile {
            Some(at) => {
                let v = self.rtree_offset;
                if v as u64 != at {
                    return Err(
                        crate::EncodeError::offset(
                            "FragmentFooter",
                            "rtree_offset",
                            v as u64,
                            at,
                        ),
                    );
                }
            }
            None => {
                return Err(
                    crate::EncodeError::part(
                        "FragmentFooter",
                        "rtree_tile",
                        "not appended, but the record's `rtree_offset` points at it",
                    ),
                );
            }
        }
        {
            let l = &self.tile_offsets;
            if l.len() != parts.tile_offsets_tiles.len() {
                return Err(
                    crate::EncodeError::offset(
                        "FragmentFooter",
                        "tile_offsets",
                        l.len() as u64,
                        parts.tile_offsets_tiles.len() as u64,
                    ),
                );
            }
            for (v, &at) in l.iter().zip(&parts.tile_offsets_tiles) {
                if *v as u64 != at {
                    return Err(
                        crate::EncodeError::offset(
                            "FragmentFooter",
                            "tile_offsets",
                            *v as u64,
                            at,
                        ),
                    );
                }
            }
        }
        {
            let l = &self.tile_var_offsets;
            if l.len() != parts.tile_var_offsets_tiles.len() {
                return Err(
                    crate::EncodeError::offset(
                        "FragmentFooter",
                        "tile_var_offsets",
                        l.len() as u64,
                        parts.tile_var_offsets_tiles.len() as u64,
                    ),
                );
            }
            for (v, &at) in l.iter().zip(&parts.tile_var_offsets_tiles) {
                if *v as u64 != at {
                    return Err(
                        crate::EncodeError::offset(
                            "FragmentFooter",
                            "tile_var_offsets",
                            *v as u64,
                            at,
                        ),
                    );
                }
            }
        }
        {
            let l = &self.tile_var_sizes;
            if l.len() != parts.tile_var_sizes_tiles.len() {
                return Err(
                    crate::EncodeError::offset(
                        "FragmentFooter",
                        "tile_var_sizes",
                        l.len() as u64,
                        parts.tile_var_sizes_tiles.len() as u64,
                    ),
                );
            }
            for (v, &at) in l.iter().zip(&parts.tile_var_sizes_tiles) {
                if *v as u64 != at {
                    return Err(
                        crate::EncodeError::offset(
                            "FragmentFooter",
                            "tile_var_sizes",
                            *v as u64,
                            at,
                        ),
                    );
                }
            }
        }
        match &self.tile_validity_offsets {
            Some(l) => {
                if l.len() != parts.tile_validity_offsets_tiles.len() {
                    return Err(
                        crate::EncodeError::offset(
                            "FragmentFooter",
                            "tile_validity_offsets",
                            l.len() as u64,
                            parts.tile_validity_offsets_tiles.len() as u64,
                        ),
                    );
                }
                for (v, &at) in l.iter().zip(&parts.tile_validity_offsets_tiles) {
                    if *v as u64 != at {
                        return Err(
                            crate::EncodeError::offset(
                                "FragmentFooter",
                                "tile_validity_offsets",
                                *v as u64,
                                at,
                            ),
                        );
                    }
                }
            }
            None if !parts.tile_validity_offsets_tiles.is_empty() => {
                return Err(
                    crate::EncodeError::part(
                        "FragmentFooter",
                        "tile_validity_offsets_tiles",
                        "appended, but the record has no `tile_validity_offsets` (its version or condition lacks it)",
                    ),
                );
            }
            None => {}
        }
        match &self.tile_mins_offsets {
            Some(l) => {
                if l.len() != parts.tile_mins_tiles.len() {
                    return Err(
                        crate::EncodeError::offset(
                            "FragmentFooter",
                            "tile_mins_offsets",
                            l.len() as u64,
                            parts.tile_mins_tiles.len() as u64,
                        ),
                    );
                }
                for (v, &at) in l.iter().zip(&parts.tile_mins_tiles) {
                    if *v as u64 != at {
                        return Err(
                            crate::EncodeError::offset(
                                "FragmentFooter",
                                "tile_mins_offsets",
                                *v as u64,
                                at,
                            ),
                        );
                    }
                }
            }
            None if !parts.tile_mins_tiles.is_empty() => {
                return Err(
                    crate::EncodeError::part(
                        "FragmentFooter",
                        "tile_mins_tiles",
                        "appended, but the record has no `tile_mins_offsets` (its version or condition lacks it)",
                    ),
                );
            }
            None => {}
        }
        match &self.tile_maxes_offsets {
            Some(l) => {
                if l.len() != parts.tile_maxes_tiles.len() {
                    return Err(
                        crate::EncodeError::offset(
                            "FragmentFooter",
                            "tile_maxes_offsets",
                            l.len() as u64,
                            parts.tile_maxes_tiles.len() as u64,
                        ),
                    );
                }
                for (v, &at) in l.iter().zip(&parts.tile_maxes_tiles) {
                    if *v as u64 != at {
                        return Err(
                            crate::EncodeError::offset(
                                "FragmentFooter",
                                "tile_maxes_offsets",
                                *v as u64,
                                at,
                            ),
                        );
                    }
                }
            }
            None if !parts.tile_maxes_tiles.is_empty() => {
                return Err(
                    crate::EncodeError::part(
                        "FragmentFooter",
                        "tile_maxes_tiles",
                        "appended, but the record has no `tile_maxes_offsets` (its version or condition lacks it)",
                    ),
                );
            }
            None => {}
        }
        match &self.tile_sums_offsets {
            Some(l) => {
                if l.len() != parts.tile_sums_tiles.len() {
                    return Err(
                        crate::EncodeError::offset(
                            "FragmentFooter",
                            "tile_sums_offsets",
                            l.len() as u64,
                            parts.tile_sums_tiles.len() as u64,
                        ),
                    );
                }
                for (v, &at) in l.iter().zip(&parts.tile_sums_tiles) {
                    if *v as u64 != at {
                        return Err(
                            crate::EncodeError::offset(
                                "FragmentFooter",
                                "tile_sums_offsets",
                                *v as u64,
                                at,
                            ),
                        );
                    }
                }
            }
            None if !parts.tile_sums_tiles.is_empty() => {
                return Err(
                    crate::EncodeError::part(
                        "FragmentFooter",
                        "tile_sums_tiles",
                        "appended, but the record has no `tile_sums_offsets` (its version or condition lacks it)",
                    ),
                );
            }
            None => {}
        }
        match &self.tile_null_counts_offsets {
            Some(l) => {
                if l.len() != parts.tile_null_counts_tiles.len() {
                    return Err(
                        crate::EncodeError::offset(
                            "FragmentFooter",
                            "tile_null_counts_offsets",
                            l.len() as u64,
                            parts.tile_null_counts_tiles.len() as u64,
                        ),
                    );
                }
                for (v, &at) in l.iter().zip(&parts.tile_null_counts_tiles) {
                    if *v as u64 != at {
                        return Err(
                            crate::EncodeError::offset(
                                "FragmentFooter",
                                "tile_null_counts_offsets",
                                *v as u64,
                                at,
                            ),
                        );
                    }
                }
            }
            None if !parts.tile_null_counts_tiles.is_empty() => {
                return Err(
                    crate::EncodeError::part(
                        "FragmentFooter",
                        "tile_null_counts_tiles",
                        "appended, but the record has no `tile_null_counts_offsets` (its version or condition lacks it)",
                    ),
                );
            }
            None => {}
        }
        match (
            self.fragment_min_max_sum_null_count_offset,
            parts.fragment_min_max_sum_null_count_tile,
        ) {
            (Some(v), Some(at)) => {
                if v as u64 != at {
                    return Err(
                        crate::EncodeError::offset(
                            "FragmentFooter",
                            "fragment_min_max_sum_null_count_offset",
                            v as u64,
                            at,
                        ),
                    );
                }
            }
            (Some(_), None) => {
                return Err(
                    crate::EncodeError::part(
                        "FragmentFooter",
                        "fragment_min_max_sum_null_count_tile",
                        "not appended, but the record's `fragment_min_max_sum_null_count_offset` points at it",
                    ),
                );
            }
            (None, Some(_)) => {
                return Err(
                    crate::EncodeError::part(
                        "FragmentFooter",
                        "fragment_min_max_sum_null_count_tile",
                        "appended, but the record has no `fragment_min_max_sum_null_count_offset` (its version or condition lacks it)",
                    ),
                );
            }
            (None, None) => {}
        }
        match (self.processed_conditions_offset, parts.processed_conditions_tile) {
            (Some(v), Some(at)) => {
                if v as u64 != at {
                    return Err(
                        crate::EncodeError::offset(
                            "FragmentFooter",
                            "processed_conditions_offset",
                            v as u64,
                            at,
                        ),
                    );
                }
            }
            (Some(_), None) => {
                return Err(
                    crate::EncodeError::part(
                        "FragmentFooter",
                        "processed_conditions_tile",
                        "not appended, but the record's `processed_conditions_offset` points at it",
                    ),
                );
            }
            (None, Some(_)) => {
                return Err(
                    crate::EncodeError::part(
                        "FragmentFooter",
                        "processed_conditions_tile",
                        "appended, but the record has no `processed_conditions_offset` (its version or condition lacks it)",
                    ),
                );
            }
            (None, None) => {}
        }
        Ok(())
    }
}
impl FragmentFooter {
    /// Sets what a `FragmentFooter` states of parts it does not hold (how many
    /// there are, the value of the last), one element of each argument
    /// per part:
    ///
    /// * `tiles`: The fragment's tiles in the global order, each given by its number of cells (each field's data file holds one tile of each): a sparse fragment's tiles, or a dense fragment's space tiles, each of them full. A dense fragment's footer counts none (the domain and tile extents count them).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) when a value does
    /// not fit its field, [`EncodeError::Part`](crate::EncodeError::Part)
    /// when the value of a last part is stated and there is none.
    pub fn with_outside_counts(
        mut self,
        tiles: &[u64],
    ) -> Result<Self, crate::EncodeError> {
        {
            let v = if {
                let dense = self.dense.clone();
                (dense == 0)
            } {
                tiles.len() as u64
            } else {
                0
            };
            self.sparse_tile_num = v as _;
            if self.sparse_tile_num as u64 != v {
                return Err(
                    crate::EncodeError::size(
                        "FragmentFooter",
                        "sparse_tile_num",
                        self.sparse_tile_num as u64,
                        v,
                    ),
                );
            }
        }
        {
            let Some(&v) = tiles.last() else {
                return Err(
                    crate::EncodeError::part(
                        "FragmentFooter",
                        "tiles",
                        "the value of its last part is stated and it has none",
                    ),
                );
            };
            let v = v as u64;
            self.last_tile_cell_num = v as _;
            if self.last_tile_cell_num as u64 != v {
                return Err(
                    crate::EncodeError::size(
                        "FragmentFooter",
                        "last_tile_cell_num",
                        self.last_tile_cell_num as u64,
                        v,
                    ),
                );
            }
        }
        Ok(self)
    }
    /// Whether what a `FragmentFooter` states of parts it does not hold is true
    /// of the parts given ([`with_outside_counts`](Self::with_outside_counts)).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the first
    /// field that disagrees, [`EncodeError::Part`](crate::EncodeError::Part)
    /// as `with_outside_counts`.
    pub fn check_outside_counts(&self, tiles: &[u64]) -> Result<(), crate::EncodeError> {
        {
            let v = if {
                let dense = self.dense.clone();
                (dense == 0)
            } {
                tiles.len() as u64
            } else {
                0
            };
            if self.sparse_tile_num as u64 != v {
                return Err(
                    crate::EncodeError::size(
                        "FragmentFooter",
                        "sparse_tile_num",
                        self.sparse_tile_num as u64,
                        v,
                    ),
                );
            }
        }
        {
            let Some(&v) = tiles.last() else {
                return Err(
                    crate::EncodeError::part(
                        "FragmentFooter",
                        "tiles",
                        "the value of its last part is stated and it has none",
                    ),
                );
            };
            let v = v as u64;
            if self.last_tile_cell_num as u64 != v {
                return Err(
                    crate::EncodeError::size(
                        "FragmentFooter",
                        "last_tile_cell_num",
                        self.last_tile_cell_num as u64,
                        v,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// The u64 after the footer: the footer's byte length. Present from version 10,
/// and before that only when a dimension is var-sized; otherwise the reader
/// computes the footer size from the schema. Not present after footers in a
/// consolidated fragment metadata file. Matches the spec page.
///
/// Spec: `format_spec/fragment.md#footer` (table "Footer").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct FooterLength {
    /// Spec field "Footer length" (`u64`).
    #[br(err_context("FooterLength.footer_length"))]
    pub footer_length: u64,
}
impl FooterLength {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#footer";
}
impl FooterLength {
    /// Bytes of one `FooterLength`: every field has a fixed size.
    pub const SIZE: usize = 8;
    /// Where field `footer_length` (spec "Footer length") starts in a `FooterLength`.
    pub const OFFSET_FOOTER_LENGTH: usize = 0;
}
/// A `FooterLength` borrowed in place: all its fields.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`FooterLengthRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct FooterLengthRef {
    /// Field `footer_length` as stored (spec "Footer length").
    pub footer_length: zerocopy::byteorder::little_endian::U64,
}
impl FooterLengthRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`FooterLengthRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `footer_length` (spec "Footer length").
    pub fn footer_length(&self) -> u64 {
        self.footer_length.get()
    }
    /// The owned `FooterLength` (the binrw struct) with the same values.
    pub fn record(&self) -> FooterLength {
        FooterLength {
            footer_length: self.footer_length(),
        }
    }
}
/// The view is exactly its fields: `size_of::<FooterLengthRef>()` is
/// [`FooterLengthRef::SIZE`] (else this does not compile).
const _: [(); FooterLengthRef::SIZE] = [(); core::mem::size_of::<FooterLengthRef>()];
impl crate::Record for FooterLength {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        Ok(())
    }
}
impl FooterLength {
    /// Sets the sizes a `FooterLength` states of bytes it does not hold, from those
    /// bytes (its [`with_sizes`](crate::Record::with_sizes) sets the sizes of what it
    /// holds, and the counts of the lists set here):
    ///
    /// * `footer_length` of `footer`: The encoded footer (`FragmentFooter`), written just before this record.
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the field when a length does not fit it.
    pub fn with_outside_sizes(
        mut self,
        footer: &[u8],
    ) -> Result<Self, crate::EncodeError> {
        let n = footer.len() as u64;
        self.footer_length = n as u64;
        if self.footer_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "FooterLength",
                    "footer_length",
                    self.footer_length as u64,
                    n,
                ),
            );
        }
        Ok(self)
    }
    /// Whether the sizes a `FooterLength` states of bytes it does not hold agree
    /// with those bytes ([`with_outside_sizes`](Self::with_outside_sizes)).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the first field that disagrees
    /// (for a list of sizes, first its length, then each size).
    pub fn check_outside_sizes(&self, footer: &[u8]) -> Result<(), crate::EncodeError> {
        let n = footer.len() as u64;
        if self.footer_length as u64 != n {
            return Err(
                crate::EncodeError::size(
                    "FooterLength",
                    "footer_length",
                    self.footer_length as u64,
                    n,
                ),
            );
        }
        Ok(())
    }
}
/// A footer extension (new in version 23). Matches the spec page.
///
/// Spec: `format_spec/fragment.md#optional-section` (table "Optional section").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct OptionalSection {
    /// Spec field "Identifier" (`u64`, values from [`OptionalSectionIdentifier`]).
    #[br(err_context("OptionalSection.identifier"))]
    pub identifier: OptionalSectionIdentifier,
    /// Spec field "Data size" (`u32`).
    #[br(err_context("OptionalSection.data_size"))]
    pub data_size: u32,
    /// Spec field "Data" (`bytes`).
    #[br(err_context("OptionalSection.data"), parse_with = rt::bytes, args((data_size) as u64, "OptionalSection", "data"))]
    pub data: Vec<u8>,
}
impl OptionalSection {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/fragment.md#optional-section";
}
impl OptionalSection {
    /// Where field `identifier` (spec "Identifier") starts in a `OptionalSection`.
    pub const OFFSET_IDENTIFIER: usize = 0;
    /// Where field `data_size` (spec "Data size") starts in a `OptionalSection`.
    pub const OFFSET_DATA_SIZE: usize = 8;
    /// Where field `data` (spec "Data") starts in a `OptionalSection`.
    pub const OFFSET_DATA: usize = 12;
    /// Bytes of a `OptionalSection` with these imports
    /// and the values of its fields
    /// `data_size`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(data_size: u32) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add((data_size) as u64)?;
        Some(__len)
    }
}
/// The fixed-size fields that open a `OptionalSection` borrowed in place: the
/// fields before `data`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`OptionalSectionRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct OptionalSectionRef {
    /// Field `identifier` as stored (spec "Identifier").
    pub identifier: zerocopy::byteorder::little_endian::U64,
    /// Field `data_size` as stored (spec "Data size").
    pub data_size: zerocopy::byteorder::little_endian::U32,
}
impl OptionalSectionRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 12;
    /// The view of the first [`OptionalSectionRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `identifier` (spec "Identifier").
    pub fn identifier(&self) -> u64 {
        self.identifier.get()
    }
    /// Field `data_size` (spec "Data size").
    pub fn data_size(&self) -> u32 {
        self.data_size.get()
    }
    /// Field `data` (spec "Data") borrowed in place: its bytes right after the
    /// view in `bytes` (what the view was read from); `None` when `bytes` is
    /// shorter or the length does not fit.
    #[allow(clippy::unnecessary_cast)]
    pub fn data<'a>(&self, bytes: &'a [u8]) -> Option<&'a [u8]> {
        let data_size = self.data_size();
        let len = usize::try_from((data_size) as u64).ok()?;
        bytes.get(Self::SIZE..)?.get(..len)
    }
}
/// The view is exactly its fields: `size_of::<OptionalSectionRef>()` is
/// [`OptionalSectionRef::SIZE`] (else this does not compile).
const _: [(); OptionalSectionRef::SIZE] = [(); core::mem::size_of::<
    OptionalSectionRef,
>()];
