"""Read an Arrow IPC stream (or a Parquet file) with pyarrow and print its rows as JSON.

Usage:  python arrow_rows.py PATH [--parquet]   (PATH: an Arrow IPC stream or file, or Parquet)

Prints {"schema": [{"name", "type", "nullable", "metadata"}...], "rows": [{field: value}...]}
with values spelled as engine_account.py spells the engine's cells: numbers,
"NaN"/"inf"/"-inf", text as str (bytes that are not UTF-8 as a list of byte
values), blobs as lists of byte values, dates and times as their integer
counts, lists as lists, dictionary (enumeration) cells as their keys, null as null.
"""

import json
import math
import sys

import pyarrow as pa
import pyarrow.ipc
import pyarrow.parquet

STRING_TYPES = {"CHAR", "STRING_ASCII", "STRING_UTF8", "STRING_UTF16", "STRING_UTF32",
                "STRING_UCS2", "STRING_UCS4"}
BYTES_TYPES = {"BLOB", "GEOM_WKB", "GEOM_WKT", "ANY"}


def text(b):
    if isinstance(b, str):
        return b
    try:
        return bytes(b).decode("utf-8")
    except UnicodeDecodeError:
        return list(bytes(b))


def num(v):
    if isinstance(v, bool):
        return v
    if isinstance(v, float):
        if math.isnan(v):
            return "NaN"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return v
    return v


def as_ints(arr):
    """Temporal arrays as their integer counts."""
    t = arr.type
    if pa.types.is_date32(t) or pa.types.is_time32(t):
        return arr.cast(pa.int32())
    if pa.types.is_timestamp(t) or pa.types.is_duration(t) or pa.types.is_date64(t) \
            or pa.types.is_time64(t):
        return arr.cast(pa.int64())
    return arr


def values(arr, dtname):
    """One Arrow array -> a list of JSON values."""
    t = arr.type
    if pa.types.is_dictionary(t):
        return values(arr.indices, dtname)
    if pa.types.is_fixed_size_list(t) or pa.types.is_large_list(t) or pa.types.is_list(t):
        out = []
        for i in range(len(arr)):
            cell = arr[i]
            out.append(values(cell.values, dtname) if cell.is_valid else None)
        return out
    arr = as_ints(arr)
    out = []
    for v in arr.to_pylist():
        if v is None:
            out.append(None)
        elif isinstance(v, (bytes, str)):
            if dtname in BYTES_TYPES:
                out.append(list(v if isinstance(v, bytes) else v.encode()))
            else:
                out.append(text(v))
        else:
            out.append(num(v))
    return out


def main(argv):
    path = argv[1]
    if "--parquet" in argv:
        table = pyarrow.parquet.read_table(path)
    else:
        with open(path, "rb") as f:
            magic = f.read(6)
            f.seek(0)
            if magic == b"ARROW1":
                table = pyarrow.ipc.open_file(f).read_all()
            else:
                table = pyarrow.ipc.open_stream(f).read_all()
    cols = {}
    schema = []
    for field in table.schema:
        meta = {k.decode(): v.decode() for k, v in (field.metadata or {}).items()}
        schema.append({"name": field.name, "type": str(field.type),
                       "nullable": field.nullable, "metadata": meta})
        col = table.column(field.name).combine_chunks()
        cols[field.name] = values(col, meta.get("tiledb.datatype", ""))
    rows = [{f.name: cols[f.name][i] for f in table.schema} for i in range(table.num_rows)]
    json.dump({"schema": schema, "rows": rows}, sys.stdout)


if __name__ == "__main__":
    main(sys.argv)
