//! Delete conditions (`ConditionNode` at depth 0, the data of a `.del`
//! generic tile) and update commits (`UpdateCommit`), then the condition
//! evaluated over a dummy cell of a fuzzed datatype.
//!
//! Input: table (u8: even `ConditionNode`, odd `UpdateCommit`), datatype
//! (u8, index into `Datatype::ALL`), cell kind (u8: 0 null, 1 no such
//! field, else a value), cell length (u8, % 17), cell bytes ([u8; 16]),
//! table bytes.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use tiledb_codec::format::{decode, ConditionNode, UpdateCommit};
use tiledb_codec::read::condition::{holds, CellValue};

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    table: u8,
    datatype: u8,
    cell_kind: u8,
    cell_len: u8,
    cell: [u8; 16],
    bytes: &'a [u8],
}

fuzz_target!(|input: Input| {
    let path =
        tiledb_codec_fuzz::path("fuzz/__commits/__1_1_0123456789abcdef0123456789abcdef_22.del");
    let node = if input.table.is_multiple_of(2) {
        match decode::<ConditionNode>(input.bytes, path, 0, (0,)) {
            Ok((n, _)) => n,
            Err(_) => return,
        }
    } else {
        match decode::<UpdateCommit>(input.bytes, path, 0, ()) {
            Ok((u, _)) => {
                let _ = serde_json::to_string(&u);
                u.condition
            }
            Err(_) => return,
        }
    };
    let _ = serde_json::to_string(&node);
    let dt = tiledb_codec_fuzz::datatype(input.datatype);
    let cell = &input.cell[..usize::from(input.cell_len % 17)];
    let value = |_field: &[u8]| -> Option<CellValue> {
        match input.cell_kind {
            0 => Some(CellValue::Null),
            1 => None,
            _ => Some(CellValue::Bytes(dt, cell)),
        }
    };
    let _ = holds(&node, &value);
});
