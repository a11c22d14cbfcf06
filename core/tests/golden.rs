//! Determinism across platforms (rapier's portability test): a fixed scenario's results digest must equal the
//! recorded value, natively here and in the browser (tests/browser/golden.test.mjs compares the page's digest with
//! the same file). If a deliberate model change moves it, record the new value in the same commit and say why.

use ibcc_core::sim::Simulation;

/// The golden scenario: INFOCOM'03 Fig. 4b cut to 10 ms, with an ON/OFF flow so random draws are exercised too.
fn golden_scenario() -> ibcc_core::scenario::Scenario {
    ibcc_core::presets::golden_scenario()
}

#[test]
fn results_digest_matches_the_recorded_value() {
    let recorded = include_str!("../../tests/golden/digest.txt").trim();
    let mut sim = Simulation::new(&golden_scenario()).unwrap();
    sim.run();
    let digest = format!("{:016x}", sim.results().digest());
    assert_eq!(digest, recorded, "the golden run's results changed");
}
