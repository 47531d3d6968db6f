// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

/// The entries, up to the end of the file. The engine reads every `.con` file,
/// whatever its timestamps (the spec page says files outside the open range are
/// skipped); only the embedded delete conditions are filtered by timestamp.
///
/// Spec: `format_spec/consolidated_commits_file.md#` (table "Consolidated Commits File").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct ConsolidatedCommits {
    /// Spec field "Fragment commit / Delete commit / Update commit, repeated" (`list<ConsolidatedCommit>`).
    #[br(err_context("ConsolidatedCommits.entries"), parse_with = rt::list_to_end, args((), "ConsolidatedCommits", "entries"))]
    pub entries: Vec<ConsolidatedCommit>,
}
impl ConsolidatedCommits {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/consolidated_commits_file.md#";
}
impl ConsolidatedCommits {
    /// Where field `entries` (spec "Fragment commit / Delete commit / Update commit, repeated") starts in a `ConsolidatedCommits`.
    pub const OFFSET_ENTRIES: usize = 0;
}
impl crate::Record for ConsolidatedCommits {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.entries);
        self.entries = x.into_iter().map(|e| e.at_version(version)).collect();
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.entries);
        self.entries = x.into_iter().map(|e| e.with_sizes()).collect();
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.entries;
            for e in x {
                e.check(version)?;
            }
        }
        Ok(())
    }
}
/// One entry. As the engine writes and reads it
/// (Consolidator::write_consolidated_commits_file,
/// ArrayDirectory::load_consolidated_commit_uris): only a name ending in `.del`
/// is followed by a size and the bytes of the whole delete commit file (a
/// generic tile). The spec page also gives `.upd` names a size and tile; the
/// engine never puts update commits in a `.con` file and would misread one with
/// a tile.
///
/// Spec: `format_spec/consolidated_commits_file.md#` (table "Consolidated Commits File").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct ConsolidatedCommit {
    /// Spec field "URI followed by a new line character" (`line`).
    #[br(err_context("ConsolidatedCommit.uri"), parse_with = rt::line, args("ConsolidatedCommit", "uri"))]
    #[bw(write_with = rt::write_line)]
    #[cfg_attr(feature = "serde", serde(serialize_with = "rt::serialize_text"))]
    pub uri: Vec<u8>,
    /// Spec field "Serialized delete condition tile size" (`u64`).
    #[br(err_context("ConsolidatedCommit.delete_tile_size"), if(((rt::ends_with(&uri, ".del")))))]
    pub delete_tile_size: Option<u64>,
    /// Spec field "Serialized delete condition tile" (`bytes`).
    ///
    /// The `.del` file's bytes: a generic tile holding a `ConditionNode`.
    #[br(err_context("ConsolidatedCommit.delete_tile"), parse_with = rt::opt_bytes, args(((rt::ends_with(&uri, ".del"))), (delete_tile_size.clone().unwrap_or_default()) as u64, "ConsolidatedCommit", "delete_tile"))]
    pub delete_tile: Option<Vec<u8>>,
}
impl ConsolidatedCommit {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/consolidated_commits_file.md#";
}
impl ConsolidatedCommit {
    /// Where field `uri` (spec "URI followed by a new line character") starts in a `ConsolidatedCommit`.
    pub const OFFSET_URI: usize = 0;
}
impl crate::Record for ConsolidatedCommit {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self.delete_tile_size = self.delete_tile.as_ref().map(|x| x.len() as u64);
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if let (Some(stated), Some(actual)) = (
            self.delete_tile_size,
            self.delete_tile.as_ref().map(|x| x.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "ConsolidatedCommit",
                        "delete_tile_size",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        {
            let uri = self.uri.clone();
            if ((rt::ends_with(&uri, ".del"))) != self.delete_tile_size.is_some() {
                return Err(
                    crate::EncodeError::condition(
                        "ConsolidatedCommit",
                        "delete_tile_size",
                        "rt::ends_with(&uri, \".del\")",
                        self.delete_tile_size.is_some(),
                    ),
                );
            }
        }
        {
            let uri = self.uri.clone();
            if ((rt::ends_with(&uri, ".del"))) != self.delete_tile.is_some() {
                return Err(
                    crate::EncodeError::condition(
                        "ConsolidatedCommit",
                        "delete_tile",
                        "rt::ends_with(&uri, \".del\")",
                        self.delete_tile.is_some(),
                    ),
                );
            }
        }
        Ok(())
    }
}
