//! The lessons' words checked against their pictures. A step's `claims` state what the drawing shows at the step's
//! moment: which links are roots of congestion or blocked, which flows are victims, where a link's rate lies. Each
//! lesson is run to that moment with the page's own session and congestion tree (what the page draws), and every
//! claim is checked; a step whose text names a colour of the tree (root, blocked, victim) must make the claim, so a
//! lesson whose words and picture disagree fails the build. Test-only: the page carries the claims as data.

use crate::course::{library, Lesson};
use crate::session::{Frame, Session};
use ibcc_core::scenario::Scenario;
use serde::Deserialize;
use std::collections::BTreeMap;

const LESSONS_JSON: &str = include_str!("../../www/lessons.json");

/// What a step says the page shows at its moment.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct Claims {
    /// Exactly these links ("X->Y") are roots (empty: none is).
    roots: Option<Vec<String>>,
    /// Each of these links is blocked (dashed, amber halo).
    blocked: Vec<String>,
    not_blocked: Vec<String>,
    /// Each of these flows (by id) is a victim (amber flow halo).
    victims: Vec<String>,
    /// None of these flows (by id) is a victim.
    not_victims: Vec<String>,
    /// A link's rate now, as a percentage of the link, lies in [low, high].
    rates: BTreeMap<String, [f64; 2]>,
}

/// The channel of link "X->Y" (link `i` gives `2i` for a->b and `2i+1` for b->a).
fn channel(s: &Scenario, name: &str) -> Result<usize, String> {
    let (x, y) = name.split_once("->").ok_or_else(|| format!("{name:?} is not a link X->Y"))?;
    let i = s
        .links
        .iter()
        .position(|l| (l.a == x && l.b == y) || (l.a == y && l.b == x))
        .ok_or_else(|| format!("no link {name}"))?;
    Ok(2 * i + usize::from(s.links[i].a != x))
}

fn link_name(s: &Scenario, c: usize) -> String {
    let l = &s.links[c / 2];
    if c % 2 == 0 {
        format!("{}->{}", l.a, l.b)
    } else {
        format!("{}->{}", l.b, l.a)
    }
}

/// The flow with id `name` (ids, not groups: the browser walk-through reads the same claims off the drawing,
/// where each flow's curve carries its id).
fn flow(s: &Scenario, name: &str) -> Result<usize, String> {
    s.flows.iter().position(|f| f.id == name).ok_or_else(|| format!("no flow {name:?}"))
}

/// What the page shows: roots, blocked links and victims, for a failure's message.
fn shown(s: &Scenario, f: &Frame) -> String {
    let links = |keep: &dyn Fn(usize) -> bool| -> Vec<String> {
        (0..s.links.len() * 2).filter(|&c| keep(c)).map(|c| link_name(s, c)).collect()
    };
    let victims: Vec<&str> =
        (0..s.flows.len()).filter(|&i| f.tree.victim.get(i) == Some(&true)).map(|i| s.flows[i].id.as_str()).collect();
    format!(
        "the page shows roots {:?}, blocked {:?}, victims {:?}",
        links(&|c| f.tree.root(c)),
        links(&|c| f.tree.blocked(c)),
        victims
    )
}

fn check(s: &Scenario, f: &Frame, c: &Claims) -> Result<(), String> {
    let fail = |what: String| Err(format!("{what}; {}", shown(s, f)));
    if let Some(roots) = &c.roots {
        let mut want: Vec<usize> = roots.iter().map(|r| channel(s, r)).collect::<Result<_, _>>()?;
        want.sort_unstable();
        let got: Vec<usize> = (0..s.links.len() * 2).filter(|&ch| f.tree.root(ch)).collect();
        if got != want {
            return fail(format!("claims roots {roots:?}"));
        }
    }
    for l in &c.blocked {
        if !f.tree.blocked(channel(s, l)?) {
            return fail(format!("claims {l} blocked"));
        }
    }
    for l in &c.not_blocked {
        if f.tree.blocked(channel(s, l)?) {
            return fail(format!("claims {l} not blocked"));
        }
    }
    for v in &c.victims {
        if f.tree.victim.get(flow(s, v)?) != Some(&true) {
            return fail(format!("claims {v} a victim"));
        }
    }
    for v in &c.not_victims {
        if f.tree.victim.get(flow(s, v)?) == Some(&true) {
            return fail(format!("claims {v} no victim"));
        }
    }
    for (l, [low, high]) in &c.rates {
        let rate = 100.0 * f64::from(f.snapshot.links[channel(s, l)?].rate);
        if !(*low..=*high).contains(&rate) {
            return Err(format!("claims {l} at {low}-{high}% of the link; the page shows {rate:.1}%"));
        }
    }
    Ok(())
}

/// The moment step `k` is about: the last `run_to_ms` since the scene was loaded.
fn moment_ms(lesson: &Lesson, k: usize) -> Option<f64> {
    let mut at = None;
    for step in &lesson.steps[..=k] {
        if step.load.is_some() {
            at = None;
        }
        at = step.run_to_ms.or(at);
    }
    at
}

/// Every step whose text names a colour of the congestion tree states it as a claim.
#[test]
fn a_step_that_names_the_tree_s_colours_claims_them() {
    let lib = library(LESSONS_JSON).unwrap();
    for lesson in &lib.lessons {
        for (k, step) in lesson.steps.iter().enumerate() {
            let claims: Claims = match &step.claims {
                Some(v) => serde_json::from_value(v.clone())
                    .unwrap_or_else(|e| panic!("{} step {}: claims: {e}", lesson.id, k + 1)),
                None => Claims::default(),
            };
            let named = |role: &str| step.text.contains(&format!("]({role})"));
            let at = format!("{} step {}", lesson.id, k + 1);
            assert!(!named("root") || claims.roots.as_ref().is_some_and(|r| !r.is_empty()), "{at}: names a root");
            assert!(!named("blocked") || !claims.blocked.is_empty(), "{at}: names blocked links");
            assert!(!named("victim") || !claims.victims.is_empty(), "{at}: names a victim");
        }
    }
}

/// Each claim against the page's own run of the lesson at the step's moment.
#[test]
fn every_lesson_s_claims_hold_on_the_page_s_own_run() {
    let lib = library(LESSONS_JSON).unwrap();
    let mut checked = 0;
    for lesson in &lib.lessons {
        for (k, step) in lesson.steps.iter().enumerate() {
            let Some(v) = &step.claims else { continue };
            let at = format!("{} step {}", lesson.id, k + 1);
            let claims: Claims = serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{at}: claims: {e}"));
            let ms = moment_ms(lesson, k).unwrap_or_else(|| panic!("{at}: claims need a moment (run_to_ms)"));
            let (s, _, _) = lesson.scenario_at(k).unwrap();
            let mut run = Session::new(&s, Vec::new()).unwrap();
            run.advance((ms * 1e9) as u64, || true);
            if let Err(e) = check(&s, &run.frame(), &claims) {
                panic!("{at} at {ms} ms: {e}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 6, "claims checked on {checked} steps");
}
