"""The engine's reading of many arrays in an S3-compatible server, in one
process (tests/object_store.rs).

Usage: engine_s3_cells.py HOST:PORT < [[URI, KEY or null], ...]
Prints a JSON list, one entry per array: {"cells": [...]} as
engine_account.py --cells spells them, or {"error": "..."}; with --stats,
each entry also has "stats": TileDB's counters of that read.
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
    arrays = json.load(sys.stdin)
    out = []
    for uri, key in arrays:
        try:
            ctx = tiledb.Ctx(tiledb.Config(config(endpoint, key)))
            with tiledb.open(uri, "r", ctx=ctx) as A:
                out.append({"cells": cells_account(A)})
        except Exception as e:  # reported per array, judged by the test
            out.append({"error": "%s: %s" % (type(e).__name__, e)})
    print(json.dumps(out, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
