#!/usr/bin/env bash
# The crates' dependency graph is the layer order (ARCHITECTURE.md):
# - the library `tiledb-codec` with its default features pulls no command
#   line, async runtime, HTTP or cloud stack, or query engine;
# - each workspace crate depends (normal dependencies) only on workspace
#   crates below it.
# Exit 1 naming what is wrong.
set -euo pipefail
cd "$(dirname "$0")/.."
fail=0

# The crates in layer order, lowest first.
LAYERS=(tiledb-codec-format tiledb-codec-filters tiledb-codec tiledb-codec-sql tiledb-codec-cli)

tree=$(cargo tree -p tiledb-codec -e normal --prefix none)
for banned in clap indicatif tokio hyper reqwest rustls object_store datafusion ballista; do
    if grep -q "^$banned v" <<<"$tree"; then
        echo "tiledb-codec (default features) depends on $banned" >&2
        fail=1
    fi
done

for ((i = 0; i < ${#LAYERS[@]}; i++)); do
    crate=${LAYERS[$i]}
    deps=$(cargo tree -p "$crate" -e normal --prefix none --depth 1 --all-features | tail -n +2 | awk '{print $1}')
    for ((j = i + 1; j < ${#LAYERS[@]}; j++)); do
        above=${LAYERS[$j]}
        if grep -qx "$above" <<<"$deps"; then
            echo "$crate depends on $above, a crate above it" >&2
            fail=1
        fi
    done
done
# The format crate alone (binrw and zerocopy without std) builds as the
# `#![no_std]` crate it says it is.
cargo check --quiet -p tiledb-codec-format --lib || fail=1
exit $fail
