// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

/// As the engine reads it (tiledb/sm/array_schema/enumeration.cc). The spec page
/// omits the name and path name (each a u32 length and the bytes) that follow
/// the version, and does not say that the offsets appear only for var-sized
/// values (cell val num = u32::MAX). The engine writes version 0 and rejects a
/// greater one.
///
/// Spec: `format_spec/enumeration.md#main-structure` (table "Main Structure").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Enumeration {
    /// Spec field "Version number" (`u32`).
    #[br(err_context("Enumeration.version_number"))]
    pub version_number: u32,
    /// Spec field "Name length" (`u32`).
    ///
    /// Not on the spec page.
    #[br(err_context("Enumeration.name_length"))]
    pub name_length: u32,
    /// Spec field "Name" (`string`).
    ///
    /// Not on the spec page: the enumeration's name, as attributes refer to it.
    #[br(err_context("Enumeration.name"), parse_with = rt::bytes, args((name_length) as u64, "Enumeration", "name"))]
    #[cfg_attr(feature = "serde", serde(serialize_with = "rt::serialize_text"))]
    pub name: Vec<u8>,
    /// Spec field "Path name length" (`u32`).
    ///
    /// Not on the spec page.
    #[br(err_context("Enumeration.path_name_length"))]
    pub path_name_length: u32,
    /// Spec field "Path name" (`string`).
    ///
    /// Not on the spec page: the file name in `__schema/__enumerations`.
    #[br(err_context("Enumeration.path_name"), parse_with = rt::bytes, args((path_name_length) as u64, "Enumeration", "path_name"))]
    #[cfg_attr(feature = "serde", serde(serialize_with = "rt::serialize_text"))]
    pub path_name: Vec<u8>,
    /// Spec field "Datatype" (`u8`, values from [`Datatype`]).
    #[br(err_context("Enumeration.datatype"))]
    pub datatype: Datatype,
    /// Spec field "Cell Val Num" (`u32`).
    #[br(err_context("Enumeration.cell_val_num"))]
    pub cell_val_num: u32,
    /// Spec field "Ordered" (`bool`).
    #[br(err_context("Enumeration.ordered"))]
    pub ordered: u8,
    /// Spec field "Data Size" (`u64`).
    #[br(err_context("Enumeration.data_size"))]
    pub data_size: u64,
    /// Spec field "Data" (`bytes`).
    #[br(err_context("Enumeration.data"), parse_with = rt::bytes, args((data_size) as u64, "Enumeration", "data"))]
    pub data: Vec<u8>,
    /// Spec field "Offsets Size" (`u64`).
    #[br(err_context("Enumeration.offsets_size"), if(((cell_val_num == VAR_NUM))))]
    pub offsets_size: Option<u64>,
    /// Spec field "Offsets" (`bytes`).
    ///
    /// u64 start offsets of the values in `data`.
    #[br(err_context("Enumeration.offsets"), parse_with = rt::opt_bytes, args(((cell_val_num == VAR_NUM)), (offsets_size.clone().unwrap_or_default()) as u64, "Enumeration", "offsets"))]
    pub offsets: Option<Vec<u8>>,
}
impl Enumeration {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/enumeration.md#main-structure";
}
impl Enumeration {
    /// Where field `version_number` (spec "Version number") starts in a `Enumeration`.
    pub const OFFSET_VERSION_NUMBER: usize = 0;
    /// Where field `name_length` (spec "Name length") starts in a `Enumeration`.
    pub const OFFSET_NAME_LENGTH: usize = 4;
    /// Where field `name` (spec "Name") starts in a `Enumeration`.
    pub const OFFSET_NAME: usize = 8;
    /// Bytes of a `Enumeration` with these imports
    /// and the values of its fields
    /// `name_length`, `path_name_length`, `cell_val_num`, `data_size`, `offsets_size`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(
        name_length: u32,
        path_name_length: u32,
        cell_val_num: u32,
        data_size: u64,
        offsets_size: Option<u64>,
    ) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add((name_length) as u64)?;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add((path_name_length) as u64)?;
        __len = __len.checked_add(1)?;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add(1)?;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add((data_size) as u64)?;
        if ((cell_val_num == VAR_NUM)) {
            offsets_size?;
            __len = __len.checked_add(8)?;
        }
        if ((cell_val_num == VAR_NUM)) {
            __len = __len
                .checked_add((offsets_size.clone().unwrap_or_default()) as u64)?;
        }
        Some(__len)
    }
}
/// The fixed-size fields that open a `Enumeration` borrowed in place: the
/// fields before `name`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`EnumerationRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct EnumerationRef {
    /// Field `version_number` as stored (spec "Version number").
    pub version_number: zerocopy::byteorder::little_endian::U32,
    /// Field `name_length` as stored (spec "Name length").
    pub name_length: zerocopy::byteorder::little_endian::U32,
}
impl EnumerationRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 8;
    /// The view of the first [`EnumerationRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `version_number` (spec "Version number").
    pub fn version_number(&self) -> u32 {
        self.version_number.get()
    }
    /// Field `name_length` (spec "Name length").
    pub fn name_length(&self) -> u32 {
        self.name_length.get()
    }
    /// Field `name` (spec "Name") borrowed in place: its bytes right after the
    /// view in `bytes` (what the view was read from); `None` when `bytes` is
    /// shorter or the length does not fit.
    #[allow(clippy::unnecessary_cast)]
    pub fn name<'a>(&self, bytes: &'a [u8]) -> Option<&'a [u8]> {
        let name_length = self.name_length();
        let len = usize::try_from((name_length) as u64).ok()?;
        bytes.get(Self::SIZE..)?.get(..len)
    }
}
/// The view is exactly its fields: `size_of::<EnumerationRef>()` is
/// [`EnumerationRef::SIZE`] (else this does not compile).
const _: [(); EnumerationRef::SIZE] = [(); core::mem::size_of::<EnumerationRef>()];
impl crate::Record for Enumeration {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self.name_length = self.name.len() as u32;
        self.path_name_length = self.path_name.len() as u32;
        self.data_size = self.data.len() as u64;
        self.offsets_size = self.offsets.as_ref().map(|x| x.len() as u64);
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if let (Some(stated), Some(actual)) = (
            Some(self.name_length),
            Some(self.name.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "Enumeration",
                        "name_length",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.path_name_length),
            Some(self.path_name.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "Enumeration",
                        "path_name_length",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.data_size),
            Some(self.data.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "Enumeration",
                        "data_size",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let (Some(stated), Some(actual)) = (
            self.offsets_size,
            self.offsets.as_ref().map(|x| x.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "Enumeration",
                        "offsets_size",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        {
            let cell_val_num = self.cell_val_num.clone();
            if ((cell_val_num == VAR_NUM)) != self.offsets_size.is_some() {
                return Err(
                    crate::EncodeError::condition(
                        "Enumeration",
                        "offsets_size",
                        "cell_val_num == VAR_NUM",
                        self.offsets_size.is_some(),
                    ),
                );
            }
        }
        {
            let cell_val_num = self.cell_val_num.clone();
            if ((cell_val_num == VAR_NUM)) != self.offsets.is_some() {
                return Err(
                    crate::EncodeError::condition(
                        "Enumeration",
                        "offsets",
                        "cell_val_num == VAR_NUM",
                        self.offsets.is_some(),
                    ),
                );
            }
        }
        Ok(())
    }
}
impl Enumeration {
    /// Sets the var-sized parts a `Enumeration` holds joined, and where each
    /// starts, from the parts (an optional field where present; its
    /// [`with_sizes`](crate::Record::with_sizes) then sets their lengths):
    ///
    /// * `values`, joined in `data`, where each starts in it in `offsets`: The enumeration's values, in order.
    #[must_use]
    pub fn with_joined(mut self, values: &[impl AsRef<[u8]>]) -> Self {
        self.data = {
            let mut v = alloc::vec::Vec::with_capacity(
                values.iter().map(|p| p.as_ref().len()).sum(),
            );
            for p in values {
                v.extend_from_slice(p.as_ref());
            }
            v
        };
        if self.offsets.is_some() {
            self.offsets = Some({
                let mut v = alloc::vec::Vec::with_capacity(8 * values.len());
                let mut at = 0u64;
                for p in values {
                    v.extend_from_slice(&at.to_le_bytes());
                    at += p.as_ref().len() as u64;
                }
                v
            });
        }
        self
    }
    /// Whether the parts a `Enumeration` holds joined, and their starts, are
    /// those given ([`with_joined`](Self::with_joined)).
    ///
    /// # Errors
    /// [`EncodeError::Part`](crate::EncodeError::Part) when the joined
    /// bytes differ from the parts, [`EncodeError::Size`](crate::EncodeError::Size)
    /// when they or the starts have another length,
    /// [`EncodeError::Offset`](crate::EncodeError::Offset) naming the first
    /// start that is wrong.
    pub fn check_joined(
        &self,
        values: &[impl AsRef<[u8]>],
    ) -> Result<(), crate::EncodeError> {
        {
            let j = &self.data;
            let mut at = 0usize;
            for p in values {
                let p = p.as_ref();
                if j.get(at..at + p.len()) != Some(p) {
                    return Err(
                        crate::EncodeError::part(
                            "Enumeration",
                            "values",
                            "the joined bytes are not the parts given",
                        ),
                    );
                }
                at += p.len();
            }
            if at != j.len() {
                return Err(
                    crate::EncodeError::size(
                        "Enumeration",
                        "data",
                        j.len() as u64,
                        at as u64,
                    ),
                );
            }
        }
        if let Some(s) = &self.offsets {
            if s.len() != 8 * values.len() {
                return Err(
                    crate::EncodeError::size(
                        "Enumeration",
                        "offsets",
                        s.len() as u64,
                        8 * values.len() as u64,
                    ),
                );
            }
            let mut at = 0u64;
            for (i, p) in values.iter().enumerate() {
                let stated = u64::from_le_bytes([
                    s[8 * i],
                    s[8 * i + 1],
                    s[8 * i + 2],
                    s[8 * i + 3],
                    s[8 * i + 4],
                    s[8 * i + 5],
                    s[8 * i + 6],
                    s[8 * i + 7],
                ]);
                if stated != at {
                    return Err(
                        crate::EncodeError::offset("Enumeration", "offsets", stated, at),
                    );
                }
                at += p.as_ref().len() as u64;
            }
        }
        Ok(())
    }
}
