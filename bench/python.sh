#!/usr/bin/env bash
# Reads from Python (issue 23): the tiledb_codec package, its wheel built in
# release by maturin (in a scratch venv under /tmp, removed afterwards, as is
# the wheel's install), against TileDB-Py 0.36.1 in one process
# (bench/python_read.py), on the arrays of bench/read.sh; the Rust read of
# the full unfiltered array (examples/read_bench.rs) is timed in the same
# run, for the numpy read's ratio to it.
#   MIB, FRAGS, REPEAT as bench/read.sh (MIB=64 for a quick run); ARRAYS
#   where the arrays are (default target/bench/arrays-$MIB).
set -euo pipefail
source "$(dirname "$0")/env.sh"
FRAGS=${FRAGS:-10000}
"$PY" bench/make_arrays.py "$ARRAYS" --mib "$MIB" --frags "$FRAGS"
SCRATCH=$(mktemp -d /tmp/tiledb-codec-bench-python.XXXXXX)
trap 'rm -rf "$SCRATCH"' EXIT
"$PY" -m venv "$SCRATCH/maturin"
"$SCRATCH/maturin/bin/pip" install --quiet --disable-pip-version-check 'maturin>=1.5,<2'
"$SCRATCH/maturin/bin/maturin" build --release --quiet --manifest-path python/Cargo.toml \
    --interpreter "$PY" --out "$SCRATCH/wheels"
# The wheel's files beside the engine's venv, not in it: on PYTHONPATH.
"$PY" -m pip install --quiet --disable-pip-version-check --no-deps \
    --target "$SCRATCH/site" "$SCRATCH"/wheels/*.whl
cargo build --release --quiet -p tiledb-codec --example read_bench
PYTHONPATH="$SCRATCH/site" "$PY" bench/python_read.py "$ARRAYS" --mib "$MIB" --frags "$FRAGS" \
    --repeat "$REPEAT" --rust "$TARGET/release/examples/read_bench"
