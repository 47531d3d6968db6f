//! The decoded account of every fixture, pinned. Review a changed snapshot
//! with `cargo insta review` before accepting it.

use crate::common;

use tiledb_codec::ReadOptions;
use tiledb_codec_cli::inspect::inspect_json;

/// The fixture's key, if it is encrypted: the 32 bytes of the string.
fn read_options(f: &common::Fixture) -> ReadOptions {
    match &f.key {
        Some(k) => ReadOptions::default().with_key(k.as_bytes().try_into().expect("a 32-byte key")),
        None => ReadOptions::default(),
    }
}

#[test]
fn every_fixture_decodes_to_its_snapshot() {
    for f in common::fixtures() {
        // Paths relative to the crate, so snapshots do not depend on where it lives.
        let rel = f.path.strip_prefix(common::root()).unwrap().to_path_buf();
        let v = inspect_json(&rel, &read_options(&f)).unwrap_or_else(|e| panic!("{}: {e}", f.id));
        let name = f.id.replace('/', "__");
        insta::assert_json_snapshot!(name, v);
    }
}
