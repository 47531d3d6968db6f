#!/usr/bin/env bash
# The benchmark family of sparse reads against the TileDB engine
# (bench/family_bench.py, our side examples/family_bench.rs): random-point
# and grid 2-D arrays in 1, 4, 16 and 64 fully overlapping fragments, one
# and two ZSTD attributes, with and without duplicates; a 5% x 5% box, a
# selective and an unselective condition and the full read, every field
# read; medians of REPEAT runs taking turns, the cells checked; a markdown
# table, and JSON under bench/results/.
#
#   CELLS   cells per array (default 4000000; CELLS=1000000 for a quick run)
#   DOMAIN  side of the random arrays' square domain (default 100000)
#   REPEAT  runs per case (default 5)
#   ONLY    a regular expression: only the cases whose label matches
#   S3=1    read from moto's S3 server instead of local files
#   ORDER   unordered (default: the engine's default for sparse arrays) |
#           row-major; both sides are asked for it
set -euo pipefail
source "$(dirname "$0")/env.sh"
CELLS=${CELLS:-4000000}
DOMAIN=${DOMAIN:-100000}
cargo build --release --quiet -p tiledb-codec --features object-store --example family_bench
"$PY" bench/family_bench.py "$TARGET/release/examples/family_bench" "target/bench/family-$CELLS" \
    --cells "$CELLS" --domain "$DOMAIN" --repeat "$REPEAT" --only "${ONLY:-}" \
    --order "${ORDER:-unordered}" ${S3:+--s3}
