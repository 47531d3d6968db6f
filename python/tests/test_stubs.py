"""The type stubs of the extension (tiledb_codec/_native.pyi) are checked
against the built module with mypy's stubtest: a function, class,
argument or default that differs fails here."""

import os
import subprocess
import sys
from pathlib import Path

PYTHON_DIR = Path(__file__).resolve().parents[1]


def test_native_stubs_match_the_module():
    env = dict(os.environ, PYTHONPATH=str(PYTHON_DIR) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = [sys.executable, "-m", "mypy.stubtest", "tiledb_codec._native",
           "--mypy-config-file", str(PYTHON_DIR / "stubtest.ini")]
    r = subprocess.run(cmd, cwd=PYTHON_DIR, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
