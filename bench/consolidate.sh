#!/usr/bin/env bash
# Consolidation against the TileDB engine: makes three arrays of many
# fragments with TileDB-Py (bench/make_consolidate_arrays.py, cached under
# target/bench/consolidate/; the 10,000-fragment array takes minutes), builds
# examples/bench_consolidate.rs in release mode, then the engine
# (bench/engine_consolidate.py) and tiledb-codec take turns consolidating a
# fresh copy of each array into one fragment and vacuuming it, each in its own
# process, and it prints medians, ratios and peak memory
# (bench/compare_consolidate.py).
#
#   REPEAT       runs per case (default 5)
#   CASES        a comma-separated subset of sparse_1000,sparse_10000,dense_1000
#   ENGINE_ONLY  set (to anything) to run the engine alone, building nothing
set -euo pipefail
source "$(dirname "$0")/env.sh"
ROOT=target/bench/consolidate
"$PY" bench/make_consolidate_arrays.py "$ROOT"
if [ -n "${ENGINE_ONLY:-}" ]; then
    EXAMPLE=none
else
    cargo build --release --quiet -p tiledb-codec --example bench_consolidate
    EXAMPLE=$TARGET/release/examples/bench_consolidate
fi
"$PY" bench/compare_consolidate.py "$EXAMPLE" "$ROOT" target/bench/consolidate-runs \
    --repeat "$REPEAT" ${CASES:+--cases "$CASES"}
