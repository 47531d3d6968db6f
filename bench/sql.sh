#!/usr/bin/env bash
# SQL against the TileDB engine: `SELECT count(*), sum(a) ... WHERE` over
# the 4M-cell sparse array (bench/make_arrays.py's sparse_2d), and
# `SELECT count(*), min(v), max(v)` over the dense f64_zstd and the sparse
# sparse_dups (answered from fragment metadata), run by tiledb-codec through DataFusion
# (examples/sql_bench.rs) and by the engine as its own query with a
# condition and an aggregate (bench/sql_bench.py), in-process on both
# sides, taking turns; medians of REPEAT runs.
#
#   MIB     array size (default 256: 4,194,304 cells)
#   REPEAT  runs per case (default 5)
set -euo pipefail
source "$(dirname "$0")/env.sh"
"$PY" bench/make_arrays.py "$ARRAYS" --mib "$MIB" --only-sql
cargo build --release --quiet -p tiledb-codec-sql --example sql_bench
"$PY" bench/sql_bench.py "$TARGET/release/examples/sql_bench" "$ARRAYS" \
    --mib "$MIB" --repeat "$REPEAT"
