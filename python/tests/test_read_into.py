"""Reads into buffers the caller owns (Array.read_into) and the numpy reads
made through it (Array.to_numpy of dense fixed-size attributes), judged by
TileDB-Py 0.36.1 and by the Arrow path they replace."""

import numpy as np
import pyarrow as pa
import pytest
import tiledb

import tiledb_codec
from conftest import ROOT, engine_cells, fixtures

FIX = ROOT / "tests" / "fixtures" / "v22"
E = tiledb_codec.TileDBCodecError


def dense_fixtures():
    out = []
    for name, path, key in fixtures():
        if name.startswith("v22/"):
            A = tiledb_codec.open(path, key=key)
            if not A.schema.sparse and A.nonempty_domain() is not None:
                out.append((name, path, key))
    return out


def assert_same_numpy(ours, arrow, what):
    assert list(ours) == list(arrow), what
    for k in ours:
        o, a = ours[k], arrow[k]
        assert type(o) is type(a), f"{what} {k}: {type(o)} vs {type(a)}"
        assert o.dtype == a.dtype and o.shape == a.shape, f"{what} {k}: {o.dtype}{o.shape} vs {a.dtype}{a.shape}"
        assert o.flags.c_contiguous == a.flags.c_contiguous, f"{what} {k}: memory order"
        if isinstance(o, np.ma.MaskedArray):
            np.testing.assert_array_equal(np.ma.getmaskarray(o), np.ma.getmaskarray(a), err_msg=f"{what} {k}")
            np.testing.assert_array_equal(o.data, a.data, err_msg=f"{what} {k}")
        else:
            np.testing.assert_array_equal(o, a, err_msg=f"{what} {k}")


@pytest.mark.parametrize("name,path,key", dense_fixtures(), ids=[f[0] for f in dense_fixtures()])
def test_numpy_reads_into_arrays_are_the_arrow_paths(name, path, key):
    A = tiledb_codec.open(path, key=key)
    ned = A.nonempty_domain()
    first = A.schema.dims[0].name
    lo, hi = ned[0]
    sub = {first: (lo + 1, hi) if hi > lo else (lo, hi)}
    fixed = [a.name for a in A.schema.attrs if not a.var]
    for ranges in (None, sub):
        for order in (None, "col-major"):
            for attrs, coords in ((None, False), (fixed, False), (fixed, True)):
                what = f"{name} {ranges} {order} {attrs} coords={coords}"
                ours = A.to_numpy(ranges, attrs=attrs, order=order, coords=coords)
                arrow = A._to_numpy_arrow(ranges, None, attrs, order, coords)
                assert_same_numpy(ours, arrow, what)


@pytest.mark.parametrize("name,path,key", dense_fixtures(), ids=[f[0] for f in dense_fixtures()])
def test_arrow_reads_into_buffers_are_the_streams(name, path, key):
    A = tiledb_codec.open(path, key=key)
    first = A.schema.dims[0].name
    lo, hi = A.nonempty_domain()[0]
    for ranges in (None, {first: (lo + 1, hi) if hi > lo else (lo, hi)}):
        for order in (None, "col-major"):
            for attrs in (None, [a.name for a in A.schema.attrs if not a.var]):
                what = f"{name} {ranges} {order} {attrs}"
                ours = A.read(ranges, attrs=attrs, order=order, coords=False)
                stream = A._read_stream(ranges, None, attrs, order, False)
                assert ours.schema.equals(stream.schema, check_metadata=True), what
                assert ours.num_rows == stream.num_rows, what
                for k in ours.column_names:  # repr: NaN equal to NaN
                    assert repr(ours.column(k).to_pylist()) == repr(stream.column(k).to_pylist()), f"{what} {k}"


def test_the_numpy_reads_of_fixed_size_fields_go_into_arrays():
    # The direct read applies where it should (and the test above compares it).
    cases = [("dense_int_2d", None), ("types_numeric", None), ("types_multival", ["t3", "c128", "c64"]),
             ("dense_float_2d_colmajor", None), ("filters_chunked", ["nullable", "triple_zstd", "rle"])]
    for name, attrs in cases:
        A = tiledb_codec.open(FIX / name)
        assert A._to_numpy_direct(None, attrs, None, False) is not None, name
        assert A._to_numpy_direct(None, attrs, "col-major", True) is not None, name
    for name in ("dense_int_2d", "types_numeric", "filters_transforms"):
        A = tiledb_codec.open(FIX / name)
        fixed = [a.name for a in A.schema.attrs if a.datatype != "BOOL"]
        assert A._read_direct(None, fixed, "col-major") is not None, name
    A = tiledb_codec.open(FIX / "dense_var_nullable")
    assert A._read_direct(None, ["n"], None) is None  # nullable: the stream
    assert A._to_numpy_direct(None, None, None, False) is None  # var-sized: Arrow
    assert A._to_numpy_direct(None, ["n"], None, False) is not None


def test_numpy_full_read_sub_range_and_col_major_are_the_engines():
    path = FIX / "dense_int_2d"
    A = tiledb_codec.open(path)
    with tiledb.open(str(path)) as T:
        full = T.multi_index[1:3, 1:6]
        sub = T.multi_index[2:3, 2:4]
        colmajor = T.query(order="F").multi_index[1:3, 1:6]
    ours = A.to_numpy()
    assert ours["a"].shape == (3, 6)
    for k in ("a", "b"):
        np.testing.assert_array_equal(ours[k], full[k])
    ours = A.to_numpy({"rows": (2, 3), "cols": (2, 4)})
    for k in ("a", "b"):
        np.testing.assert_array_equal(ours[k], sub[k])
    ours = A.to_numpy(order="col-major")
    assert ours["a"].flags.f_contiguous
    for k in ("a", "b"):
        # The engine's cells in its col-major order are our memory's order;
        # TileDB-Py shapes them as if row-major (a difference: each of our
        # elements is its cell's value, as in the row-major read).
        np.testing.assert_array_equal(ours[k].ravel(order="K"), colmajor[k].ravel())
        np.testing.assert_array_equal(ours[k], full[k])
    # Into a buffer of ours, in the engine's col-major order.
    a = np.zeros(18, dtype=np.int32)
    assert A.read_into({"a": a}, order="col-major") == 18
    np.testing.assert_array_equal(a, colmajor["a"].ravel())


def test_numpy_nullable_attribute_is_masked_as_the_engine_says():
    path = FIX / "dense_var_nullable"
    A = tiledb_codec.open(path)
    ours = A.to_numpy(attrs=["n"])["n"]
    assert isinstance(ours, np.ma.MaskedArray)
    engine = [c["n"] for c in engine_cells(path)]
    assert any(v is None for v in engine) and any(v is not None for v in engine)
    assert [None if v is np.ma.masked else v for v in ours.tolist()] == engine
    # read_into with a validity buffer says the same.
    n = A.nonempty_domain()[0]
    cells = n[1] - n[0] + 1
    values, validity = np.empty(cells, np.int32), np.empty(cells, np.bool_)
    assert A.read_into({"n": (values, validity)}) == cells
    assert [int(v) if ok else None for v, ok in zip(values, validity)] == engine


def test_read_into_a_sub_range_and_buffers_reused():
    path = FIX / "types_numeric"
    A = tiledb_codec.open(path)
    with tiledb.open(str(path)) as T:
        engine = T.multi_index[1:4]
    bufs = {"f64": np.full(10, -7.0), "b": np.empty(4, np.bool_), "u64": np.empty(4, np.uint64)}
    for _ in range(2):
        assert A.read_into(bufs, {A.schema.dims[0].name: (1, 4)}) == 4
        np.testing.assert_array_equal(bufs["f64"][:4], engine["f64"])
        assert (bufs["f64"][4:] == -7.0).all()  # beyond the cells read: untouched
        np.testing.assert_array_equal(bufs["b"], engine["b"])
        np.testing.assert_array_equal(bufs["u64"], engine["u64"])


def test_read_into_pyarrow_buffers_and_datetimes():
    path = FIX / "types_datetime"
    A = tiledb_codec.open(path)
    with tiledb.open(str(path)) as T:
        engine = T.multi_index[0:2]  # the non-empty domain
    buf = pa.allocate_buffer(3 * 8)
    assert A.read_into({"dt_ns": buf}) == 3
    np.testing.assert_array_equal(np.frombuffer(buf, dtype="datetime64[ns]"), engine["dt_ns"])
    with pytest.raises(E, match="datetime64\\[ms\\]"):
        A.read_into({"dt_ms": np.empty(3, dtype="datetime64[ns]")})  # another unit
    ms = np.empty(3, dtype="datetime64[ms]")
    assert A.read_into({"dt_ms": ms}) == 3
    np.testing.assert_array_equal(ms, engine["dt_ms"])
    # A pyarrow array over the buffer: no copy on the way.
    arr = pa.Array.from_buffers(pa.timestamp("ns"), 3, [None, buf])
    assert arr.to_numpy().tolist() == engine["dt_ns"].tolist()


def test_read_into_refuses_what_it_cannot_fill():
    A = tiledb_codec.open(FIX / "dense_int_2d")
    cells = 18
    with pytest.raises(E, match="need"):
        A.read_into({"a": np.empty(cells - 1, np.int32)})  # too small
    with pytest.raises(E, match="int32"):
        A.read_into({"a": np.empty(cells, np.float64)})  # wrong dtype
    with pytest.raises(E, match="int32"):
        A.read_into({"a": np.empty(cells, np.int64)})
    with pytest.raises(E, match="host's byte order|int32"):
        A.read_into({"a": np.empty(cells, ">i4")})
    with pytest.raises(E, match="read-only"):
        A.read_into({"a": np.frombuffer(bytes(cells * 4), np.int32)})
    with pytest.raises(E, match="read-only"):
        A.read_into({"a": bytes(cells * 4)})
    with pytest.raises(E, match="contiguous"):
        A.read_into({"a": np.empty(2 * cells, np.int32)[::2]})
    with pytest.raises(E, match="not a buffer"):
        A.read_into({"a": pa.allocate_buffer(cells * 4 + 1)})  # not whole int32 values
    with pytest.raises(E, match="not a buffer"):
        A.read_into({"a": [0] * cells})
    shared = np.empty(2 * cells, np.int32)
    with pytest.raises(E, match="share memory"):
        A.read_into({"a": shared, "b": shared[1:].view(np.uint16)})
    with pytest.raises(E, match="no field"):
        A.read_into({"zz": np.empty(cells, np.int32)})
    with pytest.raises(E):
        A.read_into({"a": np.empty(cells, np.int32)}, {"rows": (5, 1)})
    with pytest.raises(E):
        A.read_into({"a": np.empty(cells, np.int32)}, order="sideways")
    N = tiledb_codec.open(FIX / "dense_var_nullable")
    with pytest.raises(E, match="nullable"):
        N.read_into({"n": np.empty(10, np.int32)})  # no validity buffer
    with pytest.raises(E, match="validity"):
        N.read_into({"n": (np.empty(10, np.int32), np.empty(10, np.int64))})
    with pytest.raises(E, match="var-sized"):
        N.read_into({"s": np.empty(10, np.uint8)})
    # Nothing was written by the refused reads.
    a = np.full(cells, 12345, np.int32)
    with pytest.raises(E):
        A.read_into({"a": a, "b": np.empty(3, np.uint16)})
    assert (a == 12345).all()
