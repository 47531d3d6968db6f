#!/usr/bin/env bash
# The side-by-side benchmark against the TileDB engine: makes the arrays
# with TileDB-Py (cached under target/), builds the release binary, and
# prints medians and ratios, for reading and then for writing
# (bench/write.sh). MIB (default 256) sets the array size, REPEAT (default
# 5) the runs per case.
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
DIR=target/bench-arrays-$MIB
"$PY" bench/make_arrays.py "$DIR" --mib "$MIB"
cargo build --release --quiet --bin tiledb-codec --example open_fragments
"$PY" bench/compare.py target/release/tiledb-codec "$DIR" --repeat "$REPEAT"
# Then writing (bench/write.sh alone runs only this part).
MIB=$MIB REPEAT=$REPEAT bash bench/write.sh
