#!/usr/bin/env bash
# Usage: make_venv.sh VERSION DIR
#
# Create (or reuse) a Python venv at DIR with TileDB-Py == VERSION (and pyarrow,
# and moto[server]: the S3-compatible server of tests/it/object_store.rs) from PyPI.
# Idempotent: does nothing if DIR/bin/python already imports that tiledb
# version.  TileDB-Py < 0.30 is built against numpy 1.x, so 'numpy<2' is
# pinned for those; newer versions get the current numpy.
# PYTHON selects the interpreter used to create the venv (default: python3).
set -euo pipefail

if [ $# -ne 2 ]; then
    echo "usage: $0 VERSION DIR   (e.g. $0 0.36.1 /tmp/venv36)" >&2
    exit 2
fi
VERSION=$1
DIR=$2
PY=${PYTHON:-python3}

have_version() {
    [ -x "$DIR/bin/python" ] &&
        [ "$("$DIR/bin/python" -c 'import tiledb, pyarrow, moto.server; print(tiledb.__version__)' 2>/dev/null)" = "$VERSION" ]
}

if have_version; then
    echo "$DIR already has tiledb==$VERSION"
    exit 0
fi

# numpy<2 for TileDB-Py < 0.30
major=${VERSION%%.*}
rest=${VERSION#*.}
minor=${rest%%.*}
if [ "$major" -eq 0 ] && [ "$minor" -lt 30 ]; then
    NUMPY='numpy<2'
else
    NUMPY='numpy'
fi

if [ ! -x "$DIR/bin/python" ]; then
    "$PY" -m venv "$DIR"
fi
# pyarrow reads the Arrow IPC and Parquet files of tests/it/arrow_engine.rs;
# moto[server] is the S3 server of tests/it/object_store.rs.
"$DIR/bin/python" -m pip install --quiet --disable-pip-version-check \
    "tiledb==$VERSION" "$NUMPY" pyarrow 'moto[server]'

if ! have_version; then
    echo "failed to install tiledb==$VERSION into $DIR" >&2
    exit 1
fi
"$DIR/bin/python" -c 'import tiledb; print("tiledb", tiledb.__version__, "libtiledb", ".".join(map(str, tiledb.libtiledb.version())))'
