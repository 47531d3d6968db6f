// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

impl FragmentFooter {
    /// Sets the sizes a `FragmentFooter` states of bytes it does not hold, from those
    /// bytes (its [`with_sizes`](crate::Record::with_sizes) sets the sizes of what it
    /// holds, and the counts of the lists set here):
    ///
    /// * `file_sizes` of each file of `data_files`: Each field's data file, in the order of the index map: its fixed-size tiles (the offsets tiles of a var-sized field), streamed to the disk as they are filtered.
    /// * `file_var_sizes` of each file of `var_data_files`: Each field's var data file (`_var`), in the order of the index map; empty for a fixed-size field.
    /// * `file_validity_sizes` of each file of `validity_data_files`: Each field's validity file (`_validity`), in the order of the index map; empty for a field that is not nullable.
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the field when a length does not fit it.
    pub fn with_outside_sizes(
        mut self,
        data_files: &[impl crate::PartFile],
        var_data_files: &[impl crate::PartFile],
        validity_data_files: &[impl crate::PartFile],
    ) -> Result<Self, crate::EncodeError> {
        {
            let mut l = alloc::vec::Vec::with_capacity(data_files.len());
            for p in data_files {
                let n = p.end();
                let v = n as u64;
                if v as u64 != n {
                    return Err(
                        crate::EncodeError::size(
                            "FragmentFooter",
                            "file_sizes",
                            v as u64,
                            n,
                        ),
                    );
                }
                l.push(v);
            }
            self.file_sizes = l;
        }
        {
            let mut l = alloc::vec::Vec::with_capacity(var_data_files.len());
            for p in var_data_files {
                let n = p.end();
                let v = n as u64;
                if v as u64 != n {
                    return Err(
                        crate::EncodeError::size(
                            "FragmentFooter",
                            "file_var_sizes",
                            v as u64,
                            n,
                        ),
                    );
                }
                l.push(v);
            }
            self.file_var_sizes = l;
        }
        if self.file_validity_sizes.is_some() {
            let mut l = alloc::vec::Vec::with_capacity(validity_data_files.len());
            for p in validity_data_files {
                let n = p.end();
                let v = n as u64;
                if v as u64 != n {
                    return Err(
                        crate::EncodeError::size(
                            "FragmentFooter",
                            "file_validity_sizes",
                            v as u64,
                            n,
                        ),
                    );
                }
                l.push(v);
            }
            self.file_validity_sizes = Some(l);
        }
        Ok(self)
    }
    /// Whether the sizes a `FragmentFooter` states of bytes it does not hold agree
    /// with those bytes ([`with_outside_sizes`](Self::with_outside_sizes)).
    ///
    /// # Errors
    /// [`EncodeError::Size`](crate::EncodeError::Size) naming the first field that disagrees
    /// (for a list of sizes, first its length, then each size).
    pub fn check_outside_sizes(
        &self,
        data_files: &[impl crate::PartFile],
        var_data_files: &[impl crate::PartFile],
        validity_data_files: &[impl crate::PartFile],
    ) -> Result<(), crate::EncodeError> {
        {
            let l = &self.file_sizes;
            {
                let n = data_files.len() as u64;
                if l.len() as u64 != n {
                    return Err(
                        crate::EncodeError::size(
                            "FragmentFooter",
                            "file_sizes",
                            l.len() as u64,
                            n,
                        ),
                    );
                }
            }
            for (v, p) in l.iter().zip(data_files) {
                let n = p.end();
                if *v as u64 != n {
                    return Err(
                        crate::EncodeError::size(
                            "FragmentFooter",
                            "file_sizes",
                            *v as u64,
                            n,
                        ),
                    );
                }
            }
        }
        {
            let l = &self.file_var_sizes;
            {
                let n = var_data_files.len() as u64;
                if l.len() as u64 != n {
                    return Err(
                        crate::EncodeError::size(
                            "FragmentFooter",
                            "file_var_sizes",
                            l.len() as u64,
                            n,
                        ),
                    );
                }
            }
            for (v, p) in l.iter().zip(var_data_files) {
                let n = p.end();
                if *v as u64 != n {
                    return Err(
                        crate::EncodeError::size(
                            "FragmentFooter",
                            "file_var_sizes",
                            *v as u64,
                            n,
                        ),
                    );
                }
            }
        }
        if let Some(l) = &self.file_validity_sizes {
            {
                let n = validity_data_files.len() as u64;
                if l.len() as u64 != n {
                    return Err(
                        crate::EncodeError::size(
                            "FragmentFooter",
                            "file_validity_sizes",
                            l.len() as u64,
                            n,
                        ),
                    );
                }
            }
            for (v, p) in l.iter().zip(validity_data_files) {
                let n = p.end();
                if *v as u64 != n {
                    return Err(
                        crate::EncodeError::size(
                            "FragmentFooter",
                            "file_validity_sizes",
                            *v as u64,
                            n,
                        ),
                    );
                }
            }
        }
        Ok(())
    }
}
/// Where the parts a `FragmentFooter` points at start in its file, measured as a
/// writer appends them with the `push_*` methods, in the file's order;
/// [`FragmentFooter::with_outside_offsets`] sets the record's offsets from it:
///
/// * `rtree_tile` (`rtree_offset`): The R-tree generic tile (`RTree`), the metadata file's first part.
/// * `tile_offsets_tiles`, one after another (`tile_offsets`): Each field's tile offsets generic tile (`TileOffsets`), after the R-tree.
/// * `tile_var_offsets_tiles`, one after another (`tile_var_offsets`): Each field's tile var offsets generic tile (`TileOffsets`), next.
/// * `tile_var_sizes_tiles`, one after another (`tile_var_sizes`): Each field's tile var sizes generic tile (`TileSizes`), next.
/// * `tile_validity_offsets_tiles`, one after another (`tile_validity_offsets`): Each field's tile validity offsets generic tile (`TileOffsets`), next.
/// * `tile_mins_tiles`, one after another (`tile_mins_offsets`): Each field's tile mins generic tile (`TileMinMax`), next.
/// * `tile_maxes_tiles`, one after another (`tile_maxes_offsets`): Each field's tile maxes generic tile (`TileMinMax`), next (then, version 23 sparse, the global-order bounds tiles of `TileGlobalOrderBounds`).
/// * `tile_sums_tiles`, one after another (`tile_sums_offsets`): Each field's tile sums generic tile (`TileSums`), next.
/// * `tile_null_counts_tiles`, one after another (`tile_null_counts_offsets`): Each field's tile null counts generic tile (`TileNullCounts`), next.
/// * `fragment_min_max_sum_null_count_tile` (`fragment_min_max_sum_null_count_offset`): The fragment min/max/sum/null count generic tile (`FragmentMinMaxSumNullCount`), next.
/// * `processed_conditions_tile` (`processed_conditions_offset`): The processed conditions generic tile (`ProcessedConditions`), the last part before the footer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FragmentFooterParts {
    rtree_tile: Option<u64>,
    tile_offsets_tiles: alloc::vec::Vec<u64>,
    tile_var_offsets_tiles: alloc::vec::Vec<u64>,
    tile_var_sizes_tiles: alloc::vec::Vec<u64>,
    tile_validity_offsets_tiles: alloc::vec::Vec<u64>,
    tile_mins_tiles: alloc::vec::Vec<u64>,
    tile_maxes_tiles: alloc::vec::Vec<u64>,
    tile_sums_tiles: alloc::vec::Vec<u64>,
    tile_null_counts_tiles: alloc::vec::Vec<u64>,
    fragment_min_max_sum_null_count_tile: Option<u64>,
    processed_conditions_tile: Option<u64>,
}
impl FragmentFooterParts {
    /// Appends `part` (its pieces in order: one part) to `file` as the `rtree_tile`: The R-tree generic tile (`RTree`), the metadata file's first part. Gives where it starts.
    ///
    /// # Errors
    /// [`EncodeError::Part`](crate::EncodeError::Part) when it was appended before (the record points at one).
    pub fn push_rtree_tile<'a>(
        &mut self,
        file: &mut impl crate::PartFile,
        part: impl IntoIterator<Item = &'a [u8]>,
    ) -> Result<u64, crate::EncodeError> {
        if self.rtree_tile.is_some() {
            return Err(
                crate::EncodeError::part(
                    "FragmentFooter",
                    "rtree_tile",
                    "appended twice, but the record points at one",
                ),
            );
        }
        let at = file.end();
        for p in part {
            file.put(p);
        }
        self.rtree_tile = Some(at);
        Ok(at)
    }
    /// Appends `part` (its pieces in order: one part) to `file` as the next of the `tile_offsets_tiles`: Each field's tile offsets generic tile (`TileOffsets`), after the R-tree. Gives where it starts.
    pub fn push_tile_offsets_tiles<'a>(
        &mut self,
        file: &mut impl crate::PartFile,
        part: impl IntoIterator<Item = &'a [u8]>,
    ) -> u64 {
        let at = file.end();
        for p in part {
            file.put(p);
        }
        self.tile_offsets_tiles.push(at);
        at
    }
    /// Appends `part` (its pieces in order: one part) to `file` as the next of the `tile_var_offsets_tiles`: Each field's tile var offsets generic tile (`TileOffsets`), next. Gives where it starts.
    pub fn push_tile_var_offsets_tiles<'a>(
        &mut self,
        file: &mut impl crate::PartFile,
        part: impl IntoIterator<Item = &'a [u8]>,
    ) -> u64 {
        let at = file.end();
        for p in part {
            file.put(p);
        }
        self.tile_var_offsets_tiles.push(at);
        at
    }
    /// Appends `part` (its pieces in order: one part) to `file` as the next of the `tile_var_sizes_tiles`: Each field's tile var sizes generic tile (`TileSizes`), next. Gives where it starts.
    pub fn push_tile_var_sizes_tiles<'a>(
        &mut self,
        file: &mut impl crate::PartFile,
        part: impl IntoIterator<Item = &'a [u8]>,
    ) -> u64 {
        let at = file.end();
        for p in part {
            file.put(p);
        }
        self.tile_var_sizes_tiles.push(at);
        at
    }
    /// Appends `part` (its pieces in order: one part) to `file` as the next of the `tile_validity_offsets_tiles`: Each field's tile validity offsets generic tile (`TileOffsets`), next. Gives where it starts.
    pub fn push_tile_validity_offsets_tiles<'a>(
        &mut self,
        file: &mut impl crate::PartFile,
        part: impl IntoIterator<Item = &'a [u8]>,
    ) -> u64 {
        let at = file.end();
        for p in part {
            file.put(p);
        }
        self.tile_validity_offsets_tiles.push(at);
        at
    }
    /// Appends `part` (its pieces in order: one part) to `file` as the next of the `tile_mins_tiles`: Each field's tile mins generic tile (`TileMinMax`), next. Gives where it starts.
    pub fn push_tile_mins_tiles<'a>(
        &mut self,
        file: &mut impl crate::PartFile,
        part: impl IntoIterator<Item = &'a [u8]>,
    ) -> u64 {
        let at = file.end();
        for p in part {
            file.put(p);
        }
        self.tile_mins_tiles.push(at);
        at
    }
    /// Appends `part` (its pieces in order: one part) to `file` as the next of the `tile_maxes_tiles`: Each field's tile maxes generic tile (`TileMinMax`), next (then, version 23 sparse, the global-order bounds tiles of `TileGlobalOrderBounds`). Gives where it starts.
    pub fn push_tile_maxes_tiles<'a>(
        &mut self,
        file: &mut impl crate::PartFile,
        part: impl IntoIterator<Item = &'a [u8]>,
    ) -> u64 {
        let at = file.end();
        for p in part {
            file.put(p);
        }
        self.tile_maxes_tiles.push(at);
        at
    }
    /// Appends `part` (its pieces in order: one part) to `file` as the next of the `tile_sums_tiles`: Each field's tile sums generic tile (`TileSums`), next. Gives where it starts.
    pub fn push_tile_sums_tiles<'a>(
        &mut self,
        file: &mut impl crate::PartFile,
        part: impl IntoIterator<Item = &'a [u8]>,
    ) -> u64 {
        let at = file.end();
        for p in part {
            file.put(p);
        }
        self.tile_sums_tiles.push(at);
        at
    }
    /// Appends `part` (its pieces in order: one part) to `file` as the next of the `tile_null_counts_tiles`: Each field's tile null counts generic tile (`TileNullCounts`), next. Gives where it starts.
    pub fn push_tile_null_counts_tiles<'a>(
        &mut self,
        file: &mut impl crate::PartFile,
        part: impl IntoIterator<Item = &'a [u8]>,
    ) -> u64 {
        let at = file.end();
        for p in part {
            file.put(p);
        }
        self.tile_null_counts_tiles.push(at);
        at
    }
    /// Appends `part` (its pieces in order: one part) to `file` as the `fragment_min_max_sum_null_count_tile`: The fragment min/max/sum/null count generic tile (`FragmentMinMaxSumNullCount`), next. Gives where it starts.
    ///
    /// # Errors
    /// [`EncodeError::Part`](crate::EncodeError::Part) when it was appended before (the record points at one).
    pub fn push_fragment_min_max_sum_null_count_tile<'a>(
        &mut self,
        file: &mut impl crate::PartFile,
        part: impl IntoIterator<Item = &'a [u8]>,
    ) -> Result<u64, crate::EncodeError> {
        if self.fragment_min_max_sum_null_count_tile.is_some() {
            return Err(
                crate::EncodeError::part(
                    "FragmentFooter",
                    "fragment_min_max_sum_null_count_tile",
                    "appended twice, but the record points at one",
                ),
            );
        }
        let at = file.end();
        for p in part {
            file.put(p);
        }
        self.fragment_min_max_sum_null_count_tile = Some(at);
        Ok(at)
    }
    /// Appends `part` (its pieces in order: one part) to `file` as the `processed_conditions_tile`: The processed conditions generic tile (`ProcessedConditions`), the last part before the footer. Gives where it starts.
    ///
    /// # Errors
    /// [`EncodeError::Part`](crate::EncodeError::Part) when it was appended before (the record points at one).
    pub fn push_processed_conditions_tile<'a>(
        &mut self,
        file: &mut impl crate::PartFile,
        part: impl IntoIterator<Item = &'a [u8]>,
    ) -> Result<u64, crate::EncodeError> {
        if self.processed_conditions_tile.is_some() {
            return Err(
                crate::EncodeError::part(
                    "FragmentFooter",
                    "processed_conditions_tile",
                    "appended twice, but the record points at one",
                ),
            );
        }
        let at = file.end();
        for p in part {
            file.put(p);
        }
        self.processed_conditions_tile = Some(at);
        Ok(at)
    }
}
