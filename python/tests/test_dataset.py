"""DuckDB and Polars scan an array (Array.dataset()) with their projections
and filters pushed into the read: their answers are the engine's, and the
reads the dataset made (ds.reads) show what reached the library."""

import duckdb
import numpy as np
import polars as pl
import pyarrow.dataset as pds
import pytest
import tiledb

import tiledb_codec
from conftest import ROOT

FIX = ROOT / "tests" / "fixtures" / "v22"


def engine_values(name, attr):
    """Every cell's value of `attr` as the engine reads the array (dense:
    the non-empty domain), and the dimensions' values."""
    with tiledb.open(str(FIX / name)) as E:
        res = E.query(dims=True).multi_index[tuple(slice(lo, hi) for lo, hi in E.nonempty_domain())]
        return {k: np.asarray(v).ravel() for k, v in res.items()}


@pytest.mark.parametrize("name,dims", [("sparse_int_2d", ("r", "c")), ("dense_int_2d", ("rows", "cols"))])
def test_duckdb_counts_and_sums_with_the_filter_pushed(name, dims):
    ds = tiledb_codec.open(FIX / name).dataset()
    assert isinstance(ds, pds.Dataset)
    got = duckdb.sql("SELECT count(*), sum(a) FROM ds WHERE a > 5").fetchall()[0]
    a = engine_values(name, "a")["a"]
    assert got == (int((a > 5).sum()), int(a[a > 5].sum()))
    read = ds.reads[-1]
    assert read["attrs"] == ["a"] and not read["coords"], read
    assert read["where"] == 'col("a") > 5', read
    if name.startswith("sparse"):
        assert read["rows"] == int((a > 5).sum()), "the library gave back only the kept cells"
    else:
        # A dense read with a condition gives the rejected cells with the
        # fill value (0 here, which fails a > 5): the filter drops them.
        assert read["rows"] == len(a), read


@pytest.mark.parametrize("name,sql,pushed", [
    ("dense_int_2d", "a > 5", 'col("a") > 5'),
    # The fill value 0 passes a < 5: a rejected cell would come back as 0
    # and be kept, so nothing is pushed.
    ("dense_int_2d", "a < 5", None),
    ("dense_int_2d", "a > 5 AND rows = 2", 'col("a") > 5'),
    ("dense_int_2d", "a > 5 OR rows = 2", None),
    ("dense_var_nullable", "s <> 'x?'", 'col("s") != "x?"'),
    ("dense_var_nullable", "s = 'x?'", None),
    # n is nullable with a fill value: a rejected cell may come back as
    # 42 or as null, and 42 passes.
    ("dense_var_nullable", "n > 5", None),
    ("dense_var_nullable", "n IS NULL", None),
    # 42 passes IS NOT NULL; both 42 and null fail n < 40.
    ("dense_var_nullable", "n IS NOT NULL AND n < 40", 'col("n") < 40'),
])
def test_dense_scans_push_only_what_the_fill_values_fail(name, sql, pushed):
    ds = tiledb_codec.open(FIX / name).dataset()
    dims = [d.name for d in tiledb_codec.open(FIX / name).schema.dims]
    got = duckdb.sql(f"SELECT * FROM ds WHERE {sql} ORDER BY {dims[0]}").fetchall()
    assert ds.reads[-1]["where"] == pushed, ds.reads[-1]
    with tiledb.open(str(FIX / name)) as E:
        df = E.df[tuple(slice(lo, hi) for lo, hi in E.nonempty_domain())]
    want = duckdb.sql(f"SELECT * FROM df WHERE {sql} ORDER BY {dims[0]}").fetchall()
    assert sorted(map(repr, got)) == sorted(map(repr, want))
    assert len(got) > 0


@pytest.mark.parametrize("name,dim", [("sparse_int_2d", "r"), ("dense_int_2d", "rows")])
def test_duckdb_dimension_filters_become_ranges(name, dim):
    ds = tiledb_codec.open(FIX / name).dataset()
    got = duckdb.sql(f"SELECT sum(a), min({dim}), max({dim}) FROM ds WHERE {dim} >= 2 AND {dim} < 4").fetchall()[0]
    v = engine_values(name, "a")
    keep = (v[dim] >= 2) & (v[dim] < 4)
    assert got == (int(v["a"][keep].sum()), int(v[dim][keep].min()), int(v[dim][keep].max()))
    read = ds.reads[-1]
    assert read["ranges"] == {dim: (2, 3)}, read
    assert read["rows"] == int(keep.sum())


def test_duckdb_or_in_and_is_null_on_a_nullable_array():
    name = "nullable_var_sparse"
    ds = tiledb_codec.open(FIX / name).dataset()
    with tiledb.open(str(FIX / name)) as E:
        df = E.df[:]
    want = df[df["n"].isna() | df["n"].isin([1, 3])]
    got = duckdb.sql("SELECT d, n FROM ds WHERE n IS NULL OR n IN (1, 3) ORDER BY d").fetchall()
    assert [r[0] for r in got] == sorted(want["d"].tolist())
    got = duckdb.sql("SELECT d FROM ds WHERE n IS NOT NULL AND (f > 1.0 OR s = 'b') ORDER BY d").fetchall()
    keep = df["n"].notna() & ((df["f"] > 1.0) | (df["s"] == "b"))
    assert [r[0] for r in got] == sorted(df[keep]["d"].tolist())
    assert ds.reads[-1]["where"] is not None and "is not None" in ds.reads[-1]["where"], ds.reads[-1]


@pytest.mark.parametrize("name", ["sparse_int_2d", "dense_int_2d"])
def test_polars_scan_pushes_projection_and_filter(name):
    ds = tiledb_codec.open(FIX / name).dataset()
    out = (pl.scan_pyarrow_dataset(ds).filter(pl.col("a") > 5).select(pl.col("a").sum().alias("s"), pl.len())
           .collect())
    a = engine_values(name, "a")["a"]
    assert out["s"][0] == int(a[a > 5].sum()) and out["len"][0] == int((a > 5).sum())
    read = ds.reads[-1]
    assert read["attrs"] == ["a"] and not read["coords"], read
    assert read["where"] == 'col("a") > 5', read
    assert read["rows"] == (int((a > 5).sum()) if name.startswith("sparse") else len(a)), read


def test_polars_is_in_and_or():
    ds = tiledb_codec.open(FIX / "sparse_int_2d").dataset()
    v = engine_values("sparse_int_2d", "a")
    out = pl.scan_pyarrow_dataset(ds).filter(pl.col("a").is_in([0, 1, 201]) | (pl.col("b") < 0)).select("r", "a") \
        .collect().sort("r", "a")
    with tiledb.open(str(FIX / "sparse_int_2d")) as E:
        df = E.df[:]
    want = df[df["a"].isin([0, 1, 201]) | (df["b"] < 0)].sort_values(["r", "a"])
    assert out["a"].to_list() == want["a"].tolist() and out["r"].to_list() == want["r"].tolist()
    assert " in [" in ds.reads[-1]["where"]
    assert ds.reads[-1]["rows"] == len(want) and len(want) < len(v["a"])


def test_what_cannot_be_pushed_is_applied_to_the_cells():
    import pyarrow.compute as pc

    ds = tiledb_codec.open(FIX / "sparse_int_2d").dataset()
    # A computed comparison is not a condition the library takes.
    expr = (pc.field("a") + pc.field("r")) > 50
    t = ds.to_table(columns=["a"], filter=expr)
    v = engine_values("sparse_int_2d", "a")
    keep = (v["a"] + v["r"]) > 50
    assert sorted(t.column("a").to_pylist()) == sorted(v["a"][keep].tolist())
    assert ds.reads[-1]["where"] is None and ds.reads[-1]["rows"] == len(v["a"])
    assert ds.count_rows() == len(v["a"]) and ds.head(3).num_rows == 3
