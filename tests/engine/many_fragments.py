#!/usr/bin/env python3
"""Writes a sparse array of N fragments with the engine (issue 24's
1,000-fragment count, min and max).

Usage: many_fragments.py ARRAY N

A 1-D sparse array, INT64 dimension d in [0, 9999] (tile 100), INT32
attribute a, duplicates allowed; fragment k holds two cells,
d = (37k mod 10000, (91k + 5) mod 10000), a = (7919k mod 2001 - 1000,
13k mod 97).
"""

import sys

import numpy as np
import tiledb


def main():
    uri, n = sys.argv[1], int(sys.argv[2])
    dom = tiledb.Domain(tiledb.Dim("d", domain=(0, 9999), tile=100, dtype=np.int64))
    schema = tiledb.ArraySchema(
        domain=dom,
        attrs=[tiledb.Attr("a", dtype=np.int32)],
        sparse=True,
        allows_duplicates=True,
    )
    tiledb.Array.create(uri, schema)
    with tiledb.open(uri, "w") as A:
        for k in range(n):
            d = np.array([(k * 37) % 10000, (k * 91 + 5) % 10000], dtype=np.int64)
            a = np.array([k * 7919 % 2001 - 1000, k * 13 % 97], dtype=np.int32)
            A[d] = a
            # One fragment per write: the open array writes each assignment
            # as its own fragment.


if __name__ == "__main__":
    main()
