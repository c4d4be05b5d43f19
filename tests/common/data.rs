//! Where the tests find their reference data; shared by `common` and the UCI harness.

use std::path::PathBuf;

/// `tests/data/<rel>`: the published reference data the tests use, kept in the repository.
pub fn test_data(rel: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel);
    assert!(path.exists(), "test data {} is missing", path.display());
    path
}
