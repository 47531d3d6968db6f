#!/usr/bin/env python3
"""The engine's side of issue 22, item 2: duplicate coordinates written
into a sparse array that does not allow them.

Usage: i22_duplicates.py PATH

Creates PATH (d INT64 0..99, tile 10; a INT32; allows_duplicates=False),
writes d=[1, 3, 3] in one write (which the engine refuses), then d=[1, 3]
at t=1 and d=[3] at t=2 (two writes of one coordinate: the newer wins).
Prints {"refused": message or null, "cells": [[d, a], ...]} (the final read).
"""

import json
import sys

import numpy as np
import tiledb


def main():
    path = sys.argv[1]
    dom = tiledb.Domain(tiledb.Dim("d", domain=(0, 99), tile=10, dtype=np.int64))
    schema = tiledb.ArraySchema(
        domain=dom, attrs=[tiledb.Attr("a", dtype=np.int32)], sparse=True,
        allows_duplicates=False,
    )
    tiledb.Array.create(path, schema)
    refused = None
    try:
        with tiledb.open(path, "w") as A:
            A[np.array([1, 3, 3])] = {"a": np.array([10, 30, 31], dtype=np.int32)}
    except tiledb.TileDBError as e:
        refused = str(e)
    with tiledb.open(path, "w", timestamp=1) as A:
        A[np.array([1, 3])] = {"a": np.array([10, 30], dtype=np.int32)}
    with tiledb.open(path, "w", timestamp=2) as A:
        A[np.array([3])] = {"a": np.array([32], dtype=np.int32)}
    with tiledb.open(path) as A:
        r = A[:]
        cells = sorted([int(d), int(a)] for d, a in zip(r["d"], r["a"]))
    print(json.dumps({"refused": refused, "cells": cells}))


if __name__ == "__main__":
    main()
