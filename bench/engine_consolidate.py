"""The engine's side of the consolidation benchmark: in this fresh process,
TileDB-Py consolidates the array's fragments into one, then vacuums the
consolidated fragments, timing only those two calls.

Usage: python engine_consolidate.py ARRAY [STEP_MAX_FRAGS]

Prints `CONSOLIDATE_SECONDS VACUUM_SECONDS BASELINE_KIB`, BASELINE_KIB being
this process's resident memory (VmRSS) just before consolidating: the
interpreter with TileDB-Py and numpy loaded, which the peak memory the
parent measures includes.

The configuration is the engine's default but for the consolidation steps
(`config`): one step merges every fragment, or, with STEP_MAX_FRAGS, steps
of at most that many fragments are taken until one fragment is left. The
memory budgets (`sm.mem.total_budget`, 10 GiB, and the consolidation
weights) are the defaults.
"""
import os
import sys
import time

import tiledb


def config(fragments, step_max=None):
    """The engine's consolidation settings: one step over all `fragments`
    whatever their sizes (the defaults, step_min_frags = step_max_frags =
    2^32 - 1 clamped to the fragment count, already do it; said here so
    that nothing depends on them), or, with `step_max`, as many steps of 2
    to `step_max` fragments as it takes to leave one.

    The engine chooses a step's fragments with a table of step_max_frags x
    fragments entries, each holding a non-empty domain: one step over
    10,000 fragments needs more than 11 GiB for it alone."""
    if step_max is None:
        steps, low, high = 1, fragments, fragments
    else:
        steps, low, high = 2**32 - 1, 2, step_max
    return {
        "sm.consolidation.mode": "fragments",
        "sm.consolidation.steps": str(steps),
        "sm.consolidation.step_min_frags": str(low),
        "sm.consolidation.step_max_frags": str(high),
        "sm.consolidation.step_size_ratio": "0.0",
    }


def vm_rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise SystemExit("no VmRSS in /proc/self/status")


def main(argv):
    uri = argv[1]
    # The fresh arrays of the benchmark: one folder per fragment (reading
    # the fragments' metadata here would swell the baseline).
    fragments = len(os.listdir(os.path.join(uri, "__fragments")))
    step_max = int(argv[2]) if len(argv) > 2 else None
    cfg = tiledb.Config(config(fragments, step_max))
    baseline = vm_rss_kib()
    t0 = time.perf_counter()
    tiledb.consolidate(uri, config=cfg)
    t1 = time.perf_counter()
    tiledb.vacuum(uri, config=cfg)
    t2 = time.perf_counter()
    print(f"{t1 - t0:.6f} {t2 - t1:.6f} {baseline}")


if __name__ == "__main__":
    main(sys.argv)
