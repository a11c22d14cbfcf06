//! Determinism across platforms and a guard on the model (rapier's portability test): each golden run's
//! fingerprint (a hash of every event it tells its observers, `sim::Fingerprint`) must equal the recorded line in
//! tests/golden/fingerprints.txt, natively here and in the browser (tests/browser/golden.test.mjs compares the
//! worker's lines with the same file). The fingerprint reads no report, so a new result field leaves it alone; a
//! change of the model moves it. If a deliberate model change moves a line, record the new one in the same commit
//! and say why.

use ibcc_core::presets::golden_runs;
use ibcc_core::sim::{Fingerprint, Simulation};

/// `name fingerprint` for every golden run, one per line.
fn lines() -> String {
    let mut out = String::new();
    for (name, scenario) in golden_runs() {
        let mut sim = Simulation::new(&scenario).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut fp = Fingerprint::default();
        sim.run(&mut fp);
        sim.check_invariants().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(fp.events() > 1000, "{name}: a golden run must do something ({} events)", fp.events());
        out += &format!("{name} {:016x}\n", fp.value());
    }
    out
}

#[test]
fn every_golden_fingerprint_matches_the_recorded_line() {
    let recorded = include_str!("../../tests/golden/fingerprints.txt");
    let now = lines();
    if now != recorded {
        let changed: Vec<&str> = now.lines().filter(|l| !recorded.lines().any(|r| r == *l)).collect();
        panic!("golden runs changed: {changed:?}\nthe whole file is now:\n{now}");
    }
}

#[test]
fn the_fingerprint_sees_any_change_and_no_observer_changes_the_run() {
    let (_, s) = golden_runs().remove(0);
    let fingerprint = |s: &ibcc_core::scenario::Scenario| {
        let mut sim = Simulation::new(s).unwrap();
        let mut fp = Fingerprint::default();
        sim.run(&mut fp);
        fp.value()
    };
    let base = fingerprint(&s);
    let mut other = s.clone();
    other.switch.forwarding_delay_ns += 1;
    assert_ne!(fingerprint(&other), base, "a 1 ns change of the model shows");
    // Measured by the report as well, the run is the same run.
    let mut sim = Simulation::new(&s).unwrap();
    let mut both = (ibcc_core::sim::Report::new(&sim), Fingerprint::default());
    sim.run(&mut both);
    assert_eq!(both.1.value(), base);
}
