#!/usr/bin/env python3
"""Engine-written files of the kinds the checked-in fixtures lack, for the
round trip of every spec table (tests/it/spec_all_tables.rs).

Usage:
  spec_all_tables.py ROOT    writes, under ROOT:
    commits/  a sparse array (d INT64; a, b INT32), four writes (t=1..4), a
              delete "a > 2 and a < 10" (an expression node) at t=5, a delete
              "b in [30, 50]" (IN: a value node with offsets) at t=6, an
              update "b = 7 where a < 2" at t=7 (the C API's experimental
              UPDATE query, through ctypes: TileDB-Py has no update), then
              consolidated commits, consolidated fragments and vacuumed
              fragments (the vacuum writes a commit ignore file `.ign`).
    group/    a group of two arrays, one member removed again (a version 2
              group details file with a deleted member) and group metadata.
  Prints {"update": true} when the engine wrote the update commit, else
  {"update": "<the engine's error>"}.
"""

import ctypes
import glob
import json
import os
import sys

import numpy as np
import tiledb


def engine_library():
    """The libtiledb TileDB-Py is linked with."""
    base = os.path.dirname(os.path.dirname(tiledb.__file__))
    libs = glob.glob(os.path.join(base, "tiledb.libs", "libtiledb*.so*"))
    libs += glob.glob(os.path.join(os.path.dirname(tiledb.__file__), "libtiledb", "lib*", "libtiledb.so*"))
    if not libs:
        raise RuntimeError("no libtiledb next to " + tiledb.__file__)
    return ctypes.CDLL(libs[0])


def update(uri, timestamp):
    """UPDATE uri SET b = 7 WHERE a < 2, at `timestamp`, through the C API."""
    lib = engine_library()
    p = ctypes.c_void_p
    cfg, err, ctx, arr, q, cond = p(), p(), p(), p(), p(), p()

    def ok(rc, what):
        if rc != 0:
            raise RuntimeError("%s failed (%d)" % (what, rc))

    ok(lib.tiledb_config_alloc(ctypes.byref(cfg), ctypes.byref(err)), "config_alloc")
    ok(
        lib.tiledb_config_set(cfg, b"sm.allow_updates_experimental", b"true", ctypes.byref(err)),
        "config_set",
    )
    ok(lib.tiledb_ctx_alloc(cfg, ctypes.byref(ctx)), "ctx_alloc")
    ok(lib.tiledb_array_alloc(ctx, uri.encode(), ctypes.byref(arr)), "array_alloc")
    ok(
        lib.tiledb_array_set_open_timestamp_end(ctx, arr, ctypes.c_uint64(timestamp)),
        "set_open_timestamp_end",
    )
    UPDATE = 3
    ok(lib.tiledb_array_open(ctx, arr, UPDATE), "array_open(UPDATE)")
    try:
        ok(lib.tiledb_query_alloc(ctx, arr, UPDATE, ctypes.byref(q)), "query_alloc")
        ok(lib.tiledb_query_condition_alloc(ctx, ctypes.byref(cond)), "condition_alloc")
        two = ctypes.c_int32(2)
        LT = 0
        ok(
            lib.tiledb_query_condition_init(
                ctx, cond, b"a", ctypes.byref(two), ctypes.c_uint64(4), LT
            ),
            "condition_init",
        )
        ok(lib.tiledb_query_set_condition(ctx, q, cond), "set_condition")
        seven = ctypes.c_int32(7)
        ok(
            lib.tiledb_query_add_update_value(
                ctx, q, b"b", ctypes.byref(seven), ctypes.c_uint64(4)
            ),
            "add_update_value",
        )
        ok(lib.tiledb_query_submit(ctx, q), "query_submit")
    finally:
        lib.tiledb_array_close(ctx, arr)


def commits(uri):
    dom = tiledb.Domain(tiledb.Dim("d", domain=(0, 99), tile=10, dtype=np.int64))
    schema = tiledb.ArraySchema(
        domain=dom,
        attrs=[tiledb.Attr("a", dtype=np.int32), tiledb.Attr("b", dtype=np.int32)],
        sparse=True,
    )
    tiledb.Array.create(uri, schema)
    for t in range(1, 5):
        with tiledb.open(uri, "w", timestamp=t) as A:
            d = np.arange(t * 10, t * 10 + 5, dtype=np.int64)
            v = np.arange(5, dtype=np.int32) + t
            A[d] = {"a": v, "b": v * 10}
    with tiledb.open(uri, "d", timestamp=5) as A:
        A.query(cond="a > 2 and a < 10").submit()
    with tiledb.open(uri, "d", timestamp=6) as A:
        A.query(cond="b in [30, 50]").submit()
    try:
        update(uri, 7)
        updated = True
    except Exception as e:  # the engine's refusal is reported, not hidden
        updated = str(e)
    tiledb.consolidate(uri, config=tiledb.Config({"sm.consolidation.mode": "commits"}))
    tiledb.consolidate(uri, config=tiledb.Config({"sm.consolidation.mode": "fragments"}))
    tiledb.vacuum(uri, config=tiledb.Config({"sm.vacuum.mode": "fragments"}))
    return updated


def group(uri):
    tiledb.Group.create(uri)
    for name in ["x", "y"]:
        dom = tiledb.Domain(tiledb.Dim("d", domain=(0, 3), tile=4, dtype=np.int32))
        tiledb.Array.create(
            os.path.join(uri, name),
            tiledb.ArraySchema(domain=dom, attrs=[tiledb.Attr("a", dtype=np.int32)]),
        )
    with tiledb.Group(uri, "w") as G:
        G.add("x", name="x", relative=True)
        G.add("y", relative=True)
        G.meta["k"] = 1
    with tiledb.Group(uri, "w") as G:
        G.remove("x")


def main():
    root = sys.argv[1]
    updated = commits(os.path.join(root, "commits"))
    group(os.path.join(root, "group"))
    print(json.dumps({"update": updated}))


if __name__ == "__main__":
    main()
