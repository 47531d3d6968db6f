#!/usr/bin/env bash
# Reads from Python (issue 23): the tiledb_codec package, built in release
# with maturin into the engine's venv, against TileDB-Py 0.36.1 in one
# process (bench/python_read.py), on the arrays of bench/read.sh.
#   MIB, FRAGS, REPEAT as bench/read.sh (MIB=64 for a quick run).
set -euo pipefail
source "$(dirname "$0")/env.sh"
FRAGS=${FRAGS:-10000}
"$PY" bench/make_arrays.py "$ARRAYS" --mib "$MIB" --frags "$FRAGS"
"$PY" -c 'import maturin' 2>/dev/null || "$PY" -m pip install --quiet 'maturin>=1.5,<2'
VENV=$("$PY" -c 'import sys; print(sys.prefix)')
VIRTUAL_ENV="$VENV" "$VENV/bin/maturin" develop --release --quiet --manifest-path python/Cargo.toml
"$PY" bench/python_read.py "$ARRAYS" --mib "$MIB" --frags "$FRAGS" --repeat "$REPEAT"
