//! The public fabric files in core/tests/fabrics (their provenance and licences are beside them), for the tests of
//! both crates that read them.

use std::path::Path;

/// Each fixture's file name and text, in name order.
pub fn fabric_fixtures() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/tests/fabrics");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "topo" || x == "topofile"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "the fixtures in {}", dir.display());
    files
        .iter()
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(p).unwrap()))
        .collect()
}
