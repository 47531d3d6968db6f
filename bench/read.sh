#!/usr/bin/env bash
# In-process reads against the TileDB engine: both sides time themselves
# around open + read, the engine (TileDB-Py 0.36.1) inside one Python process
# (bench/read_bench.py), tiledb-codec inside examples/read_bench.rs, taking
# turns case by case; medians of REPEAT runs, one markdown table. Peak
# memory of a streamed read is measured in a fresh process per side.
#
#   MIB     size of the dense arrays (default 256; the streamed read uses an
#           array of 8 * MIB, 2 GiB by default); MIB=64 for a quick run
#   FRAGS   fragments of the open case (default 10000)
#   REPEAT  runs per case (default 5)
#   CASES   the letters of the cases to run (default all: abcdefghij)
set -euo pipefail
source "$(dirname "$0")/env.sh"
FRAGS=${FRAGS:-10000}
"$PY" bench/make_arrays.py "$ARRAYS" --mib "$MIB" --frags "$FRAGS"
cargo build --release --quiet -p tiledb-codec --example read_bench
"$PY" bench/read_bench.py "$TARGET/release/examples/read_bench" "$ARRAYS" \
    --mib "$MIB" --frags "$FRAGS" --repeat "$REPEAT" --cases "${CASES:-abcdefghij}"
