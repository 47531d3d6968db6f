"""SQL against the engine's own aggregate query, side by side: the TileDB
engine (TileDB-Py, in this Python process) runs a query with a condition
and an aggregate (`A.query(cond=...).agg(...)`), or a count, min and max
that fragment metadata answers (`A.query().agg(...)`), tiledb-codec
(examples/sql_bench.rs, a child process serving one query per line) runs
the same as SQL through DataFusion; they take turns, each timing itself
around open + query. Prints medians and ratios (ours / engine) as a
markdown table, with each side's count and sum, so that a side that
computes something else is seen.

Usage: python sql_bench.py EXAMPLE ARRAYDIR [--mib 256] [--repeat 5] [--cases abcde]

ARRAYDIR is what bench/make_arrays.py made (its sparse_2d: 16,384 cells
per MiB, 4,194,304 at the default size, in 4 fragments; its f64_zstd:
131,072 cells per MiB; its sparse_dups: sparse_2d's cells in an array
that allows duplicates).
"""
import math
import os
import statistics
import sys
import time

import tiledb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results_json  # noqa: E402
from read_bench import Ours  # noqa: E402

TARGET = 0.5
# The count, min and max answered from fragment metadata.
TARGET_METADATA = 0.1


def engine_agg(uri, cond, index):
    def f():
        with tiledb.open(uri) as A:
            q = A.query(cond=cond, attrs=["a"]).agg({"a": ["count", "sum"]})
            out = q[index] if index is not None else q[:]
        # One attribute: {"count": .., "sum": ..}; several: keyed by attribute.
        out = out.get("a", out)
        return int(out["count"]), float(out["sum"])

    return f


def engine_count_min_max(uri, attr):
    def f():
        with tiledb.open(uri) as A:
            out = A.query(attrs=[attr]).agg({attr: ["count", "min", "max"]})[:]
        out = out.get(attr, out)
        return int(out["count"]), float(out["min"]), float(out["max"])

    return f


def ours_values(ours, line):
    """Runs one query on the example: (seconds, (count, values...)), or
    (None, error)."""
    ours.proc.stdin.write(line + "\n")
    ours.proc.stdin.flush()
    answer = ours.proc.stdout.readline().strip()
    if not answer:
        raise SystemExit(f"sql_bench stopped on {line!r}")
    if answer.startswith("error:"):
        return None, answer
    secs, count, *rest = answer.split()
    return float(secs), (int(count), *map(float, rest))


def main(argv):
    example, root = argv[1], argv[2]

    def opt(name, default):
        return int(argv[argv.index(name) + 1]) if name in argv else default

    mib, repeat = opt("--mib", 256), opt("--repeat", 5)
    sparse = f"{root}/sparse_2d"
    dense = f"{root}/f64_zstd"
    dups = f"{root}/sparse_dups"
    dense_cells = mib * (1 << 20) // 8
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
        (
            f"d. count(*), min(v), max(v), dense, {dense_cells:,} cells (metadata)",
            engine_count_min_max(dense, "v"),
            f'SELECT count(*), min(v), max(v) FROM "{dense}"',
        ),
        (
            f"e. count(*), min(a), max(a), sparse with duplicates, {side * side:,} cells (metadata)",
            engine_count_min_max(dups, "a"),
            f'SELECT count(*), min(a), max(a) FROM "{dups}"',
        ),
    ]
    only = argv[argv.index("--cases") + 1] if "--cases" in argv else None
    if only:
        cases = [c for c in cases if c[0][0] in only]
    load_before = results_json.load_average()
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
                    secs, res = ours_values(ours, query)
                    if secs is None:
                        error = res
                    else:
                        o_times.append(secs)
                        o_res = res
        e = statistics.median(e_times)
        o = statistics.median(o_times) if o_times else None
        if error:
            note = error
        elif e_res[0] == o_res[0] and len(e_res) == len(o_res) and all(
            math.isclose(x, y, rel_tol=1e-9) for x, y in zip(e_res[1:], o_res[1:])
        ):
            values = ", ".join(f"{v:.9g}" for v in e_res[1:])
            note = f"count {e_res[0]:,}, {'sum' if len(e_res) == 2 else 'min, max'} {values}"
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
        target = TARGET_METADATA if "(metadata)" in label else TARGET
        if o is None:
            print(f"| {label} | {e:.4f} | - | - | <= {target} | {note} |")
        else:
            print(f"| {label} | {e:.4f} | {o:.4f} | {o / e:.3f} | <= {target} | {note} |")
    results_json.write(
        "sql",
        f"SQL against the engine's aggregate query, medians of {repeat}",
        {"repeat": repeat, "cases": only or "abcde", "arrays": os.path.basename(os.path.normpath(argv[2]))},
        ["case", "engine_s", "ours_s", "ratio", "target", "result"],
        [[label, results_json.num(e), results_json.num(o), None if o is None else round(o / e, 3),
          f"<= {TARGET_METADATA if '(metadata)' in label else TARGET}", note] for label, e, o, note in rows],
        ["Times in seconds (open + query, in-process)."],
        load_before,
    )


if __name__ == "__main__":
    main(sys.argv)
