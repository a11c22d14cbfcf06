//! The core's layers (`src/lib.rs`): each module uses only the modules below it. Read from the source, before each
//! file's first `#[cfg(test)]` (tests may reach up: presets make good fixtures), so a new `use crate::...` that
//! reaches up a layer fails here.

#[path = "support/module_graph.rs"]
mod module_graph;

use std::collections::BTreeSet;
use std::path::Path;

/// Bottom up; a module may use those listed before it.
const LAYERS: [&str; 14] = [
    "time", "rng", "wire", "nullable", "prefetch", "engine", "fabric", "net", "metrics", "cc", "scenario", "workload",
    "sim", "presets",
];

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

/// The top-level modules a piece of code names after `crate::`, in paths (`crate::net::host`) and groups
/// (`crate::{cc, net::packet}`). (`super::super::` never leaves a module here; the check does not follow it.)
fn used_modules(code: &str) -> Vec<String> {
    let name = |s: &str| -> String { s.chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect() };
    let mut out = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + 7..];
        if let Some(group) = rest.strip_prefix('{') {
            let inner = &group[..group.find('}').unwrap_or(group.len())];
            out.extend(inner.split(',').map(|p| name(p.trim())).filter(|n| !n.is_empty()));
        } else {
            out.push(name(rest));
        }
    }
    out.retain(|n| !n.is_empty());
    out
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
        for used in used_modules(code) {
            if used == module {
                continue;
            }
            let used_rank = LAYERS.iter().position(|l| *l == used).unwrap_or_else(|| panic!("{used}: no layer"));
            assert!(used_rank < rank, "{}: {module} uses crate::{used}, a layer above it", rel.display());
            seen.insert((module.to_owned(), used));
        }
    }
    assert_eq!(used_modules("use crate::{cc, net::packet::Lane};"), ["cc", "net"]);
    // The check saw the imports it is about (it would pass vacuously on a wrong path).
    assert!(seen.contains(&("sim".to_owned(), "cc".to_owned())) && seen.contains(&("cc".to_owned(), "net".to_owned())));
}

#[test]
fn no_two_modules_use_each_other() {
    module_graph::assert_no_sibling_cycles(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), ("sim", "cc"));
}

/// No two source files of the workspace share a name (but `mod.rs`, `lib.rs` and `main.rs`): a name says what a
/// file holds, so two files of one name would mean two things (a share link is `share_link.rs`, never `link.rs`,
/// which would read as a network link).
#[test]
fn every_source_file_has_a_name_of_its_own() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut seen: std::collections::BTreeMap<String, std::path::PathBuf> = Default::default();
    let mut clashes = Vec::new();
    for krate in ["core", "view", "web", "cli"] {
        let mut files = Vec::new();
        rust_files(&root.join(krate).join("src"), &mut files);
        assert!(!files.is_empty(), "{krate} has sources");
        for f in files {
            let name = f.file_name().unwrap().to_str().unwrap().to_owned();
            if matches!(name.as_str(), "mod.rs" | "lib.rs" | "main.rs") {
                continue;
            }
            if let Some(first) = seen.insert(name.clone(), f.clone()) {
                clashes.push(format!("{} and {}", first.display(), f.display()));
            }
        }
    }
    assert!(clashes.is_empty(), "files with the same name: {clashes:?}");
}

/// The workspace allows `unsafe` code in one place: the prefetch hint (`src/prefetch.rs`). The lint is `deny`, not
/// `forbid`, so that one block can be allowed; this keeps it the only one, in every crate of the workspace (any
/// attribute naming the lint, `allow` or `expect`, alone or with others).
#[test]
fn unsafe_code_is_allowed_only_for_the_prefetch_hint() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf();
    let mut files = Vec::new();
    for krate in ["core", "view", "web", "cli"] {
        rust_files(&root.join(krate).join("src"), &mut files);
    }
    assert!(files.len() > 50, "the workspace's sources were found ({} files)", files.len());
    let naming_the_lint: Vec<String> = files
        .iter()
        .filter(|f| std::fs::read_to_string(f).unwrap().contains("unsafe_code"))
        .map(|f| {
            let rel = f.strip_prefix(&root).unwrap().components();
            rel.map(|c| c.as_os_str().to_str().unwrap()).collect::<Vec<_>>().join("/")
        })
        .collect();
    assert_eq!(naming_the_lint, ["core/src/prefetch.rs"]);
}
