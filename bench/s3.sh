#!/usr/bin/env bash
# Reads from an S3 server against the TileDB engine: moto's S3 server
# (moto[server], in the engine's venv) started on 127.0.0.1, the benchmark
# arrays uploaded into it (copies; the local arrays are not changed), then
# both sides read them in-process, taking turns (bench/s3_bench.py, our side
# examples/s3_bench.rs); medians of REPEAT runs, time and requests (counted
# in the server's request log), one markdown table.
#
#   MIB     size of the dense arrays (default 256)
#   REPEAT  runs per case (default 5)
#   CASES   the letters of the cases to run (default all: abcdefg)
#   OURS    fetch options of our side, e.g. "gap=1 max=32 conc=8 ahead=128
#           tiles=0" (MiB; default: the library's defaults)
set -euo pipefail
source "$(dirname "$0")/env.sh"
"$PY" bench/make_arrays.py "$ARRAYS" --mib "$MIB"
cargo build --release --quiet -p tiledb-codec --features object-store --example s3_bench
"$PY" bench/s3_bench.py "$TARGET/release/examples/s3_bench" "$ARRAYS" \
    --mib "$MIB" --repeat "$REPEAT" --cases "${CASES:-abcdefg}" --ours "${OURS:-}"
