"""tiledb_codec.compat against TileDB-Py 0.36.1: the same keys, shapes and
values for [], multi_index and query(...).multi_index; the differences on
purpose are asserted as such."""

import numpy as np
import pytest
import tiledb

import tiledb_codec
import tiledb_codec.compat as compat
from conftest import ROOT

FIX = ROOT / "tests" / "fixtures" / "v22"


def assert_same_result(ours, engine, what):
    assert list(ours.keys()) == list(engine.keys()), what
    for k in engine:
        o, e = ours[k], engine[k]
        assert o.shape == e.shape, f"{what}: {k}: shape {o.shape} vs {e.shape}"
        if isinstance(e, np.ma.MaskedArray) or isinstance(o, np.ma.MaskedArray):
            mask = np.ma.getmaskarray(e)
            np.testing.assert_array_equal(np.ma.getmaskarray(o), mask, err_msg=f"{what}: {k} mask")
            # Only the cells that are not null: what lies under the mask is
            # not a value (TileDB-Py leaves the stored bytes there).
            o, e = np.ma.getdata(o)[~mask], np.ma.getdata(e)[~mask]
        if o.dtype == object:
            norm = lambda v: v.decode() if isinstance(v, bytes) else v  # noqa: E731
            assert [norm(x) for x in o.ravel()] == [norm(x) for x in e.ravel()], f"{what}: {k}"
        else:
            np.testing.assert_array_equal(o, e, err_msg=f"{what}: {k}")


CASES = [
    ("dense_int_2d", lambda A: A[1:3, 2:4]),
    ("dense_int_2d", lambda A: A[:]),
    ("dense_int_2d", lambda A: A[2:, :3]),
    ("dense_int_2d", lambda A: A.multi_index[1:2, [2, slice(4, 5)]]),
    ("dense_int_2d", lambda A: A.query(attrs=["a"], coords=True).multi_index[1:2, 2:3]),
    ("dense_int_2d", lambda A: A.query(attrs=["a"], dims=["rows"]).multi_index[1:2, 2:3]),
    ("dense_int_1d", lambda A: A[3:9]),
    ("dense_float_2d_colmajor", lambda A: A[1:4, 0:2]),
    ("sparse_int_2d", lambda A: A[0:3]),
    ("sparse_int_2d", lambda A: A.multi_index[0:3]),
    ("sparse_int_2d", lambda A: A.multi_index[[0, slice(50, 60)], 0:51]),
    ("sparse_int_2d", lambda A: A.query(cond="a > 5", attrs=["a"]).multi_index[:]),
    ("sparse_strdim", lambda A: A.multi_index["b":"d"]),
    ("dense_var_nullable", lambda A: A[0:10]),
]


@pytest.mark.parametrize("name,read", CASES, ids=[f"{i}-{c[0]}" for i, c in enumerate(CASES)])
def test_compat_reads_are_tiledb_pys(name, read):
    with tiledb.open(str(FIX / name)) as E:
        engine = read(E)
    with compat.open(FIX / name) as A:
        ours = read(A)
    assert_same_result(ours, engine, name)


def test_compat_multi_index_keeps_the_validity_tiledb_py_drops():
    # TileDB-Py 0.36's multi_index gives nullable attributes unmasked (the
    # fill value or b"" where the cell is null); its A[...] masks them. Ours
    # masks both, as A[...] does.
    path = str(FIX / "dense_var_nullable")
    with tiledb.open(path) as E:
        engine_mi = E.multi_index[0:9]
        engine_getitem = E[0:10]
    with compat.open(path) as A:
        ours = A.multi_index[0:9]
    assert not isinstance(engine_mi["ns"], np.ma.MaskedArray)
    assert isinstance(ours["ns"], np.ma.MaskedArray)
    np.testing.assert_array_equal(np.ma.getmaskarray(ours["ns"]), np.ma.getmaskarray(engine_getitem["ns"]))
    assert np.ma.getmaskarray(ours["ns"]).any()


def test_compat_schema_meta_and_errors():
    with compat.open(FIX / "array_metadata") as A, tiledb.open(str(FIX / "array_metadata")) as E:
        assert A.meta["str"] == E.meta["str"]
        assert A.nonempty_domain() == E.nonempty_domain()
    with pytest.raises(compat.TileDBCodecError):
        compat.open(FIX / "dense_int_2d", mode="w")
    with pytest.raises(compat.TileDBCodecError):
        compat.open(FIX / "dense_int_2d")[1:3, 1:3, 1:3]


DF_CASES = [
    ("dense_int_2d", lambda A: A.df[:]),
    ("dense_int_2d", lambda A: A.query(cond="a > 100").df[:]),
    ("nullable_var_sparse", lambda A: A.df[:]),
    ("dense_var_nullable", lambda A: A.df[:]),
    ("sparse_int_2d", lambda A: A.query(attrs=["a"]).df[0:3]),
    ("sparse_int_2d", lambda A: A.df[0:3, 0:50]),
    ("sparse_int_2d", lambda A: A.query(cond="a > 5").df[:]),
    ("dense_int_2d", lambda A: A.df[1:2, 2:3]),
    ("enumerations", lambda A: A.df[:]),
    ("sparse_strdim", lambda A: A.df["b":"d"]),
]


@pytest.mark.parametrize("name,read", DF_CASES, ids=[f"{i}-{c[0]}" for i, c in enumerate(DF_CASES)])
def test_compat_df_is_tiledb_pys(name, read):
    import pandas as pd

    with tiledb.open(str(FIX / name)) as E:
        engine = read(E)
    with compat.open(FIX / name) as A:
        ours = read(A)
    pd.testing.assert_frame_equal(ours, engine, check_dtype=False, check_categorical=False)
    for c in engine.columns:
        if engine[c].dtype.name.startswith(("Int", "UInt")):  # nullable integers
            assert ours[c].dtype == engine[c].dtype, c
    for c in engine.columns:
        assert (engine[c].dtype.name == "category") == (ours[c].dtype.name == "category"), c


def test_to_pandas_and_a_pandas_write(tmp_path):
    import pandas as pd

    from tiledb_codec import Attr, Dim, Schema

    df = tiledb_codec.open(FIX / "enumerations").to_pandas()
    assert df["color"].dtype.name == "category"
    uri = tmp_path / "from_pandas"
    A = tiledb_codec.create(uri, Schema(dims=[Dim("k", "INT64", (0, 9), 5)], attrs=[Attr("v", "FLOAT64")],
                                        sparse=True))
    A.write(pd.DataFrame({"k": [4, 2], "v": [0.5, -1.0]}))
    with tiledb.open(str(uri)) as E:
        got = E.df[:].sort_values("k")
    assert got["k"].tolist() == [2, 4] and got["v"].tolist() == [-1.0, 0.5]
