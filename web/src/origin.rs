//! Where the scenario being edited came from (a preset, the empty canvas, a generator, a file, a link), so the
//! scenario picker can say what is loaded: "Edited: Congestion spreading, INFOCOM'03 Fig. 2". Pure Rust, tested
//! natively.

use ibcc_core::presets::{find, Preset, PRESETS};
use serde::{Deserialize, Serialize};

/// Where the scenario came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Origin {
    /// A preset, as it is.
    Preset(String),
    /// The empty canvas.
    Empty,
    /// A generated network, by its description.
    Generated(String),
    /// A scenario file, by its name.
    File(String),
    /// A share link.
    Link,
    /// An exercise link.
    Exercise,
    /// A built-in lesson's exercise, by the lesson's title.
    LessonExercise(String),
    /// Any of these, then edited.
    Edited(Box<Origin>),
    /// A preset (by its name) as a lesson's steps set it: the student changed nothing (it read "Edited:").
    ForLesson(String),
}

impl Origin {
    /// The picker's value: a preset's name, `empty`, or `custom` for anything else.
    pub fn picker_value(&self) -> &str {
        match self {
            Origin::Preset(name) => name,
            Origin::Empty => EMPTY,
            _ => CUSTOM,
        }
    }

    /// What is loaded, in words.
    pub fn describe(&self) -> String {
        match self {
            Origin::Preset(name) => find(name).map_or_else(|| name.clone(), |p| p.label()),
            Origin::Empty => String::from("Empty canvas: build your own"),
            Origin::Generated(what) => format!("Generated: {what}"),
            Origin::File(name) => format!("Opened: {name}"),
            Origin::Link => String::from("From a shared link"),
            Origin::Exercise => String::from("Your teacher's exercise"),
            Origin::LessonExercise(lesson) => format!("Exercise of lesson {lesson}"),
            Origin::ForLesson(name) => format!("For the lesson: {}", Origin::Preset(name.clone()).describe()),
            Origin::Edited(inner) => match &**inner {
                Origin::Generated(what) => format!("Edited: {what}"),
                Origin::File(name) => format!("Edited: {name}"),
                Origin::ForLesson(name) => format!("Edited: {}", Origin::Preset(name.clone()).describe()),
                Origin::Empty => String::from("Built on the canvas"),
                other => format!("Edited: {}", other.describe()),
            },
        }
    }

    /// This origin after an edit.
    /// Whether this is an exercise's scenario (as loaded, or edited since).
    pub fn is_exercise(&self) -> bool {
        match self {
            Origin::Exercise | Origin::LessonExercise(_) => true,
            Origin::Edited(from) => from.is_exercise(),
            _ => false,
        }
    }

    pub fn edited(self) -> Origin {
        match self {
            Origin::Edited(_) => self,
            other => Origin::Edited(Box::new(other)),
        }
    }

    /// This origin after a lesson's step changed settings: a preset, as loaded or as a lesson set it, is the
    /// lesson's; anything else (the student's own changes among them) is edited.
    pub fn set_by_lesson(self) -> Origin {
        match self {
            Origin::Preset(name) | Origin::ForLesson(name) => Origin::ForLesson(name),
            other => other.edited(),
        }
    }
}

/// What a run is, in words, for its plots' titles: a preset by its title, "Edited: ..." once the run differs from
/// the preset it is named after, or the scenario's own name.
pub fn run_title(run: &ibcc_core::scenario::Scenario) -> String {
    match find(&run.name) {
        Some(p) if crate::session::same_run(&p.scenario(), run) => p.label(),
        Some(p) => format!("Edited: {}", p.label()),
        None => run.name.clone(),
    }
}

/// The picker's value for the empty canvas, and for anything not a preset.
pub const EMPTY: &str = "empty";
pub const CUSTOM: &str = "custom";

/// The picker's groups: presets whose name starts with one of these prefixes, in this order.
const GROUPS: &[(&str, &[&str])] = &[
    ("The papers' experiments", &["infocom03-", "globecom02-"]),
    ("Other mechanisms on the same network", &["hp-", "vl-", "pft-two", "a10-two"]),
    ("Fat trees", &["fattree4-hotspot", "pft-fat", "a10-fat"]),
    ("Fabrics routed as OpenSM routes them", &["fattree4-shift", "ring6", "fabric32"]),
];

/// The presets as the picker groups them.
pub fn picker_groups() -> Vec<(&'static str, Vec<&'static Preset>)> {
    GROUPS
        .iter()
        .map(|(g, prefixes)| (*g, PRESETS.iter().filter(|p| prefixes.iter().any(|x| p.name.starts_with(x))).collect()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_is_titled_by_its_preset_until_it_is_changed() {
        let mut s = find("infocom03-fig2").unwrap().scenario();
        let label = find("infocom03-fig2").unwrap().label();
        assert_eq!(run_title(&s), label);
        s.seed += 1;
        assert_eq!(run_title(&s), format!("Edited: {label}"));
        s.name = String::from("mine");
        assert_eq!(run_title(&s), "mine");
    }

    #[test]
    fn the_picker_says_what_is_loaded() {
        assert_eq!(Origin::Preset("infocom03-fig2".into()).describe(), "Congestion spreading, INFOCOM'03 Fig. 2");
        let edited = Origin::Preset("infocom03-fig2".into()).edited();
        assert_eq!(edited.describe(), "Edited: Congestion spreading, INFOCOM'03 Fig. 2");
        assert_eq!(edited.clone().edited(), edited, "edited twice is still edited once");
        assert_eq!(edited.picker_value(), CUSTOM);
        assert_eq!(Origin::Generated("parking lot of 5".into()).describe(), "Generated: parking lot of 5");
        assert_eq!(Origin::Empty.edited().describe(), "Built on the canvas");
        // A lesson's step changing a preset's settings is not the student's edit; the student's after it is.
        let lesson = Origin::Preset("infocom03-fig2".into()).set_by_lesson();
        assert_eq!(lesson.describe(), "For the lesson: Congestion spreading, INFOCOM'03 Fig. 2");
        assert_eq!(lesson.clone().set_by_lesson(), lesson);
        assert_eq!(lesson.edited().describe(), "Edited: Congestion spreading, INFOCOM'03 Fig. 2");
        assert_eq!(Origin::Link.set_by_lesson(), Origin::Link.edited());
        let lesson = Origin::LessonExercise("3. Congestion spreading and its victims".into());
        assert_eq!(lesson.describe(), "Exercise of lesson 3. Congestion spreading and its victims");
        assert!(lesson.is_exercise() && lesson.edited().is_exercise());
    }

    #[test]
    fn the_picker_lists_every_preset_once() {
        let listed: Vec<&str> = picker_groups().into_iter().flat_map(|(_, ps)| ps).map(|p| p.name).collect();
        let mut all: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
        let mut sorted = listed.clone();
        sorted.sort_unstable();
        all.sort_unstable();
        assert_eq!(sorted, all);
    }
}
