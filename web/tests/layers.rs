//! The web app's modules use one another without a cycle, at every level (the workspace's rule:
//! `core/tests/support`): in the UI too, where a lesson opens the A/B view through the document, not by reaching
//! into it.

#[path = "../../core/tests/support/module_graph.rs"]
mod module_graph;

#[test]
fn no_two_modules_use_each_other() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    module_graph::assert_no_sibling_cycles(&src, ("ui::compare", "ui::document"));
}
