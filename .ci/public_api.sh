#!/usr/bin/env bash
# Each published crate's public API against its committed listing
# (`public-api.txt` in the crate's folder), from the rustdoc JSON that
# .ci/rustdoc-merged wrote while the tests ran. A change to a crate's
# surface fails here until its listing is updated, so it shows in review:
#
#     python3 .ci/public_api.py target/public-api/CRATE.json > FOLDER/public-api.txt
#
# Every crate's public structs are also checked for public fields without
# `#[non_exhaustive]` (a user's struct literal would break when a field is
# added): such a struct has private fields and `with_*` setters, or is
# `#[non_exhaustive]`.
#
# Then each check is shown to fail: the listing's on an unlisted change (a
# public function planted in the library's JSON, and its first item that is
# not a module taken out of it), the fields' on a planted struct with a
# public field.
set -euo pipefail
cd "$(dirname "$0")/.."
json=target/public-api
fail=0
for pair in tiledb_codec_format:crates/format tiledb_codec_filters:crates/filters tiledb_codec:. tiledb_codec_sql:crates/sql tiledb_codec_cli:crates/cli; do
    crate=${pair%%:*}
    dir=${pair#*:}
    if [[ ! -f "$json/$crate.json" ]]; then
        echo "no rustdoc JSON for $crate in $json (run the tests with RUSTDOC=.ci/rustdoc-merged)" >&2
        exit 1
    fi
    python3 .ci/public_api.py --check "$dir/public-api.txt" "$json/$crate.json" || fail=1
    python3 .ci/public_api.py --check-fields "$json/$crate.json" || fail=1
done
((fail == 0)) || exit 1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 .ci/public_api.py --plant-function "$tmp/planted.json" "$json/tiledb_codec.json"
if python3 .ci/public_api.py --check public-api.txt "$tmp/planted.json" 2>"$tmp/out"; then
    echo "the public API check passed a planted public function" >&2
    exit 1
fi
grep -q '^+pub fn tiledb_codec::planted_by_ci' "$tmp/out" || {
    echo "the public API check did not name the planted function:" >&2
    cat "$tmp/out" >&2
    exit 1
}
python3 .ci/public_api.py --remove-first-item "$tmp/removed.json" "$json/tiledb_codec.json"
if python3 .ci/public_api.py --check public-api.txt "$tmp/removed.json" 2>/dev/null; then
    echo "the public API check passed a removed public item" >&2
    exit 1
fi
python3 .ci/public_api.py --plant-struct "$tmp/struct.json" "$json/tiledb_codec.json"
if python3 .ci/public_api.py --check-fields "$tmp/struct.json" 2>"$tmp/out"; then
    echo "the field check passed a planted struct with a public field" >&2
    exit 1
fi
grep -q '^tiledb_codec::PlantedByCi: public fields (field)' "$tmp/out" || {
    echo "the field check did not name the planted struct:" >&2
    cat "$tmp/out" >&2
    exit 1
}
echo "public API: every listing matches, no struct has public fields without #[non_exhaustive]; planted and removed items and a planted open struct are caught"
