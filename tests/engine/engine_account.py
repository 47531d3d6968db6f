#!/usr/bin/env python3
"""Print the TileDB engine's own account of an array as JSON.

Usage:  python engine_account.py PATH [--key KEY] [--cells]

Run it with the newest TileDB-Py (it reads every older format).  The output is
what `tiledb-codec inspect --json` is compared against:

  {"schema": {...}, "fragments": [...], "metadata": {...}}   (+ "cells" with --cells)

Names come from the engine's enums (tiledb.libtiledb.DataType / FilterType /
LayoutType members, i.e. TileDB's C names without the TILEDB_ / TILEDB_FILTER_
prefix).  String values (CHAR, STRING_*) are decoded as UTF-8; bytes that are
not valid UTF-8 are given as a list of byte values instead.  Fill values are read through TileDB's C API (ctypes), because
TileDB-Py cannot return the fill value of a nullable attribute.

For a group PATH it prints {"group": {"members": [...], "metadata": {...}}}.
"""

import argparse
import ctypes
import glob
import json
import math
import os
import sys

import numpy as np
import tiledb
import tiledb.libtiledb as lt

VAR_NUM = 0xFFFFFFFF  # TILEDB_VAR_NUM

STRING_TYPES = {"CHAR", "STRING_ASCII", "STRING_UTF8", "STRING_UTF16", "STRING_UTF32",
                "STRING_UCS2", "STRING_UCS4"}
BYTES_TYPES = {"BLOB", "GEOM_WKB", "GEOM_WKT", "ANY"}

# raw little-endian numpy type of each fixed-size TileDB datatype
NUMPY_OF = {
    "INT8": "<i1", "UINT8": "<u1", "INT16": "<i2", "UINT16": "<u2",
    "INT32": "<i4", "UINT32": "<u4", "INT64": "<i8", "UINT64": "<u8",
    "FLOAT32": "<f4", "FLOAT64": "<f8", "BOOL": "<u1",
}


def np_type_of(dtname):
    if dtname in NUMPY_OF:
        return np.dtype(NUMPY_OF[dtname])
    if dtname.startswith("DATETIME_") or dtname.startswith("TIME_"):
        return np.dtype("<i8")
    return None


def count_of(n):
    return "var" if int(n) == VAR_NUM else int(n)


# --------------------------------------------------------------------------
# JSON value conversion
# --------------------------------------------------------------------------


def num(v):
    """A scalar (numpy or python) to a JSON-able number/bool/string."""
    if isinstance(v, (np.datetime64, np.timedelta64)):
        return int(v.astype(np.int64))
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (np.integer, int)):
        return int(v)
    if isinstance(v, (np.floating, float)):
        f = float(v)
        if math.isnan(f):
            return "NaN"
        if math.isinf(f):
            return "inf" if f > 0 else "-inf"
        return f
    if isinstance(v, (bytes, np.bytes_)):
        return text(bytes(v))
    if isinstance(v, str):
        return v
    raise TypeError("cannot convert %r (%s)" % (v, type(v)))


def text(b):
    """Bytes of a string type -> str; bytes that are not valid UTF-8 (e.g. the
    default CHAR fill value 0x80) -> list of byte values instead."""
    if isinstance(b, str):
        return b
    try:
        return bytes(b).decode("utf-8")
    except UnicodeDecodeError:
        return list(bytes(b))


def value_from_bytes(raw, dtname, cell_val_num):
    """Interpret raw bytes of one cell value (e.g. a fill value) of a TileDB type."""
    if dtname in STRING_TYPES:
        return text(raw)
    if dtname in BYTES_TYPES:
        return list(bytes(raw))
    npt = np_type_of(dtname)
    if npt is None:
        return list(bytes(raw))
    vals = np.frombuffer(bytes(raw), dtype=npt)
    if dtname == "BOOL":
        vals = vals.astype(bool)
    out = [num(v) for v in vals]
    if cell_val_num == 1 and len(out) == 1:
        return out[0]
    return out


# --------------------------------------------------------------------------
# C API access (fill values)
# --------------------------------------------------------------------------


class CApi:
    """Minimal ctypes binding to the libtiledb that TileDB-Py loaded."""

    def __init__(self, config):
        libdir = os.path.join(os.path.dirname(os.path.dirname(tiledb.__file__)), "tiledb.libs")
        cands = sorted(glob.glob(os.path.join(libdir, "libtiledb*.so*")))
        cands += sorted(glob.glob(os.path.join(os.path.dirname(tiledb.__file__), "libtiledb*.so*")))
        cands = [c for c in cands if "cpython" not in c]
        if not cands:
            raise RuntimeError("libtiledb shared library not found next to TileDB-Py")
        L = self.L = ctypes.CDLL(cands[0])
        vp, pvp = ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)
        L.tiledb_config_alloc.argtypes = [pvp, pvp]
        L.tiledb_config_set.argtypes = [vp, ctypes.c_char_p, ctypes.c_char_p, pvp]
        L.tiledb_config_free.argtypes = [pvp]
        L.tiledb_ctx_alloc.argtypes = [vp, pvp]
        L.tiledb_ctx_free.argtypes = [pvp]
        L.tiledb_array_schema_load.argtypes = [vp, ctypes.c_char_p, pvp]
        L.tiledb_array_schema_free.argtypes = [pvp]
        L.tiledb_array_schema_get_attribute_from_name.argtypes = [vp, vp, ctypes.c_char_p, pvp]
        L.tiledb_attribute_free.argtypes = [pvp]
        L.tiledb_attribute_get_fill_value.argtypes = [
            vp, vp, pvp, ctypes.POINTER(ctypes.c_uint64)]
        L.tiledb_attribute_get_fill_value_nullable.argtypes = [
            vp, vp, pvp, ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_uint8)]
        cfg, err = vp(), vp()
        self._check(L.tiledb_config_alloc(ctypes.byref(cfg), ctypes.byref(err)), "config_alloc")
        for k, v in config.items():
            self._check(L.tiledb_config_set(cfg, k.encode(), v.encode(), ctypes.byref(err)),
                        "config_set " + k)
        self.ctx = vp()
        self._check(L.tiledb_ctx_alloc(cfg, ctypes.byref(self.ctx)), "ctx_alloc")
        L.tiledb_config_free(ctypes.byref(cfg))

    @staticmethod
    def _check(rc, what):
        if rc != 0:
            raise RuntimeError("libtiledb C API call failed: " + what)

    def fill_values(self, uri, attrs):
        """{attr_name: (raw fill bytes, validity or None)} for (name, nullable) in attrs."""
        L, vp = self.L, ctypes.c_void_p
        schema = vp()
        self._check(L.tiledb_array_schema_load(self.ctx, uri.encode(), ctypes.byref(schema)),
                    "array_schema_load")
        out = {}
        try:
            for name, nullable in attrs:
                a = vp()
                self._check(L.tiledb_array_schema_get_attribute_from_name(
                    self.ctx, schema, name.encode(), ctypes.byref(a)), "get_attribute " + name)
                try:
                    p, size, valid = vp(), ctypes.c_uint64(), ctypes.c_uint8()
                    if nullable:
                        self._check(L.tiledb_attribute_get_fill_value_nullable(
                            self.ctx, a, ctypes.byref(p), ctypes.byref(size), ctypes.byref(valid)),
                            "get_fill_value_nullable")
                        v = int(valid.value)
                    else:
                        self._check(L.tiledb_attribute_get_fill_value(
                            self.ctx, a, ctypes.byref(p), ctypes.byref(size)), "get_fill_value")
                        v = None
                    raw = ctypes.string_at(p.value, size.value) if size.value else b""
                    out[name] = (raw, v)
                finally:
                    L.tiledb_attribute_free(ctypes.byref(a))
        finally:
            L.tiledb_array_schema_free(ctypes.byref(schema))
        return out

    def close(self):
        self.L.tiledb_ctx_free(ctypes.byref(self.ctx))


# --------------------------------------------------------------------------
# schema
# --------------------------------------------------------------------------

LAYOUT = {"ROW_MAJOR": "row-major", "COL_MAJOR": "col-major", "HILBERT": "hilbert",
          "GLOBAL_ORDER": "global-order", "UNORDERED": "unordered"}


def filter_account(f, ctx):
    """One filter: {"type": NAME, ...options} with the engine's option values."""
    t = f._type.name  # lt.FilterType member name, e.g. "ZSTD", "SCALE_FLOAT"
    O = lt.FilterOption

    def opt(o):
        return f._get_option(ctx, o)

    out = {"type": t}
    if t in ("GZIP", "ZSTD", "LZ4", "RLE", "BZIP2", "DICTIONARY", "DELTA", "DOUBLE_DELTA"):
        out["level"] = int(opt(O.COMPRESSION_LEVEL))
    if t in ("DELTA", "DOUBLE_DELTA"):
        rd = opt(O.COMPRESSION_REINTERPRET_DATATYPE)
        out["reinterpret_datatype"] = rd.name if hasattr(rd, "name") else lt.DataType(int(rd)).name
    if t == "BIT_WIDTH_REDUCTION":
        out["max_window_size"] = int(opt(O.BIT_WIDTH_MAX_WINDOW))
    if t == "POSITIVE_DELTA":
        out["max_window_size"] = int(opt(O.POSITIVE_DELTA_MAX_WINDOW))
    if t == "SCALE_FLOAT":
        out["scale"] = num(opt(O.SCALE_FLOAT_FACTOR))
        out["offset"] = num(opt(O.SCALE_FLOAT_OFFSET))
        out["byte_width"] = int(opt(O.SCALE_FLOAT_BYTEWIDTH))
    if t == "WEBP":
        out["quality"] = num(opt(O.WEBP_QUALITY))
        fmt = opt(O.WEBP_INPUT_FORMAT)
        name = fmt.name if hasattr(fmt, "name") else lt.WebpInputFormat(int(fmt)).name
        out["input_format"] = name[len("WEBP_"):] if name.startswith("WEBP_") else name
        out["lossless"] = bool(int(opt(O.WEBP_LOSSLESS)))
    return out


def filters_account(fl, ctx):
    return [filter_account(f, ctx) for f in fl]


def bound(v, dtname):
    if dtname in STRING_TYPES:
        return text(v) if isinstance(v, (bytes, np.bytes_)) else str(v)
    return num(v)


def dim_account(d, ctx):
    dt = d._tiledb_dtype.name
    var = int(d._ncell) == VAR_NUM
    dom = None if var else [bound(x, dt) for x in d._domain]
    tile = None if var or d._tile is None else num(d._tile)
    return {
        "name": d.name,
        "datatype": dt,
        "cell_val_num": count_of(d._ncell),
        "domain": dom,
        "tile_extent": tile,
        "filters": filters_account(d.filters, ctx),
    }


def schema_account(A, capi, uri):
    s = A.schema
    ctx = s._ctx
    attrs = [s.attr(i) for i in range(s.nattr)]
    fills = capi.fill_values(uri, [(a._internal_name, a.isnullable) for a in attrs])
    attr_out, enum_names = [], []
    for a in attrs:
        dt = a._tiledb_dtype.name
        raw, _valid = fills[a._internal_name]
        enum = a.enum_label if hasattr(a, "enum_label") else None
        if enum is not None and enum not in enum_names:
            enum_names.append(enum)
        attr_out.append({
            "name": a._internal_name,
            "datatype": dt,
            "cell_val_num": count_of(a._ncell),
            "nullable": bool(a.isnullable),
            "fill_value": value_from_bytes(raw, dt, count_of(a._ncell)),
            "filters": filters_account(a.filters, ctx),
            "enumeration": enum,
        })
    enums = []
    for name in enum_names:
        e = A.enum(name)
        dt = e.type.name
        cvn = count_of(e.cell_val_num)
        if dt in STRING_TYPES:
            values = [text(v) for v in e.str_values()]
        elif dt in BYTES_TYPES:
            values = [list(bytes(v)) for v in e.str_values()]
        else:
            vals = np.asarray(e.values())
            if cvn != 1 and cvn != "var":
                vals = vals.reshape(-1, cvn)
                values = [[num(x) for x in row] for row in vals]
            else:
                values = [num(x) for x in vals]
        enums.append({"name": name, "datatype": dt, "cell_val_num": cvn,
                      "ordered": bool(e.ordered), "values": values})
    return {
        "version": int(s.version),
        "array_type": "sparse" if s.sparse else "dense",
        "cell_order": LAYOUT[s._cell_order.name],
        "tile_order": LAYOUT[s._tile_order.name],
        "capacity": int(s.capacity),
        "allows_duplicates": bool(s._allows_dups),
        "dimensions": [dim_account(d, ctx) for d in s.domain],
        "attributes": attr_out,
        "coords_filters": filters_account(s.coords_filters, ctx),
        "offsets_filters": filters_account(s.offsets_filters, ctx),
        "validity_filters": filters_account(s.validity_filters, ctx),
        "enumerations": enums,
    }


# --------------------------------------------------------------------------
# fragments, metadata, cells
# --------------------------------------------------------------------------


def fragments_account(uri, schema, ctx):
    fi = tiledb.FragmentInfoList(uri, ctx=ctx)
    dtypes = [d._tiledb_dtype.name for d in schema.domain]
    out = []
    for i in range(len(fi)):
        ned = fi.nonempty_domain[i]
        out.append({
            "name": os.path.basename(fi.uri[i].rstrip("/")),
            "version": int(fi.version[i]),
            "timestamps": [int(t) for t in fi.timestamp_range[i]],
            "non_empty_domain": [[bound(lo, dt), bound(hi, dt)] for (lo, hi), dt in zip(ned, dtypes)],
            "dense": not bool(fi.sparse[i]),
            "cell_num": int(fi.cell_num[i]),
            "array_schema_name": fi.array_schema_name[i],
        })
    return out


def meta_value(data, tdb_type):
    name = tdb_type.name if hasattr(tdb_type, "name") else lt.DataType(int(tdb_type)).name
    if name in BYTES_TYPES:
        return list(bytes(data))
    if name in STRING_TYPES:
        return text(data)
    if isinstance(data, (tuple, list, np.ndarray)):
        return [num(v) for v in data]
    return num(data)


def metadata_account(handle):
    out = {}
    for i in range(handle._metadata_num()):
        k = handle._get_key_from_index(i)
        data, tdb_type = handle._get_metadata(k, False)
        out[k] = meta_value(data, tdb_type)
    return out


def cell_value(v, dtname, cvn):
    if v is None or v is np.ma.masked:
        return None
    if isinstance(v, memoryview):
        v = v.tobytes()
    if dtname in BYTES_TYPES:
        return list(bytes(v))
    if dtname in STRING_TYPES:
        if isinstance(v, np.ndarray):
            v = v.tobytes()
        return text(v)
    if isinstance(v, np.void):  # structured dtype: multi-valued
        return [num(x) for x in v.tolist()]
    if isinstance(v, (complex, np.complexfloating)):
        return [num(v.real), num(v.imag)]
    if isinstance(v, np.ndarray):
        return [num(x) for x in v.tolist()]
    return num(v)


def column(arr, dtname, cvn):
    """Column of a read result -> list of JSON values (None for null cells)."""
    mask = None
    if isinstance(arr, np.ma.MaskedArray):
        mask = np.ma.getmaskarray(arr)
        arr = arr.data
    arr = np.asarray(arr)
    if arr.dtype.kind == "S" and isinstance(cvn, int) and cvn > 1:
        # fixed-size char: keep trailing NULs that numpy would strip
        raw = [arr[i:i + 1].tobytes() for i in range(len(arr))]
        vals = [text(r) for r in raw]
    elif arr.dtype.kind in "iubfmM" and dtname not in BYTES_TYPES | STRING_TYPES:
        # Plain numbers: numpy's own conversion to Python ints, bools and
        # floats (times as their int64 counts) gives what `num` gives each
        # cell, without a call per cell; NaN and infinities still go
        # through `num`.
        flat = arr.ravel()
        vals = (flat.astype(np.int64) if arr.dtype.kind in "mM" else flat).tolist()
        if arr.dtype.kind == "f" and not np.isfinite(flat).all():
            vals = [num(v) for v in vals]
    else:
        vals = [cell_value(v, dtname, cvn) for v in arr.ravel().tolist()] \
            if arr.dtype.kind in "OS" else [cell_value(v, dtname, cvn) for v in arr.ravel()]
    if mask is not None:
        vals = [None if m else v for v, m in zip(vals, mask.ravel())]
    return vals


def cells_account(A, order=None):
    s = A.schema
    dims = [(d.name, d._tiledb_dtype.name, count_of(d._ncell)) for d in s.domain]
    attrs = [(a._internal_name, a._tiledb_dtype.name, count_of(a._ncell))
             for a in (s.attr(i) for i in range(s.nattr))]
    if order is not None:
        # The engine's read in the given layout ("G": global order, which for
        # one fragment is the order of its tiles on disk).
        res = A.query(order=order, coords=True)[:]
    elif s.sparse:
        res = A.subarray(slice(None))  # same as A[:] but without decoding enumerations
    else:
        ned = A.nonempty_domain()
        if ned is None:
            return []
        sel = tuple(slice(lo, hi + 1) for lo, hi in ned)
        res = A.subarray(sel, coords=True)
    cols = {}
    n = None
    for name, dt, cvn in dims + attrs:
        key = name
        if key not in res and name == "" and "__attr" in res:
            key = "__attr"
        col = column(res[key], dt, cvn)
        cols[name] = col
        n = len(col) if n is None else n
    names = [name for name, _, _ in dims + attrs]
    return [dict(zip(names, row)) for row in zip(*(cols[name] for name in names))]


# --------------------------------------------------------------------------


def main(argv):
    ap = argparse.ArgumentParser(description="Print the TileDB engine's account of an array as JSON")
    ap.add_argument("path")
    ap.add_argument("--key", default=None, help="AES-256-GCM encryption key")
    ap.add_argument("--cells", action="store_true", help="add the engine's full read of the array")
    ap.add_argument("--order", default=None, help="with --cells: read in this layout (G = global order)")
    ap.add_argument("--indent", type=int, default=1,
                    help="spaces per level; 0: all on one line (the fastest to make)")
    args = ap.parse_args(argv)
    # No indent at all lets json use its C encoder: for the tests, which
    # parse it, on arrays of many cells.
    indent = args.indent if args.indent > 0 else None

    uri = os.path.abspath(args.path)
    cfg = {}
    if args.key:
        cfg = {"sm.encryption_type": "AES_256_GCM", "sm.encryption_key": args.key}
    ctx = tiledb.Ctx(tiledb.Config(cfg))

    otype = tiledb.object_type(uri, ctx=ctx)
    if otype == "group":
        with tiledb.Group(uri, "r", ctx=ctx) as G:
            base = "file://" + uri.rstrip("/") + "/"
            members = []
            for m in G:
                muri = m.uri[len(base):] if m.uri.startswith(base) else m.uri
                mtype = getattr(m.type, "__name__", str(m.type))
                members.append({"name": m.name, "uri": muri, "type": mtype.lower()})
            out = {"group": {"members": members, "metadata": metadata_account(G)}}
        print(json.dumps(out, indent=indent, ensure_ascii=False))
        return 0
    if otype != "array":
        print("not a TileDB array or group: %s" % uri, file=sys.stderr)
        return 2

    capi = CApi(cfg)
    try:
        with tiledb.open(uri, "r", ctx=ctx) as A:
            out = {
                "schema": schema_account(A, capi, uri),
                "fragments": fragments_account(uri, A.schema, ctx),
                "metadata": metadata_account(A.array if hasattr(A, "array") else A),
            }
            if args.cells:
                out["cells"] = cells_account(A, args.order)
    finally:
        capi.close()
    print(json.dumps(out, indent=indent, ensure_ascii=False, allow_nan=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
