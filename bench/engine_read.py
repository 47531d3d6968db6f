"""Times the engine (TileDB-Py) reading arrays: prints one line per run,
`NAME SECONDS`, the median of REPEAT runs of a full read (`A[:]`), and of
opening the array (for the many-fragment array).

Usage: python engine_read.py REPEAT ARRAY...
"""
import statistics
import sys
import time

import tiledb


def main(argv):
    repeat = int(argv[1])
    for uri in argv[2:]:
        name = uri.rstrip("/").split("/")[-1]
        reads, opens = [], []
        for _ in range(repeat):
            t0 = time.perf_counter()
            with tiledb.open(uri) as A:
                t1 = time.perf_counter()
                data = A[:]
                t2 = time.perf_counter()
            opens.append(t1 - t0)
            reads.append(t2 - t0)
            del data
        print(f"{name} read {statistics.median(reads):.4f} open {statistics.median(opens):.4f}", flush=True)


if __name__ == "__main__":
    main(sys.argv)
