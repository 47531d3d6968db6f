#!/usr/bin/env bash
# Regenerates the seed corpora fuzz/seeds/<target>/ from tests/fixtures
# (fuzz/seedgen, a small program on the crate's own decoders). The output is
# deterministic; commit fuzz/seeds/ after running it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
CARGO_TARGET_DIR="$here/target/seedgen" \
    cargo run --quiet --manifest-path "$here/seedgen/Cargo.toml"
