//! The datatype table (spec/datatypes.toml) against the engine: the
//! default fill value of an attribute of each type, as the engine gives it.

use std::process::Command;

use tiledb_codec::raw::format::Datatype;

use crate::common;

#[test]
fn default_fill_values_are_the_engines() {
    let types = [
        (Datatype::Int8, "int8"),
        (Datatype::Uint8, "uint8"),
        (Datatype::Int16, "int16"),
        (Datatype::Uint16, "uint16"),
        (Datatype::Int32, "int32"),
        (Datatype::Uint32, "uint32"),
        (Datatype::Int64, "int64"),
        (Datatype::Uint64, "uint64"),
        (Datatype::Float32, "float32"),
        (Datatype::Float64, "float64"),
        (Datatype::DatetimeNs, "datetime64[ns]"),
        (Datatype::DatetimeDay, "datetime64[D]"),
        (Datatype::TimeMs, "timedelta64[ms]"),
        (Datatype::Char, "S1"),
        (Datatype::Bool, "bool"),
    ];
    let out = Command::new(common::engine_python())
        .arg(common::root().join("tests/engine/engine_fill.py"))
        .args(types.iter().map(|(dt, np)| format!("{}={np}", dt.name())))
        .output()
        .expect("the engine's Python runs");
    assert!(
        out.status.success(),
        "engine_fill.py: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let fills: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for (dt, _) in types {
        let hex: String = dt
            .default_fill()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(fills[dt.name()], hex.as_str(), "{dt:?}");
    }
}
