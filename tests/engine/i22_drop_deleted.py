#!/usr/bin/env python3
"""The engine's side of issue 22, item 3: an attribute that a delete
condition uses, dropped by a schema evolution.

Usage:
  i22_drop_deleted.py make PATH     a sparse array (d INT64; a, b INT32), ten
                                    cells at t=1, a delete "a > 5" at t=2
  i22_drop_deleted.py drop PATH     the engine's ArraySchemaEvolution drops a
  i22_drop_deleted.py read PATH     prints {"cells": N} (a full read) and
                                    {"count": N} (count of b) or {"error": ...}
"""

import json
import sys

import numpy as np
import tiledb


def make(path):
    dom = tiledb.Domain(tiledb.Dim("d", domain=(0, 99), tile=10, dtype=np.int64))
    schema = tiledb.ArraySchema(
        domain=dom,
        attrs=[tiledb.Attr("a", dtype=np.int32), tiledb.Attr("b", dtype=np.int32)],
        sparse=True,
    )
    tiledb.Array.create(path, schema)
    with tiledb.open(path, "w", timestamp=1) as A:
        v = np.arange(10, dtype=np.int32)
        A[np.arange(10)] = {"a": v, "b": v * 10}
    with tiledb.open(path, "d", timestamp=2) as A:
        A.query(cond="a > 5").submit()


def read(path):
    out = {}
    try:
        with tiledb.open(path) as A:
            out["cells"] = len(A[:]["d"])
    except tiledb.TileDBError as e:
        out["read_error"] = str(e)
    try:
        with tiledb.open(path) as A:
            out["count"] = int(A.query().agg({"b": ["count"]})[:])
    except tiledb.TileDBError as e:
        out["count_error"] = str(e)
    print(json.dumps(out))


def main():
    cmd, path = sys.argv[1], sys.argv[2]
    if cmd == "make":
        make(path)
    elif cmd == "drop":
        se = tiledb.ArraySchemaEvolution()
        se.drop_attribute("a")
        se.array_evolve(path)
    elif cmd == "read":
        read(path)
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
