//! The Python package (python/, issue 23): `python/test.sh` builds its
//! extension module (debug, with cargo, sharing this build) and runs its
//! pytest suite in the engine's venv, judged by TileDB-Py in the same
//! process. Here the script must succeed
//! having run tests (pytest's summary names how many passed, none failed).

use std::process::Command;

use crate::common::{engine_python, root};

#[test]
fn the_python_package_passes_its_pytest_suite() {
    // The features these tests were built with, so that python/test.sh
    // builds the extension module in the same resolution (nothing rebuilt
    // but the package's crate).
    // The package's crash tests need the fail points in the extension too.
    let features: Vec<&str> = [
        ("tiledb-codec-cli/datafusion", cfg!(feature = "datafusion")),
        ("tiledb-codec-cli/ballista", cfg!(feature = "ballista")),
        (
            "tiledb-codec-cli/fail-points",
            cfg!(feature = "fail-points"),
        ),
        (
            "tiledb-codec-python/fail-points",
            cfg!(feature = "fail-points"),
        ),
    ]
    .into_iter()
    .filter(|(_, on)| *on)
    .map(|(f, _)| f)
    .collect();
    let mut cargo_args = std::env::var("CARGO_ARGS").unwrap_or_default();
    if !features.is_empty() {
        cargo_args.push_str(&format!(" --features {}", features.join(",")));
    }
    let out = Command::new("bash")
        .arg(root().join("python/test.sh"))
        .args(["-q", "-p", "no:cacheprovider"])
        .env("TILEDB_PYTHON", engine_python())
        .env("CARGO_ARGS", cargo_args.trim())
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "python/test.sh failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    // pytest -q ends with "N passed in S s" (", M skipped" may come too).
    let summary = stdout
        .lines()
        .rev()
        .find(|l| l.contains(" passed"))
        .unwrap_or_else(|| panic!("no pytest summary in:\n{stdout}\n{stderr}"));
    let passed: usize = summary
        .split_whitespace()
        .zip(summary.split_whitespace().skip(1))
        .find(|(_, w)| w.trim_end_matches(',') == "passed")
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or(0);
    assert!(passed > 0, "pytest ran no test: {summary}");
    assert!(
        !summary.contains("failed") && !summary.contains("error"),
        "{summary}"
    );
    assert!(
        !summary.contains("skipped"),
        "a Python test was skipped: {summary}"
    );
}
