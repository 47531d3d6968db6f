// @generated from spec/ by crates/format/codegen (the test `generated`).
// Do not edit: edit spec/ and run
//     TILEDB_CODEC_CODEGEN=write cargo test -p tiledb-codec-format --test generated

/// The deepest condition node read or written: a node at this depth (the root
/// is at 0) is refused, which bounds the recursion on hostile input (the
/// engine has no limit).
///
/// Constant from `spec/delete_commit_file.toml`.
pub const MAX_CONDITION_DEPTH: u32 = 64;
/// What follows a condition node's type byte.
///
/// Code table from `spec/delete_commit_file.toml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
#[repr(u8)]
pub enum ConditionNodeType {
    /// `EXPRESSION` = 0: A combination of child nodes (`ExpressionNode`).
    Expression = 0,
    /// `VALUE` = 1: A comparison of a field with a value (`ValueNode`).
    Value = 1,
}
impl ConditionNodeType {
    /// Every value of the table, in spec order.
    pub const ALL: &'static [Self] = &[Self::Expression, Self::Value];
    /// The value with this on-disk code, if the format defines one.
    pub fn from_value(value: u8) -> Option<Self> {
        match value {
            0 => Some(Self::Expression),
            1 => Some(Self::Value),
            _ => None,
        }
    }
    /// The on-disk code.
    pub fn value(self) -> u8 {
        self as u8
    }
    /// The format's name of the value, without the C API prefix.
    pub fn name(self) -> &'static str {
        match self {
            Self::Expression => "EXPRESSION",
            Self::Value => "VALUE",
        }
    }
    /// The value of this name (as `name()` spells it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.name() == name)
    }
}
/// An absent field reads as code 0.
impl Default for ConditionNodeType {
    fn default() -> Self {
        Self::Expression
    }
}
/// Prints the format's name; `UNKNOWN(code)` for a code it does not list.
impl core::fmt::Display for ConditionNodeType {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match Self::from_value(self.value()) {
            Some(v) => f.write_str(v.name()),
            None => write!(f, "UNKNOWN({})", self.value()),
        }
    }
}
/// Serializes as the `Display` name.
#[cfg(feature = "serde")]
impl serde::Serialize for ConditionNodeType {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
impl binrw::BinRead for ConditionNodeType {
    type Args<'a> = ();
    fn read_options<R: binrw::io::Read + binrw::io::Seek>(
        reader: &mut R,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<Self> {
        let pos = reader.stream_position()?;
        let value = <u8 as binrw::BinRead>::read_options(reader, endian, ())?;
        Self::from_value(value)
            .ok_or_else(|| binrw::Error::Custom {
                pos,
                err: Box::new(UnknownCode {
                    table: "ConditionNodeType",
                    value: i128::from(value),
                }),
            })
    }
}
impl binrw::BinWrite for ConditionNodeType {
    type Args<'a> = ();
    fn write_options<W: binrw::io::Write + binrw::io::Seek>(
        &self,
        writer: &mut W,
        endian: binrw::Endian,
        _: (),
    ) -> binrw::BinResult<()> {
        binrw::BinWrite::write_options(&self.value(), writer, endian, ())
    }
}
/// One node of a condition: its type, then an expression or a value node.
/// `depth` is the node's depth (0 for the root); nodes at
/// `MAX_CONDITION_DEPTH` or deeper are refused.
///
/// Spec: `format_spec/delete_commit_file.md#` (table "Delete Commit File").
#[binrw::binrw]
#[brw(little)]
#[br(import(depth: u32))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct ConditionNode {
    /// Spec field "Node type" (`u8`, values from [`ConditionNodeType`]).
    #[br(err_context("ConditionNode.node_type"), assert(depth < MAX_CONDITION_DEPTH, "ConditionNode.node_type: the value does not meet `depth < MAX_CONDITION_DEPTH`"))]
    pub node_type: ConditionNodeType,
    /// Spec field "Combination op … / Op …" (`ConditionNodeBody`).
    #[br(err_context("ConditionNode.body"), args(node_type, depth))]
    pub body: ConditionNodeBody,
}
impl ConditionNode {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/delete_commit_file.md#";
}
impl ConditionNode {
    /// Where field `node_type` (spec "Node type") starts in a `ConditionNode`.
    pub const OFFSET_NODE_TYPE: usize = 0;
    /// Where field `body` (spec "Combination op … / Op …") starts in a `ConditionNode`.
    pub const OFFSET_BODY: usize = 1;
}
/// The fixed-size fields that open a `ConditionNode` borrowed in place: the
/// fields before `body`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`ConditionNodeRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct ConditionNodeRef {
    /// Field `node_type` as stored (spec "Node type").
    pub node_type: u8,
}
impl ConditionNodeRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 1;
    /// The view of the first [`ConditionNodeRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `node_type` (spec "Node type").
    pub fn node_type(&self) -> u8 {
        self.node_type
    }
}
/// The view is exactly its fields: `size_of::<ConditionNodeRef>()` is
/// [`ConditionNodeRef::SIZE`] (else this does not compile).
const _: [(); ConditionNodeRef::SIZE] = [(); core::mem::size_of::<ConditionNodeRef>()];
impl crate::Record for ConditionNode {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.body);
        self.body = x.at_version(version);
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.body);
        self.body = x.with_sizes();
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.body;
            x.check(version)?;
        }
        Ok(())
    }
}
/// An expression node, after its node type: a combination of child nodes.
/// Matches the spec page (the child count is one u64).
///
/// Spec: `format_spec/delete_commit_file.md#` (table "Delete Commit File").
#[binrw::binrw]
#[brw(little)]
#[br(import(depth: u32))]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct ExpressionNode {
    /// Spec field "Combination op" (`u8`, values from [`QueryConditionCombinationOp`]).
    #[br(err_context("ExpressionNode.combination_op"))]
    pub combination_op: QueryConditionCombinationOp,
    /// Spec field "Num children" (`u64`).
    #[br(err_context("ExpressionNode.num_children"))]
    pub num_children: u64,
    /// Spec field "Children 1 … Children N" (`list<ConditionNode>`).
    #[br(err_context("ExpressionNode.children"), parse_with = rt::list, args((num_children) as u64, 1, (depth + 1,), "ExpressionNode", "children"))]
    pub children: Vec<ConditionNode>,
}
impl ExpressionNode {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/delete_commit_file.md#";
}
impl ExpressionNode {
    /// Where field `combination_op` (spec "Combination op") starts in a `ExpressionNode`.
    pub const OFFSET_COMBINATION_OP: usize = 0;
    /// Where field `num_children` (spec "Num children") starts in a `ExpressionNode`.
    pub const OFFSET_NUM_CHILDREN: usize = 1;
    /// Where field `children` (spec "Children 1 … Children N") starts in a `ExpressionNode`.
    pub const OFFSET_CHILDREN: usize = 9;
}
/// The fixed-size fields that open a `ExpressionNode` borrowed in place: the
/// fields before `children`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`ExpressionNodeRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct ExpressionNodeRef {
    /// Field `combination_op` as stored (spec "Combination op").
    pub combination_op: u8,
    /// Field `num_children` as stored (spec "Num children").
    pub num_children: zerocopy::byteorder::little_endian::U64,
}
impl ExpressionNodeRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 9;
    /// The view of the first [`ExpressionNodeRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `combination_op` (spec "Combination op").
    pub fn combination_op(&self) -> u8 {
        self.combination_op
    }
    /// Field `num_children` (spec "Num children").
    pub fn num_children(&self) -> u64 {
        self.num_children.get()
    }
}
/// The view is exactly its fields: `size_of::<ExpressionNodeRef>()` is
/// [`ExpressionNodeRef::SIZE`] (else this does not compile).
const _: [(); ExpressionNodeRef::SIZE] = [(); core::mem::size_of::<ExpressionNodeRef>()];
impl crate::Record for ExpressionNode {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        let x = core::mem::take(&mut self.children);
        self.children = x.into_iter().map(|e| e.at_version(version)).collect();
        self
    }
    fn with_sizes(mut self) -> Self {
        let x = core::mem::take(&mut self.children);
        self.children = x.into_iter().map(|e| e.with_sizes()).collect();
        self.num_children = self.children.len() as u64;
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        {
            let x = &self.children;
            for e in x {
                e.check(version)?;
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.num_children),
            Some(self.children.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "ExpressionNode",
                        "num_children",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        Ok(())
    }
}
/// A value node, after its node type: a comparison of a field with a value. The
/// spec page lists only the ops LT to NE; the engine also writes IN (6) and
/// NOT_IN (7), whose value is a concatenation of values followed by a u64 size
/// and that many bytes of u64 start offsets, fields the page omits.
///
/// Spec: `format_spec/delete_commit_file.md#` (table "Delete Commit File").
#[binrw::binrw]
#[brw(little)]
#[derive(Debug, Clone, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct ValueNode {
    /// Spec field "Op" (`u8`, values from [`QueryConditionOp`]).
    #[br(err_context("ValueNode.op"))]
    pub op: QueryConditionOp,
    /// Spec field "Field name size" (`u32`).
    #[br(err_context("ValueNode.field_name_size"))]
    pub field_name_size: u32,
    /// Spec field "Field name value" (`string`).
    #[br(err_context("ValueNode.field_name"), parse_with = rt::bytes, args((field_name_size) as u64, "ValueNode", "field_name"))]
    #[cfg_attr(feature = "serde", serde(serialize_with = "rt::serialize_text"))]
    pub field_name: Vec<u8>,
    /// Spec field "Value size" (`u64`).
    #[br(err_context("ValueNode.value_size"))]
    pub value_size: u64,
    /// Spec field "Value content" (`bytes`).
    ///
    /// The value; of an IN or NOT_IN node, its members joined.
    #[br(err_context("ValueNode.value"), parse_with = rt::bytes, args((value_size) as u64, "ValueNode", "value"))]
    pub value: Vec<u8>,
    /// Spec field "Offsets size" (`u64`).
    ///
    /// Not on the spec page.
    #[br(err_context("ValueNode.offsets_size"), if(((op == QueryConditionOp::In || op == QueryConditionOp::NotIn))))]
    pub offsets_size: Option<u64>,
    /// Spec field "Offsets" (`bytes`).
    ///
    /// Not on the spec page: where each member starts in `value`.
    #[br(err_context("ValueNode.offsets"), parse_with = rt::opt_bytes, args(((op == QueryConditionOp::In || op == QueryConditionOp::NotIn)), (offsets_size.clone().unwrap_or_default()) as u64, "ValueNode", "offsets"))]
    pub offsets: Option<Vec<u8>>,
}
impl ValueNode {
    /// Where the spec describes this table.
    pub const SPEC: &'static str = "format_spec/delete_commit_file.md#";
}
impl ValueNode {
    /// Where field `op` (spec "Op") starts in a `ValueNode`.
    pub const OFFSET_OP: usize = 0;
    /// Where field `field_name_size` (spec "Field name size") starts in a `ValueNode`.
    pub const OFFSET_FIELD_NAME_SIZE: usize = 1;
    /// Where field `field_name` (spec "Field name value") starts in a `ValueNode`.
    pub const OFFSET_FIELD_NAME: usize = 5;
    /// Bytes of a `ValueNode` with these imports
    /// and the values of its fields
    /// `op`, `field_name_size`, `value_size`, `offsets_size`
    /// (`None` for an optional field: unknown);
    /// `None` when that does not settle it (a present field whose size
    /// depends on its content, an unknown field, an overflow).
    #[allow(unused_mut)]
    pub fn size(
        op: QueryConditionOp,
        field_name_size: u32,
        value_size: u64,
        offsets_size: Option<u64>,
    ) -> Option<u64> {
        let mut __len: u64 = 0;
        __len = __len.checked_add(1)?;
        __len = __len.checked_add(4)?;
        __len = __len.checked_add((field_name_size) as u64)?;
        __len = __len.checked_add(8)?;
        __len = __len.checked_add((value_size) as u64)?;
        if ((op == QueryConditionOp::In || op == QueryConditionOp::NotIn)) {
            offsets_size?;
            __len = __len.checked_add(8)?;
        }
        if ((op == QueryConditionOp::In || op == QueryConditionOp::NotIn)) {
            __len = __len
                .checked_add((offsets_size.clone().unwrap_or_default()) as u64)?;
        }
        Some(__len)
    }
}
/// The fixed-size fields that open a `ValueNode` borrowed in place: the
/// fields before `field_name`.
///
/// Zerocopy's unaligned little-endian integers: read it at any offset with
/// [`ValueNodeRef::read`] (`ref_from_prefix`), nothing copied.
#[derive(zerocopy::FromBytes, zerocopy::IntoBytes, zerocopy::KnownLayout, zerocopy::Immutable, zerocopy::Unaligned, Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
#[repr(C)]
pub struct ValueNodeRef {
    /// Field `op` as stored (spec "Op").
    pub op: u8,
    /// Field `field_name_size` as stored (spec "Field name size").
    pub field_name_size: zerocopy::byteorder::little_endian::U32,
}
impl ValueNodeRef {
    /// Bytes the view covers.
    pub const SIZE: usize = 5;
    /// The view of the first [`ValueNodeRef::SIZE`] bytes of `bytes`; `None`
    /// when there are fewer.
    pub fn read(bytes: &[u8]) -> Option<&Self> {
        <Self as zerocopy::FromBytes>::ref_from_prefix(bytes).ok().map(|(v, _)| v)
    }
    /// Field `op` (spec "Op").
    pub fn op(&self) -> u8 {
        self.op
    }
    /// Field `field_name_size` (spec "Field name size").
    pub fn field_name_size(&self) -> u32 {
        self.field_name_size.get()
    }
    /// Field `field_name` (spec "Field name value") borrowed in place: its bytes right after the
    /// view in `bytes` (what the view was read from); `None` when `bytes` is
    /// shorter or the length does not fit.
    #[allow(clippy::unnecessary_cast)]
    pub fn field_name<'a>(&self, bytes: &'a [u8]) -> Option<&'a [u8]> {
        let field_name_size = self.field_name_size();
        let len = usize::try_from((field_name_size) as u64).ok()?;
        bytes.get(Self::SIZE..)?.get(..len)
    }
}
/// The view is exactly its fields: `size_of::<ValueNodeRef>()` is
/// [`ValueNodeRef::SIZE`] (else this does not compile).
const _: [(); ValueNodeRef::SIZE] = [(); core::mem::size_of::<ValueNodeRef>()];
impl crate::Record for ValueNode {
    fn at_version(mut self, version: u32) -> Self {
        let _ = version;
        self
    }
    fn with_sizes(mut self) -> Self {
        self.field_name_size = self.field_name.len() as u32;
        self.value_size = self.value.len() as u64;
        self.offsets_size = self.offsets.as_ref().map(|x| x.len() as u64);
        self
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        let _ = version;
        if let (Some(stated), Some(actual)) = (
            Some(self.field_name_size),
            Some(self.field_name.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "ValueNode",
                        "field_name_size",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        if let (Some(stated), Some(actual)) = (
            Some(self.value_size),
            Some(self.value.len() as u64),
        ) {
            if stated as u64 != actual {
                return Err(
                    crate::EncodeError::size(
                        "ValueNode",
                        "value_size",
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
                        "ValueNode",
                        "offsets_size",
                        stated as u64,
                        actual,
                    ),
                );
            }
        }
        {
            let op = self.op.clone();
            if ((op == QueryConditionOp::In || op == QueryConditionOp::NotIn))
                != self.offsets_size.is_some()
            {
                return Err(
                    crate::EncodeError::condition(
                        "ValueNode",
                        "offsets_size",
                        "op == QueryConditionOp::IN || op == QueryConditionOp::NOT_IN",
                        self.offsets_size.is_some(),
                    ),
                );
            }
        }
        {
            let op = self.op.clone();
            if ((op == QueryConditionOp::In || op == QueryConditionOp::NotIn))
                != self.offsets.is_some()
            {
                return Err(
                    crate::EncodeError::condition(
                        "ValueNode",
                        "offsets",
                        "op == QueryConditionOp::IN || op == QueryConditionOp::NOT_IN",
                        self.offsets.is_some(),
                    ),
                );
            }
        }
        Ok(())
    }
}
impl ValueNode {
    /// Sets the var-sized parts a `ValueNode` holds joined, and where each
    /// starts, from the parts (an optional field where present; its
    /// [`with_sizes`](crate::Record::with_sizes) then sets their lengths):
    ///
    /// * `members`, joined in `value`, where each starts in it in `offsets`: The members of the set an IN or NOT_IN node compares with, in order.
    #[must_use]
    pub fn with_joined(mut self, members: &[impl AsRef<[u8]>]) -> Self {
        self.value = {
            let mut v = alloc::vec::Vec::with_capacity(
                members.iter().map(|p| p.as_ref().len()).sum(),
            );
            for p in members {
                v.extend_from_slice(p.as_ref());
            }
            v
        };
        if self.offsets.is_some() {
            self.offsets = Some({
                let mut v = alloc::vec::Vec::with_capacity(8 * members.len());
                let mut at = 0u64;
                for p in members {
                    v.extend_from_slice(&at.to_le_bytes());
                    at += p.as_ref().len() as u64;
                }
                v
            });
        }
        self
    }
    /// Whether the parts a `ValueNode` holds joined, and their starts, are
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
        members: &[impl AsRef<[u8]>],
    ) -> Result<(), crate::EncodeError> {
        {
            let j = &self.value;
            let mut at = 0usize;
            for p in members {
                let p = p.as_ref();
                if j.get(at..at + p.len()) != Some(p) {
                    return Err(
                        crate::EncodeError::part(
                            "ValueNode",
                            "members",
                            "the joined bytes are not the parts given",
                        ),
                    );
                }
                at += p.len();
            }
            if at != j.len() {
                return Err(
                    crate::EncodeError::size(
                        "ValueNode",
                        "value",
                        j.len() as u64,
                        at as u64,
                    ),
                );
            }
        }
        if let Some(s) = &self.offsets {
            if s.len() != 8 * members.len() {
                return Err(
                    crate::EncodeError::size(
                        "ValueNode",
                        "offsets",
                        s.len() as u64,
                        8 * members.len() as u64,
                    ),
                );
            }
            let mut at = 0u64;
            for (i, p) in members.iter().enumerate() {
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
                        crate::EncodeError::offset("ValueNode", "offsets", stated, at),
                    );
                }
                at += p.as_ref().len() as u64;
            }
        }
        Ok(())
    }
}
/// Spec: `format_spec/delete_commit_file.md#` ("Delete Commit File").
#[binrw::binrw]
#[brw(little)]
#[br(import(node_type: ConditionNodeType, depth: u32))]
#[br(return_unexpected_error)]
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "variant", content = "value"))]
#[non_exhaustive]
pub enum ConditionNodeBody {
    /// A `ExpressionNode`; read when `node_type == ConditionNodeType::EXPRESSION`.
    #[br(pre_assert(node_type == ConditionNodeType::Expression))]
    Expression(#[br(args(depth))] ExpressionNode),
    /// A `ValueNode`; read when `node_type == ConditionNodeType::VALUE`.
    #[br(pre_assert(node_type == ConditionNodeType::Value))]
    Value(ValueNode),
}
impl Default for ConditionNodeBody {
    fn default() -> Self {
        Self::Expression(Default::default())
    }
}
impl ConditionNodeBody {
    /// Where the spec describes this union.
    pub const SPEC: &'static str = "format_spec/delete_commit_file.md#";
}
impl crate::Record for ConditionNodeBody {
    fn at_version(self, version: u32) -> Self {
        let _ = version;
        #[allow(unreachable_patterns)]
        match self {
            Self::Expression(x) => Self::Expression(x.at_version(version)),
            Self::Value(x) => Self::Value(x.at_version(version)),
            other => other,
        }
    }
    fn with_sizes(self) -> Self {
        #[allow(unreachable_patterns)]
        match self {
            Self::Expression(x) => Self::Expression(x.with_sizes()),
            Self::Value(x) => Self::Value(x.with_sizes()),
            other => other,
        }
    }
    fn check(&self, version: Option<u32>) -> Result<(), crate::EncodeError> {
        #[allow(unreachable_patterns)]
        match self {
            Self::Expression(x) => x.check(version),
            Self::Value(x) => x.check(version),
            _ => Ok(()),
        }
    }
}
