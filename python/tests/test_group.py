"""Groups in the native API: a TileDB-SOMA-like experiment made by the
engine (TileDB-Py 0.36.1: nested groups, arrays, metadata, relative and
absolute member URIs) walked with tiledb_codec.open_group, equal to the
engine's view; and the package's namespace."""

import numpy as np
import pytest
import tiledb

import tiledb_codec
from conftest import ROOT, assert_same_cells, engine_cells, table_cells


def make_dataframe(uri, n):
    dom = tiledb.Domain(tiledb.Dim("soma_joinid", domain=(0, 2**20), tile=64, dtype=np.int64))
    schema = tiledb.ArraySchema(domain=dom, sparse=True, attrs=[
        tiledb.Attr("obs_id", dtype=str), tiledb.Attr("n_genes", dtype=np.int32),
        tiledb.Attr("score", dtype=np.float64, nullable=True)])
    tiledb.Array.create(uri, schema)
    with tiledb.open(uri, "w") as A:
        score = np.arange(n, dtype=np.float64) / 3
        A[np.arange(n)] = {"obs_id": np.array([f"cell{i}" for i in range(n)], dtype=object),
                           "n_genes": np.arange(n, dtype=np.int32) * 7,
                           "score": np.ma.masked_array(score, mask=np.arange(n) % 4 == 0)}
        A.meta["soma_object_type"] = "SOMADataFrame"
        A.meta["encoding_version"] = "1.1.0"


def make_matrix(uri):
    dom = tiledb.Domain(tiledb.Dim("soma_dim_0", domain=(0, 99), tile=10, dtype=np.int64),
                        tiledb.Dim("soma_dim_1", domain=(0, 49), tile=10, dtype=np.int64))
    schema = tiledb.ArraySchema(domain=dom, sparse=True, attrs=[
        tiledb.Attr("soma_data", dtype=np.float32, filters=tiledb.FilterList([tiledb.ZstdFilter(level=3)]))])
    tiledb.Array.create(uri, schema)
    rng = np.random.default_rng(44)
    cells = rng.choice(100 * 50, 300, replace=False)
    i, j = cells // 50, cells % 50
    with tiledb.open(uri, "w") as A:
        A[i, j] = {"soma_data": rng.random(300).astype(np.float32)}
        A.meta["soma_object_type"] = "SOMASparseNDArray"


def make_group(uri, kind, members):
    tiledb.Group.create(uri)
    with tiledb.Group(uri, "w") as g:
        g.meta["soma_object_type"] = kind
        g.meta["dataset_version"] = 3
        for name, member_uri, relative in members:
            g.add(member_uri, name=name, relative=relative)


@pytest.fixture(scope="module")
def experiment(tmp_path_factory):
    root = tmp_path_factory.mktemp("soma") / "experiment"
    root.mkdir()
    make_dataframe(str(root / "obs"), 40)
    (root / "ms").mkdir()
    rna = root / "ms" / "RNA"
    rna.mkdir()
    make_dataframe(str(rna / "var"), 50)
    (rna / "X").mkdir()
    make_matrix(str(rna / "X" / "data"))
    # An array kept outside the experiment, a member by its absolute URI.
    outside = root.parent / "raw_counts"
    make_matrix(str(outside))
    make_group(str(rna / "X"), "SOMACollection", [("data", "data", True), ("raw", str(outside), False)])
    make_group(str(rna), "SOMAMeasurement", [("var", "var", True), ("X", "X", True)])
    make_group(str(root / "ms"), "SOMACollection", [("RNA", "RNA", True)])
    make_group(str(root), "SOMAExperiment", [("obs", "obs", True), ("ms", "ms", True)])
    return root


def engine_view(uri):
    """The engine's view of a group, recursively: metadata, then per member
    its name, type and URI (as a path), and its own view."""
    out = {}
    with tiledb.Group(uri) as g:
        out["meta"] = {k: g.meta[k] for k in g.meta.keys()}
        members = {}
        for m in g:
            path = m.uri[len("file://"):] if m.uri.startswith("file://") else m.uri
            kind = "group" if m.type is tiledb.Group else "array"
            members[m.name] = (kind, path, engine_view(m.uri) if kind == "group" else None)
        out["members"] = members
    return out


def our_view(group):
    out = {"meta": group.meta, "members": {}}
    for m in group:
        sub = our_view(group.open(m.name)) if m.type == "group" else None
        out["members"][m.name] = (m.type, m.path, sub)
    return out


def test_a_soma_experiment_is_walked_as_the_engine_sees_it(experiment):
    g = tiledb_codec.open_group(experiment)
    assert our_view(g) == engine_view(str(experiment))
    assert [m.name for m in g.members] == ["ms", "obs"]
    assert g["obs"].relative and g["obs"].type == "array"
    raw = tiledb_codec.open_group(experiment / "ms" / "RNA" / "X")["raw"]
    assert not raw.relative and raw.path == str(experiment.parent / "raw_counts")


def test_member_arrays_read_the_engines_cells(experiment):
    def arrays(group, path):
        for m in group:
            if m.type == "group":
                yield from arrays(group.open(m.name), path + [m.name])
            else:
                yield "/".join(path + [m.name]), group.open(m.name), m.path

    seen = []
    for name, A, path in arrays(tiledb_codec.open_group(experiment), []):
        assert_same_cells(table_cells(A.read()), engine_cells(path), name)
        with tiledb.open(path) as E:
            assert dict(A.meta) == {k: E.meta[k] for k in E.meta.keys()}, name
        seen.append(name)
    assert sorted(seen) == ["ms/RNA/X/data", "ms/RNA/X/raw", "ms/RNA/var", "obs"]


def test_object_type_and_errors(experiment, tmp_path):
    assert tiledb_codec.object_type(experiment) == "group"
    assert tiledb_codec.object_type(experiment / "obs") == "array"
    assert tiledb_codec.object_type(tmp_path) is None
    with pytest.raises(tiledb_codec.NotFoundError) as e:
        tiledb_codec.open_group(experiment / "obs")
    assert e.value.file == str(experiment / "obs")
    with pytest.raises(tiledb_codec.NotFoundError):
        tiledb_codec.open_group(experiment)["nope"]


def test_the_fixture_group_reads_as_the_engine_does():
    path = ROOT / "tests" / "fixtures" / "v22" / "group_basic"
    assert our_view(tiledb_codec.open_group(path)) == engine_view(str(path))


def test_dir_lists_only_the_api():
    names = set(dir(tiledb_codec))
    assert names == set(tiledb_codec.__all__) | {"compat"}
    for private in ("Any", "Dict", "Iterable", "json", "np", "os", "annotations", "Mapping"):
        assert private not in names
    for name in tiledb_codec.__all__:
        assert hasattr(tiledb_codec, name), name
    import tiledb_codec.compat as compat

    assert set(dir(compat)) == set(compat.__all__)
    for name in compat.__all__:
        assert hasattr(compat, name), name


def test_a_damaged_group_raises_a_format_error_saying_where(tmp_path):
    import os
    import shutil

    g = tmp_path / "g"
    shutil.copytree(ROOT / "tests" / "fixtures" / "v22" / "group_basic", g)
    details = sorted(os.listdir(g / "__group"))
    for name in details:
        p = g / "__group" / name
        data = bytearray(p.read_bytes())
        data[8:] = bytes(len(data) - 8)  # the header's sizes and the pipeline zeroed
        p.write_bytes(bytes(data))
    with pytest.raises(tiledb_codec.FormatError) as e:
        tiledb_codec.open_group(g)
    assert e.value.file is not None and os.path.basename(e.value.file) in details
    assert e.value.offset is not None and e.value.table
