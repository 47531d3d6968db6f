# Sourced by the bench scripts (run.sh, read.sh, write.sh): moves to the
# repository root and sets
#   PY      a Python with TileDB-Py 0.36.1 ($TILEDB_PYTHON, else the venv
#           under target/, made on first use by tests/engine/make_venv.sh);
#   MIB     the size of the benchmark arrays in MiB (default 256);
#   REPEAT  runs per case (default 5);
#   TARGET  cargo's target folder ($CARGO_TARGET_DIR, else target);
#   ARRAYS  where the engine-written arrays are kept (target/bench/arrays-$MIB).
cd "$(dirname "${BASH_SOURCE[0]}")/.."
VENV=target/tiledb-py-0.36.1
PY=${TILEDB_PYTHON:-$VENV/bin/python}
if [ ! -x "$PY" ]; then
    bash tests/engine/make_venv.sh 0.36.1 "$VENV"
    PY=$VENV/bin/python
fi
MIB=${MIB:-256}
REPEAT=${REPEAT:-5}
TARGET=${CARGO_TARGET_DIR:-target}
ARRAYS=${ARRAYS:-target/bench/arrays-$MIB}
