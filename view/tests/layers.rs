//! The view crate's modules use one another without a cycle (the workspace's rule: `core/tests/support`).

#[path = "../../core/tests/support/module_graph.rs"]
mod module_graph;

#[test]
fn no_two_modules_use_each_other() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    module_graph::assert_no_sibling_cycles(&src, ("plot", "palette"));
}
