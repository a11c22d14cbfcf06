//! The command line's modules use one another without a cycle (the workspace's rule: `core/tests/support`), and it
//! is built on the core and the view crate, never on the web app.

#[path = "../../core/tests/support/module_graph.rs"]
mod module_graph;

#[test]
fn no_two_modules_use_each_other() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    module_graph::assert_no_sibling_cycles(&src, ("share_links", "input"));
}

#[test]
fn the_command_line_does_not_depend_on_the_web_app() {
    let manifest = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    assert!(!manifest.contains("ibcc-web"), "cli/Cargo.toml names ibcc-web");
    assert!(manifest.contains("ibcc-view") && manifest.contains("ibcc-core"));
}
