"""A selective DuckDB query over an array both ways: scanning
``Array.dataset()`` (the filter and projection pushed into the read) and
reading the whole array into Arrow then filtering in DuckDB. Prints the
median seconds of each and the ratio.

Usage: PYTHONPATH=python python bench/python_pushdown.py [CELLS] [--repeat N]

It makes a sparse 1-D array of CELLS cells (default 2,000,000; `a` int64
uniform in [0, 1,000,000), `b` float64) in 8 fragments in a temporary
folder, and times (``QUERIES``)::

    SELECT count(*), sum(b) FROM t WHERE a < 1000       -- ~0.1% of the cells
    SELECT count(*), sum(b) FROM t WHERE i < 20000      -- 1%, by the dimension

Time it with the extension built in release (bench/python.sh builds that
wheel): a debug build of python/test.sh is several times slower, the ratio
being what this measures.
"""

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import duckdb
import numpy as np

import tiledb_codec
from tiledb_codec import Attr, Dim, Schema

QUERIES = {
    "attribute filter (a < 1000, ~0.1%)": "SELECT count(*), sum(b) FROM {} WHERE a < 1000",
    "dimension filter (i < 20000, 1%)": "SELECT count(*), sum(b) FROM {} WHERE i < 20000",
}


def make(path: Path, cells: int) -> tiledb_codec.Array:
    schema = Schema(dims=[Dim("i", "INT64", (0, cells - 1), 100_000)],
                    attrs=[Attr("a", "INT64"), Attr("b", "FLOAT64")], sparse=True, capacity=100_000)
    A = tiledb_codec.create(path, schema)
    rng = np.random.default_rng(44)
    for part in np.array_split(np.arange(cells), 8):
        A.write({"i": part, "a": rng.integers(0, 1_000_000, len(part)), "b": rng.random(len(part))})
    return tiledb_codec.open(path)


def median(fn, repeat: int):
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def main() -> None:
    parser = argparse.ArgumentParser(description="Pushdown against read-then-filter, in Python.")
    parser.add_argument("cells", nargs="?", type=int, default=2_000_000, help="cells in the array")
    parser.add_argument("--repeat", type=int, default=5, help="runs per case (the median is kept)")
    args = parser.parse_args()
    cells, repeat = args.cells, args.repeat
    with tempfile.TemporaryDirectory() as tmp:
        A = make(Path(tmp) / "bench", cells)
        print(f"cells {cells}, median of {repeat}")
        for what, query in QUERIES.items():

            def pushed():
                ds = A.dataset()  # noqa: F841 (DuckDB finds it by name)
                return duckdb.sql(query.format("ds")).fetchall()

            def read_all():
                whole = A.read()  # noqa: F841
                return duckdb.sql(query.format("whole")).fetchall()

            t_push, r_push = median(pushed, repeat)
            t_all, r_all = median(read_all, repeat)
            (n1, s1), (n2, s2) = r_push[0], r_all[0]
            assert n1 == n2 and abs(s1 - s2) <= 1e-9 * max(1.0, abs(s2)), (r_push, r_all)
            print(f"{what}: {n1} rows; pushdown {t_push:.4f} s, read all then filter {t_all:.4f} s, "
                  f"ratio {t_all / t_push:.1f}")


if __name__ == "__main__":
    main()
