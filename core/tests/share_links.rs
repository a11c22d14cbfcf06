//! Share links on random scenarios (property test): any valid scenario, with any layout and plot, comes back from
//! its link exactly; and any damage to a link is refused with an error, never a panic.

mod common;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use common::random_scenario;
use ibcc_core::rng::Rng;
use ibcc_core::scenario::share_link::{decode, decode_bytes, encode, Shared};
use ibcc_core::scenario::RoutingEngine;

#[test]
fn random_scenarios_round_trip_through_links() {
    for seed in 1..=200 {
        let mut s = random_scenario(seed);
        let mut rng = Rng::new(seed, 0x11AC);
        // Layout with arbitrary fractions, to check floats come back bit for bit.
        for n in &mut s.nodes {
            if rng.below(4) > 0 {
                (n.x, n.y) = (Some(rng.uniform() * 2000.0 - 500.0), Some(rng.uniform() * 1e-3));
            }
        }
        s.validate().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let plot = ["rates", "limits", "buffers", "marks"].get(rng.below(5) as usize).map(|p| p.to_string());
        // A moment to open at, anywhere in the run (its end included), or none.
        let end_ps = s.duration_ns * 1_000;
        let at_ps = [None, Some(rng.below(end_ps + 1)), Some(end_ps)][rng.below(3) as usize];
        let shared = Shared { scenario: s, plot, at_ps };
        let back = decode(&encode(&shared)).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        // (Equal scenarios make the same run: the simulation reads nothing else.)
        assert_eq!(back, shared, "seed {seed}");
    }
}

#[test]
fn damaged_links_are_refused_not_panicked_on() {
    let link = encode(&Shared { scenario: random_scenario(7), plot: None, at_ps: None });
    let mut rng = Rng::new(7, 0xBAD);
    for i in 0..2000 {
        let mut bytes = link.clone().into_bytes();
        match i % 4 {
            0 => bytes.truncate(rng.below(bytes.len() as u64) as usize),
            1 => {
                let at = rng.below(bytes.len() as u64) as usize;
                bytes[at] = rng.below(256) as u8;
            }
            2 => {
                let at = 2 + rng.below(bytes.len() as u64 - 2) as usize;
                bytes[at] = b"ABCxyz019-_"[rng.below(11) as usize];
            }
            _ => bytes.extend((0..rng.below(50)).map(|_| rng.below(256) as u8)),
        }
        // Either it still opens (a harmless change) or it says why not.
        if let Ok(shared) = decode_bytes(&bytes) {
            shared.scenario.validate().unwrap();
        }
    }
}

/// The fuzzer's corpus (fuzz/README.md) as a regression test: every input it kept decodes to a valid scenario or
/// an error, as the fuzz target feeds it.
#[test]
fn the_fuzz_corpus_decodes_without_panicking() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../fuzz/corpus/link_decode");
    let mut inputs = 0;
    let mut opened = 0;
    for entry in std::fs::read_dir(dir).expect("the fuzz corpus is in the repository") {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        let result = match bytes.split_first() {
            Some((0, packed)) => decode(&format!("1.{}", URL_SAFE_NO_PAD.encode(packed))),
            _ => decode_bytes(&bytes),
        };
        if let Ok(shared) = result {
            shared.scenario.validate().unwrap();
            opened += 1;
        }
        inputs += 1;
    }
    assert!(inputs >= 3 && opened >= 3, "{inputs} inputs, {opened} opened (the seeds are presets' links)");
}

/// Links already handed out must keep opening: this one was made by link format version 1 (INFOCOM'03 Fig. 3b,
/// buffers plot) and is kept as it was. A format change must migrate it (scenario::share_link::migrate), not break it.
#[test]
fn a_version_1_link_still_opens() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/golden/link-v1.txt")).unwrap();
    let shared = decode(&text).unwrap();
    assert_eq!(shared.scenario.name, "infocom03-fig3b");
    assert_eq!(shared.plot.as_deref(), Some("buffers"));
    assert_eq!((shared.scenario.nodes.len(), shared.scenario.flows.len()), (11, 7));
    assert_eq!(shared.scenario.source.window_packets, Some(1));
}

/// The page deflates links with the browser's CompressionStream, the command line with miniz_oxide: this link was
/// made by the page (Chromium, INFOCOM'03 Fig. 3b with the buffers plot; tests/browser/share.test.mjs checks the
/// page still writes the same JSON) and must open here, as the command line's open in the page.
#[test]
fn a_link_made_by_the_browser_opens() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/golden/link-browser.txt")).unwrap();
    let shared = decode(&text).unwrap();
    assert_eq!(shared.scenario, ibcc_core::presets::find("infocom03-fig3b").unwrap().scenario());
    assert_eq!(shared.plot.as_deref(), Some("buffers"));
}

/// A link the page made at format version 2, before routing engines: it opens routed as it was then (first-listed
/// neighbour), and is otherwise the preset.
#[test]
fn a_version_2_link_keeps_its_routing() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/golden/link-browser-v2.txt")).unwrap();
    let shared = decode(&text).unwrap();
    assert_eq!(shared.scenario.routing.engine, RoutingEngine::FirstListed);
    let mut want = ibcc_core::presets::find("infocom03-fig3b").unwrap().scenario();
    want.routing.engine = RoutingEngine::FirstListed;
    assert_eq!(shared.scenario, want);
    assert_eq!(shared.plot.as_deref(), Some("buffers"));
}
