"""The Python in the docs runs against the package built for the tests:
every ```python block of README.md and docs/python.md (in order, one
namespace per page, in a scratch folder where tests/ is the repository's),
the README's `python -c` line, and the API reference generated from the
docstrings is the committed docs/python-api.md."""
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "python"))
import gen_api_docs  # noqa: E402

PAGES = ["README.md", "docs/python.md"]


def blocks(page, lang):
    with open(os.path.join(ROOT, page)) as f:
        text = f.read()
    return re.findall(r"^```" + lang + r"\n(.*?)^```", text, re.S | re.M)


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    os.symlink(os.path.join(ROOT, "tests"), tmp_path / "tests")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("page", PAGES)
def test_the_python_blocks_of_the_page_run(page, scratch):
    found = blocks(page, "python")
    assert found, f"{page} has Python examples"
    namespace = {"__name__": "__docs__"}
    for i, code in enumerate(found):
        try:
            exec(compile(code, f"{page}[python block {i + 1}]", "exec"), namespace)
        except Exception as e:  # noqa: BLE001 (the block is named in the failure)
            pytest.fail(f"{page}, Python block {i + 1} failed: {e!r}\n{code}")


def test_the_readmes_python_c_line_prints_the_schema(scratch):
    lines = [l.strip() for b in blocks("README.md", "console") for l in b.splitlines()
             if l.strip().startswith("python -c ")]
    assert len(lines) == 1, lines
    code = lines[0][len("python -c "):].strip()
    assert code[0] == code[-1] == '"'
    out = subprocess.run([sys.executable, "-c", code[1:-1]], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert out.returncode == 0, out.stderr
    assert "rows" in out.stdout and "INT64" in out.stdout.upper(), out.stdout


def test_the_api_reference_is_the_packages_docstrings():
    with open(gen_api_docs.PAGE) as f:
        committed = f.read()
    assert committed == gen_api_docs.page(), (
        "docs/python-api.md differs from the package's docstrings: "
        "run python python/gen_api_docs.py (with the package importable)")
