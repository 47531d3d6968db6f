#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 30) seconds, with the format
# dictionary, the committed seeds and a corpus of its own
# (fuzz/corpus/<target>, gitignored), and prints per target how many
# inputs it ran (libFuzzer's stat::number_of_executed_units) and whether it
# found a crash (saved under fuzz/artifacts/<target>/). Before fuzzing a
# target it replays that target's saved crash inputs, tests/regressions/
# <target>-*.bin. Exits 1 if any target crashed.
#
#   fuzz/run_all.sh [-j JOBS] [SECONDS] [TARGET...]
#
# JOBS targets run at the same time (default: one per core, `nproc`); each
# target is one process on one core. The lines are printed in the targets'
# order, each when its target is done.
#
# Needs cargo-fuzz; on a stable toolchain RUSTC_BOOTSTRAP=1 is set here.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
jobs=$(nproc 2>/dev/null || echo 1)
if [ "${1:-}" = "-j" ]; then
    jobs="${2:?-j takes a number}"
    shift 2
fi
seconds="${1:-30}"
shift || true
export RUSTC_BOOTSTRAP=1 RUST_BACKTRACE=1
cd "$root"

if [ "$#" -gt 0 ]; then
    targets=("$@")
else
    mapfile -t targets < <(cargo fuzz list)
fi

# Build once, then run the binaries themselves: the crate may change under
# a long run without changing what is being fuzzed.
cargo fuzz build >/dev/null 2>&1 || cargo fuzz build || exit 1
target="${CARGO_TARGET_DIR:-$here/target}"
bin="$target/$(rustc -vV | sed -n 's/^host: //p')/release"

logs="$target/run_all"
mkdir -p "$logs"
# Fuzzes one target; prints its line; fails if it crashed.
fuzz_one() {
    local t="$1" log rc execs speed result artifact regress
    mkdir -p "$here/corpus/$t" "$here/seeds/$t" "$here/artifacts/$t"
    log="$logs/$t.log"
    # First the inputs of crashes found before (tests/regressions/<target>-*.bin),
    # each run once: a crash fixed must stay fixed.
    shopt -s nullglob
    regress=("$root/tests/regressions/$t"-*.bin)
    shopt -u nullglob
    if [ "${#regress[@]}" -gt 0 ] && ! "$bin/$t" "${regress[@]}" >"$log.regressions" 2>&1; then
        printf '%-20s %8s %12s %10s  %s\n' "$t" - - - "REGRESSION (see $log.regressions)"
        return 1
    fi
    "$bin/$t" "$here/corpus/$t" "$here/seeds/$t" \
        -artifact_prefix="$here/artifacts/$t/" \
        -dict="$here/tiledb.dict" \
        -max_total_time="$seconds" \
        -rss_limit_mb=2048 \
        -timeout=10 \
        -print_final_stats=1 >"$log" 2>&1
    rc=$?
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    if [ "$rc" -eq 0 ]; then
        result=ok
    else
        artifact=$(grep -o 'Test unit written to [^ ]*' "$log" | tail -1 | sed 's/Test unit written to //')
        result="CRASH ${artifact:-(see $log)}"
    fi
    printf '%-20s %8s %12s %10s  %s\n' "$t" "$seconds" "${execs:-?}" "${speed:-?}" "$result"
    return "$rc"
}

status=0
printf '%-20s %8s %12s %10s  %s\n' target seconds executions exec/s result
# Up to JOBS targets at once, each writing its line to a file of its own;
# the lines are printed in order as the targets before them are done.
pids=()
for i in "${!targets[@]}"; do
    if [ "$i" -ge "$jobs" ]; then
        wait "${pids[$((i - jobs))]}" || status=1
        cat "$logs/${targets[$((i - jobs))]}.line"
    fi
    fuzz_one "${targets[$i]}" >"$logs/${targets[$i]}.line" &
    pids+=($!)
done
for i in "${!targets[@]}"; do
    if [ "$i" -ge $((${#targets[@]} - jobs)) ]; then
        wait "${pids[$i]}" || status=1
        cat "$logs/${targets[$i]}.line"
    fi
done
exit $status
