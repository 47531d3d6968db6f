//! The decoded account of every fixture, pinned. Review a changed snapshot
//! with `cargo insta review` before accepting it.

mod common;

use tiledb_codec::filters::ReadOptions;
use tiledb_codec::inspect::inspect_json;

#[test]
fn every_fixture_decodes_to_its_snapshot() {
    for f in common::fixtures() {
        if f.key.is_some() {
            continue; // covered by the interop test until encryption lands
        }
        // Paths relative to the crate, so snapshots do not depend on where it lives.
        let rel = f.path.strip_prefix(common::root()).unwrap().to_path_buf();
        let v =
            inspect_json(&rel, &ReadOptions::default()).unwrap_or_else(|e| panic!("{}: {e}", f.id));
        let name = f.id.replace('/', "__");
        insta::assert_json_snapshot!(name, v);
    }
}
