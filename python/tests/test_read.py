"""Reads through tiledb_codec, judged by TileDB-Py 0.36.1 on the same arrays."""

import numpy as np
import pyarrow as pa
import pytest
import tiledb

import tiledb_codec
from conftest import (ROOT, assert_same_cells, engine_cells, engine_ctx, engine_result_cells,
                      fixtures, table_cells)

FIX = ROOT / "tests" / "fixtures" / "v22"


@pytest.mark.parametrize("name,path,key", fixtures(), ids=[f[0] for f in fixtures()])
def test_every_fixture_read_to_arrow_is_the_engine_cells(name, path, key):
    table = tiledb_codec.open(path, key=key).read()
    assert isinstance(table, pa.Table)
    assert_same_cells(table_cells(table), engine_cells(path, key), name)


def test_the_fixtures_cover_nulls_enumerations_datetimes_var_and_multi_value():
    kinds = set()
    for _, path, key in fixtures():
        for f in tiledb_codec.open(path, key=key).read().schema:
            t = f.type
            if f.nullable:
                kinds.add("nullable")
            if pa.types.is_dictionary(t):
                kinds.add("enumeration")
            if pa.types.is_timestamp(t) or pa.types.is_date32(t):
                kinds.add("datetime")
            if pa.types.is_large_string(t) or pa.types.is_large_binary(t):
                kinds.add("var")
            if pa.types.is_fixed_size_list(t):
                kinds.add("multi-value")
    assert kinds == {"nullable", "enumeration", "datetime", "var", "multi-value"}


def test_enumerations_are_dictionaries_of_the_engine_labels():
    A = tiledb_codec.open(FIX / "enumerations")
    color = A.read(attrs=["color"]).column("color").combine_chunks()
    assert pa.types.is_dictionary(color.type)
    with tiledb.open(str(FIX / "enumerations")) as E:
        labels = list(E.enum("colors").values())
        assert color.dictionary.to_pylist() == labels
        assert A.enum("colors") == labels
        assert E[:]["color"].tolist() == color.to_pylist()


def test_ranges_and_a_condition_are_the_engines():
    path = FIX / "sparse_int_2d"
    A = tiledb_codec.open(path)
    ours = A.read({"r": [(0, 3), (10, 49)]}, where="a > 5")
    with tiledb.open(str(path)) as E:
        d0 = E.schema.domain.dim(0).name
        assert d0 == "r"
        res = E.query(cond="a > 5").multi_index[[slice(0, 3), slice(10, 49)], :]
        engine = engine_result_cells(E, res)
    assert len(engine) > 0
    assert_same_cells(table_cells(ours), engine, "ranges + condition")


def test_a_string_dimension_range_and_a_string_condition():
    path = FIX / "sparse_strdim"
    A = tiledb_codec.open(path)
    ours = A.read({"s": ("b", "d")})
    with tiledb.open(str(path)) as E:
        engine = engine_result_cells(E, E.query().multi_index["b":"d", :])
    assert_same_cells(table_cells(ours), engine, "string range")


def test_time_travel_is_the_engines():
    path = FIX / "dense_int_1d"
    A = tiledb_codec.open(path)
    t = [f["timestamps"][1] for f in A.fragments]
    assert len(t) == 3
    for ts in (t[0], t[1], (t[1], t[2])):
        ours = tiledb_codec.open(path, timestamp=ts).read()
        assert_same_cells(table_cells(ours), engine_cells(path, timestamp=ts), f"timestamp {ts}")


def test_numpy_dense_reads_are_shaped_as_the_subarray():
    path = FIX / "dense_int_2d"
    ours = tiledb_codec.open(path).to_numpy({"rows": (1, 2), "cols": (2, 5)})
    with tiledb.open(str(path)) as E:
        engine = E[1:3, 2:6]
    assert ours["a"].shape == (2, 4)
    np.testing.assert_array_equal(ours["a"], engine["a"])
    np.testing.assert_array_equal(ours["b"], engine["b"])
    assert "rows" not in ours


def test_an_array_is_a_context_manager_as_in_tiledb_py():
    path = FIX / "dense_int_2d"
    with tiledb_codec.open(path) as A:
        ours = A.to_numpy({"rows": (1, 2), "cols": (2, 5)})
    with tiledb.open(str(path)) as E:
        engine = E[1:3, 2:6]
    np.testing.assert_array_equal(ours["a"], engine["a"])


def test_numpy_nullable_is_masked_and_var_sized_is_object():
    path = FIX / "dense_var_nullable"
    A = tiledb_codec.open(path)
    ours = A.to_numpy()
    assert isinstance(ours["n"], np.ma.MaskedArray)
    assert ours["s"].dtype == object
    ours_cells = [dict(zip(ours, vals)) for vals in zip(*[
        [None if v is np.ma.masked else v for v in (c.tolist() if isinstance(c, np.ma.MaskedArray) else c)]
        for c in ours.values()])]
    engine = engine_cells(path)
    assert len(ours_cells) == len(engine)
    for o, e in zip(ours_cells, engine):
        assert o["n"] == e["n"] and (o["s"] or "").rstrip("\0") == e["s"].rstrip("\0")
        assert (o["ns"] is None) == (e["ns"] is None)


def test_numpy_of_a_sparse_read_has_the_engines_values():
    path = FIX / "sparse_int_2d"
    ours = tiledb_codec.open(path).to_numpy(coords=True, order="row-major")
    with tiledb.open(str(path)) as E:
        engine = E.query(order="C")[:]
    for k in ("r", "a"):
        np.testing.assert_array_equal(ours[k], engine[k])


def test_batches_stream_within_the_batch_size():
    A = tiledb_codec.open(FIX / "sparse_chunked")
    reader = A.batches(batch_size=1000, memory_budget=8 << 20)
    assert isinstance(reader, pa.RecordBatchReader)
    sizes = [b.num_rows for b in reader]
    assert len(sizes) > 1 and max(sizes) <= 1000
    assert sum(sizes) == A.read().num_rows


def test_streams_left_half_read_or_unread_end_and_the_array_reads_on():
    # Each read's batches come from a thread owning the array: dropping a
    # stream part-way, or before taking it, ends that thread, and the
    # array (and an array object already dropped) reads on.
    A = tiledb_codec.open(FIX / "sparse_chunked")
    total = A.read().num_rows
    for _ in range(20):
        reader = A.batches(batch_size=100)
        assert next(iter(reader)).num_rows == 100
        del reader
        unread = A._stream()
        del unread
    reader = tiledb_codec.open(FIX / "sparse_chunked").batches(batch_size=500)  # its Array dropped
    assert sum(b.num_rows for b in reader) == total
    assert A.read().num_rows == total


def test_a_query_error_comes_from_the_stream_call():
    A = tiledb_codec.open(FIX / "sparse_chunked")
    with pytest.raises(tiledb_codec.TileDBCodecError, match="nope"):
        A.batches(where="nope > 1")
    with pytest.raises(tiledb_codec.TileDBCodecError):
        A.read({"nope": (0, 1)})


def test_other_arrow_consumers_take_the_stream():
    A = tiledb_codec.open(FIX / "dense_int_1d")
    stream = A._stream()
    assert hasattr(stream, "__arrow_c_stream__")
    t = pa.table(stream)
    assert t.num_rows == 20
    with pytest.raises(tiledb_codec.TileDBCodecError, match="already taken"):
        stream.__arrow_c_stream__()


def test_schema_nonempty_domain_fragments_and_meta_are_the_engines():
    for name in ("dense_int_2d", "sparse_strdim", "sparse_datetime_dim", "sparse_float_dims"):
        A = tiledb_codec.open(FIX / name)
        with tiledb.open(str(FIX / name)) as E:
            assert A.nonempty_domain() == E.nonempty_domain(), name
            assert [d.name for d in A.schema.dims] == [d.name for d in E.schema.domain]
            assert [a.name for a in A.schema.attrs] == [E.schema.attr(i).name for i in range(E.schema.nattr)]
            assert A.schema.sparse == E.schema.sparse
            assert len(A.fragments) == len(tiledb.array_fragments(str(FIX / name)))
    A = tiledb_codec.open(FIX / "array_metadata")
    with tiledb.open(str(FIX / "array_metadata")) as E:
        engine = {k: E.meta[k] for k in E.meta.keys()}
    ours = dict(A.meta)
    assert ours.keys() == engine.keys()
    for k in engine:
        e = engine[k]
        e = tuple(e) if isinstance(e, (list, tuple)) else e
        assert ours[k] == e, k
    r = repr(tiledb_codec.open(FIX / "enumerations").schema)
    assert "enumeration 'colors'" in r and "Dim(" in r and "Attr('color', UINT8" in r


def test_encrypted_array_needs_its_key():
    path = FIX / "encrypted_aes256gcm"
    key = next(k for n, p, k in fixtures() if p == path)
    assert tiledb_codec.open(path, key=key).read().num_rows > 0
    with pytest.raises(tiledb_codec.TileDBCodecError):
        tiledb_codec.open(path).read()
    with pytest.raises(tiledb_codec.TileDBCodecError, match="32 bytes"):
        tiledb_codec.open(path, key="short")


def test_bad_input_raises_the_package_exception(tmp_path):
    E = tiledb_codec.TileDBCodecError
    assert issubclass(E, Exception)
    with pytest.raises(E):
        tiledb_codec.open(tmp_path / "nothing here")
    (tmp_path / "junk" / "__schema").mkdir(parents=True)
    (tmp_path / "junk" / "__schema" / "__1_1_0123456789abcdef0123456789abcdef").write_bytes(b"\xff" * 40)
    with pytest.raises(E):
        tiledb_codec.open(tmp_path / "junk")
    A = tiledb_codec.open(FIX / "sparse_int_2d")
    with pytest.raises(E, match="nope"):
        A.read(attrs=["nope"])
    with pytest.raises(E):
        A.read(where="a >>> 5")
    with pytest.raises(E, match="no dimension"):
        A.read({"zz": (1, 2)})
    with pytest.raises(E):
        A.read({"r": (5, 1)})
    with pytest.raises(E):
        A.read({"r": ("a", "b")})
    with pytest.raises(E):
        A.read(order="sideways")
    with pytest.raises(E):
        A.enum("nothing")


def test_damaged_files_raise_the_package_exception_not_a_crash(tmp_path):
    import shutil

    for name in ("dense_var_nullable", "sparse_strdim", "filters_compressors"):
        for cut in (0.5, 0.0):
            dst = tmp_path / f"{name}-{cut}"
            shutil.copytree(FIX / name, dst)
            files = [p for p in (dst / "__fragments").rglob("*.tdb")]
            assert files, name
            for p in files:
                data = p.read_bytes()
                p.write_bytes(data[: int(len(data) * cut)])
            with pytest.raises(tiledb_codec.TileDBCodecError):
                tiledb_codec.open(dst).read()
            with pytest.raises(tiledb_codec.TileDBCodecError):
                tiledb_codec.open(dst).to_numpy()
