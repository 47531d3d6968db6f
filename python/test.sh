#!/usr/bin/env bash
# Usage: python/test.sh [PYTEST ARGS...]
#
# Builds the tiledb_codec package (debug profile: fast to build, fine for
# tests) into the engine's venv, the one TILEDB_PYTHON names (default
# target/tiledb-py-0.36.1, made by tests/engine/make_venv.sh if missing):
# it already has TileDB-Py (the judge), pyarrow and numpy, so only pytest and
# maturin are added. Then runs pytest on python/tests.
# MATURIN_ARGS: more arguments for `maturin develop` (e.g. --config ...).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${TILEDB_PYTHON:-$PWD/target/tiledb-py-0.36.1/bin/python}
if [ ! -x "$PY" ]; then
    bash tests/engine/make_venv.sh 0.36.1 "$(dirname "$(dirname "$PY")")"
fi
if ! "$PY" -c 'import pytest, maturin' 2>/dev/null; then
    "$PY" -m pip install --quiet --disable-pip-version-check pytest 'maturin>=1.5,<2'
fi
VENV=$("$PY" -c 'import sys; print(sys.prefix)')
# shellcheck disable=SC2086 # MATURIN_ARGS is split on purpose
VIRTUAL_ENV="$VENV" "$VENV/bin/maturin" develop --quiet --manifest-path python/Cargo.toml ${MATURIN_ARGS:-}
exec "$PY" -m pytest python/tests "$@"
