"""What tests/engine/i22_consolidate_deletes.py and i22_updates.py share:
arrays of cells (d INT64, a INT32, s UTF-8) written, deleted and updated
over times 1, 2, 3, ..., read by the engine now and as of each time, and
consolidated (purging deleted cells or not)."""

import json

import tiledb


def consolidate(path, purge):
    cfg = tiledb.Config(
        {"sm.consolidation.purge_deleted_cells": "true" if purge else "false"}
    )
    tiledb.consolidate(path, config=cfg)


def read_json(path, t):
    """The engine's read of `path` opened at `t` (None: now): the fragment
    count and the cells, sorted, as [d, a, s] lists."""
    with tiledb.open(path, timestamp=t) as A:
        r = A[:]
    cells = []
    for d, a, s in zip(r["d"], r["a"], r["s"]):
        if isinstance(s, bytes):
            s = s.decode()
        cells.append([int(d), int(a), str(s)])
    cells.sort()
    frags = tiledb.array_fragments(path)
    return {"fragments": len(frags), "cells": cells}


def run(cmd, argv):
    """The shared commands; False if `cmd` is none of them."""
    path = argv[2]
    if cmd == "consolidate":
        consolidate(path, len(argv) > 3 and argv[3] == "purge")
    elif cmd == "vacuum":
        tiledb.vacuum(path)
    elif cmd == "read":
        print(json.dumps(read_json(path, int(argv[3]) if len(argv) > 3 else None)))
    elif cmd == "reads":
        # Now, then at every time from 1 to argv[3], in one process.
        last = int(argv[3])
        print(json.dumps([read_json(path, t) for t in [None, *range(1, last + 1)]]))
    else:
        return False
    return True
