//! The writing half: records built for a version with their sizes
//! computed ([`Record`], generated for every table and union), and an
//! encoding that refuses a record the format would not read back
//! ([`encode`], [`encode_at`]).

use alloc::vec::Vec;

use binrw::BinWrite;

/// What the generator writes for every table and union of `spec/`, so that
/// a writer never sets a version gate, a size or a count by hand: build the
/// record with every field the newest version has (`table!`), then
/// `.at_version(version).with_sizes()`, and encode it with [`encode`] or
/// [`encode_at`].
pub trait Record: Sized {
    /// The record as format `version` stores it: fields the version lacks
    /// dropped, fields it has and the record left out set to their default,
    /// the table's own version field set; nested records follow.
    #[must_use]
    fn at_version(self, version: u32) -> Self;
    /// Every length and count field that states the size of a later field
    /// of the record set from that field's contents (nested records first).
    #[must_use]
    fn with_sizes(self) -> Self;
    /// Whether the record can be written: its optional fields agree with
    /// its version (its own version field, else `version` when given) and
    /// with their conditions on its other fields, and its stated lengths and
    /// counts with its contents. Sizes it states of bytes it does not hold
    /// are compared by the table's `check_outside_sizes`.
    ///
    /// # Errors
    /// The first disagreement, naming the table and field.
    fn check(&self, version: Option<u32>) -> Result<(), EncodeError>;
}

/// A record [`encode`] refuses: in which table and field, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeError {
    /// An optional field present in a version that lacks it, or absent
    /// from one that has it.
    Version {
        /// Spec table (`Attribute`).
        table: &'static str,
        /// Field (`fill_value_size`).
        field: &'static str,
        /// The record's format version.
        version: u32,
        /// Whether the field is present.
        present: bool,
    },
    /// An optional field whose condition (its `if` in `spec/`, naming
    /// other fields of the record) says otherwise: present while the
    /// condition does not hold, or absent while it holds.
    Condition {
        /// Spec table (`MetadataEntry`).
        table: &'static str,
        /// Field (`value_type`).
        field: &'static str,
        /// The condition, as `spec/` writes it (`deletion == 0`).
        condition: &'static str,
        /// Whether the field is present.
        present: bool,
    },
    /// A length or count field that disagrees with what it counts.
    Size {
        /// Spec table.
        table: &'static str,
        /// The length or count field (`name_length`).
        field: &'static str,
        /// Its value.
        stated: u64,
        /// The length of what it counts.
        actual: u64,
    },
    /// An offset field that disagrees with where the part it points at
    /// starts in its file (the table's generated `XParts`).
    Offset {
        /// Spec table (`FragmentFooter`).
        table: &'static str,
        /// The offset field (`rtree_offset`; for a list, its element).
        field: &'static str,
        /// Its value (for a list of offsets of another length: the length).
        stated: u64,
        /// Where the part starts (or how many parts there are).
        actual: u64,
    },
    /// A part of a file given to a table's generated `XParts` that the
    /// record cannot point at: a second one where it points at one, one
    /// the record's version (or condition) has no field for, or none where
    /// it has.
    Part {
        /// Spec table (`FragmentFooter`).
        table: &'static str,
        /// The part (the table's `outside`, `rtree`).
        part: &'static str,
        /// What is wrong, in words.
        what: &'static str,
    },
}

impl EncodeError {
    #[doc(hidden)]
    #[must_use]
    pub fn new(table: &'static str, field: &'static str, version: u32, present: bool) -> Self {
        EncodeError::Version {
            table,
            field,
            version,
            present,
        }
    }

    #[doc(hidden)]
    #[must_use]
    pub fn condition(
        table: &'static str,
        field: &'static str,
        condition: &'static str,
        present: bool,
    ) -> Self {
        EncodeError::Condition {
            table,
            field,
            condition,
            present,
        }
    }

    #[doc(hidden)]
    #[must_use]
    pub fn offset(table: &'static str, field: &'static str, stated: u64, actual: u64) -> Self {
        EncodeError::Offset {
            table,
            field,
            stated,
            actual,
        }
    }

    #[doc(hidden)]
    #[must_use]
    pub fn part(table: &'static str, part: &'static str, what: &'static str) -> Self {
        EncodeError::Part { table, part, what }
    }

    #[doc(hidden)]
    #[must_use]
    pub fn size(table: &'static str, field: &'static str, stated: u64, actual: u64) -> Self {
        EncodeError::Size {
            table,
            field,
            stated,
            actual,
        }
    }
}

impl core::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            EncodeError::Version {
                table,
                field,
                version,
                present,
            } => {
                let (is, has) = if *present {
                    ("present", "lacks")
                } else {
                    ("absent", "has")
                };
                write!(
                    f,
                    "{table}.{field} is {is}, but format version {version} {has} it"
                )
            }
            EncodeError::Condition {
                table,
                field,
                condition,
                present,
            } => {
                let (is, holds) = if *present {
                    ("present", "does not hold")
                } else {
                    ("absent", "holds")
                };
                write!(
                    f,
                    "{table}.{field} is {is}, but its condition `{condition}` {holds}"
                )
            }
            EncodeError::Size {
                table,
                field,
                stated,
                actual,
            } => write!(
                f,
                "{table}.{field} states {stated}, but what it counts has {actual}"
            ),
            EncodeError::Offset {
                table,
                field,
                stated,
                actual,
            } => write!(
                f,
                "{table}.{field} states {stated}, but its part starts at (or has) {actual}"
            ),
            EncodeError::Part { table, part, what } => {
                write!(f, "{table}: part `{part}`: {what}")
            }
        }
    }
}

impl core::error::Error for EncodeError {}

/// Encodes a record (little-endian, as TileDB writes every table) after
/// [`Record::check`]: a record whose optional fields disagree with its own
/// version field, or whose stated sizes disagree with its contents, is
/// refused. A record without a version field of its own (a filter's
/// options, a generic tile header) is checked against a version by
/// [`encode_at`].
///
/// # Errors
/// What [`Record::check`] finds, naming the table and field.
pub fn encode<T>(value: &T) -> Result<Vec<u8>, EncodeError>
where
    T: BinWrite + Record,
    for<'a> <T as BinWrite>::Args<'a>: Default,
{
    value.check(None)?;
    Ok(crate::decode::encode_unchecked(value))
}

/// [`encode`], with the optional fields of a record that has no version
/// field of its own checked against format `version`.
///
/// # Errors
/// What [`Record::check`] finds, naming the table and field.
pub fn encode_at<T>(value: &T, version: u32) -> Result<Vec<u8>, EncodeError>
where
    T: BinWrite + Record,
    for<'a> <T as BinWrite>::Args<'a>: Default,
{
    value.check(Some(version))?;
    Ok(crate::decode::encode_unchecked(value))
}
