//! Timestamped names (`array::name::parse`) of any string.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|name: &str| {
    if let Some(n) = tiledb_codec::raw::array::name::parse(name) {
        assert!(n.t1 <= n.t2);
    }
});
