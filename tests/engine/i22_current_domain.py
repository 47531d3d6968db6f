#!/usr/bin/env python3
"""Make a dense array shaped like a TileDB-SOMA matrix (issue 22, item 1).

Usage: i22_current_domain.py PATH [--no-current-domain]

Two INT64 dimensions whose domains run to nearly 2^63 (as TileDB-SOMA
makes them), a current domain of 120 x 90 cells (tiledb.CurrentDomain /
NDRectangle), attributes x (INT32) and y (FLOAT64), and two fragments of a
few cells each (with --no-current-domain: the same without one). Prints nothing; the tests ask the engine for its
aggregates (engine_aggregate.py) and cells (engine_account.py) after.
"""

import sys

import numpy as np
import tiledb

# The largest domain end the engine takes for a tile extent of 64: its
# domain, expanded to a multiple of the extent, must still fit an INT64.
BIG = 2**63 - 1 - 64


def main():
    path = sys.argv[1]
    ctx = tiledb.default_ctx()
    dom = tiledb.Domain(
        tiledb.Dim("soma_dim_0", domain=(0, BIG), tile=64, dtype=np.int64),
        tiledb.Dim("soma_dim_1", domain=(0, BIG), tile=32, dtype=np.int64),
    )
    schema = tiledb.ArraySchema(
        domain=dom,
        attrs=[tiledb.Attr("x", dtype=np.int32), tiledb.Attr("y", dtype=np.float64)],
        sparse=False,
    )
    rect = tiledb.NDRectangle(ctx, dom)
    rect.set_range(0, 0, 119)
    rect.set_range(1, 0, 89)
    cd = tiledb.CurrentDomain(ctx)
    cd.set_ndrectangle(rect)
    if "--no-current-domain" not in sys.argv[2:]:
        schema.set_current_domain(cd)
    tiledb.Array.create(path, schema)
    with tiledb.open(path, "w", timestamp=1) as A:
        x = np.arange(12, dtype=np.int32).reshape(3, 4) + 1
        A[10:13, 30:34] = {"x": x, "y": x.astype(np.float64) / 2}
    with tiledb.open(path, "w", timestamp=2) as A:
        x = np.array([[-7, 100]], dtype=np.int32)
        A[119:120, 88:90] = {"x": x, "y": x.astype(np.float64) * 3}


if __name__ == "__main__":
    main()
