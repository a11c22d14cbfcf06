//! The core's layers (`src/lib.rs`): each module uses only the modules below it. Read from the source, outside test
//! code, so a new `use crate::...` that reaches up a layer fails here.

use std::collections::BTreeSet;
use std::path::Path;

/// Bottom up; a module may use those listed before it.
const LAYERS: [&str; 10] = ["time", "rng", "nullable", "engine", "net", "metrics", "cc", "scenario", "sim", "presets"];

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn each_module_uses_only_the_layers_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut seen = BTreeSet::new();
    for file in files {
        let rel = file.strip_prefix(&src).unwrap();
        let first = rel.components().next().unwrap().as_os_str().to_str().unwrap();
        let module = first.trim_end_matches(".rs");
        if module == "lib" {
            continue;
        }
        let rank = LAYERS.iter().position(|l| *l == module).unwrap_or_else(|| panic!("{module} is in no layer"));
        let text = std::fs::read_to_string(&file).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap();
        for (at, _) in code.match_indices("crate::") {
            let used: String = code[at + 7..].chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect();
            if used == module || used.is_empty() {
                continue;
            }
            let used_rank = LAYERS.iter().position(|l| *l == used).unwrap_or_else(|| panic!("{used}: no layer"));
            assert!(used_rank < rank, "{}: {module} uses crate::{used}, a layer above it", rel.display());
            seen.insert((module.to_owned(), used));
        }
    }
    // The check saw the imports it is about (it would pass vacuously on a wrong path).
    assert!(seen.contains(&("sim".to_owned(), "cc".to_owned())) && seen.contains(&("cc".to_owned(), "net".to_owned())));
}
