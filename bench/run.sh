#!/usr/bin/env bash
# The side-by-side benchmark against the TileDB engine: makes the arrays
# with TileDB-Py (cached under target/bench/), builds the release binary, and
# prints medians and ratios: whole-command reads and open (compare.py), the
# in-process reads (bench/read.sh), then writing (bench/write.sh). MIB
# (default 256) sets the array size, REPEAT (default 5) the runs per case;
# see bench/env.sh.
set -euo pipefail
source "$(dirname "$0")/env.sh"
"$PY" bench/make_arrays.py "$ARRAYS" --mib "$MIB"
cargo build --release --quiet -p tiledb-codec-cli
cargo build --release --quiet -p tiledb-codec --example open_fragments
"$PY" bench/compare.py "$TARGET/release/tiledb-codec" "$ARRAYS" --repeat "$REPEAT"
# Then the in-process reads and writing (each script alone runs only its part).
MIB=$MIB REPEAT=$REPEAT bash bench/read.sh
MIB=$MIB REPEAT=$REPEAT bash bench/write.sh
