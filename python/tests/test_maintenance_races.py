"""Writes and reads of the Python package beside maintenance: a separate
process consolidates and vacuums the array in every mode, in a loop, while
this one writes fragments, reads them back with fresh handles and with one
opened before the maintenance, and reads the metadata. No write or read fails, every read holds
every cell written before it began, and the engine reads the same at the
end (issue 47, item 2)."""

import subprocess
import sys
import textwrap

import tiledb

import tiledb_codec
from tiledb_codec import Attr, Dim, Schema

ROUNDS = 6

MAINTAIN = textwrap.dedent("""
    import sys
    import tiledb_codec
    uri, rounds = sys.argv[1], int(sys.argv[2])
    for _ in range(rounds):
        for mode in ("fragments", "commits", "fragment_meta", "array_meta"):
            tiledb_codec.consolidate(uri, mode)
            tiledb_codec.vacuum(uri, mode)
        print("round", flush=True)
""")


def cells(A):
    t = A.read(attrs=["a"])
    d, a = t.column("d").to_pylist(), t.column("a").to_pylist()
    assert d == a or sorted(d) == sorted(a)
    return sorted(d)


def test_python_writes_and_reads_beside_consolidate_and_vacuum(tmp_path):
    uri = tmp_path / "array"
    schema = Schema(dims=[Dim("d", "INT64", (0, 9_999_999), 100)], attrs=[Attr("a", "INT64")], sparse=True,
                    capacity=50)
    A = tiledb_codec.create(uri, schema)
    written = []
    for k in range(4):
        ds = list(range(k * 10, k * 10 + 5))
        A.write({"d": ds, "a": ds})
        written += ds
    A.meta["k"] = 1
    held = tiledb_codec.open(uri)  # opened before the maintenance, read during and after it
    env_path = ":".join(p for p in sys.path if p)
    proc = subprocess.Popen([sys.executable, "-c", MAINTAIN, str(uri), str(ROUNDS)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"})
    seed = sorted(written)
    writes = reads = 0
    failures = []
    k = 100
    while proc.poll() is None or writes < 4:
        ds = list(range(k * 10, k * 10 + 5))
        try:
            tiledb_codec.open(uri).write({"d": ds, "a": ds})
            written += ds
            writes += 1
        except tiledb_codec.TileDBCodecError as e:
            failures.append(f"write {k}: {e}")
        k += 1
        before = sorted(written)
        try:
            fresh = tiledb_codec.open(uri)
            missing = sorted(set(before) - set(cells(fresh)))
            if missing:
                failures.append(f"read: {len(missing)} committed cells missing (first {missing[0]})")
            if dict(fresh.meta) != {"k": 1}:
                failures.append(f"metadata: {dict(fresh.meta)}")
            # The handle opened before the maintenance reads every cell it
            # saw then; once its files are vacuumed it reads the array as it
            # is now (it was opened without a time range), never less.
            h = set(cells(held))
            if not set(seed) <= h <= set(written):
                failures.append(f"held: {len(h)} cells, {len(seed)} at its open, {len(written)} written")
            reads += 2
        except tiledb_codec.TileDBCodecError as e:
            failures.append(f"read: {e}")
    out, err = proc.communicate()
    assert proc.returncode == 0, err
    assert out.count("round") == ROUNDS
    assert not failures, failures
    assert writes >= 4 and reads >= 8, (writes, reads)
    assert set(seed) <= set(cells(held)) <= set(written)
    final = cells(tiledb_codec.open(uri))
    assert final == sorted(written)
    with tiledb.open(str(uri)) as E:
        assert sorted(E[:]["d"].tolist()) == final
