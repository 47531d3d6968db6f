// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

/// The lines, up to the end of the file. Each is a commit file name relative to
/// the array folder that consolidated commits files no longer stand for. The
/// engine reads every `.ign` file, whatever its timestamps (the spec page says
/// files outside the open range are skipped), and matches lines as exact
/// strings.
///
/// Spec: `format_spec/ignore_file.md#` (table "Ignore File").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct IgnoreFile {
    /// Spec field "URI 1 … URI N followed by a new line character" (`list<IgnoreEntry>`).
    #[br(err_context("IgnoreFile.entries"), parse_with = rt::list_to_end, args((), "IgnoreFile", "entries"))]
    pub entries: Vec<IgnoreEntry>,
}
impl IgnoreFile {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/ignore_file.md#";
}
impl IgnoreFile {
    /// Where field `entries` (spec "URI 1 … URI N followed by a new line character") starts in a `IgnoreFile`.
    pub const OFFSET_ENTRIES: usize = 0;
}
impl crate::Record for IgnoreFile {
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
/// One line, without its newline. Matches the spec page.
///
/// Spec: `format_spec/ignore_file.md#` (table "Ignore File").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct IgnoreEntry {
    /// Spec field "URI followed by a new line character" (`line`).
    #[br(err_context("IgnoreEntry.uri"), parse_with = rt::line, args("IgnoreEntry", "uri"))]
    #[bw(write_with = rt::write_line)]
    #[cfg_attr(feature = "serde", serde(serialize_with = "rt::serialize_text"))]
    pub uri: Vec<u8>,
}
impl IgnoreEntry {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/ignore_file.md#";
}
impl IgnoreEntry {
    /// Where field `uri` (spec "URI followed by a new line character") starts in a `IgnoreEntry`.
    pub const OFFSET_URI: usize = 0;
}
impl crate::Record for IgnoreEntry {
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
