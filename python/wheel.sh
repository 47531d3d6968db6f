#!/usr/bin/env bash
# Usage: python/wheel.sh [OUT]   (default OUT: $CARGO_TARGET_DIR/wheels-manylinux, else target/...)
#
# Builds the Python package's wheel for every Linux: abi3 (CPython 3.9+),
# manylinux2014 (glibc 2.17) x86_64, linked by zig (maturin --zig) so that
# it does not take the build machine's glibc; then checks it:
#   - `auditwheel show` must call it manylinux_2_17_x86_64 (manylinux2014);
#   - it installs into a fresh venv (numpy and pyarrow come from PyPI, no
#     TileDB), where the README's `python -c` line must print the schema
#     and `import tiledb` must fail (nothing of libtiledb came along);
#   - the sdist builds.
# It prints the wheel's name and size (docs/python.md gives them).
#
# maturin, ziglang (zig from PyPI: maturin runs `python -m ziglang`) and
# auditwheel live in a venv of their own, ZIG_VENV (default
# ~/.cache/tiledb-codec-ci/zig-venv, .ci/run keeps it in its cache), whose
# bin/ goes first on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
OUT=${1:-$TARGET/wheels-manylinux}
ZIG_VENV=${ZIG_VENV:-$HOME/.cache/tiledb-codec-ci/zig-venv}
PY=${PYTHON:-python3}

if [ ! -x "$ZIG_VENV/bin/maturin" ] || ! "$ZIG_VENV/bin/python" -c 'import ziglang' 2>/dev/null \
    || [ ! -x "$ZIG_VENV/bin/auditwheel" ]; then
    rm -rf "$ZIG_VENV"
    "$PY" -m venv "$ZIG_VENV"
    "$ZIG_VENV/bin/pip" install --quiet --disable-pip-version-check 'maturin>=1.5,<2' ziglang auditwheel
fi
export PATH="$ZIG_VENV/bin:$PATH"

rm -rf "$OUT"
mkdir -p "$OUT"
# The extension is built without the clippy wrapper CI's build step sets.
env -u RUSTC_WORKSPACE_WRAPPER -u CLIPPY_ARGS \
    maturin build --release --zig --compatibility manylinux2014 \
    --manifest-path python/Cargo.toml --out "$OUT"
wheel=$(ls "$OUT"/tiledb_codec-*.whl)

show=$(auditwheel show "$wheel")
echo "$show"
if ! grep -Eq 'manylinux_2_17_x86_64|manylinux2014_x86_64' <<<"$show"; then
    echo "wheel.sh: auditwheel does not call $wheel manylinux2014 (glibc 2.17)" >&2
    exit 1
fi
case "$(basename "$wheel")" in
    *-cp39-abi3-*manylinux_2_17_x86_64*) ;;
    *) echo "wheel.sh: $wheel is not tagged cp39-abi3 manylinux_2_17_x86_64" >&2; exit 1 ;;
esac

# A fresh venv: the wheel and its declared dependencies, nothing else.
venv="$OUT/venv"
"$PY" -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "$wheel"
line=$(grep -m1 '^python -c ' README.md)
code=${line#python -c }
code=${code#\"}
code=${code%\"}
out=$("$venv/bin/python" -c "$code")
echo "$out"
if ! grep -q "Dim('rows', INT64" <<<"$out"; then
    echo "wheel.sh: the README's python -c line printed no schema from the installed wheel" >&2
    exit 1
fi
if "$venv/bin/python" -c 'import tiledb' 2>/dev/null; then
    echo "wheel.sh: TileDB-Py is importable in the fresh venv: the check proves nothing" >&2
    exit 1
fi
rm -rf "$venv"

maturin sdist --manifest-path python/Cargo.toml --out "$OUT"
sdist=$(ls "$OUT"/tiledb_codec-*.tar.gz)
listing=$(tar -tzf "$sdist")
for f in pyproject.toml python/Cargo.toml crates/format/Cargo.toml crates/filters/Cargo.toml; do
    grep -q "^[^/]*/$f\$" <<<"$listing" || { echo "wheel.sh: no $f in $sdist" >&2; exit 1; }
done

echo "wheel: $(basename "$wheel") $(du -k "$wheel" | cut -f1) KiB ($(stat -c %s "$wheel") bytes)"
echo "sdist: $(basename "$sdist") $(du -k "$sdist" | cut -f1) KiB"
