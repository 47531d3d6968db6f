#!/usr/bin/env python3
"""The engine's side of issue 22: update commits (`.upd`) and consolidation
across them.

TileDB-Py has no update query; the engine's C API has one (query type
TILEDB_UPDATE = 3, `tiledb_query_add_update_value`), allowed only with
`sm.allow_updates_experimental=true`. This script calls it through ctypes on
the libtiledb that `import tiledb` loaded.

Usage:
  i22_updates.py make PATH dups|nodups
        a sparse array (d INT64 0..99, tile 10, capacity 4; a INT32,
        s var-sized string) with writes, updates and a delete interleaved:
          t=1 write d 0..9               t=2 update "a > 6" set a = -1
          t=3 write d 5..14 (a+100)      t=4 delete "a == 105"
          t=5 update "d >= 12" set a = 0 t=6 write d 20..24
          t=7 update "a < 2" set a = 7
  i22_updates.py more PATH
        t=8 write d 1 and 30 (a = d + 2000), t=9 update "a == 2030" set a = 1
  i22_updates.py refused PATH T
        an update at T without sm.allow_updates_experimental: prints the
        engine's error (exit 1 if the engine took it)
  i22_updates.py consolidate PATH [purge]
  i22_updates.py read PATH [T]
        prints {"fragments": N, "cells": [[d, a, s], ...]} (sorted), the
        array opened at T when given
"""

import ctypes
import sys

import numpy as np
import tiledb
import timeline

UPDATE = 3  # TILEDB_UPDATE
OPS = {"<": 0, "<=": 1, ">": 2, ">=": 3, "==": 4, "!=": 5}


def libtiledb():
    """The libtiledb that `import tiledb` loaded (from /proc/self/maps)."""
    with open("/proc/self/maps") as f:
        for line in f:
            path = line.split()[-1]
            name = path.rsplit("/", 1)[-1]
            if name.startswith("libtiledb") and ".so" in name:
                return ctypes.CDLL(path)
    sys.exit("libtiledb is not loaded")


L = libtiledb()
VP = ctypes.c_void_p


class EngineError(Exception):
    pass


def check(rc, ctx, what):
    if rc == 0:
        return
    msg = what
    if ctx is not None:
        err = VP()
        L.tiledb_ctx_get_last_error(ctx, ctypes.byref(err))
        text = ctypes.c_char_p()
        L.tiledb_error_message(err, ctypes.byref(text))
        msg += ": " + text.value.decode()
    raise EngineError(msg)


def update(path, t, field, op, value, set_field, set_value, allow=True):
    """An update query at `t`: cells where `field op value` get
    `set_field = set_value` (all INT32 but `d`, INT64)."""
    err = VP()
    cfg = VP()
    check(L.tiledb_config_alloc(ctypes.byref(cfg), ctypes.byref(err)), None, "config")
    flag = b"true" if allow else b"false"
    check(
        L.tiledb_config_set(
            cfg, b"sm.allow_updates_experimental", flag, ctypes.byref(err)
        ),
        None,
        "config set",
    )
    ctx = VP()
    check(L.tiledb_ctx_alloc(cfg, ctypes.byref(ctx)), None, "context")
    arr = VP()
    check(L.tiledb_array_alloc(ctx, path.encode(), ctypes.byref(arr)), ctx, "array")
    check(
        L.tiledb_array_set_open_timestamp_end(ctx, arr, ctypes.c_uint64(t)),
        ctx,
        "timestamp",
    )
    check(L.tiledb_array_open(ctx, arr, ctypes.c_int(UPDATE)), ctx, "open")
    try:
        q = VP()
        check(L.tiledb_query_alloc(ctx, arr, ctypes.c_int(UPDATE), ctypes.byref(q)), ctx, "query")
        qc = VP()
        check(L.tiledb_query_condition_alloc(ctx, ctypes.byref(qc)), ctx, "condition")
        v = np.array([value], dtype=np.int64 if field == "d" else np.int32)
        check(
            L.tiledb_query_condition_init(
                ctx,
                qc,
                field.encode(),
                v.ctypes.data_as(VP),
                ctypes.c_uint64(v.nbytes),
                ctypes.c_int(OPS[op]),
            ),
            ctx,
            "condition init",
        )
        check(L.tiledb_query_set_condition(ctx, q, qc), ctx, "set condition")
        s = np.array([set_value], dtype=np.int32)
        check(
            L.tiledb_query_add_update_value(
                ctx, q, set_field.encode(), s.ctypes.data_as(VP), ctypes.c_uint64(s.nbytes)
            ),
            ctx,
            "update value",
        )
        check(L.tiledb_query_submit(ctx, q), ctx, "submit")
    finally:
        L.tiledb_array_close(ctx, arr)


def write(path, t, ds, add=0):
    ds = np.array(ds, dtype=np.int64)
    with tiledb.open(path, "w", timestamp=t) as A:
        A[ds] = {
            "a": (ds + add).astype(np.int32),
            "s": np.array(["v%d" % (x + add) for x in ds], dtype=object),
        }


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
    write(path, 1, range(0, 10))
    update(path, 2, "a", ">", 6, "a", -1)
    write(path, 3, range(5, 15), 100)
    with tiledb.open(path, "d", timestamp=4) as A:
        A.query(cond="a == 105").submit()
    update(path, 5, "d", ">=", 12, "a", 0)
    write(path, 6, range(20, 25))
    update(path, 7, "a", "<", 2, "a", 7)


def more(path):
    write(path, 8, [1, 30], 2000)
    update(path, 9, "a", "==", 2030, "a", 1)


def refused(path, t):
    try:
        update(path, t, "a", ">", 0, "a", 1, allow=False)
    except EngineError as e:
        print(str(e))
        return
    sys.exit("the engine took an update without sm.allow_updates_experimental")


def main():
    cmd, path = sys.argv[1], sys.argv[2]
    if cmd == "make":
        make(path, sys.argv[3])
    elif cmd == "more":
        more(path)
    elif cmd == "refused":
        refused(path, int(sys.argv[3]))
    elif not timeline.run(cmd, sys.argv):
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
