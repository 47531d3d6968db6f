//! Delete conditions (`ConditionNode` at depth 0, the data of a `.del`
//! generic tile) and update commits (`UpdateCommit`), then the condition
//! bound as a reader binds a delete's (`BoundCondition::from_stored`) and
//! evaluated over one cell of a field of a fuzzed datatype.
//!
//! Input: table (u8: even `ConditionNode`, odd `UpdateCommit`), datatype
//! (u8, index into `Datatype::ALL`), cell kind (u8: 0 null, 1 no such
//! field, 2 fixed-size, else var-sized), cell length (u8, % 17: the cell's
//! bytes and, fixed-size, the values per cell), cell bytes ([u8; 16]),
//! table bytes.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use tiledb_codec::raw::array::FieldInfo;
use tiledb_codec::raw::format::{decode, ConditionNode, UpdateCommit};
use tiledb_codec::raw::read::query_condition::serialized::StoredField;
use tiledb_codec::raw::read::query_condition::BoundCondition;
use tiledb_codec::raw::read::{Cells, Column, FieldData};

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
    let datatype = tiledb_codec_fuzz::datatype(input.datatype);
    let len = usize::from(input.cell_len % 17);
    let var = input.cell_kind > 2;
    let size = datatype.size().max(1) as usize;
    let n = (len / size).max(1);
    let cell = if var {
        input.cell[..len].to_vec()
    } else {
        let mut c = input.cell.to_vec();
        c.resize(n * size, 0);
        c
    };
    let field = |name: &str| -> Option<StoredField> {
        (input.cell_kind != 1).then(|| {
            let info = FieldInfo::attribute(
                name,
                0,
                datatype,
                (!var).then_some(n as u32),
                input.cell_kind == 0,
            );
            StoredField::new(info, false)
        })
    };
    let Ok(bound) = BoundCondition::from_stored(&node, "fuzz.del", &field) else {
        return;
    };
    // One cell of every field the condition names.
    let columns = bound
        .fields()
        .iter()
        .map(|f| {
            let data = FieldData::new(
                cell.clone(),
                var.then(|| vec![0]),
                f.nullable.then(|| vec![0]),
                vec![1],
            );
            Column::from_field_data(f.clone(), data, 1)
        })
        .collect();
    let cells = Cells::new(columns, 1);
    let _ = bound.evaluate(&cells);
    let _ = bound
        .with_absent_fields(&|_| true)
        .map(|b| b.evaluate(&cells));
});
