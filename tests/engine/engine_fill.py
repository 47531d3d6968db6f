#!/usr/bin/env python3
"""Engine side of tests/it/datatypes_engine.rs: the engine's default fill
value of an attribute of each NumPy type given, as hexadecimal bytes.

Usage:  python engine_fill.py NAME=DTYPE...   (e.g. INT32=int32 DATETIME_NS=datetime64[ns])

Prints one JSON object: {NAME: "hex bytes of the attribute's fill value"}.
"""

import json
import sys

import numpy as np
import tiledb

fills = {}
for arg in sys.argv[1:]:
    name, dtype = arg.split("=", 1)
    attr = tiledb.Attr("a", dtype=np.dtype(dtype))
    fills[name] = np.asarray(attr.fill).tobytes().hex()
print(json.dumps(fills))
