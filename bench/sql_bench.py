"""SQL against the engine's own aggregate query, side by side: the TileDB
engine (TileDB-Py, in this Python process) runs a query with a condition
and an aggregate (`A.query(cond=...).agg(...)`), tiledb-codec
(examples/sql_bench.rs, a child process serving one query per line) runs
the same as SQL through DataFusion; they take turns, each timing itself
around open + query. Prints medians and ratios (ours / engine) as a
markdown table, with each side's count and sum, so that a side that
computes something else is seen.

Usage: python sql_bench.py EXAMPLE ARRAYDIR [--mib 256] [--repeat 5]

ARRAYDIR is what bench/make_arrays.py made (its sparse_2d: 16,384 cells
per MiB, 4,194,304 at the default size, in 4 fragments).
"""
import math
import statistics
import sys
import time

import tiledb

from read_bench import Ours

TARGET = 0.5


def engine_agg(uri, cond, index):
    def f():
        with tiledb.open(uri) as A:
            q = A.query(cond=cond, attrs=["a"]).agg({"a": ["count", "sum"]})
            out = q[index] if index is not None else q[:]
        # One attribute: {"count": .., "sum": ..}; several: keyed by attribute.
        out = out.get("a", out)
        return int(out["count"]), float(out["sum"])

    return f


def main(argv):
    example, root = argv[1], argv[2]

    def opt(name, default):
        return int(argv[argv.index(name) + 1]) if name in argv else default

    mib, repeat = opt("--mib", 256), opt("--repeat", 5)
    sparse = f"{root}/sparse_2d"
    side = int((mib * 16384) ** 0.5)
    half = side // 2
    cases = [
        (
            f"a. count(*), sum(a) WHERE a < 0.5, {side * side:,} cells",
            engine_agg(sparse, "a < 0.5", None),
            f'SELECT count(*), sum(a) FROM "{sparse}" WHERE a < 0.5',
        ),
        (
            "b. the same WHERE x < half AND a < 0.5",
            engine_agg(sparse, "a < 0.5", (slice(0, half), slice(None))),
            f'SELECT count(*), sum(a) FROM "{sparse}" WHERE x < {half} AND a < 0.5',
        ),
        (
            "c. count(*), sum(a) WHERE a >= 0.25 AND a < 0.75",
            engine_agg(sparse, "a >= 0.25 and a < 0.75", None),
            f'SELECT count(*), sum(a) FROM "{sparse}" WHERE a >= 0.25 AND a < 0.75',
        ),
    ]
    ours = Ours(example)
    rows = []
    for label, engine_fn, query in cases:
        e_times, o_times = [], []
        e_res = o_res = None
        error = None
        for r in range(repeat):
            for side_ in ("engine", "ours") if r % 2 == 0 else ("ours", "engine"):
                if side_ == "engine":
                    t0 = time.perf_counter()
                    e_res = engine_fn()
                    e_times.append(time.perf_counter() - t0)
                elif error is None:
                    secs, res = ours.run(query)
                    if secs is None:
                        error = res
                    else:
                        o_times.append(secs)
                        o_res = res
        e = statistics.median(e_times)
        o = statistics.median(o_times) if o_times else None
        if error:
            note = error
        elif e_res[0] == o_res[0] and math.isclose(e_res[1], o_res[1], rel_tol=1e-9):
            note = f"count {e_res[0]:,}, sum {e_res[1]:.6f}"
        else:
            note = f"DIFFERENT: engine {e_res}, ours {o_res}"
        rows.append((label, e, o, note))
        print(f"{label}: engine {e:.4f} s, ours {o} s; {note}", file=sys.stderr, flush=True)
    ours.close()
    print(f"SQL against the engine's aggregate query, medians of {repeat} runs, taking turns; "
          f"TileDB-Py {tiledb.__version__} (TileDB {'.'.join(map(str, tiledb.libtiledb.version()))}).")
    print()
    print("| case | engine | tiledb-codec | ratio | target | result |")
    print("|---|---|---|---|---|---|")
    for label, e, o, note in rows:
        if o is None:
            print(f"| {label} | {e:.4f} | - | - | <= {TARGET} | {note} |")
        else:
            print(f"| {label} | {e:.4f} | {o:.4f} | {o / e:.2f} | <= {TARGET} | {note} |")


if __name__ == "__main__":
    main(sys.argv)
