"""Writes and maintenance through tiledb_codec, read back by TileDB-Py 0.36.1."""

import numpy as np
import pyarrow as pa
import pytest
import tiledb

import tiledb_codec
from tiledb_codec import Attr, Dim, Schema
from conftest import assert_same_cells, engine_cells, engine_ctx, table_cells


def sparse_schema():
    return Schema(
        dims=[Dim("x", "INT64", (0, 999), 100), Dim("s", "STRING_ASCII", filters=[{"type": "ZSTD", "level": 3}])],
        attrs=[Attr("a", "FLOAT64"), Attr("n", "INT32", nullable=True), Attr("t", "STRING_UTF8", var=True)],
        sparse=True,
    )


def test_a_sparse_array_written_from_pyarrow_reads_back_in_the_engine(tmp_path):
    uri = tmp_path / "sparse"
    A = tiledb_codec.create(uri, sparse_schema())
    assert A.schema.sparse and [d.name for d in A.schema.dims] == ["x", "s"]
    table = pa.table({
        "x": pa.array([3, 1, 2], pa.int64()),
        "s": ["c", "a", "b"],
        "a": [0.5, 1.5, -2.0],
        "n": pa.array([1, None, 3], pa.int32()),
        "t": ["héllo", "", "wörld"],
    })
    A.write(table)
    with tiledb.open(str(uri)) as E:
        res = E[:]
        order = np.argsort(res["x"])
        assert res["x"][order].tolist() == [1, 2, 3]
        assert res["a"][order].tolist() == [1.5, -2.0, 0.5]
        assert [t for t in res["t"][order]] == ["", "wörld", "héllo"]
        assert [s.decode() if isinstance(s, bytes) else s for s in res["s"][order]] == ["a", "b", "c"]
    assert_same_cells(table_cells(tiledb_codec.open(uri).read()), engine_cells(uri), "written")
    ours = tiledb_codec.open(uri).read()
    cells = sorted(zip(ours.column("x").to_pylist(), ours.column("n").to_pylist()))
    assert cells == [(1, None), (2, 3), (3, 1)]
    engine_n = {c["x"]: c["n"] for c in engine_cells(uri)}
    assert engine_n == {1: None, 2: 3, 3: 1}


def test_a_dense_array_written_from_numpy_reads_back_in_the_engine(tmp_path):
    uri = tmp_path / "dense"
    schema = Schema(dims=[Dim("r", "INT32", (1, 4), 2), Dim("c", "INT32", (1, 4), 2)],
                    attrs=[Attr("v", "UINT16", filters=[{"type": "LZ4", "level": -1}])])
    A = tiledb_codec.create(uri, schema)
    r, c = np.meshgrid(np.arange(1, 3, dtype=np.int32), np.arange(1, 5, dtype=np.int32), indexing="ij")
    v = (r * 10 + c).astype(np.uint16)
    A.write({"r": r.ravel(), "c": c.ravel(), "v": v.ravel()})
    with tiledb.open(str(uri)) as E:
        np.testing.assert_array_equal(E[1:3, 1:5]["v"], v)
    np.testing.assert_array_equal(tiledb_codec.open(uri).to_numpy()["v"], v)


def test_metadata_put_and_delete_read_back_in_the_engine(tmp_path):
    uri = tmp_path / "meta"
    A = tiledb_codec.create(uri, sparse_schema())
    A.meta["name"] = "wörld"
    A.meta["ints"] = [1, 2, -3]
    A.meta["f"] = 2.5
    A.meta["gone"] = 1
    del A.meta["gone"]
    with tiledb.open(str(uri)) as E:
        assert E.meta["name"] == "wörld"
        assert tuple(E.meta["ints"]) == (1, 2, -3)
        assert E.meta["f"] == 2.5
        assert "gone" not in E.meta
    assert dict(tiledb_codec.open(uri).meta) == {"name": "wörld", "ints": (1, 2, -3), "f": 2.5}
    with pytest.raises(tiledb_codec.TileDBCodecError):
        del A.meta["never set"]


def test_delete_consolidate_and_vacuum_are_what_the_engine_reads(tmp_path):
    uri = tmp_path / "maint"
    A = tiledb_codec.create(uri, sparse_schema())
    for i in range(3):
        A.write({"x": np.array([i, i + 10], dtype=np.int64), "s": [f"k{i}", f"m{i}"],
                 "a": np.array([i, -i], dtype=np.float64), "n": np.array([i, i], dtype=np.int32),
                 "t": ["p", "q"]}, timestamp=100 + i)
    A = tiledb_codec.open(uri)
    assert len(A.fragments) == 3
    A.delete("x >= 10", timestamp=200)
    ours = tiledb_codec.open(uri).read()
    assert sorted(ours.column("x").to_pylist()) == [0, 1, 2]
    assert sorted(c["x"] for c in engine_cells(uri)) == [0, 1, 2]
    assert tiledb_codec.open(uri).consolidate() is True
    assert tiledb_codec.open(uri).vacuum() > 0
    A = tiledb_codec.open(uri)
    assert len(A.fragments) == 1
    assert sorted(c["x"] for c in engine_cells(uri)) == [0, 1, 2]
    assert sorted(A.read().column("x").to_pylist()) == [0, 1, 2]


def _write_rows(A, n):
    """Fragments 100 .. 100 + n - 1 of sparse_schema(), two cells each."""
    for i in range(n):
        A.write({"x": np.array([i, i + 10], dtype=np.int64), "s": [f"k{i}", f"m{i}"],
                 "a": np.array([i, -i], dtype=np.float64), "n": np.array([i, i], dtype=np.int32),
                 "t": ["p", "q"]}, timestamp=100 + i)


def test_vacuum_within_a_timestamp_range_is_what_the_engine_sees(tmp_path):
    uri = tmp_path / "vacuum_range"
    _write_rows(tiledb_codec.create(uri, sparse_schema()), 4)
    assert tiledb_codec.consolidate(uri, timestamp=(100, 101)) is True
    assert tiledb_codec.open(uri).consolidate(timestamp=(102, 103)) is True
    xs = [0, 1, 2, 3, 10, 11, 12, 13]

    def engine_view():
        fi = tiledb.array_fragments(str(uri))
        return sorted(tuple(f.timestamp_range) for f in fi), len(fi.to_vacuum)

    def folders():
        return len(list((uri / "__fragments").iterdir()))

    assert engine_view() == ([(100, 101), (102, 103)], 4)
    assert folders() == 6
    # Only what was consolidated within (100, 101): its two fragments.
    assert tiledb_codec.vacuum(uri, timestamp=(100, 101)) > 0
    assert engine_view() == ([(100, 101), (102, 103)], 2)
    assert folders() == 4
    assert sorted(c["x"] for c in engine_cells(uri)) == xs
    assert tiledb_codec.open(uri).vacuum(timestamp=(100, 101)) == 0
    # (102, 103) does not lie within ..101: left.
    assert tiledb_codec.open(uri).vacuum(timestamp=101) == 0
    assert folders() == 4
    assert tiledb_codec.open(uri).vacuum(timestamp=(100, 103)) > 0
    assert engine_view() == ([(100, 101), (102, 103)], 0)
    assert folders() == 2
    assert sorted(c["x"] for c in engine_cells(uri)) == xs
    assert sorted(tiledb_codec.open(uri).read().column("x").to_pylist()) == xs


def test_consolidate_and_vacuum_of_an_encrypted_array_by_uri_and_key(tmp_path):
    key = "0123456789abcdeF0123456789abcdeF"
    uri = tmp_path / "encrypted"
    _write_rows(tiledb_codec.create(uri, sparse_schema(), key=key), 3)
    with pytest.raises(tiledb_codec.TileDBCodecError):
        tiledb_codec.consolidate(uri)
    with pytest.raises(tiledb_codec.TileDBCodecError):
        tiledb_codec.consolidate(uri, key="0" * 32)
    assert tiledb_codec.consolidate(uri, key=key.encode()) is True
    with pytest.raises(tiledb_codec.TileDBCodecError):
        tiledb_codec.vacuum(uri)
    assert tiledb_codec.vacuum(uri, key=key) > 0
    fi = tiledb.array_fragments(str(uri), ctx=engine_ctx(key))
    assert [tuple(f.timestamp_range) for f in fi] == [(100, 102)] and len(fi.to_vacuum) == 0
    assert sorted(c["x"] for c in engine_cells(uri, key)) == [0, 1, 2, 10, 11, 12]
    assert_same_cells(table_cells(tiledb_codec.open(uri, key=key).read()), engine_cells(uri, key), "encrypted")


def test_bad_writes_raise_the_package_exception(tmp_path):
    E = tiledb_codec.TileDBCodecError
    uri = tmp_path / "bad"
    A = tiledb_codec.create(uri, sparse_schema())
    with pytest.raises(E):
        tiledb_codec.create(uri, sparse_schema())  # already there
    with pytest.raises(E):
        A.write({"x": np.array([5000], dtype=np.int64), "s": ["a"], "a": [1.0], "n": [1], "t": ["z"]})
    with pytest.raises(E):
        A.write({"x": np.array([1], dtype=np.int64)})
    with pytest.raises(E):
        A.write(42)
    with pytest.raises(E):
        tiledb_codec.create(tmp_path / "nodims", Schema(dims=[], attrs=[Attr("a", "INT32")]))
    with pytest.raises(E):
        A.delete("no_such_field > 1")
    with pytest.raises(E):
        A.consolidate("everything")
    assert tiledb_codec.open(uri).fragments == []


def test_an_array_created_from_a_pyarrow_schema_reads_back_in_the_engine(tmp_path):
    uri = tmp_path / "from_arrow"
    schema = pa.schema([
        pa.field("x", pa.int64(), nullable=False),
        pa.field("v", pa.float32(), nullable=False),
        pa.field("n", pa.int16(), nullable=True),
        pa.field("s", pa.large_string(), nullable=True),
    ])
    A = tiledb_codec.create(uri, Schema.from_arrow(schema, {"x": ((0, 99), 10)}))
    assert [d.name for d in A.schema.dims] == ["x"] and A.schema.attr("n").nullable
    A.write(pa.table({"x": [5, 7], "v": [0.25, 1.0], "n": [None, 3], "s": ["a", None]}, schema=schema))
    with tiledb.open(str(uri)) as E:
        assert E.schema.sparse and E.schema.domain.dim(0).domain == (0, 99)
        assert E.schema.attr("n").isnullable and not E.schema.attr("v").isnullable
    assert_same_cells(table_cells(tiledb_codec.open(uri).read()), engine_cells(uri), "from_arrow")
    assert {c["x"]: (c["n"], c["s"]) for c in engine_cells(uri)} == {5: (None, "a"), 7: (3, None)}
    with pytest.raises(tiledb_codec.TileDBCodecError):
        Schema.from_arrow(schema, {"nope": ((0, 1), 1)})
