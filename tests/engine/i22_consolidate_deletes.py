#!/usr/bin/env python3
"""The engine's side of issue 22, item 11: fragment consolidation across
delete commits (writes and deletes interleaved).

Usage:
  i22_consolidate_deletes.py make PATH dups|nodups
        a sparse array (d INT64 0..99, tile 10, capacity 4; a INT32,
        s var-sized string) with writes and deletes interleaved:
          t=1 write d 0..9          t=2 delete "a > 6"
          t=3 write d 5..14 (a+100) t=4 delete "a == 105"
          t=5 write d 20..24        t=6 delete "d >= 23"
          t=7 write d 23
  i22_consolidate_deletes.py more PATH
        t=8 write d 1 and 30 (a = d + 2000), t=9 delete "a == 1 or a == 2030"
  i22_consolidate_deletes.py consolidate PATH [purge]
        the engine's fragment consolidation (with
        sm.consolidation.purge_deleted_cells=true when `purge`)
  i22_consolidate_deletes.py vacuum PATH
  i22_consolidate_deletes.py read PATH [T]
        prints {"fragments": N, "cells": [[d, a, s], ...]} (sorted), the
        array opened at T when given
"""

import sys

import numpy as np
import tiledb
import timeline


def make(path, kind):
    dom = tiledb.Domain(tiledb.Dim("d", domain=(0, 99), tile=10, dtype=np.int64))
    schema = tiledb.ArraySchema(
        domain=dom,
        attrs=[tiledb.Attr("a", dtype=np.int32), tiledb.Attr("s", dtype=str)],
        sparse=True,
        capacity=4,
        allows_duplicates=(kind == "dups"),
    )
    tiledb.Array.create(path, schema)

    def write(t, ds, add=0):
        ds = np.array(ds, dtype=np.int64)
        with tiledb.open(path, "w", timestamp=t) as A:
            A[ds] = {
                "a": (ds + add).astype(np.int32),
                "s": np.array(["v%d" % (x + add) for x in ds], dtype=object),
            }

    def delete(t, cond):
        with tiledb.open(path, "d", timestamp=t) as A:
            A.query(cond=cond).submit()

    write(1, range(0, 10))
    delete(2, "a > 6")
    write(3, range(5, 15), 100)
    delete(4, "a == 105")
    write(5, range(20, 25))
    delete(6, "d >= 23")
    write(7, [23], 1000)


def more(path):
    ds = np.array([1, 30], dtype=np.int64)
    with tiledb.open(path, "w", timestamp=8) as A:
        A[ds] = {
            "a": (ds + 2000).astype(np.int32),
            "s": np.array(["v%d" % (x + 2000) for x in ds], dtype=object),
        }
    with tiledb.open(path, "d", timestamp=9) as A:
        A.query(cond="a == 1 or a == 2030").submit()


def main():
    cmd, path = sys.argv[1], sys.argv[2]
    if cmd == "make":
        make(path, sys.argv[3])
    elif cmd == "more":
        more(path)
    elif not timeline.run(cmd, sys.argv):
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
