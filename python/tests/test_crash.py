"""The package's writes stopped as a crash would stop them (issue 47,
item 3): a write, a metadata put and a delete in a child interpreter,
stopped right after each of their durable steps in turn (the library's
fail points, `_native._stop_after_durable_step`) and killed at random
moments. Each time TileDB-Py reads the state before or after, never in
between; once aged, `vacuum` leaves nothing uncommitted and TileDB-Py reads
the same."""

import os
import random
import shutil
import signal
import subprocess
import sys
import textwrap
import time

import pytest
import tiledb

import tiledb_codec
from tiledb_codec import Attr, Dim, Schema

STOPPED = 86

WRITES = {
    "write": "A.write({'d': list(range(5000, 5400)), 'a': list(range(5000, 5400))})",
    "meta put": "A.meta['new'] = 7",
    "delete": "A.delete('d < 50')",
}


def child(uri, what, step=None):
    arm = f"tiledb_codec._native._stop_after_durable_step({step})\n" if step else ""
    code = "import tiledb_codec\nA = tiledb_codec.open(%r)\n" % str(uri) + arm + WRITES[what] + "\n"
    env = {"PYTHONPATH": os.pathsep.join(p for p in sys.path if p), "PATH": os.environ.get("PATH", "/usr/bin")}
    return [sys.executable, "-c", code], env


def state(uri):
    """What TileDB-Py reads: the cells and the metadata."""
    with tiledb.open(str(uri)) as E:
        cells = sorted(zip(E[:]["d"].tolist(), E[:]["a"].tolist()))
        return cells, {k: E.meta[k] for k in E.meta.keys()}


def reclaim(uri):
    """Ages every file two hours and vacuums; nothing uncommitted stays."""
    old = time.time() - 7200
    for root, dirs, files in os.walk(uri):
        for n in dirs + files:
            os.utime(os.path.join(root, n), (old, old), follow_symlinks=False)
    tiledb_codec.vacuum(uri)
    for root, dirs, files in os.walk(uri):
        for n in dirs + files:
            assert not n.startswith(".tiledb-codec-") and not n.endswith(".tmp"), os.path.join(root, n)
    frags = os.listdir(os.path.join(uri, "__fragments"))
    commits = os.listdir(os.path.join(uri, "__commits"))
    assert all(f + ".wrt" in commits for f in frags), (frags, commits)


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    uri = str(tmp_path_factory.mktemp("crash") / "base")
    schema = Schema(dims=[Dim("d", "INT64", (0, 999_999), 1000)], attrs=[Attr("a", "INT64")], sparse=True,
                    capacity=100)
    A = tiledb_codec.create(uri, schema)
    for k in range(3):
        ds = list(range(k * 100, k * 100 + 100))
        A.write({"d": ds, "a": ds})
    A.meta["k"] = 1
    return uri


def outcomes(base, tmp_path, what):
    """The state before and after `what` run whole."""
    done = str(tmp_path / "done")
    shutil.copytree(base, done)
    argv, env = child(done, what)
    subprocess.run(argv, env=env, check=True)
    return state(base), state(done)


@pytest.mark.parametrize("what", sorted(WRITES))
def test_stopped_after_each_durable_step(base, tmp_path, what):
    before, after = outcomes(base, tmp_path, what)
    assert before != after
    stops = 0
    for step in range(1, 200):
        uri = str(tmp_path / f"step{step}")
        shutil.copytree(base, uri)
        argv, env = child(uri, what, step)
        out = subprocess.run(argv, env=env, capture_output=True, text=True)
        if out.returncode == 0:
            break
        assert out.returncode == STOPPED, out.stderr
        stops += 1
        now = state(uri)
        assert now in (before, after), f"{what} stopped after durable step {step}"
        reclaim(uri)
        assert state(uri) == now, f"{what} stopped after durable step {step}, reclaimed"
        shutil.rmtree(uri)
    else:
        pytest.fail(f"{what}: no end to its steps")
    assert stops >= 1, f"{what}: not one durable step (the extension needs the fail-points feature)"


@pytest.mark.parametrize("what", sorted(WRITES))
def test_killed_at_random_moments(base, tmp_path, what):
    before, after = outcomes(base, tmp_path, what)
    rng = random.Random()
    seen = set()
    for trial in range(6):
        uri = str(tmp_path / f"trial{trial}")
        shutil.copytree(base, uri)
        argv, env = child(uri, what)
        p = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.05, 0.6))
        p.send_signal(signal.SIGKILL)
        p.wait()
        now = state(uri)
        assert now in (before, after), f"{what} killed in trial {trial}"
        seen.add(now == after)
        reclaim(uri)
        assert state(uri) == now
        shutil.rmtree(uri)
