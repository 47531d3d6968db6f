#!/usr/bin/env bash
# Regenerates the seed corpora fuzz/seeds/<target>/ from tests/fixtures
# (fuzz/seedgen, a small program on the crate's own decoders). The output is
# deterministic; commit fuzz/seeds/ after running it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# seedgen is a member of the root workspace: it builds in its target folder
# (CARGO_TARGET_DIR, else target/).
cd "$here/.."
cargo run --quiet -p tiledb-codec-seedgen
