"""The exceptions: each kind of failure raises its subclass of
TileDBCodecError, carrying file, offset, table and field where the library
knows them; bad input raises, it does not crash the interpreter."""

import os
import shutil

import pytest

import tiledb_codec
from conftest import ROOT

FIX = ROOT / "tests" / "fixtures" / "v22"
KEY = "0123456789abcdeF0123456789abcdeF"
KINDS = ("FormatError", "SchemaError", "QueryError", "ConditionError", "StorageError", "EncryptionKeyError",
         "NotFoundError")


def test_the_subclasses_and_their_attributes():
    for name in KINDS:
        cls = getattr(tiledb_codec, name)
        assert issubclass(cls, tiledb_codec.TileDBCodecError) and name in tiledb_codec.__all__
    assert issubclass(tiledb_codec.ConditionError, tiledb_codec.QueryError)
    e = tiledb_codec.TileDBCodecError("raised from Python")
    assert (e.file, e.offset, e.table, e.field) == (None, None, None, None)


def schema_file(array):
    folder = array / "__schema"
    return folder / sorted(p for p in os.listdir(folder) if not p.startswith("."))[0]


def test_a_bad_array_raises_a_format_error_saying_where(tmp_path):
    bad = tmp_path / "bad"
    shutil.copytree(FIX / "dense_int_1d", bad)
    f = schema_file(bad)
    data = bytearray(f.read_bytes())
    data[0:8] = b"\xff" * 8  # the generic tile header's version and sizes
    f.write_bytes(bytes(data))
    with pytest.raises(tiledb_codec.FormatError) as e:
        tiledb_codec.open(bad).read()
    err = e.value
    assert err.file is not None and err.file.endswith(f.name), err.file
    assert isinstance(err.offset, int) and err.offset >= 0
    assert err.table and isinstance(err.table, str)
    assert err.field is None or isinstance(err.field, str)
    assert err.file in str(err)


def test_a_truncated_file_raises_and_does_not_crash(tmp_path):
    bad = tmp_path / "truncated"
    shutil.copytree(FIX / "sparse_int_2d", bad)
    for root, _, files in os.walk(bad):
        for name in files:
            p = os.path.join(root, name)
            if os.path.getsize(p) > 16:
                with open(p, "r+b") as fh:
                    fh.truncate(os.path.getsize(p) // 2)
    with pytest.raises(tiledb_codec.TileDBCodecError) as e:
        tiledb_codec.open(bad).read()
    assert type(e.value) is not tiledb_codec.TileDBCodecError  # a kind, not the base


def test_nothing_there_is_not_found(tmp_path):
    with pytest.raises(tiledb_codec.NotFoundError) as e:
        tiledb_codec.open(tmp_path / "nothing")
    assert e.value.file is not None and "nothing" in e.value.file


@pytest.mark.parametrize("cond", ["a >", "a > 'x' and", "no_such_field == 3", "a in [1, 'x']"])
def test_a_bad_condition_raises_a_condition_error(cond):
    A = tiledb_codec.open(FIX / "sparse_int_2d")
    with pytest.raises(tiledb_codec.ConditionError) as e:
        A.read(where=cond)
    assert isinstance(e.value, tiledb_codec.QueryError)
    assert e.value.file is None  # a condition concerns no file


def test_a_bad_query_raises_a_query_error_naming_the_field():
    A = tiledb_codec.open(FIX / "sparse_int_2d")
    with pytest.raises(tiledb_codec.QueryError) as e:
        A.read(attrs=["nope"])
    assert e.value.field == "nope"
    with pytest.raises(tiledb_codec.QueryError) as e:
        A.read(ranges={"r": (5, 1)})
    assert e.value.field == "r"


def test_a_wrong_key_raises_an_encryption_key_error():
    path = FIX / "encrypted_aes256gcm"
    assert tiledb_codec.open(path, key=KEY).read().num_rows > 0
    with pytest.raises(tiledb_codec.EncryptionKeyError) as e:
        tiledb_codec.open(path, key="x" * 32)
    assert e.value.file is not None and str(path) in e.value.file
    with pytest.raises(tiledb_codec.EncryptionKeyError) as e:
        tiledb_codec.open(path)
    assert e.value.file is not None and e.value.table and e.value.field == "encryption_type"
    with pytest.raises(tiledb_codec.EncryptionKeyError):
        tiledb_codec.open(path, key="short")
    with pytest.raises(tiledb_codec.EncryptionKeyError) as e:
        tiledb_codec.open(FIX / "dense_int_1d", key=KEY)
    assert e.value.offset is not None


def test_a_bad_schema_raises_a_schema_error_naming_the_part(tmp_path):
    from tiledb_codec import Attr, Dim, Schema

    bad = Schema(dims=[Dim("x", "INT64", (10, 1), 5)], attrs=[Attr("a", "FLOAT64")])
    with pytest.raises(tiledb_codec.SchemaError) as e:
        tiledb_codec.create(tmp_path / "a", bad)
    assert e.value.field == "schema.dimensions[0].domain"


def test_the_compat_module_raises_the_same_classes(tmp_path):
    import tiledb_codec.compat as tiledb

    with pytest.raises(tiledb.TileDBError):
        tiledb.open(str(tmp_path / "nothing"))
    with pytest.raises(tiledb_codec.ConditionError):
        tiledb.open(str(FIX / "sparse_int_2d")).query(cond="a >")[:]


CRASH_SCRIPT = r"""
import os, random, shutil, sys
import tiledb_codec, tiledb_codec.compat as compat
src, tmp, seeds = sys.argv[1], sys.argv[2], int(sys.argv[3])
kinds = {}
for seed in range(seeds):
    rng = random.Random(seed)
    dst = os.path.join(tmp, f"a{seed}")
    shutil.copytree(src, dst)
    files = sorted(os.path.join(r, f) for r, _, fs in os.walk(dst) for f in fs)
    for p in rng.sample(files, min(3, len(files))):
        data = bytearray(open(p, "rb").read())
        for _ in range(rng.randint(1, 8)):
            if data:
                data[rng.randrange(len(data))] = rng.randrange(256)
        if rng.random() < 0.3:
            data = data[: rng.randrange(len(data) + 1)]
        open(p, "wb").write(bytes(data))
    for read in (lambda: tiledb_codec.open(dst).read(), lambda: compat.open(dst)[:],
                 lambda: compat.FragmentInfoList(dst).cell_num, lambda: compat.ArraySchema.load(dst).domain,
                 lambda: tiledb_codec.open(dst).dataset().to_table(columns=["a"])):
        try:
            read()
        except tiledb_codec.TileDBCodecError as e:
            kinds[type(e).__name__] = kinds.get(type(e).__name__, 0) + 1
        except Exception as e:  # pyarrow's errors of a stream that failed midway
            kinds["other:" + type(e).__name__] = kinds.get("other:" + type(e).__name__, 0) + 1
print(sorted(kinds.items()))
"""


def test_damaged_arrays_raise_and_never_crash_the_interpreter(tmp_path):
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-c", CRASH_SCRIPT, str(FIX / "sparse_int_2d"), str(tmp_path), "40"],
                       capture_output=True, text=True, timeout=600,
                       env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert r.returncode == 0, f"the interpreter died ({r.returncode}):\n{r.stdout}\n{r.stderr[-3000:]}"
    assert "FormatError" in r.stdout, r.stdout
