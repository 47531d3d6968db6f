#!/usr/bin/env bash
# The write half of the side-by-side benchmark against the TileDB engine:
# builds examples/write_dense.rs in release mode, then the engine (TileDB-Py)
# and tiledb-codec take turns writing the same 1-D dense float64 array (no
# filter; ZSTD) and it prints medians and ratios. MIB (default 256) sets
# the array size, REPEAT (default 5) the runs per case (bench/env.sh).
# Unfiltered, the disk alone (the same bytes in direct writes, no array)
# takes its turn too: the hardware limit both sides are measured against.
# The arrays are written under $TARGET/bench-write-$MIB and removed after
# each case. `bench/run.sh` runs this last.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cargo build --release --quiet -p tiledb-codec --example write_dense
"$PY" bench/compare_write.py "$TARGET/release/examples/write_dense" "$TARGET/bench-write-$MIB" \
    --mib "$MIB" --repeat "$REPEAT"
