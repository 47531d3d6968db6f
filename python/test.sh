#!/usr/bin/env bash
# Usage: python/test.sh [PYTEST ARGS...]
#
# Builds the tiledb_codec package's extension module (debug) and runs
# python/tests with pytest in the engine's venv, the one TILEDB_PYTHON names
# (default target/tiledb-py-0.36.1, made by tests/engine/make_venv.sh if
# missing): it already has TileDB-Py (the judge), pyarrow and numpy; pytest,
# pandas (<3, as TileDB-Py's .df wants it), DuckDB and Polars (the scans with
# pushdown) and mypy (the stub check) are added.
#
# The module is built by cargo, not maturin, in the same feature resolution
# as the integration tests (the crate's lib and the `it` test with the
# python package), so that it reuses their build and adds only pyo3 and the
# package's own crate; it is copied next to python/tiledb_codec/__init__.py
# and python/ goes on PYTHONPATH (what `maturin develop` does, without a
# second build of the dependencies). CARGO_ARGS: more cargo arguments, e.g.
# `--features tiledb-codec-cli/ballista` as tests/it/python_package.rs passes the
# features the tests were built with.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${TILEDB_PYTHON:-$PWD/target/tiledb-py-0.36.1/bin/python}
if [ ! -x "$PY" ]; then
    bash tests/engine/make_venv.sh 0.36.1 "$(dirname "$(dirname "$PY")")"
fi
if ! "$PY" -c 'import pytest, pandas, duckdb, polars, mypy' 2>/dev/null; then
    "$PY" -m pip install --quiet --disable-pip-version-check pytest 'pandas<3' duckdb polars mypy
fi
CARGO=${CARGO:-cargo}
# shellcheck disable=SC2086 # CARGO_ARGS is split on purpose
"$CARGO" build --quiet -p tiledb-codec-cli -p tiledb-codec-python --lib --test it ${CARGO_ARGS:-}
TARGET=$("$CARGO" metadata --format-version 1 --no-deps | "$PY" -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
case "$(uname -s)" in
    Darwin) LIB=lib_native.dylib ;;
    *) LIB=lib_native.so ;;
esac
cp "$TARGET/debug/$LIB" python/tiledb_codec/_native.abi3.so
PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}" exec "$PY" -m pytest python/tests "$@"
