//! The module graph of a crate, read from its source, for the layer tests of every crate in the workspace (each
//! includes this file): which module uses which (`crate::a::b`, `super::c`, groups `{..}` included, in code before
//! a file's first `#[cfg(test)]`), and the rule every crate keeps: **at every level of the module tree, the
//! children of a module use one another without a cycle** (a module may use its ancestors and descendants; two
//! siblings may not use each other, however deep inside them the uses are).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path inside its crate: `["ui", "playground", "live"]`; the crate root is empty.
pub type Module = Vec<String>;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "bin") {
                rust_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a file under `src` is.
fn module_of(src: &Path, file: &Path) -> Module {
    let rel = file.strip_prefix(src).unwrap();
    let mut parts: Vec<String> = rel.components().map(|c| c.as_os_str().to_str().unwrap().to_owned()).collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_owned());
    }
    parts
}

fn ident(s: &str) -> String {
    s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect()
}

/// The text of a `{..}` group starting just after its `{`, up to its matching `}`.
fn group(text: &str) -> &str {
    let mut depth = 0;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return &text[..i],
            '}' => depth -= 1,
            _ => {}
        }
    }
    text
}

/// The paths a use-tree names, each after `head`: `a::b`, `a::{b, c::{d, e}}`, `a as b` (the alias is dropped).
fn tree(head: &[String], text: &str, out: &mut Vec<Vec<String>>) {
    let mut path = head.to_vec();
    let mut rest = text.trim_start();
    loop {
        if let Some(inner) = rest.strip_prefix('{') {
            let inner = group(inner);
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        tree(&path, &inner[start..i], out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            if !inner[start..].trim().is_empty() {
                tree(&path, &inner[start..], out);
            }
            return;
        }
        let seg = ident(rest);
        if seg.is_empty() {
            if path.len() > head.len() || !head.is_empty() {
                out.push(path);
            }
            return;
        }
        rest = rest[seg.len()..].trim_start();
        path.push(seg);
        match rest.strip_prefix("::") {
            Some(r) => rest = r.trim_start(),
            None => {
                out.push(path);
                return;
            }
        }
    }
}

/// The paths a piece of code names starting at `crate::` or `super::`, each as segments (groups expanded).
fn paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    for start in ["crate::", "super::"] {
        for (at, _) in code.match_indices(start) {
            // A whole word: not `foo_crate::` nor `$crate::`.
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_' || bytes[at - 1] == b'$') {
                continue;
            }
            // Not the tail of a longer path (`super::super::x` is read once, from its first `super`).
            if code[..at].ends_with("::") {
                continue;
            }
            tree(&[start.trim_end_matches("::").to_owned()], &code[at + start.len()..], &mut out);
        }
    }
    out
}

/// What a module re-exports (`pub use child::Item;`, `pub(crate) use ...`): each item's name and its path.
fn reexports(code: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices("use ") {
        let before = code[..at].trim_end();
        if !(before.ends_with("pub") || before.ends_with(')') && before.contains("pub(")) {
            continue;
        }
        let stmt = &code[at + 4..];
        let stmt = &stmt[..stmt.find(';').unwrap_or(stmt.len())];
        let mut items = Vec::new();
        tree(&[], stmt, &mut items);
        for path in items {
            if let Some(name) = path.last() {
                out.push((name.clone(), path.clone()));
            }
        }
    }
    out
}

/// The code of a file that is not its tests (up to a `#[cfg(test)]` that opens a module) and not its comments (a
/// doc comment's link names no dependency).
fn non_test_code(text: &str) -> String {
    let mut end = text.len();
    let mut from = 0;
    while let Some(i) = text[from..].find("#[cfg(test)]") {
        let at = from + i;
        if text[at + 12..].trim_start().starts_with("mod ") {
            end = at;
            break;
        }
        from = at + 12;
    }
    let uncommented = |line: &str| -> String {
        // `//` starts a comment unless it is a URL's (`https://`).
        let cut = line.match_indices("//").map(|(i, _)| i).find(|&i| i == 0 || !line[..i].ends_with(':'));
        line[..cut.unwrap_or(line.len())].to_owned()
    };
    text[..end].lines().map(uncommented).collect::<Vec<_>>().join("\n")
}

/// Items a module re-exports from another: `(module, item) -> the module it comes from`.
type Reexports = BTreeMap<(Module, String), Module>;

/// The module a path names from module `at`: its longest prefix that is a module of the crate, or, for an item a
/// module re-exports (`super::Report` where `sim` has `pub use report::Report`), the module it comes from.
fn resolve(path: &[String], at: &Module, modules: &BTreeSet<Module>, reexported: &Reexports) -> Option<Module> {
    let mut base: Module = Vec::new();
    let mut rest = path;
    if path.first().is_some_and(|s| s == "crate") {
        rest = &path[1..];
    } else if path.first().is_some_and(|s| s == "super") {
        base = at.clone();
        while rest.first().is_some_and(|s| s == "super") {
            base.pop()?;
            rest = &rest[1..];
        }
    } else {
        base = at.clone(); // a path relative to `at` (a re-export naming a child module)
    }
    let mut found = base.clone();
    let mut m = base;
    let mut used = 0;
    for seg in rest {
        m.push(seg.clone());
        if modules.contains(&m) {
            found = m.clone();
            used += 1;
        } else {
            break;
        }
    }
    if let Some(item) = rest.get(used) {
        if let Some(from) = reexported.get(&(found.clone(), item.clone())) {
            return Some(from.clone());
        }
    }
    Some(found)
}

/// Every use of one module by another in the crate whose sources are in `src`, with the file it is in.
pub fn uses(src: &Path) -> (BTreeSet<Module>, Vec<(Module, Module, PathBuf)>) {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeSet<Module> = files.iter().map(|f| module_of(src, f)).collect();
    let texts: Vec<(Module, String)> =
        files.iter().map(|f| (module_of(src, f), std::fs::read_to_string(f).unwrap())).collect();
    // Re-exports first (those naming a child module resolve to it; a re-export of a re-export, once more).
    let mut reexported = Reexports::new();
    for _ in 0..2 {
        for (at, text) in &texts {
            for (name, path) in reexports(&non_test_code(text)) {
                if let Some(from) = resolve(&path, at, &modules, &reexported) {
                    if from != *at {
                        reexported.insert((at.clone(), name), from);
                    }
                }
            }
        }
    }
    let mut edges = Vec::new();
    for (file, (at, text)) in files.iter().zip(&texts) {
        let at = at.clone();
        let code = non_test_code(text);
        for p in paths(&code) {
            if let Some(to) = resolve(&p, &at, &modules, &reexported) {
                if to != at {
                    edges.push((at.clone(), to, file.clone()));
                }
            }
        }
    }
    (modules, edges)
}

/// The cycles among siblings, if any: each as the modules on it and a file that makes each step.
pub fn sibling_cycles(src: &Path) -> Vec<String> {
    let (_, edges) = uses(src);
    // Per parent: the edges between its children, each with a file that makes it.
    let mut levels: BTreeMap<Module, BTreeMap<(String, String), PathBuf>> = BTreeMap::new();
    for (from, to, file) in edges {
        let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
        if common == from.len() || common == to.len() {
            continue; // an ancestor or a descendant
        }
        let parent = from[..common].to_vec();
        levels.entry(parent).or_default().entry((from[common].clone(), to[common].clone())).or_insert(file);
    }
    let mut cycles = Vec::new();
    for (parent, edges) in levels {
        let nodes: BTreeSet<&String> = edges.keys().flat_map(|(a, b)| [a, b]).collect();
        // Depth-first search for a back edge.
        let mut state: BTreeMap<&String, u8> = BTreeMap::new();
        fn visit<'a>(
            n: &'a String,
            edges: &'a BTreeMap<(String, String), PathBuf>,
            state: &mut BTreeMap<&'a String, u8>,
            stack: &mut Vec<&'a String>,
            found: &mut Option<Vec<String>>,
        ) {
            state.insert(n, 1);
            stack.push(n);
            for ((a, b), _) in edges.iter().filter(|((a, _), _)| a == n) {
                match state.get(b) {
                    Some(1) if found.is_none() => {
                        let from = stack.iter().position(|x| *x == b).unwrap();
                        let mut cycle: Vec<String> = stack[from..].iter().map(|s| (*s).clone()).collect();
                        cycle.push(b.clone());
                        *found = Some(cycle);
                    }
                    None => visit(b, edges, state, stack, found),
                    _ => {}
                }
                let _ = a;
            }
            stack.pop();
            state.insert(n, 2);
        }
        let mut found = None;
        for n in &nodes {
            if !state.contains_key(n) {
                visit(n, &edges, &mut state, &mut Vec::new(), &mut found);
            }
        }
        if let Some(cycle) = found {
            let steps: Vec<String> = cycle
                .windows(2)
                .map(|w| format!("{} -> {} ({})", w[0], w[1], edges[&(w[0].clone(), w[1].clone())].display()))
                .collect();
            cycles.push(format!(
                "in {}: {}",
                if parent.is_empty() { "the crate".into() } else { parent.join("::") },
                steps.join(", ")
            ));
        }
    }
    cycles
}

/// Checks the rule on one crate, and that the check sees uses at all (it would pass vacuously on a wrong path).
pub fn assert_no_sibling_cycles(src: &Path, expected_use: (&str, &str)) {
    let cycles = sibling_cycles(src);
    assert!(cycles.is_empty(), "modules that use each other in a cycle:\n{}", cycles.join("\n"));
    let (_, edges) = uses(src);
    let name = |m: &Module| m.join("::");
    assert!(
        edges.iter().any(|(a, b, _)| name(a) == expected_use.0 && name(b) == expected_use.1),
        "the check saw no use of {} by {}",
        expected_use.1,
        expected_use.0
    );
}

#[test]
fn paths_and_groups_are_read_and_cycles_found() {
    let p = paths("use crate::{cc, net::{packet::Lane, vl}}; use super::super::x::Y; let a = foo_crate::z;");
    let want = [vec!["crate", "cc"], vec!["crate", "net", "packet", "Lane"], vec!["crate", "net", "vl"]];
    assert_eq!(p[..3], want);
    assert_eq!(p[3], ["super", "super", "x", "Y"]);
    assert_eq!(reexports("pub use a::B; pub(crate) use c::{D, e::F}; use g::H;").len(), 3);
    let dir = std::env::temp_dir().join(format!("module-graph-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("a")).unwrap();
    // b uses a's item H, which a re-exports from its child x; x uses b: a cycle between a and b.
    std::fs::write(dir.join("lib.rs"), "mod a; mod b;").unwrap();
    std::fs::write(dir.join("a/mod.rs"), "mod x; pub use x::H;\n#[cfg(test)]\nconst T: u8 = 0;\n").unwrap();
    std::fs::write(dir.join("a/x.rs"), "use super::super::b::g;").unwrap();
    std::fs::write(dir.join("b.rs"), "use crate::a::H;").unwrap();
    let cycles = sibling_cycles(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(cycles.len(), 1, "{cycles:?}");
    assert!(
        cycles[0].starts_with("in the crate: a -> b") || cycles[0].starts_with("in the crate: b -> a"),
        "{cycles:?}"
    );
}
