#!/usr/bin/env bash
# The write half of the side-by-side benchmark against the TileDB engine:
# builds examples/write_dense.rs in release mode, then the engine (TileDB-Py)
# and tiledb-codec take turns writing the same 1-D dense float64 array (no
# filter; ZSTD) and it prints medians and ratios. MIB (default 256) sets
# the array size, REPEAT (default 5) the runs per case. `bench/run.sh` runs
# this after the reads.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=target/tiledb-py-0.36.1
PY=${TILEDB_PYTHON:-$VENV/bin/python}
if [ ! -x "$PY" ]; then
    bash tests/engine/make_venv.sh 0.36.1 "$VENV"
    PY=$VENV/bin/python
fi
MIB=${MIB:-256}
REPEAT=${REPEAT:-5}
TARGET=${CARGO_TARGET_DIR:-target}
cargo build --release --quiet --example write_dense
"$PY" bench/compare_write.py "$TARGET/release/examples/write_dense" target/bench-write-$MIB \
    --mib "$MIB" --repeat "$REPEAT"
