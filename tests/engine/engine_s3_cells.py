"""The engine's reading of many arrays in an S3-compatible server, in one
process (tests/it/object_store.rs).

Usage: engine_s3_cells.py HOST:PORT [--one-cell] < [[URI, KEY or null], ...]
Prints a JSON list, one entry per array: {"cells": [...]} as
engine_account.py --cells spells them, or {"error": "..."}. With
--one-cell, each array is opened and only the first cell of its non-empty
domain read (one tile), and the entry is {"cells": [...], "stats": {...}}:
TileDB's VFS counters of that open and read (reads, bytes read, file size
look-ups; TileDB does not count its LIST requests).
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import tiledb  # noqa: E402

from engine_account import cells_account  # noqa: E402


def config(endpoint, key):
    cfg = {
        "vfs.s3.endpoint_override": endpoint,
        "vfs.s3.scheme": "http",
        "vfs.s3.use_virtual_addressing": "false",
        "vfs.s3.region": "us-east-1",
        "vfs.s3.aws_access_key_id": "test",
        "vfs.s3.aws_secret_access_key": "test",
    }
    if key:
        cfg["sm.encryption_type"] = "AES_256_GCM"
        cfg["sm.encryption_key"] = key
    return cfg


def main(argv):
    endpoint = argv[0]
    one_cell = "--one-cell" in argv[1:]
    arrays = json.load(sys.stdin)
    out = []
    for uri, key in arrays:
        try:
            ctx = tiledb.Ctx(tiledb.Config(config(endpoint, key)))
            if one_cell:
                tiledb.stats_enable()
                tiledb.stats_reset()
                with tiledb.open(uri, "r", ctx=ctx) as A:
                    ned = A.nonempty_domain()
                    res = A[tuple(slice(lo, lo + 1) for lo, _ in ned)]
                    cells = {k: v.ravel().tolist() for k, v in res.items()}
                stats = json.loads(tiledb.stats_dump(json=True, print_out=False))
                tiledb.stats_disable()
                counters = {}
                for k, v in stats.get("counters", {}).items():
                    if k.startswith("Context.VFS."):
                        counters[k[len("Context.VFS."):]] = v
                out.append({"cells": [cells], "stats": counters})
                continue
            with tiledb.open(uri, "r", ctx=ctx) as A:
                out.append({"cells": cells_account(A)})
        except Exception as e:  # reported per array, judged by the test
            out.append({"error": "%s: %s" % (type(e).__name__, e)})
    print(json.dumps(out, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
