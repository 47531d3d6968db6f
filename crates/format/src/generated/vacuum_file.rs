// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

/// The lines, up to the end of the file: fragment folders or metadata files that
/// a consolidation superseded. From version 19 they are relative to the array
/// folder, before that absolute URIs; the engine keeps the part from
/// `__fragments` or `__meta` on (else the last path part), so it reads both.
/// Matches the spec page.
///
/// Spec: `format_spec/vacuum_file.md#` (table "Vacuum File").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct VacuumFile {
    /// Spec field "Item 1 … Item N followed by a new line character" (`list<VacuumEntry>`).
    #[br(err_context("VacuumFile.entries"), parse_with = rt::list_to_end, args((), "VacuumFile", "entries"))]
    pub entries: Vec<VacuumEntry>,
}
impl VacuumFile {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/vacuum_file.md#";
}
impl VacuumFile {
    /// Where field `entries` (spec "Item 1 … Item N followed by a new line character") starts in a `VacuumFile`.
    pub const OFFSET_ENTRIES: usize = 0;
}
impl crate::Record for VacuumFile {
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
/// Spec: `format_spec/vacuum_file.md#` (table "Vacuum File").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct VacuumEntry {
    /// Spec field "Item followed by a new line character" (`line`).
    #[br(err_context("VacuumEntry.uri"), parse_with = rt::line, args("VacuumEntry", "uri"))]
    #[bw(write_with = rt::write_line)]
    #[cfg_attr(feature = "serde", serde(serialize_with = "rt::serialize_text"))]
    pub uri: Vec<u8>,
}
impl VacuumEntry {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/vacuum_file.md#";
}
impl VacuumEntry {
    /// Where field `uri` (spec "Item followed by a new line character") starts in a `VacuumEntry`.
    pub const OFFSET_URI: usize = 0;
}
impl crate::Record for VacuumEntry {
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
