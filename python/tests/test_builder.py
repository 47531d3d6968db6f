"""The schema builders, encrypted and timestamped writes, and enumeration
writes, judged by TileDB-Py 0.36.1 reading what we wrote."""

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
import tiledb

import tiledb_codec
from tiledb_codec import AttributeBuilder, DimensionBuilder, SchemaBuilder
from conftest import engine_cells, engine_ctx

KEY = "0123456789abcdeF0123456789abcdeF"  # 32 bytes


def test_a_dense_schema_from_the_builder_is_the_engine_schema(tmp_path):
    uri = tmp_path / "dense"
    schema = (SchemaBuilder.dense()
              .dimension(DimensionBuilder("row", "INT32").domain(1, 100).tile_extent(10))
              .dimension(DimensionBuilder("col", np.int32).domain(1, 20).tile_extent(5)
                         .filters([{"type": "ZSTD", "level": 5}]))
              .attribute(AttributeBuilder("v", "FLOAT64").filters(["ZSTD"]).fill_value(-1.5))
              .attribute(AttributeBuilder("n", np.int16).nullable())
              .attribute(AttributeBuilder("s", "STRING_UTF8").var())
              .attribute(AttributeBuilder("p", "FLOAT32").cell_val_num(3))
              .cell_order("col-major")
              .tile_order("col-major")
              .build())
    assert [d.name for d in schema.dims] == ["row", "col"] and not schema.sparse
    tiledb_codec.create(uri, schema)
    with tiledb.open(str(uri)) as E:
        s = E.schema
        assert not s.sparse and s.cell_order == "col-major" and s.tile_order == "col-major"
        assert s.domain.dim(0).domain == (1, 100) and s.domain.dim(0).tile == 10
        assert s.domain.dim(1).domain == (1, 20) and s.domain.dim(1).tile == 5
        assert s.domain.dim(1).filters[0].level == 5
        # None of its own: the schema's coordinate filters (ZSTD) apply.
        assert [type(f) for f in s.domain.dim(0).filters] == [tiledb.ZstdFilter]
        assert isinstance(s.attr("v").filters[0], tiledb.ZstdFilter)
        assert s.attr("v").fill == -1.5 and s.attr("v").dtype == np.float64
        assert s.attr("n").isnullable and s.attr("n").dtype == np.int16
        assert s.attr("s").isvar
        assert s.attr("p").ncells == 3 and s.attr("p").dtype == np.dtype([(f"f{i}", "<f4") for i in range(3)])


def test_a_sparse_schema_from_the_builder_is_the_engine_schema(tmp_path):
    uri = tmp_path / "sparse"
    builder = (SchemaBuilder.sparse()
               .dimension(DimensionBuilder("t", "datetime64[ms]").domain(0, 10**12).tile_extent(1000))
               .dimension(DimensionBuilder("k", "STRING_ASCII"))
               .attribute(AttributeBuilder("a", "UINT8"))
               .capacity(64)
               .allows_duplicates(True)
               .cell_order("hilbert")
               .offsets_filters([{"type": "ZSTD", "level": 1}]))
    A = tiledb_codec.create(uri, builder)  # a builder is built by create
    assert A.schema.capacity == 64 and A.schema.allows_duplicates
    with tiledb.open(str(uri)) as E:
        s = E.schema
        assert s.sparse and s.capacity == 64 and s.allows_duplicates and s.cell_order == "hilbert"
        assert s.domain.dim(0).dtype == np.dtype("datetime64[ms]")
        assert s.domain.dim(1).dtype == np.bytes_ and s.domain.dim(1).isvar
        assert s.offsets_filters[0].level == 1


def test_the_builder_refuses_what_the_rust_builder_refuses():
    E = tiledb_codec.TileDBCodecError
    dim = DimensionBuilder("x", "INT64").domain(0, 9).tile_extent(5)
    with pytest.raises(E, match="dimension"):
        SchemaBuilder.dense().attribute(AttributeBuilder("a", "INT32")).build()
    with pytest.raises(E, match="attribute"):
        SchemaBuilder.dense().dimension(dim).build()
    with pytest.raises(E, match="duplicates"):
        SchemaBuilder.dense().dimension(dim).attribute(AttributeBuilder("a", "INT32")).allows_duplicates(True).build()
    with pytest.raises(E, match="capacity"):
        SchemaBuilder.sparse().dimension(dim).attribute(AttributeBuilder("a", "INT32")).capacity(0).build()
    with pytest.raises(E, match="float|FLOAT|integer"):
        (SchemaBuilder.dense().dimension(DimensionBuilder("f", "FLOAT64").domain(0.0, 1.0).tile_extent(0.5))
         .attribute(AttributeBuilder("a", "INT32")).build())
    with pytest.raises(E):
        SchemaBuilder.dense().dimension(dim).attribute(AttributeBuilder("a", "INT32").cell_val_num(0)).build()
    with pytest.raises(E):
        SchemaBuilder.dense().dimension(dim).attribute(AttributeBuilder("x", "INT32")).build()  # name taken
    with pytest.raises(E):
        SchemaBuilder.dense().dimension(dim).attribute("a")


def test_an_encrypted_array_we_write_opens_in_the_engine_with_the_key(tmp_path):
    uri = tmp_path / "enc"
    schema = (SchemaBuilder.sparse()
              .dimension(DimensionBuilder("x", "INT64").domain(0, 99).tile_extent(10))
              .attribute(AttributeBuilder("a", "FLOAT64"))
              .attribute(AttributeBuilder("s", "STRING_UTF8").var()))
    A = tiledb_codec.create(uri, schema, key=KEY)
    A.write({"x": np.array([1, 5], dtype=np.int64), "a": [0.5, 2.0], "s": ["p", "qq"]}, timestamp=10)
    A.write({"x": np.array([7], dtype=np.int64), "a": [3.0], "s": ["r"]}, timestamp=20)
    A.meta.put("who", "us", timestamp=30)
    cells = engine_cells(uri, key=KEY)
    assert sorted((c["x"], c["a"], c["s"]) for c in engine_cells(uri, key=KEY)) == \
        [(1, 0.5, "p"), (5, 2.0, "qq"), (7, 3.0, "r")], cells
    with tiledb.open(str(uri), ctx=engine_ctx(KEY)) as E:
        assert E.meta["who"] == "us"
    with pytest.raises(tiledb.TileDBError):
        tiledb.open(str(uri)).schema  # no key: the engine cannot read it
    with pytest.raises(tiledb_codec.TileDBCodecError):
        tiledb_codec.open(uri)
    # Consolidation and vacuuming with the array's key.
    B = tiledb_codec.open(uri, key=KEY)
    assert B.consolidate() is True and B.vacuum() > 0
    assert len(tiledb_codec.open(uri, key=KEY).fragments) == 1
    assert sorted(c["x"] for c in engine_cells(uri, key=KEY)) == [1, 5, 7]


def test_the_engine_time_travels_to_our_timestamps(tmp_path):
    uri = tmp_path / "times"
    schema = (SchemaBuilder.sparse()
              .dimension(DimensionBuilder("x", "INT32").domain(0, 99).tile_extent(10))
              .attribute(AttributeBuilder("a", "INT32")))
    A = tiledb_codec.create(uri, schema, timestamp=5)
    for i, t in enumerate((100, 200, 300)):
        A.write({"x": np.array([i], dtype=np.int32), "a": np.array([t], dtype=np.int32)}, timestamp=t)
    A.meta.put("m", 1, timestamp=150)
    A.meta.put("m", 2, timestamp=250)
    assert [f["timestamps"] for f in tiledb_codec.open(uri).fragments] == [(100, 100), (200, 200), (300, 300)]
    assert sorted(c["a"] for c in engine_cells(uri, timestamp=250)) == [100, 200]
    assert sorted(c["a"] for c in engine_cells(uri, timestamp=(150, 300))) == [200, 300]
    with tiledb.open(str(uri), timestamp=200) as E:
        assert E.meta["m"] == 1
    with tiledb.open(str(uri), timestamp=260) as E:
        assert E.meta["m"] == 2
    assert sorted(tiledb_codec.open(uri, timestamp=250).read().column("a").to_pylist()) == [100, 200]
    # Consolidating only the first two: the engine sees one fragment of
    # 100..200 and the one of 300.
    assert tiledb_codec.open(uri).consolidate(timestamp=(100, 200)) is True
    tiledb_codec.open(uri).vacuum()
    with tiledb.open(str(uri)) as E:
        fi = tiledb.array_fragments(str(uri))
        assert sorted(fi.timestamp_range) == [(100, 200), (300, 300)]
        assert sorted(E[:]["a"].tolist()) == [100, 200, 300]


def enum_schema():
    return (SchemaBuilder.sparse()
            .dimension(DimensionBuilder("x", "INT64").domain(0, 99).tile_extent(10))
            .attribute(AttributeBuilder("color", "UINT8").nullable()
                       .enumeration("colors", ["red", "green", "blue"]))
            .attribute(AttributeBuilder("size", "INT32").enumeration("sizes"))
            .enumeration("sizes", [1.5, 2.5, 10.0], ordered=True))


def engine_labels(uri):
    with tiledb.open(str(uri)) as E:
        df = E.df[:]
    df = df.sort_values("x")
    return [(int(x), None if pd.isna(c) else str(c), float(s)) for x, c, s in zip(df["x"], df["color"], df["size"])]


def test_the_builder_s_enumerations_are_the_engine_s(tmp_path):
    uri = tmp_path / "enum_schema"
    tiledb_codec.create(uri, enum_schema())
    with tiledb.open(str(uri)) as E:
        assert E.enum("colors").values().tolist() == ["red", "green", "blue"]
        assert E.enum("sizes").values().tolist() == [1.5, 2.5, 10.0] and E.enum("sizes").ordered
        assert E.schema.attr("color").enum_label == "colors"


def test_labels_written_from_strings_dictionaries_and_pandas_read_back_as_labels(tmp_path):
    uri = tmp_path / "enum_write"
    A = tiledb_codec.create(uri, enum_schema())
    # Plain strings and floats (labels), with a null.
    A.write({"x": np.array([0, 1], dtype=np.int64), "color": ["blue", None], "size": [10.0, 1.5]}, timestamp=1)
    # A pyarrow dictionary array whose dictionary is not the enumeration's order.
    color = pa.DictionaryArray.from_arrays(pa.array([0, 1], pa.int8()), pa.array(["green", "red"]))
    A.write(pa.table({"x": pa.array([2, 3], pa.int64()), "color": color,
                      "size": pa.array([2.5, 2.5])}), timestamp=2)
    # A pandas DataFrame with a Categorical.
    df = pd.DataFrame({"x": np.array([4], dtype=np.int64),
                       "color": pd.Categorical(["red"], categories=["blue", "red"]),
                       "size": [1.5]})
    A.write(df, timestamp=3)
    expected = [(0, "blue", 10.0), (1, None, 1.5), (2, "green", 2.5), (3, "red", 2.5), (4, "red", 1.5)]
    assert engine_labels(uri) == expected
    # The keys are stored (the enumeration's positions, whatever the
    # dictionary written), as our read's dictionary indices show.
    ours = tiledb_codec.open(uri).read().sort_by("x")
    assert ours.column("size").combine_chunks().indices.to_pylist() == [2, 0, 1, 1, 0]
    assert ours.column("color").combine_chunks().indices.to_pylist() == [2, None, 1, 0, 0]
    ours = tiledb_codec.open(uri).to_pandas().sort_values("x")
    assert [str(c) for c in ours["color"].dropna()] == ["blue", "green", "red", "red"]


def test_a_label_the_enumeration_lacks_is_refused(tmp_path):
    uri = tmp_path / "enum_bad"
    A = tiledb_codec.create(uri, enum_schema())
    with pytest.raises(tiledb_codec.TileDBCodecError, match="color"):
        A.write({"x": np.array([0], dtype=np.int64), "color": ["purple"], "size": [1.5]})
    assert tiledb_codec.open(uri).fragments == []
