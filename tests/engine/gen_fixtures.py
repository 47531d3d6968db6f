#!/usr/bin/env python3
"""Generate small TileDB test-fixture arrays with the installed TileDB-Py engine.

Usage:  python gen_fixtures.py OUTDIR [--all]
        python gen_fixtures.py OUTDIR --only NAME[,NAME...] [--replace]

The arrays are written to OUTDIR/v{FORMAT}/{name}, where FORMAT is the on-disk
format version this engine writes (detected by writing a probe array).  Without
--only, the folder OUTDIR/v{FORMAT} is wiped first, so re-running regenerates
it from scratch.  OUTDIR/v{FORMAT}/MANIFEST.json lists what was written.

With --only, just the named fixtures are written into the existing folder and
added to MANIFEST.json (appended; an entry of the same name is replaced, never
duplicated); every other fixture folder and manifest entry is left as it is.
A named fixture whose folder already exists is kept (its uuids may be pinned by
tests) unless --replace is given.

Every write uses a fixed `timestamp=` and all data is fixed or drawn from a
seeded generator; what still changes between runs is the uuids in file names
and what the engine stamps with the wall clock: schema file names
(__<created>_<created>_<uuid>), and the group's member-list/metadata files.
Fragment metadata embeds the schema name, and TileDB 2.13 (format 16) writes
absolute fragment URIs into .vac files, so file contents vary a little too.

A fixture that the engine refuses is skipped (reported on stdout, left out of
MANIFEST.json); features are probed by trying them.  Fixtures marked
core=False are only written by the newest engine (TileDB-Py >= 0.30) unless
--all is given; fixtures with formats=(...) only for those format versions.
Empty directories are removed at the end (git drops them).
"""

import json
import os
import shutil
import sys
import tempfile
import traceback

import numpy as np
import tiledb

ENC_KEY = "0123456789abcdeF0123456789abcdeF"

PY_VERSION = tuple(int(x) for x in tiledb.__version__.split(".")[:3] if x.isdigit())
LIB_VERSION = tuple(tiledb.libtiledb.version())

# --------------------------------------------------------------------------
# small helpers working across TileDB-Py 0.19 .. 0.36
# --------------------------------------------------------------------------


def _sparse_setitem():
    """The module-level sparse write function (name stable, module moved)."""
    try:
        from tiledb.sparse_array import _setitem_impl_sparse  # >= 0.30

        return _setitem_impl_sparse
    except ImportError:
        return tiledb.libtiledb._setitem_impl_sparse  # <= 0.29


def write_sparse(uri, ts, coords, data, nullmaps=None, ctx=None):
    """Write one sparse fragment at timestamp `ts`.

    coords: tuple of per-dimension arrays; data: {attr: values};
    nullmaps: {attr: uint8 array, 1 = valid}.
    """
    with tiledb.open(uri, "w", timestamp=ts, ctx=ctx) as A:
        _sparse_setitem()(A, tuple(coords), dict(data), dict(nullmaps or {}))


def write_dense(uri, ts, selection, data, nullmaps=None, ctx=None):
    """Write one dense fragment at timestamp `ts` into `selection` (slices)."""
    with tiledb.open(uri, "w", timestamp=ts, ctx=ctx) as A:
        A._setitem_impl(selection, dict(data), dict(nullmaps or {}))


def create(uri, schema, ctx=None):
    tiledb.Array.create(uri, schema, ctx=ctx)


def dim(name, domain, tile, dtype, filters=None):
    kw = {}
    if filters is not None:
        kw["filters"] = filters
    return tiledb.Dim(name=name, domain=domain, tile=tile, dtype=dtype, **kw)


def attr(name, dtype, **kw):
    return tiledb.Attr(name=name, dtype=dtype, **kw)


def filt(cls_name, *args, **kw):
    """Instantiate tiledb.<cls_name>(...) or raise Unsupported."""
    cls = getattr(tiledb, cls_name, None)
    if cls is None:
        raise Unsupported(f"tiledb.{cls_name} not in this TileDB-Py")
    return cls(*args, **kw)


class Unsupported(Exception):
    pass


def need(cond, what):
    if not cond:
        raise Unsupported(what)


def usable(make_attr, data):
    """True if this engine can create, write and read back a 1-D dense array
    with the attribute make_attr() holding `data` (probed in a scratch dir)."""
    tmp = tempfile.mkdtemp(prefix="tdb_probe_")
    try:
        a = make_attr()
        uri = os.path.join(tmp, "p")
        d = tiledb.Domain(dim("d", (0, len(data) - 1), len(data), np.int32))
        create(uri, tiledb.ArraySchema(domain=d, attrs=[a]))
        write_dense(uri, 1, slice(0, len(data)), {a.name: data})
        with tiledb.open(uri) as A:
            A[:]
        return True
    except Exception:
        return False
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def rng(seed):
    return np.random.default_rng(seed)


def u8(*vals):
    return np.array(vals, dtype=np.uint8)


# --------------------------------------------------------------------------
# fixture registry
# --------------------------------------------------------------------------

FIXTURES = []


def fixture(name, description, kind="array", encrypted_key=None, core=True, formats=None):
    """Register a fixture.  core=False: only written by the newest engine
    (TileDB-Py >= 0.30) unless --all is given.  formats: if set, the format
    versions (e.g. (16, 22)) whose engine writes it (also with --only, --all).
    The function may return a string that is appended to the description."""

    def deco(fn):
        FIXTURES.append(
            dict(
                name=name,
                description=description,
                kind=kind,
                encrypted_key=encrypted_key,
                core=core,
                formats=tuple(formats) if formats else None,
                fn=fn,
            )
        )
        return fn

    return deco


# ---------------------------- dense ---------------------------------------


@fixture(
    "dense_int_1d",
    "dense 1-D int32 dim [1,20] tile 5, int32 attr a (fill -1); "
    "3 fragments: full write t1, partial [5,8] t2, partial [15,17] t3",
)
def _dense_int_1d(uri):
    d = tiledb.Domain(dim("d", (1, 20), 5, np.int32))
    create(uri, tiledb.ArraySchema(domain=d, attrs=[attr("a", np.int32, fill=-1)]))
    write_dense(uri, 1, slice(1, 21), {"a": np.arange(1, 21, dtype=np.int32)})
    write_dense(uri, 2, slice(5, 9), {"a": np.array([50, 60, 70, 80], np.int32)})
    write_dense(uri, 3, slice(15, 18), {"a": np.array([-15, -16, -17], np.int32)})


@fixture(
    "dense_int_2d",
    "dense 2-D int64 dims rows [1,4] tile 2 x cols [1,6] tile 3, attrs "
    "a int32 (fill 0), b uint16 (fill 65535); 3 fragments: rows 1-2 t1, [2:3,2:5] t2, "
    "[1:1,5:6] t3 (row 3 cols 1 and 6 and row 4 never written)",
)
def _dense_int_2d(uri):
    d = tiledb.Domain(dim("rows", (1, 4), 2, np.int64), dim("cols", (1, 6), 3, np.int64))
    create(
        uri,
        tiledb.ArraySchema(
            domain=d,
            attrs=[attr("a", np.int32, fill=0), attr("b", np.uint16, fill=65535)],
        ),
    )
    a = np.arange(12, dtype=np.int32).reshape(2, 6)
    write_dense(
        uri, 1, (slice(1, 3), slice(1, 7)), {"a": a, "b": (a * 3).astype(np.uint16)}
    )
    p = np.array([[100, 101, 102, 103], [104, 105, 106, 107]], np.int32)
    write_dense(
        uri, 2, (slice(2, 4), slice(2, 6)), {"a": p, "b": (p + 1).astype(np.uint16)}
    )
    write_dense(
        uri,
        3,
        (slice(1, 2), slice(5, 7)),
        {"a": np.array([[-1, -2]], np.int32), "b": np.array([[7, 8]], np.uint16)},
    )


@fixture(
    "dense_float_2d_colmajor",
    "dense 2-D uint32 dims x [0,5] tile 3 x y [0,3] tile 2, col-major cell and "
    "tile order, attrs f32 float32 (fill NaN), f64 float64 (fill 1.5); "
    "2 fragments: full t1 (incl. NaN/inf values), [2:4,1:2] t2",
    core=False,
)
def _dense_float_2d(uri):
    d = tiledb.Domain(dim("x", (0, 5), 3, np.uint32), dim("y", (0, 3), 2, np.uint32))
    create(
        uri,
        tiledb.ArraySchema(
            domain=d,
            cell_order="col-major",
            tile_order="col-major",
            attrs=[
                attr("f32", np.float32, fill=np.nan),
                attr("f64", np.float64, fill=1.5),
            ],
        ),
    )
    r = rng(1)
    f32 = r.standard_normal((6, 4)).astype(np.float32)
    f32[0, 0] = np.inf
    f32[5, 3] = -np.inf
    f64 = r.uniform(-100, 100, (6, 4))
    f64[1, 1] = np.nan
    write_dense(uri, 1, (slice(0, 6), slice(0, 4)), {"f32": f32, "f64": f64})
    write_dense(
        uri,
        2,
        (slice(2, 5), slice(1, 3)),
        {
            "f32": np.full((3, 2), 0.25, np.float32),
            "f64": np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
        },
    )


@fixture(
    "dense_var_nullable",
    "dense 1-D int32 dim [0,9] tile 5, attrs s utf8 var (fill 'x?'), "
    "n int32 nullable (fill 42), ns ascii var nullable; 3 fragments: [0,3] t1, [2,3] t2, "
    "[7,9] t3 (cells 4-6 never written)",
)
def _dense_var_nullable(uri):
    d = tiledb.Domain(dim("d", (0, 9), 5, np.int32))
    create(
        uri,
        tiledb.ArraySchema(
            domain=d,
            attrs=[
                attr("s", str, fill="x?"),
                attr("n", np.int32, nullable=True, fill=42),
                attr("ns", "ascii", nullable=True),
            ],
        ),
    )
    write_dense(
        uri,
        1,
        slice(0, 4),
        {
            "s": np.array(["zero", "one", "", "fünf"], "O"),
            "n": np.array([0, 10, 20, 30], np.int32),
            "ns": np.array([b"a", b"bb", b"", b"dddd"], "O"),
        },
        {"n": u8(1, 1, 0, 1), "ns": u8(1, 0, 1, 1)},
    )
    write_dense(
        uri,
        2,
        slice(2, 4),
        {
            "s": np.array(["TWO", ""], "O"),
            "n": np.array([2, 3], np.int32),
            "ns": np.array([b"x", b""], "O"),
        },
        {"n": u8(1, 0), "ns": u8(0, 1)},
    )
    write_dense(
        uri,
        3,
        slice(7, 10),
        {
            "s": np.array(["sept", "åtta", "nine"], "O"),
            "n": np.array([7, 8, 9], np.int32),
            "ns": np.array([b"g", b"", b"ii"], "O"),
        },
        {"n": u8(1, 1, 0), "ns": u8(1, 1, 0)},
    )


@fixture(
    "dense_anon_attr",
    "dense 1-D int64 dim [0,7] tile 4 with one anonymous (empty-name) float64 attr; 1 fragment t1",
    core=False,
)
def _dense_anon(uri):
    d = tiledb.Domain(dim("d", (0, 7), 4, np.int64))
    create(uri, tiledb.ArraySchema(domain=d, attrs=[tiledb.Attr(dtype=np.float64)]))
    write_dense(uri, 1, slice(0, 8), {"": np.linspace(0, 1, 8)})


@fixture("dense_empty", "dense 2-D int32 dims, int32 attr; schema only, no fragments", core=False)
def _dense_empty(uri):
    d = tiledb.Domain(dim("r", (0, 9), 5, np.int32), dim("c", (0, 9), 5, np.int32))
    create(uri, tiledb.ArraySchema(domain=d, attrs=[attr("a", np.int32)]))


# ---------------------------- sparse --------------------------------------


@fixture(
    "sparse_int_2d",
    "sparse 2-D int32 dims [0,99] tile 10, capacity 4, no duplicates, attrs "
    "a int64, b float64; 3 fragments t1..t3, t2/t3 overwrite some coords of t1",
)
def _sparse_int_2d(uri):
    d = tiledb.Domain(dim("r", (0, 99), 10, np.int32), dim("c", (0, 99), 10, np.int32))
    create(
        uri,
        tiledb.ArraySchema(
            domain=d,
            sparse=True,
            capacity=4,
            allows_duplicates=False,
            attrs=[attr("a", np.int64), attr("b", np.float64)],
        ),
    )
    r = rng(2)
    rows = np.array([1, 1, 2, 5, 7, 10, 33, 50, 51, 99], np.int32)
    cols = np.array([1, 2, 1, 5, 90, 10, 33, 0, 51, 99], np.int32)
    write_sparse(
        uri,
        1,
        (rows, cols),
        {"a": np.arange(10, dtype=np.int64), "b": r.uniform(0, 1, 10)},
    )
    write_sparse(
        uri,
        2,
        (np.array([1, 5, 60], np.int32), np.array([2, 5, 60], np.int32)),
        {"a": np.array([100, 101, 102], np.int64), "b": np.array([-1.0, -2.0, -3.0])},
    )
    write_sparse(
        uri,
        3,
        (np.array([99, 0], np.int32), np.array([99, 0], np.int32)),
        {"a": np.array([200, 201], np.int64), "b": np.array([0.5, 0.25])},
    )


@fixture(
    "sparse_dups_2d",
    "sparse 2-D int64 dims [1,16] tile 4, allows_duplicates, attr v int32; "
    "2 fragments t1,t2 with duplicate coords inside and across fragments",
    core=False,
)
def _sparse_dups(uri):
    d = tiledb.Domain(dim("x", (1, 16), 4, np.int64), dim("y", (1, 16), 4, np.int64))
    create(
        uri,
        tiledb.ArraySchema(
            domain=d, sparse=True, allows_duplicates=True, attrs=[attr("v", np.int32)]
        ),
    )
    write_sparse(
        uri,
        1,
        (np.array([1, 1, 3, 3, 16], np.int64), np.array([1, 1, 4, 4, 16], np.int64)),
        {"v": np.array([1, 2, 3, 4, 5], np.int32)},
    )
    write_sparse(
        uri,
        2,
        (np.array([1, 8], np.int64), np.array([1, 9], np.int64)),
        {"v": np.array([6, 7], np.int32)},
    )


@fixture(
    "sparse_float_dims",
    "sparse 2-D float64 dims [-10,10] tile 5 + float32 dim, col-major cell/tile order, "
    "attr v uint8; 2 fragments",
    core=False,
)
def _sparse_float_dims(uri):
    d = tiledb.Domain(
        dim("x", (-10.0, 10.0), 5.0, np.float64),
        dim("y", (0.0, 1.0), 0.5, np.float32),
    )
    create(
        uri,
        tiledb.ArraySchema(
            domain=d,
            sparse=True,
            cell_order="col-major",
            tile_order="col-major",
            attrs=[attr("v", np.uint8)],
        ),
    )
    write_sparse(
        uri,
        1,
        (np.array([-9.5, -0.25, 0.0, 3.75, 10.0]), np.array([0.0, 0.5, 0.25, 1.0, 0.75], np.float32)),
        {"v": u8(1, 2, 3, 4, 5)},
    )
    write_sparse(
        uri,
        2,
        (np.array([-10.0, 7.5]), np.array([1.0, 0.125], np.float32)),
        {"v": u8(250, 251)},
    )


@fixture(
    "sparse_hilbert",
    "sparse 2-D uint16 dims [0,1023] tile 64, Hilbert cell order, "
    "capacity 8, attr a int32; 2 fragments",
    core=False,
)
def _sparse_hilbert(uri):
    d = tiledb.Domain(dim("x", (0, 1023), 64, np.uint16), dim("y", (0, 1023), 64, np.uint16))
    create(
        uri,
        tiledb.ArraySchema(
            domain=d, sparse=True, cell_order="hilbert", capacity=8, attrs=[attr("a", np.int32)]
        ),
    )
    r = rng(3)
    x = r.integers(0, 1024, 20).astype(np.uint16)
    y = r.integers(0, 1024, 20).astype(np.uint16)
    # drop duplicate coordinates (no-dups array)
    _, idx = np.unique(np.stack([x, y]), axis=1, return_index=True)
    idx.sort()
    x, y = x[idx], y[idx]
    write_sparse(uri, 1, (x, y), {"a": np.arange(len(x), dtype=np.int32)})
    write_sparse(
        uri,
        2,
        (np.array([0, 1023, 512], np.uint16), np.array([0, 1023, 511], np.uint16)),
        {"a": np.array([-1, -2, -3], np.int32)},
    )


@fixture(
    "sparse_strdim",
    "sparse 2-D: string dim s (ascii, var) + int32 dim i [0,99] tile 10, attrs "
    "v float32, t utf8 var; 2 fragments",
)
def _sparse_strdim(uri):
    d = tiledb.Domain(
        tiledb.Dim(name="s", domain=(None, None), tile=None, dtype="ascii"),
        dim("i", (0, 99), 10, np.int32),
    )
    create(
        uri,
        tiledb.ArraySchema(
            domain=d, sparse=True, attrs=[attr("v", np.float32), attr("t", str)]
        ),
    )
    s = np.array([b"apple", b"b", b"banana", b"cherry", b"", b"zz"], "O")
    i = np.array([1, 2, 3, 4, 5, 99], np.int32)
    write_sparse(
        uri,
        1,
        (s, i),
        {
            "v": np.arange(6, dtype=np.float32) / 2,
            "t": np.array(["α", "β", "γ", "", "ε", "ζz"], "O"),
        },
    )
    write_sparse(
        uri,
        2,
        (np.array([b"aardvark", b"cherry"], "O"), np.array([0, 4], np.int32)),
        {"v": np.array([-1, -2], np.float32), "t": np.array(["new", "upd"], "O")},
    )


@fixture(
    "sparse_datetime_dim",
    "sparse 1-D datetime64[D] dim [2020-01-01, 2030-12-31] tile 30 days, attr v int16; 1 fragment",
    core=False,
)
def _sparse_datetime_dim(uri):
    d = tiledb.Domain(
        tiledb.Dim(
            name="day",
            domain=(np.datetime64("2020-01-01"), np.datetime64("2030-12-31")),
            tile=np.timedelta64(30, "D"),
            dtype="datetime64[D]",
        )
    )
    create(uri, tiledb.ArraySchema(domain=d, sparse=True, attrs=[attr("v", np.int16)]))
    days = np.array(["2020-01-01", "2021-06-15", "2024-02-29", "2030-12-31"], "datetime64[D]")
    write_sparse(uri, 1, (days,), {"v": np.array([1, -2, 3, -4], np.int16)})


@fixture(
    "sparse_delete",
    "sparse 1-D int32 dim [0,19], attr a int32; t1 writes a=0..9, t2 writes a=10..14, "
    "t3 delete condition 'a < 5' (delete commit in __commits)",
)
def _sparse_delete(uri):
    d = tiledb.Domain(dim("d", (0, 19), 5, np.int32))
    create(uri, tiledb.ArraySchema(domain=d, sparse=True, attrs=[attr("a", np.int32)]))
    write_sparse(uri, 1, (np.arange(10, dtype=np.int32),), {"a": np.arange(10, dtype=np.int32)})
    write_sparse(
        uri, 2, (np.arange(10, 15, dtype=np.int32),), {"a": np.arange(10, 15, dtype=np.int32)}
    )
    with tiledb.open(uri, "d", timestamp=3) as A:
        A.query(cond="a < 5").submit()


# ---------------------------- datatypes -----------------------------------


@fixture(
    "types_numeric",
    "dense 1-D uint64 dim [0,7] tile 4, one attr per numeric type int8..uint64, "
    "float32/64, bool; explicit fills on some (i64 -2^62, u64 2^63+1, f32 -inf, b true); "
    "1 fragment t1 writing [0,5] (incl. integer min/max)",
)
def _types_numeric(uri):
    d = tiledb.Domain(dim("d", (0, 7), 4, np.uint64))
    spec = [
        ("i8", np.int8, -8),
        ("u8", np.uint8, 8),
        ("i16", np.int16, None),
        ("u16", np.uint16, None),
        ("i32", np.int32, -32),
        ("u32", np.uint32, None),
        ("i64", np.int64, -(2**62)),
        ("u64", np.uint64, 2**63 + 1),
        ("f32", np.float32, -np.inf),
        ("f64", np.float64, None),
        ("b", np.bool_, True),
    ]
    attrs = []
    for n, t, f in spec:
        attrs.append(attr(n, t, fill=f) if f is not None else attr(n, t))
    create(uri, tiledb.ArraySchema(domain=d, attrs=attrs))

    def vals(t):
        # 8 values per type, including the extremes of integer types
        if t is np.bool_:
            return np.array([True, False] * 4)
        if np.issubdtype(t, np.integer):
            info = np.iinfo(t)
            return np.array([int(info.min), int(info.max), 0, 1, 2, 3, 4, 5], dtype=t)
        return np.array([-0.0, np.nan, 1.5, np.inf, 1e30, -1e-30, 3.0, 7.0], dtype=t)

    # cells 6, 7 are never written: they read as the fill values
    write_dense(uri, 1, slice(0, 6), {n: vals(t)[:6] for n, t, _ in spec})


@fixture(
    "types_strings",
    "sparse 1-D int32 dim [0,9], attrs c char var ('S0'), a ascii var, u utf8 var, "
    "f3 fixed char cell_val_num 3, bl blob; fills set on c, u, f3; 1 fragment",
)
def _types_strings(uri):
    d = tiledb.Domain(dim("d", (0, 9), 10, np.int32))
    attrs = [
        attr("c", np.bytes_, fill=b"<c>"),
        attr("a", "ascii"),
        attr("u", str, fill="∅"),
        attr("f3", "S3", fill=b"abc"),
    ]
    blob_var = True
    try:
        attrs.append(attr("bl", "blob", var=True))
    except Exception:
        blob_var = False
        attrs.append(attr("bl", "blob"))
    create(uri, tiledb.ArraySchema(domain=d, sparse=True, attrs=attrs))
    coords = np.array([0, 3, 5, 9], np.int32)
    data = {
        "c": np.array([b"hello", b"", b"x", b"\x00\x01"], "O"),
        "a": np.array([b"ascii", b"A", b"", b"zzz"], "O"),
        "u": np.array(["héllo", "日本語", "", "🙂"], "O"),
        "f3": np.array([b"foo", b"bar", b"baz", b"\x00\x01\x02"], "S3"),
    }
    if blob_var:
        data["bl"] = np.array([b"\x00\xff", b"", b"\x01\x02\x03\x04", b"B"], "O")
    else:
        data["bl"] = np.array([b"\x00", b"\xff", b"\x7f", b"B"], "S1")
    write_sparse(uri, 1, (coords,), data)


def _probed_dense_1d(uri, ncells, tile, nwrite, spec):
    """Dense 1-D int32 dim [0,ncells-1]; attributes from spec [(name, make_attr, data)]
    that this engine supports (probed); one fragment t1 writing cells [0,nwrite-1]."""
    attrs, data, made = [], {}, []
    for name, make, values in spec:
        if not usable(make, values):
            continue
        attrs.append(make())
        data[name] = values
        made.append(name)
    need(attrs, "no attribute of this group is supported")
    d = tiledb.Domain(dim("d", (0, ncells - 1), tile, np.int32))
    create(uri, tiledb.ArraySchema(domain=d, attrs=attrs))
    write_dense(uri, 1, slice(0, nwrite), data)
    return "attributes present: " + ", ".join(made)


@fixture(
    "types_datetime",
    "dense 1-D int32 dim [0,3], attrs dt_day M8[D] (fill -1), dt_ns M8[ns], dt_ms M8[ms], "
    "dt_year M8[Y], dt_sec M8[s], tm_ms m8[ms] (TIME_MS, fill -1), tm_ns m8[ns] where "
    "supported; 1 fragment [0,2] (cell 3 = fill)",
    core=False,
)
def _types_datetime(uri):
    spec = []
    for n, t in [
        ("dt_day", "M8[D]"),
        ("dt_ns", "M8[ns]"),
        ("dt_ms", "M8[ms]"),
        ("dt_year", "M8[Y]"),
        ("dt_sec", "M8[s]"),
        ("tm_ms", "m8[ms]"),
        ("tm_ns", "m8[ns]"),
    ]:
        if t in ("M8[D]", "M8[Y]"):
            base = np.array([0, 1, -1], dtype=np.int64)
        else:
            base = np.array([0, 1, 1_600_000_000], dtype=np.int64)
        kw = {"fill": np.array(-1).astype(t)} if n in ("dt_day", "tm_ms") else {}
        spec.append((n, lambda n=n, t=t, kw=kw: attr(n, t, **kw), base.astype(t)))
    return _probed_dense_1d(uri, 4, 4, 3, spec)


@fixture(
    "types_multival",
    "dense 1-D int32 dim [0,3], fixed multi-valued attrs: t3 int32 x3 (fill [1,2,3]), "
    "c128 complex128 (FLOAT64 x2), c64 'f4,f4' (FLOAT32 x2), s3 char x3 ('S3', fill 'xyz'); "
    "1 fragment [0,2] (cell 3 = fill)",
)
def _types_multival(uri):
    t3 = np.dtype("i4, i4, i4")
    spec = [
        (
            "t3",
            lambda: attr("t3", t3, fill=np.array((1, 2, 3), dtype=t3)),
            np.array([(10, 11, 12), (20, 21, 22), (30, 31, 32)], dtype=t3),
        ),
        ("c128", lambda: attr("c128", np.complex128), np.array([1 + 2j, -3.5j, 4.0])),
        (
            "c64",
            lambda: attr("c64", np.dtype("f4, f4")),
            np.array([1 + 2j, 3 + 4j, 5 - 6j], dtype=np.complex64),
        ),
        ("s3", lambda: attr("s3", "S3", fill=b"xyz"), np.array([b"abc", b"de", b"\x00gh"], "S3")),
    ]
    return _probed_dense_1d(uri, 4, 4, 3, spec)


@fixture(
    "nullable_var_sparse",
    "sparse 1-D int64 dim [0,99] tile 10, nullable attrs n int32, f float64 (fill -1.0), "
    "s utf8 var, a ascii var; non-nullable var bytes (CHAR) v; 1 fragment of 6 cells",
)
def _nullable_var_sparse(uri):
    d = tiledb.Domain(dim("d", (0, 99), 10, np.int64))
    create(
        uri,
        tiledb.ArraySchema(
            domain=d,
            sparse=True,
            attrs=[
                attr("n", np.int32, nullable=True),
                attr("f", np.float64, nullable=True, fill=-1.0),
                attr("s", str, nullable=True),
                attr("a", "ascii", nullable=True),
                attr("v", np.bytes_),
            ],
        ),
    )
    c = np.array([0, 10, 20, 30, 40, 50], np.int64)
    write_sparse(
        uri,
        1,
        (c,),
        {
            "n": np.arange(6, dtype=np.int32),
            "f": np.array([0.5, 1.5, 2.5, 3.5, 4.5, 5.5]),
            "s": np.array(["a", "", "ccc", "dd", "e", "ƒ"], "O"),
            "a": np.array([b"A", b"BB", b"", b"D", b"EEEE", b"F"], "O"),
            "v": np.array([b"v0", b"", b"v2", b"v33", b"v4", b""], "O"),
        },
        {
            "n": u8(1, 0, 1, 0, 1, 1),
            "f": u8(0, 1, 1, 1, 0, 1),
            "s": u8(1, 1, 0, 1, 1, 0),
            "a": u8(1, 1, 1, 0, 1, 1),
        },
    )


# ---------------------------- filters -------------------------------------

N_FILTER = 64


def _filter_data(kind):
    r = rng(7)
    if kind == "int_runs":
        return np.repeat(np.array([3, 3, 7, -1, 0, 12, 12, 5], np.int32), 8)
    if kind == "int_mono":
        return np.cumsum(r.integers(0, 20, N_FILTER)).astype(np.int64) + 1000
    if kind == "int_small":
        return r.integers(0, 100, N_FILTER).astype(np.int32)
    if kind == "uint_small":
        return r.integers(0, 300, N_FILTER).astype(np.uint32)
    if kind == "float":
        return np.round(r.normal(50.0, 10.0, N_FILTER), 3)
    if kind == "float32":
        return r.normal(0.0, 1.0, N_FILTER).astype(np.float32)
    if kind == "str":
        words = ["alpha", "beta", "gamma", "", "delta", "beta", "alpha", "\u03c9"]
        return np.array([words[i % len(words)] for i in range(N_FILTER)], "O")
    if kind == "ascii":
        return np.array([b"run" if i % 16 < 10 else b"x%d" % i for i in range(N_FILTER)], "O")
    raise ValueError(kind)


def _filter_array(uri, spec):
    """Dense 1-D [0,63] tile 16, one attribute per (name, filters-factory, dtype, data-kind)
    whose filters this TileDB-Py can build; returns the list of attributes made."""
    attrs, data, made = [], {}, []
    for name, make, dtype, kind in spec:
        mk = lambda: attr(name, dtype, filters=tiledb.FilterList(make()))  # noqa: E731
        if not usable(mk, _filter_data(kind)):
            continue  # filter (or option, or filter on this type) not supported here
        attrs.append(mk())
        data[name] = _filter_data(kind)
        made.append(name)
    need(attrs, "no filter of this group is available")
    d = tiledb.Domain(dim("d", (0, N_FILTER - 1), 16, np.int32))
    create(uri, tiledb.ArraySchema(domain=d, attrs=attrs))
    write_dense(uri, 1, slice(0, N_FILTER), data)
    return "attributes present: " + ", ".join(made)


def _delta_reinterp():
    need(PY_VERSION >= (0, 29, 0), "reinterp_dtype option needs TileDB-Py >= 0.29")
    return [filt("DoubleDeltaFilter", reinterp_dtype=np.int64), filt("ZstdFilter", level=2)]


@fixture(
    "filters_compressors",
    "dense 1-D int32 dim [0,63] tile 16 (4 tiles), 1 fragment; one int32 attribute per "
    "compressor: zstd7=ZSTD(7), gzip6=GZIP(6), lz4=LZ4, bzip2=BZIP2(9), rle=RLE (runs of 8)",
)
def _filters_compressors(uri):
    return _filter_array(
        uri,
        [
            ("zstd7", lambda: [filt("ZstdFilter", level=7)], np.int32, "int_small"),
            ("gzip6", lambda: [filt("GzipFilter", level=6)], np.int32, "int_small"),
            ("lz4", lambda: [filt("LZ4Filter")], np.int32, "int_small"),
            ("bzip2", lambda: [filt("Bzip2Filter", level=9)], np.int32, "int_small"),
            ("rle", lambda: [filt("RleFilter")], np.int32, "int_runs"),
        ],
    )


@fixture(
    "filters_transforms",
    "dense 1-D int32 dim [0,63] tile 16, 1 fragment; one attribute per pipeline: "
    "byteshuffle_zstd (f64: BYTESHUFFLE+ZSTD(3)), bitshuffle_lz4 (u32: BITSHUFFLE+LZ4(1)), "
    "delta_zstd (i64: DELTA+ZSTD), double_delta (i64: DOUBLE_DELTA), "
    "bit_width_reduction (i32: BIT_WIDTH_REDUCTION(window 32)), positive_delta (i64: "
    "POSITIVE_DELTA(window 16)), checksums (i32: CHECKSUM_MD5+CHECKSUM_SHA256), "
    "float_scale (f64: SCALE_FLOAT(factor 0.001, offset 50, bytewidth 4)), "
    "xor_zstd (f32: XOR+ZSTD), double_delta_reinterp (f64: DOUBLE_DELTA(reinterpret INT64)+ZSTD(2))",
)
def _filters_transforms(uri):
    return _filter_array(
        uri,
        [
            ("byteshuffle_zstd", lambda: [filt("ByteShuffleFilter"), filt("ZstdFilter", level=3)], np.float64, "float"),
            ("bitshuffle_lz4", lambda: [filt("BitShuffleFilter"), filt("LZ4Filter", level=1)], np.uint32, "uint_small"),
            ("delta_zstd", lambda: [filt("DeltaFilter"), filt("ZstdFilter")], np.int64, "int_mono"),
            ("double_delta", lambda: [filt("DoubleDeltaFilter")], np.int64, "int_mono"),
            ("bit_width_reduction", lambda: [filt("BitWidthReductionFilter", window=32)], np.int32, "int_small"),
            ("positive_delta", lambda: [filt("PositiveDeltaFilter", window=16)], np.int64, "int_mono"),
            ("checksums", lambda: [filt("ChecksumMD5Filter"), filt("ChecksumSHA256Filter")], np.int32, "int_small"),
            ("float_scale", lambda: [filt("FloatScaleFilter", 0.001, 50.0, 4)], np.float64, "float"),
            ("xor_zstd", lambda: [filt("XORFilter"), filt("ZstdFilter")], np.float32, "float32"),
            ("double_delta_reinterp", _delta_reinterp, np.float64, "float"),
        ],
    )


@fixture(
    "filters_strings",
    "dense 1-D int32 dim [0,63] tile 16, 1 fragment; var string attributes: dict_utf8 "
    "(utf8: DICTIONARY+ZSTD(1)), rle_utf8 (utf8: RLE), dict_ascii (ascii: DICTIONARY), "
    "zstd_ascii (ascii: ZSTD(5))",
)
def _filters_strings(uri):
    return _filter_array(
        uri,
        [
            ("dict_utf8", lambda: [filt("DictionaryFilter"), filt("ZstdFilter", level=1)], str, "str"),
            ("rle_utf8", lambda: [filt("RleFilter")], str, "str"),
            ("dict_ascii", lambda: [filt("DictionaryFilter")], "ascii", "ascii"),
            ("zstd_ascii", lambda: [filt("ZstdFilter", level=5)], "ascii", "ascii"),
        ],
    )


@fixture(
    "filters_dims_offsets_validity",
    "sparse 2-D: dim r int64 with DOUBLE_DELTA, dim c int32 with no filters of its own, "
    "offsets_filters POSITIVE_DELTA+ZSTD, validity_filters RLE; attrs s utf8 var nullable "
    "with GZIP, n int16 nullable with BIT_WIDTH_REDUCTION+LZ4; 1 fragment",
)
def _filters_mixed(uri):
    d = tiledb.Domain(
        dim("r", (0, 999), 100, np.int64, filters=tiledb.FilterList([filt("DoubleDeltaFilter")])),
        dim("c", (0, 999), 100, np.int32),
    )
    schema = tiledb.ArraySchema(
        domain=d,
        sparse=True,
        offsets_filters=tiledb.FilterList([filt("PositiveDeltaFilter"), filt("ZstdFilter")]),
        validity_filters=tiledb.FilterList([filt("RleFilter")]),
        attrs=[
            attr("s", str, nullable=True, filters=tiledb.FilterList([filt("GzipFilter")])),
            attr(
                "n",
                np.int16,
                nullable=True,
                filters=tiledb.FilterList([filt("BitWidthReductionFilter"), filt("LZ4Filter")]),
            ),
        ],
    )
    # TileDB-Py's coords_filters= argument rewrites every dimension's filters and
    # leaves the schema's coords filter list empty; set the list directly instead.
    try:
        schema._coords_filters = tiledb.FilterList([filt("ZstdFilter", level=4)])
        note = "coords_filters ZSTD(4) (apply to dim c)"
    except Exception:
        note = "coords_filters left at the default ZSTD (apply to dim c)"
    create(uri, schema)
    n = 40
    r = np.arange(n, dtype=np.int64) * 7
    c = ((np.arange(n) * 37) % 1000).astype(np.int32)
    s = np.array([("s%d" % i) * (i % 4) for i in range(n)], "O")
    write_sparse(
        uri,
        1,
        (r, c),
        {"s": s, "n": (np.arange(n) - 20).astype(np.int16)},
        {"s": (np.arange(n) % 5 != 0).astype(np.uint8), "n": (np.arange(n) % 3 != 0).astype(np.uint8)},
    )
    return note


@fixture(
    "filter_webp",
    "dense 2-D uint8 (y [0,3] tile 4 x x [0,11] tile 12) RGB image attr with WEBP lossless",
    core=False,
)
def _filter_webp(uri):
    W = filt(
        "WebpFilter",
        # TileDB-Py >= 0.30 wants the enum, older ones the C value (TILEDB_WEBP_RGB = 1)
        input_format=getattr(getattr(tiledb.WebpFilter, "WebpInputFormat", None), "WEBP_RGB", 1),
        quality=100.0,
        lossless=True,
    )
    d = tiledb.Domain(dim("y", (0, 3), 4, np.uint32), dim("x", (0, 11), 12, np.uint32))
    create(uri, tiledb.ArraySchema(domain=d, attrs=[attr("rgb", np.uint8, filters=[W])]))
    img = (np.arange(48).reshape(4, 12) * 5).astype(np.uint8)
    write_dense(uri, 1, (slice(0, 4), slice(0, 12)), {"rgb": img})


# ---------------------------- multi-chunk tiles ---------------------------
#
# The engine filters a tile in chunks: fixed-size tiles in pieces of
# min(tile size, 64 KiB) rounded down to whole cells; var-size data tiles in
# runs of whole cells (a cell that takes the chunk past 64 KiB joins it, and
# ends it, if the chunk held at most 50% or stays within 150%; otherwise the
# chunk ends before the cell, which gets a chunk of its own if > 64 KiB),
# except var strings with RLE or DICTIONARY: one chunk per tile.  These
# fixtures have tiles of 40 000-50 000 cells, so every pipeline runs over
# several chunks.  The data is seeded and made of short repeated blocks plus
# slow trends, so the compressed files stay small.  POSITIVE_DELTA does not
# compress (alone it would write 400 KB), so it is followed by LZ4 here.

N_CHUNKED = 50_000
ZL = 19  # explicit ZSTD level: TileDB's default (-1) is zstd's fast mode, which
# barely compresses these repeating blocks


def _periodic(seed, period, lo, hi, n=N_CHUNKED):
    """`period` seeded random integers in [lo, hi), repeated to length n."""
    return np.resize(rng(seed).integers(lo, hi, period), n)


def _steps(every, n=N_CHUNKED):
    """Slow trend 0,0,..,1,1,.. changing every `every` cells."""
    return np.arange(n, dtype=np.int64) // every


def _runs(seed, values, lo, hi, n=N_CHUNKED):
    """Runs of values[k % len(values)] with seeded lengths in [lo, hi)."""
    lengths = rng(seed).integers(lo, hi, n // lo + 1)
    idx = np.repeat(np.arange(len(lengths)), lengths)[:n]
    return np.array([values[k % len(values)] for k in range(len(lengths))], dtype=object)[idx]


# Big cells of the zstd_utf8 string attribute: {cell: byte length}, placed
# (by replaying the engine's rule on the data) so that every branch of the
# var-size chunking is taken.  Engine chunks: ... 65539, 110064 (cell 2126 came
# while the chunk held 10064 B < 50%: it joins, chunk > 150%), ..., 48315 (cell
# 9000 came at 48315 B > 50% and would pass 150%: a new chunk starts with it),
# 65675, ..., 36161, 80000 (cell 21235, > 64 KiB, at 36161 B > 50%: a chunk of
# its own), ...; the small cells close chunks just past 64 KiB.
CHUNKED_BIG_CELLS = {2_126: 100_000, 9_000: 60_000, 21_235: 80_000}


def _chunked_strings():
    """UTF-8 strings of 0..315 bytes (mostly short) plus CHUNKED_BIG_CELLS."""
    text = "TileDB chunk \u00fcn\u00efc\u00f6d\u00e9 \u03b1\u03b2\u03b3 \u65e5\u672c " * 12
    # lengths in characters (1-3 bytes each); one block of 307 cells repeated
    lengths = _periodic(22, 307, 0, 12)
    long = _periodic(23, 307, 0, 10) == 0
    lengths[long] = _periodic(24, 307, 100, 230)[long]
    starts = _periodic(25, 307, 0, 40)
    out = []
    for i in range(N_CHUNKED):
        s = text[starts[i] : starts[i] + lengths[i]]
        big = CHUNKED_BIG_CELLS.get(i)
        if big is not None:
            unit = ("big%d-" % i).encode()
            s = (unit * (big // len(unit) + 1))[:big].decode()
        out.append(s)
    return np.array(out, dtype=object)


def _chunked_data(kind):
    n = N_CHUNKED
    i = np.arange(n, dtype=np.int64)
    if kind == "mono64":  # non-decreasing, periodic small increments
        return (10**6 + np.cumsum(_periodic(11, 256, 0, 8))).astype(np.int64)
    if kind == "mono64big":  # non-decreasing, periodic 20-bit increments
        return np.cumsum(_periodic(32, 64, 0, 1 << 20)).astype(np.int64) - 2**40
    if kind == "dd64":  # slope 1, with a noisy stretch (cells 20000..21999)
        x = i - 3000
        x[20_000:22_000] += _periodic(12, 61, 0, 2, 2_000)
        return x.astype(np.int64)
    if kind == "bwr32":  # 8-bit windows; 16-bit in cells 33000..33999, 32-bit (raw) in 36000..36999
        x = 100 + _periodic(13, 64, 0, 50) + 3 * _steps(4096)
        x[33_000:34_000] += 1000 * _periodic(26, 7, 0, 2, 1_000)
        x[36_000:37_000] += 100_000 * _periodic(27, 11, 0, 2, 1_000)
        return x.astype(np.int32)
    if kind == "float64":
        return (64 * _steps(4096) + _periodic(14, 64, -40, 40)) / 4.0
    if kind == "u32small":
        return (_periodic(15, 256, 0, 64) + _steps(4096)).astype(np.uint32)
    if kind == "runs32":
        return _runs(16, list(rng(27).integers(-1000, 1000, 29)), 50, 300).astype(np.int32)
    if kind == "float32":
        return ((16 * _steps(4096) + _periodic(17, 64, -100, 100)) / 16.0).astype(np.float32)
    if kind == "int32":
        return (5 * _steps(4096) + _periodic(18, 64, -500, 500)).astype(np.int32)
    if kind == "runs32b":
        return _runs(33, list(rng(34).integers(-(10**6), 10**6, 31)), 20, 200).astype(np.int32)
    if kind == "scaled":  # multiples of 0.01 that fit 16 bits after scaling
        return (100 * _steps(4096) + _periodic(19, 64, -3000, 3000)) * 0.01
    if kind == "triple":
        t3 = np.dtype("i4, i4, i4")
        a = _periodic(29, 32, 0, 1000)
        return np.array(list(zip(a, a + _steps(4096), -a)), dtype=t3)
    if kind == "nullable32":
        return (i % 128 - 64).astype(np.int32)
    if kind == "validity":  # 1 = valid: seeded runs of 1..199 cells, all null in 40000..40999
        v = _runs(35, [1, 0, 1], 1, 200).astype(np.uint8)
        v[40_000:41_000] = 0
        return v
    if kind == "dict_utf8":
        words = ["alpha", "beta", "", "\u03b3\u03ac\u03bc\u03bc\u03b1", "delta", "\u65e5\u672c", "epsilon-long-word"]
        return _runs(30, words, 1, 40)
    if kind == "rle_ascii":
        return _runs(31, [b"run", b"", b"x", b"longer-run-value", b"AAAA", b"b"], 20, 400)
    if kind == "zstd_utf8":
        return _chunked_strings()
    raise ValueError(kind)


@fixture(
    "filters_chunked",
    "dense 1-D int32 dim d [0,49999] with ONE tile of 50000 cells; 1 fragment t1 writing "
    "every cell. Unfiltered tiles are 200 KB-600 KB, so each pipeline runs over several "
    "chunks (fixed: 64 KiB of whole cells; var data: whole cells, the engine's 50%/150% "
    "rule; var strings with RLE or DICTIONARY: one chunk for the whole tile). "
    "offsets_filters POSITIVE_DELTA+ZSTD(19), validity_filters RLE (default). ZSTD is level "
    "19 throughout. Attributes (one per pipeline): delta_zstd i64 DELTA+ZSTD; double_delta "
    "i64 DOUBLE_DELTA (slope 1, noise in cells 20000-21999); bit_width_reduction i32 "
    "BIT_WIDTH_REDUCTION (8-bit windows, 16-bit in 33000-33999, 32-bit = stored raw in "
    "36000-36999); positive_delta i64 POSITIVE_DELTA+LZ4; byteshuffle_zstd f64 "
    "BYTESHUFFLE+ZSTD; bitshuffle_lz4 u32 BITSHUFFLE+LZ4; rle i32 RLE (runs of 50-299); "
    "xor_zstd f32 XOR+ZSTD; checksums_gzip i32 CHECKSUM_MD5+CHECKSUM_SHA256+GZIP(9); "
    "float_scale_zstd f64 SCALE_FLOAT(scale 0.01, offset 0, byte width 2)+ZSTD (values are "
    "multiples of 0.01); bzip2 i32 BZIP2 (runs); triple_zstd 'i4,i4,i4' (12-byte cells, "
    "chunks of 65532 B) ZSTD; dict_utf8 utf8 var, 7 distinct values, DICTIONARY+ZSTD; "
    "rle_ascii ascii var runs, RLE; zstd_utf8 utf8 var of 0-315 B plus cells 2126, 9000, "
    "21235 of 100000, 60000, 80000 B (31 data chunks of 36161-110064 B), ZSTD; nullable i32 "
    "nullable ZSTD, nulls in seeded runs and in cells 40000-40999",
)
def _filters_chunked(uri):
    F = filt
    spec = [
        ("delta_zstd", lambda: [F("DeltaFilter"), F("ZstdFilter", level=ZL)], np.int64, "mono64"),
        ("double_delta", lambda: [F("DoubleDeltaFilter")], np.int64, "dd64"),
        ("bit_width_reduction", lambda: [F("BitWidthReductionFilter")], np.int32, "bwr32"),
        ("positive_delta", lambda: [F("PositiveDeltaFilter"), F("LZ4Filter")], np.int64, "mono64big"),
        ("byteshuffle_zstd", lambda: [F("ByteShuffleFilter"), F("ZstdFilter", level=ZL)], np.float64, "float64"),
        ("bitshuffle_lz4", lambda: [F("BitShuffleFilter"), F("LZ4Filter")], np.uint32, "u32small"),
        ("rle", lambda: [F("RleFilter")], np.int32, "runs32"),
        ("xor_zstd", lambda: [F("XORFilter"), F("ZstdFilter", level=ZL)], np.float32, "float32"),
        (
            "checksums_gzip",
            lambda: [F("ChecksumMD5Filter"), F("ChecksumSHA256Filter"), F("GzipFilter", level=9)],
            np.int32,
            "int32",
        ),
        (
            "float_scale_zstd",
            lambda: [F("FloatScaleFilter", 0.01, 0.0, 2), F("ZstdFilter", level=ZL)],
            np.float64,
            "scaled",
        ),
        ("bzip2", lambda: [F("Bzip2Filter")], np.int32, "runs32b"),
        ("triple_zstd", lambda: [F("ZstdFilter", level=ZL)], np.dtype("i4, i4, i4"), "triple"),
        ("dict_utf8", lambda: [F("DictionaryFilter"), F("ZstdFilter", level=ZL)], str, "dict_utf8"),
        ("rle_ascii", lambda: [F("RleFilter")], "ascii", "rle_ascii"),
        ("zstd_utf8", lambda: [F("ZstdFilter", level=ZL)], str, "zstd_utf8"),
    ]
    attrs, data, made = [], {}, []
    for name, make, dtype, kind in spec:
        try:
            mk = lambda: attr(name, dtype, filters=tiledb.FilterList(make()))  # noqa: E731
            mk()
        except Unsupported:
            continue
        values = _chunked_data(kind)
        if not usable(mk, values):
            continue  # filter (or filter on this type) not supported by this engine
        attrs.append(mk())
        data[name] = values
        made.append(name)
    attrs.append(
        attr("nullable", np.int32, nullable=True, filters=tiledb.FilterList([F("ZstdFilter", level=ZL)]))
    )
    data["nullable"] = _chunked_data("nullable32")
    valid = _chunked_data("validity")
    made.append("nullable")
    d = tiledb.Domain(dim("d", (0, N_CHUNKED - 1), N_CHUNKED, np.int32))
    create(
        uri,
        tiledb.ArraySchema(
            domain=d,
            attrs=attrs,
            offsets_filters=tiledb.FilterList([F("PositiveDeltaFilter"), F("ZstdFilter", level=ZL)]),
        ),
    )
    write_dense(uri, 1, slice(0, N_CHUNKED), data, {"nullable": valid})
    return "attributes present: " + ", ".join(made)


@fixture(
    "sparse_chunked",
    "sparse 2-D int64 dims r [0,999] tile 100 (DOUBLE_DELTA) x c [0,999] tile 100 "
    "(BYTESHUFFLE+LZ4), capacity 40000; 1 fragment t1 of 40000 cells (rows 0-799, 50 of the "
    "columns 0-99 in each row, written in reverse order) = one data tile of 40000 cells "
    "(320 KB per dim/fixed tile: 5 chunks); offsets_filters POSITIVE_DELTA+ZSTD(19); attrs v "
    "float64 ZSTD(19), s utf8 var (0-84 B) ZSTD(19)",
    formats=(16, 22),
)
def _sparse_chunked(uri):
    n = 40_000
    d = tiledb.Domain(
        dim("r", (0, 999), 100, np.int64, filters=tiledb.FilterList([filt("DoubleDeltaFilter")])),
        dim(
            "c",
            (0, 999),
            100,
            np.int64,
            filters=tiledb.FilterList([filt("ByteShuffleFilter"), filt("LZ4Filter")]),
        ),
    )
    create(
        uri,
        tiledb.ArraySchema(
            domain=d,
            sparse=True,
            capacity=n,
            offsets_filters=tiledb.FilterList([filt("PositiveDeltaFilter"), filt("ZstdFilter", level=ZL)]),
            attrs=[
                attr("v", np.float64, filters=tiledb.FilterList([filt("ZstdFilter", level=ZL)])),
                attr("s", str, filters=tiledb.FilterList([filt("ZstdFilter", level=ZL)])),
            ],
        ),
    )
    # row r holds the 50 columns picked for r % 7 (fixed seeded column sets)
    picks = [np.sort(rng(40 + k).choice(100, 50, replace=False)) for k in range(7)]
    rows = np.repeat(np.arange(800, dtype=np.int64), 50)
    cols = np.concatenate([picks[r % 7] for r in range(800)]).astype(np.int64)
    # written in reverse (the engine sorts into global order)
    rows, cols = rows[::-1].copy(), cols[::-1].copy()
    k = np.arange(n)
    v = (_periodic(41, 113, -64, 64, n) + 16 * (k // 5000)) / 8.0
    words = ["sparse", "", "chunk", "\u00e9t\u00e9", "tile-of-forty-thousand-cells"]
    s = np.array([words[j % 5] * (1 + j % 3) for j in _periodic(42, 89, 0, 15, n)], dtype=object)
    write_sparse(uri, 1, (rows, cols), {"v": v, "s": s})


# ---------------------------- consolidation -------------------------------


def _three_frag_dense(uri):
    d = tiledb.Domain(dim("d", (0, 11), 4, np.int32))
    create(uri, tiledb.ArraySchema(domain=d, attrs=[attr("a", np.int32, fill=-9)]))
    write_dense(uri, 1, slice(0, 12), {"a": np.arange(12, dtype=np.int32)})
    write_dense(uri, 2, slice(2, 6), {"a": np.array([20, 30, 40, 50], np.int32)})
    write_dense(uri, 3, slice(8, 10), {"a": np.array([80, 90], np.int32)})


def _three_frag_sparse(uri):
    d = tiledb.Domain(dim("d", (0, 99), 10, np.int32))
    create(uri, tiledb.ArraySchema(domain=d, sparse=True, attrs=[attr("a", np.int32), attr("s", str)]))
    write_sparse(uri, 1, (np.array([1, 2, 3], np.int32),), {"a": np.array([1, 2, 3], np.int32), "s": np.array(["a", "b", "c"], "O")})
    write_sparse(uri, 2, (np.array([2, 50], np.int32),), {"a": np.array([20, 500], np.int32), "s": np.array(["B", "fifty"], "O")})
    write_sparse(uri, 3, (np.array([99], np.int32),), {"a": np.array([990], np.int32), "s": np.array([""], "O")})


@fixture(
    "consolidated_fragments",
    "dense 1-D int32 [0,11]; 3 fragments t1..t3 then fragment consolidation (no vacuum): "
    "old fragments + consolidated __1_3_* fragment + .vac file",
)
def _cons_frag(uri):
    _three_frag_dense(uri)
    tiledb.consolidate(uri, config=tiledb.Config({"sm.consolidation.mode": "fragments"}))


@fixture(
    "consolidated_vacuumed",
    "sparse 1-D int32 [0,99] attrs a int32, s utf8; 3 fragments, consolidated then vacuumed "
    "(one fragment __1_3_* left)",
)
def _cons_vac(uri):
    _three_frag_sparse(uri)
    tiledb.consolidate(uri, config=tiledb.Config({"sm.consolidation.mode": "fragments"}))
    tiledb.vacuum(uri, config=tiledb.Config({"sm.vacuum.mode": "fragments"}))


@fixture(
    "consolidated_fragment_meta",
    "dense 1-D int32 [0,11]; 3 fragments + consolidated fragment metadata "
    "(sm.consolidation.mode=fragment_meta, file in __fragment_meta/)",
)
def _cons_fmeta(uri):
    _three_frag_dense(uri)
    tiledb.consolidate(uri, config=tiledb.Config({"sm.consolidation.mode": "fragment_meta"}))


@fixture(
    "consolidated_commits",
    "sparse 1-D int32 [0,99]; 3 fragments + consolidated commits "
    "(sm.consolidation.mode=commits, .con file in __commits/, .wrt files kept)",
)
def _cons_commits(uri):
    _three_frag_sparse(uri)
    tiledb.consolidate(uri, config=tiledb.Config({"sm.consolidation.mode": "commits"}))


# ---------------------------- metadata ------------------------------------


def _write_metadata(uri):
    d = tiledb.Domain(dim("d", (0, 3), 4, np.int32))
    create(uri, tiledb.ArraySchema(domain=d, attrs=[attr("a", np.int32)]))
    write_dense(uri, 1, slice(0, 4), {"a": np.array([1, 2, 3, 4], np.int32)})
    with tiledb.open(uri, "w", timestamp=1) as A:
        A.meta["int"] = 42
        A.meta["neg_int"] = -7
        A.meta["float"] = 3.25
        A.meta["str"] = "hello, wörld"
        A.meta["bytes"] = b"\x00\x01\xfe\xff"
        A.meta["int_list"] = [1, 2, 3, -4]
        A.meta["float_tuple"] = (0.5, -1.5, 1e100)
        A.meta["to_delete"] = "bye"
        A.meta["overwritten"] = 1
        A.meta["empty_str"] = ""
        for k, v in (("np_int8", np.int8(-3)), ("np_uint16", np.uint16(65535)), ("np_float32", np.float32(1.5))):
            try:
                A.meta[k] = v
            except Exception:
                pass
    with tiledb.open(uri, "w", timestamp=2) as A:
        A.meta["overwritten"] = 2
        A.meta["later"] = [10.0]
    with tiledb.open(uri, "w", timestamp=3) as A:
        del A.meta["to_delete"]


@fixture(
    "array_metadata",
    "dense 1-D array with array metadata written at t1 (int, float, str, bytes, lists, "
    "numpy scalars), t2 (overwrite key 'overwritten', add 'later'), t3 (delete 'to_delete')",
)
def _meta(uri):
    _write_metadata(uri)


@fixture(
    "array_metadata_consolidated",
    "same as array_metadata, then array metadata consolidation "
    "(sm.consolidation.mode=array_meta, no vacuum)",
    core=False,
)
def _meta_cons(uri):
    _write_metadata(uri)
    tiledb.consolidate(uri, config=tiledb.Config({"sm.consolidation.mode": "array_meta"}))


# ---------------------------- schema features -----------------------------


@fixture(
    "enumerations",
    "sparse 1-D int32 [0,9]; attrs color uint8 -> enumeration 'colors' (utf8 var, unordered), "
    "size int16 -> 'sizes' (int16 values, ordered), plain float32 x; 1 fragment",
)
def _enums(uri):
    need(hasattr(tiledb, "Enumeration"), "no tiledb.Enumeration")
    colors = tiledb.Enumeration("colors", False, ["red", "green", "blue", "ünïcode"])
    sizes = tiledb.Enumeration("sizes", True, np.array([10, 20, 40, 80], np.int16))
    d = tiledb.Domain(dim("d", (0, 9), 10, np.int32))
    create(
        uri,
        tiledb.ArraySchema(
            domain=d,
            sparse=True,
            enums=[colors, sizes],
            attrs=[
                attr("color", np.uint8, enum_label="colors"),
                attr("size", np.int16, enum_label="sizes"),
                attr("x", np.float32),
            ],
        ),
    )
    write_sparse(
        uri,
        1,
        (np.array([0, 2, 4, 9], np.int32),),
        {
            "color": u8(0, 1, 2, 3),
            "size": np.array([3, 2, 1, 0], np.int16),
            "x": np.array([0.5, 1.5, 2.5, 3.5], np.float32),
        },
    )


@fixture(
    "dimension_labels",
    "dense 1-D uint64 dim [0,7] with increasing float64 dimension label 'lbl' "
    "(label array stored under __labels/), attr a int32; 1 fragment",
    core=False,
)
def _dim_labels(uri):
    x = tiledb.Dim("x", domain=(0, 7), tile=8, dtype=np.uint64)
    ls = x.create_label_schema(order="increasing", dtype=np.float64)
    d = tiledb.Domain(x)
    schema = tiledb.ArraySchema(domain=d, attrs=[attr("a", np.int32)], dim_labels={0: {"lbl": ls}})
    create(uri, schema)
    with tiledb.open(uri, "w", timestamp=1) as A:
        A[0:8] = {"a": np.arange(8, dtype=np.int32), "lbl": np.linspace(-1.0, 1.0, 8)}


@fixture(
    "schema_evolution",
    "dense 1-D int32 [0,7]; fragment t1 with attr a, then schema evolved (add attr b float64 "
    "fill 0.5, add attr s utf8), fragment t2 writes a,b,s; two schemas in __schema/",
    core=False,
)
def _schema_evo(uri):
    need(hasattr(tiledb, "ArraySchemaEvolution"), "no ArraySchemaEvolution")
    d = tiledb.Domain(dim("d", (0, 7), 4, np.int32))
    create(uri, tiledb.ArraySchema(domain=d, attrs=[attr("a", np.int32)]))
    write_dense(uri, 1, slice(0, 8), {"a": np.arange(8, dtype=np.int32)})
    se = tiledb.ArraySchemaEvolution()
    se.add_attribute(attr("b", np.float64, fill=0.5))
    se.add_attribute(attr("s", str))
    se.array_evolve(uri)
    write_dense(
        uri,
        2,
        slice(4, 8),
        {
            "a": np.array([40, 50, 60, 70], np.int32),
            "b": np.array([4.0, 5.0, 6.0, 7.0]),
            "s": np.array(["four", "five", "", "seven"], "O"),
        },
    )


@fixture(
    "encrypted_aes256gcm",
    "sparse 2-D int32 dims, attrs a int32 + s utf8, encrypted AES-256-GCM with key "
    + ENC_KEY
    + "; 2 fragments and array metadata",
    encrypted_key=ENC_KEY,
    core=False,
)
def _encrypted(uri):
    ctx = tiledb.Ctx(
        tiledb.Config({"sm.encryption_type": "AES_256_GCM", "sm.encryption_key": ENC_KEY})
    )
    d = tiledb.Domain(dim("x", (0, 9), 5, np.int32, ), dim("y", (0, 9), 5, np.int32))
    schema = tiledb.ArraySchema(
        domain=d, sparse=True, attrs=[attr("a", np.int32), attr("s", str)], ctx=ctx
    )
    create(uri, schema, ctx=ctx)
    write_sparse(
        uri,
        1,
        (np.array([0, 1, 9], np.int32), np.array([0, 5, 9], np.int32)),
        {"a": np.array([1, 2, 3], np.int32), "s": np.array(["secret", "", "data"], "O")},
        ctx=ctx,
    )
    write_sparse(
        uri,
        2,
        (np.array([4], np.int32), np.array([4], np.int32)),
        {"a": np.array([44], np.int32), "s": np.array(["four"], "O")},
        ctx=ctx,
    )
    with tiledb.open(uri, "w", timestamp=3, ctx=ctx) as A:
        A.meta["note"] = "encrypted metadata"
        A.meta["n"] = 7


@fixture(
    "group_basic",
    "group with metadata and two member arrays (relative URIs): 'dense' (dense 1-D) "
    "and 'sparse' (sparse 1-D int64), both stored inside the group folder",
    kind="group",
    core=False,
)
def _group(uri):
    tiledb.Group.create(uri)
    da = os.path.join(uri, "dense")
    sa = os.path.join(uri, "sparse")
    create(
        da,
        tiledb.ArraySchema(
            domain=tiledb.Domain(dim("d", (0, 3), 4, np.int32)), attrs=[attr("a", np.float64)]
        ),
    )
    write_dense(da, 1, slice(0, 4), {"a": np.array([0.0, 1.0, 2.0, 3.0])})
    create(
        sa,
        tiledb.ArraySchema(
            domain=tiledb.Domain(dim("d", (0, 99), 10, np.int64)),
            sparse=True,
            attrs=[attr("v", np.int32)],
        ),
    )
    write_sparse(sa, 1, (np.array([5, 50], np.int64),), {"v": np.array([5, 50], np.int32)})
    with tiledb.Group(uri, "w") as G:
        G.add("dense", name="dense", relative=True)
        G.add("sparse", name="sparse", relative=True)
        G.meta["purpose"] = "fixture"
        G.meta["count"] = 2


# --------------------------------------------------------------------------
# driver
# --------------------------------------------------------------------------


def detect_format_version():
    tmp = tempfile.mkdtemp(prefix="tdb_probe_")
    try:
        uri = os.path.join(tmp, "probe")
        d = tiledb.Domain(dim("d", (0, 3), 4, np.int32))
        create(uri, tiledb.ArraySchema(domain=d, attrs=[attr("a", np.int32)]))
        write_dense(uri, 1, slice(0, 4), {"a": np.arange(4, dtype=np.int32)})
        fi = tiledb.FragmentInfoList(uri)
        v = int(fi.version[0])
        name = os.path.basename(fi.uri[0].rstrip("/"))
        assert name.endswith("_%d" % v), (name, v)
        return v
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def prune_empty_dirs(top):
    """Remove empty directories (e.g. __meta/, __labels/ of arrays that have none):
    git does not keep them, so the tree is pruned to exactly what a checkout
    holds.  Every TileDB engine version used here reads the pruned arrays."""
    for root, dirs, files in os.walk(top, topdown=False):
        if root != top and not os.listdir(root):
            os.rmdir(root)


def merge_manifest(old, new, dropped):
    """--only: the old manifest with entries named in `dropped` removed, each
    entry of `new` replacing the old entry of that name in place, or appended."""
    byname = {m["name"]: m for m in new}
    out, seen = [], set()
    for m in old:
        if m["name"] in seen or m["name"] in dropped:
            continue
        seen.add(m["name"])
        out.append(byname.get(m["name"], m))
    out += [m for m in new if m["name"] not in seen]
    return out


def main(argv):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("outdir")
    ap.add_argument(
        "--only",
        default=None,
        metavar="NAME[,NAME...]",
        help="write only these fixtures into the existing version folder and add them "
        "to its MANIFEST.json; other fixtures are left untouched",
    )
    ap.add_argument(
        "--replace",
        action="store_true",
        help="with --only: rewrite a named fixture whose folder already exists "
        "(default: keep it)",
    )
    ap.add_argument(
        "--all",
        action="store_true",
        help="also write the non-core fixtures (default: only with TileDB-Py >= 0.30)",
    )
    args = ap.parse_args(argv)

    only = None
    if args.only is not None:
        only = [n for n in (x.strip() for x in args.only.split(",")) if n]
        known = [fx["name"] for fx in FIXTURES]
        unknown = [n for n in only if n not in known]
        if unknown or not only:
            ap.error("unknown fixture(s) %s; known: %s" % (", ".join(unknown) or "(none given)", ", ".join(known)))
    elif args.replace:
        ap.error("--replace only goes with --only")

    fmt = detect_format_version()
    outdir = os.path.join(os.path.abspath(args.outdir), "v%d" % fmt)
    if only is None and os.path.exists(outdir):
        shutil.rmtree(outdir)
    os.makedirs(outdir, exist_ok=True)
    with_extras = args.all or PY_VERSION >= (0, 30, 0)

    print(
        "TileDB-Py %s, libtiledb %s, writes format v%d -> %s"
        % (tiledb.__version__, ".".join(map(str, LIB_VERSION)), fmt, outdir)
    )
    manifest, skipped, written, kept = [], [], [], []
    for fx in FIXTURES:
        if only is not None and fx["name"] not in only:
            continue
        if not fx["core"] and not with_extras and only is None:
            continue
        uri = os.path.join(outdir, fx["name"])
        if fx["formats"] and fmt not in fx["formats"]:
            if only is not None:
                print("  --   %-30s only for formats %s" % (fx["name"], fx["formats"]))
            continue
        if os.path.exists(uri):
            if only is not None and not args.replace:
                kept.append(fx["name"])
                print("  kept %-30s exists (use --replace to rewrite it)" % fx["name"])
                continue
            shutil.rmtree(uri)
        try:
            extra = fx["fn"](uri)
        except Exception as e:  # engine (or TileDB-Py) refused: skip it
            shutil.rmtree(uri, ignore_errors=True)
            msg = str(e).strip().splitlines()
            reason = "%s: %s" % (type(e).__name__, msg[0] if msg else "")
            skipped.append((fx["name"], reason))
            print("  SKIP %-30s %s" % (fx["name"], reason))
            if os.environ.get("GEN_FIXTURES_DEBUG"):
                traceback.print_exc()
            continue
        print("  ok   %s" % fx["name"])
        written.append(uri)
        desc = fx["description"]
        if isinstance(extra, str) and extra:
            desc += "; " + extra
        manifest.append(
            {
                "name": fx["name"],
                "kind": fx["kind"],
                "encrypted_key": fx["encrypted_key"],
                "description": desc,
            }
        )

    mpath = os.path.join(outdir, "MANIFEST.json")
    if only is None:
        prune_empty_dirs(outdir)
    else:
        for uri in written:  # leave every other folder exactly as it is
            prune_empty_dirs(uri)
        if os.path.exists(mpath):
            with open(mpath) as f:
                old = json.load(f)
            # a --replace'd fixture that the engine now refuses is gone: drop its entry
            manifest = merge_manifest(old, manifest, {n for n, _ in skipped})
        if not written and not skipped:
            print("nothing written")
            return 0
    with open(mpath, "w") as f:
        json.dump(manifest, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(
        "%d fixtures written, %d skipped%s; MANIFEST.json lists %d"
        % (len(written), len(skipped), ", %d kept" % len(kept) if kept else "", len(manifest))
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
