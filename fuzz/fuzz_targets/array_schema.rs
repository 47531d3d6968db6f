//! `ArraySchema` from bytes (the data of a schema generic tile), then what
//! the crate derives from a schema: the JSON account, coordinate sizes, the
//! fields and their filter pipelines.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tiledb_codec::raw::array::{FieldInfo, FieldPipelines};
use tiledb_codec::raw::format::{decode, ArraySchema};
use tiledb_codec::raw::model::SchemaTables;

fuzz_target!(|data: &[u8]| {
    let path = tiledb_codec_fuzz::path("fuzz/__schema/__1_1_0123456789abcdef0123456789abcdef");
    let Ok((schema, _)) = decode::<ArraySchema>(data, path, 0, ()) else {
        return;
    };
    let _ = tiledb_codec_cli::inspect::schema_json(&schema, path);
    if let Ok(s) = tiledb_codec::raw::model::Schema::from_table(&schema, &[], path) {
        let _ = tiledb_codec::raw::model::json::schema_to_json(&s);
        let _ = s.to_table(s.version);
    }
    let _ = serde_json::to_string(&schema);
    let _ = schema.domain.coord_sizes();
    let names = schema
        .attributes
        .iter()
        .map(|a| &a.name)
        .chain(schema.domain.dimensions.iter().map(|d| &d.name));
    for name in names {
        if let Some(field) = FieldInfo::lookup(&schema, &String::from_utf8_lossy(name)) {
            let _ = field.cell_size();
            let _ = FieldPipelines::new(&schema, &field, None);
            let _ = FieldPipelines::new(&schema, &field, Some(tiledb_codec_fuzz::KEY));
        }
    }
    let _ = FieldInfo::timestamps(&schema);
});
