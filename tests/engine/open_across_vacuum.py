#!/usr/bin/env python3
"""Engine side of tests/it/maintain_races.rs: what the engine does with an
array opened before a consolidation and vacuum and read after them.

Usage:  python open_across_vacuum.py ARRAY

Opens ARRAY (sparse, dimension d), consolidates and vacuums its fragments
with the engine, then reads every cell through the handle opened before.
Prints one JSON line: {"ok": true, "cells": N} or {"ok": false,
"error": "..."}.
"""

import json
import sys

import tiledb


def main():
    path = sys.argv[1]
    with tiledb.open(path) as before:
        tiledb.consolidate(path)
        tiledb.vacuum(path)
        try:
            cells = len(before[:]["d"])
            print(json.dumps({"ok": True, "cells": cells}))
        except Exception as e:  # the engine's error, recorded
            print(json.dumps({"ok": False, "error": str(e)}))


if __name__ == "__main__":
    main()
