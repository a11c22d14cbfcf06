//! Lessons and exercises, read from data (`www/lessons.json`; exercise links): a lesson is steps that load a preset or
//! change settings, say what to watch and point at a link, buffer, flow or plot; an exercise asks for a measurable
//! outcome, and checks the student's answer against the run with the author's tolerance. Pure Rust, tested natively.

use ibcc_core::presets::find;
use ibcc_core::scenario::share_link::{pack, unpack, ShareLinkError};
use ibcc_core::scenario::{from_value, Scenario};
use ibcc_core::sim::congestion_impact::CanaryImpact;
use ibcc_core::sim::Measurement;
use ibcc_core::workload::gpcnet::Canary;
use ibcc_view::settings::EVERY_SETTING;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The built-in lessons, as shipped in `www/` (the page fetches them; the tests read them here).
#[cfg(test)]
const LESSONS_JSON: &str = include_str!("../../www/lessons.json");

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Library {
    pub version: u32,
    pub lessons: Vec<Lesson>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    pub id: String,
    pub title: String,
    pub steps: Vec<Step>,
    pub exercise: Option<Exercise>,
}

/// One step: what to read, and what the page does when the step is shown.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub text: String,
    /// A preset to load.
    #[serde(default)]
    pub load: Option<String>,
    /// Settings to change, by path (`"marking.policy"`), after loading.
    #[serde(default)]
    pub set: BTreeMap<String, Value>,
    #[serde(default)]
    pub highlight: Option<Highlight>,
    /// Another view to open from this step: `"finc"`, the Finc(t) explorer; `"impact"`, the congestion impact view.
    #[serde(default)]
    pub open: Option<String>,
    /// Runs the timeline to this time (ms) and pauses there: the moment the text is about.
    #[serde(default)]
    pub run_to_ms: Option<f64>,
    /// Opens the A/B comparison with this step's scenario as A and this preset as B, both run at once.
    #[serde(default)]
    pub compare: Option<String>,
    /// Something the student is asked to do, which the page notices. A step with a task sets nothing itself
    /// (never both: a step that changed what it asks for would blame the student for the lesson's change).
    #[serde(default)]
    pub task: Option<Task>,
    /// What the drawing shows at the step's moment, checked by the tests against the page's own run
    /// (`lesson_claims.rs`); the page itself only carries them.
    #[serde(default)]
    pub claims: Option<Value>,
}

/// What a student is asked to do in a step, and how the page knows it is done: one of a setting reached, a plot
/// shown, or a time the run has reached.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Task {
    /// A setting (path, as in `set`) that must equal `equals`, or be a number of at least `at_least`.
    #[serde(default)]
    pub setting: Option<String>,
    #[serde(default)]
    pub equals: Option<Value>,
    #[serde(default)]
    pub at_least: Option<f64>,
    /// A plot kind that must be shown (`"buffers"`, ...).
    #[serde(default)]
    pub plot: Option<String>,
    /// A time (ms) the run must have reached.
    #[serde(default)]
    pub reach_ms: Option<f64>,
    /// What the page says once the student has done it ("You made the buffers one packet deep").
    pub done: String,
}

/// What the page is showing, for [`Task::done_by`].
#[derive(Debug, Clone, Copy)]
pub struct Seen<'a> {
    pub scenario: &'a Scenario,
    /// The plot kind shown (its id).
    pub plot: &'a str,
    /// How far the run of `scenario` has got, in ms.
    pub time_ms: f64,
}

impl Task {
    /// The task is well formed: exactly one thing to do, and a setting has exactly one target.
    pub fn validate(&self) -> Result<(), String> {
        let kinds = [self.setting.is_some(), self.plot.is_some(), self.reach_ms.is_some()];
        if kinds.iter().filter(|&&k| k).count() != 1 {
            return Err(String::from("a task asks for exactly one of setting, plot, reach_ms"));
        }
        if self.setting.is_some() != (self.equals.is_some() ^ self.at_least.is_some()) {
            return Err(String::from("a task's setting needs exactly one of equals, at_least"));
        }
        if self.setting.is_none() && (self.equals.is_some() || self.at_least.is_some()) {
            return Err(String::from("equals and at_least belong to a setting"));
        }
        if self.done.trim().is_empty() {
            return Err(String::from("a task says what was done"));
        }
        Ok(())
    }

    /// Whether what the page shows means the student has done it.
    pub fn done_by(&self, seen: Seen) -> bool {
        if let Some(path) = &self.setting {
            let Some(v) = seen.scenario.setting(path) else { return false };
            return match (&self.equals, self.at_least) {
                (Some(want), _) => v == *want || (v.as_f64().is_some() && v.as_f64() == want.as_f64()),
                (None, Some(min)) => v.as_f64().is_some_and(|x| x >= min),
                _ => false,
            };
        }
        if let Some(kind) = &self.plot {
            return seen.plot == kind;
        }
        self.reach_ms.is_some_and(|t| seen.time_ms + 1e-9 >= t)
    }
}

/// What a step points at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Highlight {
    /// A directed link, `"A->B"`.
    Link(String),
    /// The input buffer of switch `at` fed from node `from`.
    Buffer { at: String, from: String },
    /// A flow, or every flow of a group, by id or group name.
    Flow(String),
    /// A plot kind (`"rates"`, `"limits"`, `"buffers"`, `"marks"`), shown and outlined.
    Plot(String),
}

/// A question with a measurable answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exercise {
    pub id: String,
    pub question: String,
    /// The scenario: a preset (with `set` applied), or one given whole (exercises authored on the page).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<Scenario>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub set: BTreeMap<String, Value>,
    /// Settings (paths) the student must not change.
    #[serde(default)]
    pub locked: Vec<String>,
    /// What is asked: a measurement of the playground's run (a share of a link, in percent), or GPCNeT's impact
    /// factor from the congestion impact view's run on the exercise's network. Exactly one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measure: Option<Measurement>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub impact: Option<ImpactAsk>,
    /// How far the answer may be from the simulated value: in percentage points of a link, or for an impact in its
    /// own unit (0.2: within 0.2X).
    pub tolerance_pct: f64,
    /// What a first wrong answer is told (the second try comes after it); empty: the answer comes at once.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub hint: String,
    pub explanation: String,
}

/// GPCNeT's impact factor asked for: the no-control run of `canary` at `processes_per_node` and placement `seed` in
/// the congestion impact view (docs/gpcnet.md §5), on the exercise's network.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImpactAsk {
    pub canary: Canary,
    pub statistic: Statistic,
    pub processes_per_node: u32,
    #[serde(default = "first_seed")]
    pub seed: u64,
}

fn first_seed() -> u64 {
    1
}

/// Which of GPCNeT's two figures: the average or the 99th percentile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Statistic {
    Avg,
    P99,
}

impl ImpactAsk {
    /// The impact factor asked for, from a canary test's isolated and congested runs.
    pub fn of(&self, i: &CanaryImpact) -> f64 {
        match self.statistic {
            Statistic::Avg => i.impact_avg,
            Statistic::P99 => i.impact_p99,
        }
    }

    /// What it asks for, in words.
    pub fn describe(&self) -> String {
        let stat = if self.statistic == Statistic::Avg { "average" } else { "99th percentile" };
        format!(
            "the {stat}'s congestion impact of the {} test, no congestion control, {} processes per node, placement \
             seed {}",
            self.canary.id(),
            self.processes_per_node,
            self.seed
        )
    }
}

/// The outcome of checking an answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Right {
        simulated_pct: f64,
    },
    Wrong {
        simulated_pct: f64,
    },
    /// The run changed a locked setting.
    Locked(String),
    /// The run is not the exercise's (another scenario), or has not covered the measured interval.
    NotRun(String),
}

/// Reads the lesson library.
/// Reads the lesson library; a malformed task (a host's edited `lessons.json`) is named, as a parse error is.
pub fn library(text: &str) -> Result<Library, String> {
    let lib: Library = serde_json::from_str(text).map_err(|e| format!("lessons: {e}"))?;
    for lesson in &lib.lessons {
        for (k, step) in lesson.steps.iter().enumerate() {
            if let Some(task) = &step.task {
                task.validate().map_err(|e| format!("lessons: {} step {}: {e}", lesson.id, k + 1))?;
            }
        }
    }
    Ok(lib)
}

/// Whether `a` and `b` are the same network (nodes and links; flows and settings may differ).
pub fn same_network(a: &Scenario, b: &Scenario) -> bool {
    a.nodes.len() == b.nodes.len() && a.links == b.links
}

/// What `ran` changed of `own`, for an exercise that locks every setting: the first named setting that differs
/// (`EVERY_SETTING` if what differs has no name: a node's own setting, a link), or `None` for the same run. Where
/// it is measured and how it is drawn are not the run.
fn changed_from(ran: &Scenario, own: &Scenario) -> Option<String> {
    if same_run_measured_anywhere(ran, own) {
        return None;
    }
    let mut named = ibcc_view::settings::SETTINGS.iter().map(|s| s.path).filter(|p| !p.starts_with("measure."));
    Some(named.find(|p| ran.setting(p) != own.setting(p)).unwrap_or(EVERY_SETTING).to_owned())
}

/// Whether `run` is the run of `own`, whatever interval it measures (as `session::same_run`: names, descriptions
/// and layout do not change a run).
fn same_run_measured_anywhere(run: &Scenario, own: &Scenario) -> bool {
    let mut r = run.clone();
    r.measure = own.measure;
    r.without_layout() == own.without_layout()
}

impl Lesson {
    /// The scenario step `k` is about: its steps from the first to `k` applied in turn, with the preset the last
    /// `load` named and whether settings were changed since.
    pub fn scenario_at(&self, k: usize) -> Result<(Scenario, Option<String>, bool), String> {
        let mut s = Scenario::empty("", 1_000_000);
        let (mut preset, mut edited) = (None, false);
        for step in self.steps.iter().take(k + 1) {
            s = step.scenario(&s)?;
            if let Some(name) = &step.load {
                preset = Some(name.clone());
                edited = false;
            }
            edited |= !step.set.is_empty();
        }
        Ok((s, preset, edited))
    }
}

impl Step {
    /// Whether showing this step changes the page (loads, sets, runs, opens A/B): a scene, not a task.
    pub fn sets_the_scene(&self) -> bool {
        self.load.is_some() || !self.set.is_empty() || self.run_to_ms.is_some() || self.compare.is_some()
    }

    /// The scenario after this step, from `current`.
    pub fn scenario(&self, current: &Scenario) -> Result<Scenario, String> {
        let base = match &self.load {
            Some(name) => find(name).ok_or_else(|| format!("no preset {name:?}"))?.scenario(),
            None => current.clone(),
        };
        if self.set.is_empty() {
            Ok(base)
        } else {
            base.with_settings(&self.set)
        }
    }
}

impl Exercise {
    /// The exercise's scenario.
    pub fn scenario(&self) -> Result<Scenario, String> {
        let base = match (&self.scenario, &self.preset) {
            (Some(s), _) => s.clone(),
            (None, Some(name)) => find(name).ok_or_else(|| format!("no preset {name:?}"))?.scenario(),
            (None, None) => return Err(String::from("the exercise has no scenario")),
        };
        // The scenario measures where the exercise does, so the timeline's and the plot's shaded interval and the
        // Results are the exercise's.
        let mut s = base.with_settings(&self.set)?;
        if let Some(Ok((from, to))) = self.measure.as_ref().map(|m| m.interval_ns(&s)) {
            (s.measure.from_ns, s.measure.to_ns) = (from, Some(to));
        }
        Ok(s)
    }

    /// Checks `answer_pct` against `simulated` (the measurement's value in the student's run of `ran`, if it has
    /// one): the run must be of the exercise's network and flows with the locked settings unchanged.
    pub fn check(&self, ran: &Scenario, simulated: Option<f64>, answer_pct: f64) -> Verdict {
        let Ok(own) = self.scenario() else { return Verdict::NotRun(String::from("the exercise is broken")) };
        if !same_network(ran, &own) {
            return Verdict::NotRun(String::from("load the exercise's scenario and run it first"));
        }
        for path in &self.locked {
            if path == EVERY_SETTING {
                if let Some(changed) = changed_from(ran, &own) {
                    return Verdict::Locked(changed);
                }
            } else if ran.setting(path) != own.setting(path) {
                return Verdict::Locked(path.clone());
            }
        }
        let Some(value) = simulated else {
            return Verdict::NotRun(match &self.impact {
                Some(i) => format!(
                    "run the {} test with no congestion control at {} processes per node, placement seed {}, in the \
                     Congestion impact view first",
                    i.canary.id(),
                    i.processes_per_node,
                    i.seed
                ),
                None => String::from("run the scenario through the measured interval first"),
            });
        };
        // (An impact factor is answered as itself; a measurement as a percentage of a link.)
        let simulated_pct = if self.impact.is_some() { value } else { 100.0 * value };
        if (answer_pct - simulated_pct).abs() <= self.tolerance_pct {
            Verdict::Right { simulated_pct }
        } else {
            Verdict::Wrong { simulated_pct }
        }
    }

    /// Whether a wrong answer, after `wrong_before` earlier wrong ones, is shown the simulated value and the
    /// explanation: the first wrong answer gets the hint ([`Exercise::hint_or_reminder`]) and a second try instead.
    pub fn reveals(&self, wrong_before: u32) -> bool {
        wrong_before >= 1
    }

    /// The hint for a first wrong answer: the author's, or without one a reminder to read it again where it is
    /// measured (a teacher's exercise without a hint gave the value away at the first wrong answer, where the
    /// lessons' own give a second try).
    pub fn hint_or_reminder(&self) -> &str {
        if self.hint.trim().is_empty() {
            "Look again at what the exercise measures and over which interval: is that what you read?"
        } else {
            &self.hint
        }
    }

    /// Whether `run` is this exercise's own run (whatever interval it measures): the run whose value it asks for.
    pub fn is_own_run(&self, run: &Scenario) -> bool {
        self.scenario().is_ok_and(|own| same_run_measured_anywhere(run, &own))
    }

    /// The answer's unit: "%" of a link, or "X" for an impact factor.
    pub fn unit(&self) -> &'static str {
        if self.impact.is_some() {
            "X"
        } else {
            "%"
        }
    }

    /// What it asks for, in words (the exercise's "Measured:" line).
    pub fn describe(&self) -> String {
        match (&self.measure, &self.impact) {
            (Some(m), _) => m.describe(),
            (None, Some(i)) => i.describe(),
            (None, None) => String::from("nothing"),
        }
    }

    /// The exercise is usable: its scenario builds, it asks one thing, and its tolerance is a number.
    pub fn validate(&self) -> Result<(), String> {
        self.scenario().map_err(|err| format!("the exercise's scenario is not valid: {err}"))?;
        if self.measure.is_some() == self.impact.is_some() {
            return Err(String::from("an exercise asks for exactly one of measure, impact"));
        }
        if !(self.tolerance_pct.is_finite() && self.tolerance_pct >= 0.0) {
            return Err(String::from("the exercise's tolerance must be a number, 0 or more"));
        }
        Ok(())
    }
}

/// Exercises handed out together (a teacher's sheet): what an exercise link (`#x=`) carries. A link made before
/// sheets existed holds one bare exercise, and opens as a sheet of one.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sheet {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub title: String,
    pub exercises: Vec<Exercise>,
}

impl Sheet {
    /// A link that opens this sheet (without the `#x=`; deflated here: the page makes it from [`Sheet::json`]).
    pub fn to_link(&self) -> String {
        pack(self)
    }

    /// The JSON its link carries.
    pub fn json(&self) -> Vec<u8> {
        ibcc_core::scenario::share_link::json_of(self)
    }

    /// The sheet in a link (inflated here: the page inflates with the browser's, see `ui/links.rs`).
    pub fn from_link(link: &str) -> Result<Sheet, String> {
        Self::from_value(&unpack(link).map_err(|e| e.to_string())?)
    }

    /// The sheet in a link's JSON value; each exercise must be usable, and ids distinct (answers are kept by id).
    pub fn from_value(v: &Value) -> Result<Sheet, String> {
        let json = |e: String| ShareLinkError::Json(e).to_string();
        let sheet = if v.get("exercises").is_some() {
            from_value::<Sheet>(v).map_err(json)?
        } else {
            Sheet { title: String::new(), exercises: vec![from_value::<Exercise>(v).map_err(json)?] }
        };
        if sheet.exercises.is_empty() {
            return Err(String::from("the sheet has no exercises"));
        }
        for (i, e) in sheet.exercises.iter().enumerate() {
            e.validate()
                .map_err(|err| if sheet.exercises.len() > 1 { format!("exercise {}: {err}", i + 1) } else { err })?;
            if sheet.exercises[..i].iter().any(|o| o.id == e.id) {
                return Err(format!("exercise {}: its id {:?} is used twice", i + 1, e.id));
            }
        }
        Ok(sheet)
    }
}

/// A piece of lesson text: plain words, or a colour reference `[purple](group:victim)` (the word, and what it is
/// the colour of: a mark of the canvas, `group:NAME`, or `selection`), which the page shows with a swatch of the
/// colour it draws.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Span<'a> {
    Text(&'a str),
    Colour { word: &'a str, thing: &'a str },
}

/// `text` cut into plain words and colour references.
pub fn spans(text: &str) -> Vec<Span<'_>> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let reference = rest[open + 1..].split_once("](").and_then(|(word, tail)| {
            let (thing, after) = tail.split_once(')')?;
            (!word.contains('[') && !thing.contains(' ')).then_some((word, thing, after))
        });
        match reference {
            Some((word, thing, after)) => {
                if open > 0 {
                    out.push(Span::Text(&rest[..open]));
                }
                out.push(Span::Colour { word, thing });
                rest = after;
            }
            None => {
                out.push(Span::Text(&rest[..=open]));
                rest = &rest[open + 1..];
            }
        }
    }
    if !rest.is_empty() {
        out.push(Span::Text(rest));
    }
    out
}

/// The text without its colour references' markup.
pub fn plain(text: &str) -> String {
    spans(text)
        .into_iter()
        .map(|s| match s {
            Span::Text(t) => t,
            Span::Colour { word, .. } => word,
        })
        .collect()
}

/// Words for colours that lesson text may only use in a reference.
pub const COLOUR_WORDS: &[&str] = &[
    "red", "orange", "amber", "yellow", "green", "blue", "teal", "cyan", "purple", "violet", "pink", "brown", "grey",
    "gray", "black", "white", "indigo", "olive", "dark", "darker", "light", "lighter",
];

/// A student's answer, for the teacher.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    pub exercise: String,
    pub question: String,
    pub answer_pct: f64,
    pub simulated_pct: f64,
    pub right: bool,
    /// When it was checked (ISO 8601; empty in answers kept before it was recorded).
    #[serde(default)]
    pub at: String,
    /// The digest of the scenario it was measured on ([`Scenario::digest`]).
    #[serde(default)]
    pub scenario_digest: String,
    /// The unit of the answer and the simulated value: empty for a percentage of a link, "X" for an impact factor
    /// (the `_pct` names are from before impact exercises).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub unit: String,
    /// The exercise's number on the sheet it was given on (1 for a single exercise's link; absent for a lesson's,
    /// and in answers kept before it was recorded), so that a class table read without the sheet numbers it as
    /// the students saw it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<u32>,
}

impl Answer {
    /// The unit as shown: "%" or "X".
    pub fn unit(&self) -> &str {
        if self.unit.is_empty() {
            "%"
        } else {
            &self.unit
        }
    }
}

/// Whether exercise `id` was answered right (progress: a lesson's tick, a sheet's).
pub fn answered_right(answers: &[Answer], id: &str) -> bool {
    answers.iter().any(|a| a.right && a.exercise == id)
}

/// What a student exports for the teacher: who, when, and every answer with its verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnswerSheet {
    pub student: String,
    pub exported_at: String,
    pub answers: Vec<Answer>,
}

/// Why a file's text is not an answer file, in a teacher's words (the reader's own say "EOF while parsing").
fn why_not_answers(e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    match e.classify() {
        Category::Eof if e.line() <= 1 && e.column() == 0 => String::from("it is empty"),
        Category::Eof => format!("it is cut short (it ends at line {} before its JSON does)", e.line()),
        Category::Syntax => format!("it is not JSON (line {}, column {})", e.line(), e.column()),
        Category::Data | Category::Io => {
            format!("its JSON is not a student's answers as the page exports them ({e})")
        }
    }
}

/// One row of a teacher's class table: an answer, whose it is, and the file it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassRow {
    pub student: String,
    pub file: String,
    pub answer: Answer,
}

/// The class table from answer files (`(file name, text)`): every answer of every student, by student, then
/// exercise, then time; and a message for each file that is not an answer file. Files exported before names were
/// asked for (a bare list of answers) are read too, under their file name.
pub fn class_table(files: &[(String, String)]) -> (Vec<ClassRow>, Vec<String>) {
    let (mut rows, mut errors) = (Vec::new(), Vec::new());
    for (file, text) in files {
        let sheet = serde_json::from_str::<AnswerSheet>(text).or_else(|e| {
            serde_json::from_str::<Vec<Answer>>(text)
                .map(|answers| AnswerSheet { student: format!("({file})"), exported_at: String::new(), answers })
                .map_err(|_| e)
        });
        match sheet {
            Ok(sheet) => rows.extend(sheet.answers.into_iter().map(|answer| ClassRow {
                student: sheet.student.clone(),
                file: file.clone(),
                answer,
            })),
            Err(e) => errors.push(format!("{file}: not an answer file: {}", why_not_answers(&e))),
        }
    }
    ibcc_view::sorting::sort_by(&mut rows, |a, b| {
        (&a.student, &a.answer.exercise, &a.answer.at).cmp(&(&b.student, &b.answer.exercise, &b.answer.at))
    });
    // The same file opened twice (or two exports of one student's answers) counts each answer once.
    rows.dedup_by(|a, b| {
        (&a.student, &a.answer.exercise, &a.answer.at, a.answer.answer_pct.to_bits())
            == (&b.student, &b.answer.exercise, &b.answer.at, b.answer.answer_pct.to_bits())
    });
    (rows, errors)
}

/// How one student did on one exercise: the first answer (right or not, and its value), whether one was right in
/// the end, after how many answers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outcome {
    pub right: bool,
    pub tries: usize,
    pub first_right: bool,
    pub first_pct: f64,
}

/// A student's name and, per exercise of the summary, their outcome (`None`: not tried).
pub type StudentOutcomes = (String, Vec<Option<Outcome>>);

/// An exercise of the class table: its id, its question, and its name there ("Exercise 2", "Lesson 3").
#[derive(Debug, Clone, PartialEq)]
pub struct ClassExercise {
    pub id: String,
    pub question: String,
    pub label: String,
}

/// The exercises answered in `rows`: those of the teacher's sheet (`order`) or with a number on the sheet they were
/// given on (`Answer::position`) first, "Exercise N" by that number; then the built-in lessons' (`named`, each
/// with its name: "Lesson 3"); then any others (answers kept before numbers were recorded) in the order they were
/// first answered, numbered after the rest.
pub fn class_exercises(rows: &[ClassRow], order: &[String], named: &[(String, String)]) -> Vec<ClassExercise> {
    let number = |id: &str| {
        order.iter().position(|o| o == id).map(|i| i as u32 + 1).or_else(|| {
            rows.iter().filter(|r| r.answer.exercise == id).find_map(|r| r.answer.position).filter(|&n| n > 0)
        })
    };
    let lesson = |id: &str| named.iter().position(|(n, _)| n == id);
    // (Its tier, its place in the tier, when it was first answered.)
    let mut ids: Vec<((u8, u32), &str, &str)> = Vec::new();
    for r in rows {
        let (id, at) = (r.answer.exercise.as_str(), r.answer.at.as_str());
        match ids.iter_mut().find(|(_, x, _)| *x == id) {
            Some(e) if at < e.2 => e.2 = at,
            Some(_) => {}
            None => {
                let rank = match (number(id), lesson(id)) {
                    (Some(n), _) => (0, n),
                    (None, Some(i)) => (1, i as u32),
                    (None, None) => (2, 0),
                };
                ids.push((rank, id, at));
            }
        }
    }
    ibcc_view::sorting::sort_by(&mut ids, |a, b| (a.0, a.2).cmp(&(b.0, b.2)));
    let mut numbered = ids.iter().filter_map(|(_, id, _)| number(id)).max().unwrap_or(0);
    ids.iter()
        .map(|(_, id, _)| {
            let label = match (number(id), lesson(id)) {
                (Some(n), _) => format!("Exercise {n}"),
                (None, Some(i)) => named[i].1.clone(),
                (None, None) => {
                    numbered += 1;
                    format!("Exercise {numbered}")
                }
            };
            ClassExercise {
                id: (*id).to_owned(),
                question: rows
                    .iter()
                    .find(|r| r.answer.exercise == *id)
                    .map(|r| r.answer.question.clone())
                    .unwrap_or_default(),
                label,
            }
        })
        .collect()
}

/// The built-in lessons' exercises, each named by its lesson ("Lesson 3"), for the class table.
pub fn lesson_exercise_names(library: &Library) -> Vec<(String, String)> {
    let lessons = library.lessons.iter().enumerate();
    lessons.filter_map(|(i, l)| Some((l.exercise.as_ref()?.id.clone(), format!("Lesson {}", i + 1)))).collect()
}

/// The class table as CSV (one line per answer, in the order shown), for a spreadsheet: a text cell that a
/// spreadsheet would take for a formula is quoted with a leading apostrophe.
pub fn class_csv(rows: &[ClassRow], exercises: &[ClassExercise]) -> String {
    let cell = |t: &str| {
        let t = if t.starts_with(['=', '+', '-', '@']) { format!("'{t}") } else { t.to_owned() };
        if t.contains([',', '"', '\n', '\r']) {
            format!("\"{}\"", t.replace('"', "\"\""))
        } else {
            t
        }
    };
    let mut out = String::from("student,file,exercise,exercise_id,question,try,answer_pct,simulated_pct,verdict,first_try,checked_at,scenario_digest,unit\n");
    let mut tries: Vec<(&str, &str, usize)> = Vec::new();
    for r in rows {
        let k = match tries.iter_mut().find(|(s, e, _)| *s == r.student && *e == r.answer.exercise) {
            Some(t) => {
                t.2 += 1;
                t.2
            }
            None => {
                tries.push((&r.student, &r.answer.exercise, 1));
                1
            }
        };
        let label = exercises.iter().find(|e| e.id == r.answer.exercise).map_or("", |e| e.label.as_str());
        let verdict = if r.answer.right { "right" } else { "wrong" };
        out += &[
            cell(&r.student),
            cell(&r.file),
            cell(label),
            cell(&r.answer.exercise),
            cell(&r.answer.question),
            k.to_string(),
            format!("{:.2}", r.answer.answer_pct),
            format!("{:.2}", r.answer.simulated_pct),
            verdict.to_owned(),
            (if k == 1 { "yes" } else { "no" }).to_owned(),
            cell(&r.answer.at),
            cell(&r.answer.scenario_digest),
            cell(r.answer.unit()),
        ]
        .join(",");
        out.push('\n');
    }
    out
}

/// The class at a glance: the exercises (as [`class_exercises`] names them) and each student's outcomes.
pub fn class_summary(
    rows: &[ClassRow],
    order: &[String],
    named: &[(String, String)],
) -> (Vec<ClassExercise>, Vec<StudentOutcomes>) {
    let exercises = class_exercises(rows, order, named);
    let mut students: Vec<StudentOutcomes> = Vec::new();
    for r in rows {
        let i = students.iter().position(|(s, _)| *s == r.student).unwrap_or_else(|| {
            students.push((r.student.clone(), vec![None; exercises.len()]));
            students.len() - 1
        });
        let j = exercises.iter().position(|e| e.id == r.answer.exercise).expect("listed above");
        // Rows are in time order within a student and exercise: the first one seen is the first try.
        let o = students[i].1[j].get_or_insert(Outcome {
            right: false,
            tries: 0,
            first_right: r.answer.right,
            first_pct: r.answer.answer_pct,
        });
        o.right |= r.answer.right;
        o.tries += 1;
    }
    (exercises, students)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `s` with the setting at `path` changed to another value a student could give it (a block switched on or
    /// off, a flow's start moved).
    fn changed_setting(s: &Scenario, path: &str) -> Scenario {
        let mut c = s.clone();
        match path {
            "pft" => c.pft = if c.pft.is_some() { None } else { Some(Default::default()) },
            "ib_cc" => c.ib_cc = if c.ib_cc.is_some() { None } else { Some(Default::default()) },
            "flows" => c.flows[0].start_ns += 1,
            _ => {
                let now = s.setting(path).unwrap_or(Value::Null);
                let other = match (&now, ibcc_view::settings::find(path)) {
                    (Value::Bool(b), _) => Value::Bool(!b),
                    (Value::String(v), Some(set)) => {
                        set.choices.iter().map(|ch| ch.json()).find(|x| x.as_str() != Some(v)).expect("another choice")
                    }
                    (Value::Number(n), _) => {
                        n.as_u64().map_or_else(|| Value::from(n.as_f64().unwrap_or(0.5) / 2.0), |x| Value::from(x + 1))
                    }
                    // (Absent from the file at its default, as `routing.engine` is for minhop: the last choice.)
                    (Value::Null, Some(set)) if !set.choices.is_empty() => set.choices[set.choices.len() - 1].json(),
                    _ => Value::from(2),
                };
                // (Validation may refuse the new value; the check compares settings, not validity.)
                let mut v = ibcc_core::scenario::to_value(&c);
                let mut at = &mut v;
                for key in path.split('.') {
                    let object = at.as_object_mut().expect("a setting of the format");
                    at = object.entry(key).or_insert_with(|| Value::Object(Default::default()));
                }
                *at = other;
                c = from_value(&v).expect("the same format");
            }
        }
        assert_ne!(c.setting(path), s.setting(path), "{path} changed");
        c
    }
    use ibcc_core::sim::congestion_impact::run_canary;
    use ibcc_core::sim::Run;

    fn lib() -> Library {
        library(LESSONS_JSON).unwrap()
    }

    #[test]
    fn the_lessons_cover_the_syllabus_and_every_step_works() {
        let l = lib();
        let ids: Vec<&str> = l.lessons.iter().map(|l| l.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "credits",
                "long-links",
                "spreading",
                "fat-tree",
                "reading-tree",
                "window",
                "rate-control",
                "marking",
                "response",
                "dynamic",
                "pft",
                "a10",
                "side-by-side",
                "assumptions",
                "fabric-routing",
                "deadlock",
                "fabric-hotspot",
                "gpcnet"
            ]
        );
        for lesson in &l.lessons {
            let mut s = Scenario::empty("", 1_000_000);
            for (i, step) in lesson.steps.iter().enumerate() {
                s = step.scenario(&s).unwrap_or_else(|e| panic!("{} step {i}: {e}", lesson.id));
                // What a step points at exists in its scenario.
                match &step.highlight {
                    Some(Highlight::Link(l)) => {
                        assert!(
                            s.links
                                .iter()
                                .any(|k| format!("{}->{}", k.a, k.b) == *l || format!("{}->{}", k.b, k.a) == *l),
                            "{} step {i}: {l}",
                            lesson.id
                        )
                    }
                    Some(Highlight::Buffer { at, from }) => assert!(
                        s.links.iter().any(|k| (k.a == *at && k.b == *from) || (k.b == *at && k.a == *from)),
                        "{} step {i}",
                        lesson.id
                    ),
                    Some(Highlight::Flow(f)) => {
                        assert!(s.flows.iter().any(|x| x.id == *f || x.group == *f), "{} step {i}: {f}", lesson.id)
                    }
                    Some(Highlight::Plot(p)) => assert!(["rates", "limits", "buffers", "marks"].contains(&p.as_str())),
                    None => {}
                }
                assert!(
                    step.open.as_deref().is_none_or(|v| v == "finc" || v == "impact"),
                    "{} step {i}: open",
                    lesson.id
                );
            }
            let e = lesson.exercise.as_ref().unwrap_or_else(|| panic!("{} has no exercise", lesson.id));
            let s = e.scenario().unwrap_or_else(|err| panic!("{}: {err}", e.id));
            for path in &e.locked {
                // (A setting left at its default may be absent from the file, `routing` for minhop: the page's
                // registry knows it.)
                let known = s.setting(path).is_some() || ibcc_view::settings::find(path).is_some();
                assert!(known, "{}: locked {path} is not a setting", e.id);
            }
        }
    }

    /// An exercise's scenario measures where the exercise does (lesson 1's, 20-40 ms, where the preset measures
    /// 40-60), so the shaded interval and the Results are the exercise's.
    #[test]
    fn an_exercise_s_scenario_measures_its_interval() {
        for lesson in lib().lessons {
            let e = lesson.exercise.clone().unwrap();
            let s = e.scenario().unwrap();
            let Some(m) = &e.measure else { continue };
            let (from, to) = m.interval_ns(&s).unwrap();
            assert_eq!((s.measure.from_ns, s.measure.until_ns(s.duration_ns)), (from, to), "{}", lesson.id);
        }
        let credits = lib().lessons.into_iter().find(|l| l.id == "credits").unwrap().exercise.unwrap();
        assert_eq!(credits.scenario().unwrap().measure.from_ns, 20_000_000);
    }

    /// Each built-in exercise, answered with the simulated value, is right; answered far off, wrong; with a locked
    /// setting changed, refused.
    #[test]
    fn built_in_exercises_check_answers_against_the_run() {
        for lesson in lib().lessons {
            let e = lesson.exercise.clone().unwrap();
            let mut s = e.scenario().unwrap();
            // (Impact exercises: `built_in_impact_exercises_check_answers_against_gpcnet`.)
            let Some(m) = e.measure.clone() else { continue };
            // Up to the end of the measured interval is enough (if the scenario's own interval starts before it).
            if let Some(to) = m.to_ns.filter(|&to| s.measure.from_ns < to) {
                s.duration_ns = s.duration_ns.min(to);
            }
            let mut sim = Run::new(&s).unwrap();
            sim.run();
            let v = sim.measure(&m).unwrap_or_else(|err| panic!("{}: {err}", e.id));
            // The answers, for the notes and docs/lessons.md (`cargo test -p ibcc-web exercises -- --nocapture`).
            eprintln!("{:<28} {:6.1}%  ±{}", e.id, 100.0 * v, e.tolerance_pct);
            // Nothing the student reads before answering states the answer: no percentage in the lesson's steps,
            // the question or the hint lies within the tolerance of it.
            let before = lesson.steps.iter().map(|st| st.text.as_str()).chain([e.question.as_str(), e.hint.as_str()]);
            for text in before {
                for (i, _) in text.match_indices('%') {
                    let digits = text[..i].trim_end();
                    let start = digits.rfind(|c: char| !(c.is_ascii_digit() || c == '.')).map_or(0, |k| k + 1);
                    if let Some(x) = crate::number::parse(&digits[start..]) {
                        assert!(
                            (x - 100.0 * v).abs() > e.tolerance_pct,
                            "{}: {x}% gives the answer away: {text}",
                            e.id
                        );
                    }
                }
            }
            assert!(
                matches!(e.check(&s, Some(v), 100.0 * v + 0.9 * e.tolerance_pct), Verdict::Right { .. }),
                "{}",
                e.id
            );
            assert!(
                matches!(e.check(&s, Some(v), 100.0 * v + 1.1 * e.tolerance_pct), Verdict::Wrong { .. }),
                "{}",
                e.id
            );
            assert!(matches!(e.check(&s, None, 10.0), Verdict::NotRun(_)), "{}", e.id);
            let mut changed = s.clone();
            changed.seed += 1;
            for path in &e.locked {
                // Every locked setting, changed as a student could: the verdict names it.
                let c = changed_setting(&s, path);
                assert_eq!(e.check(&c, Some(v), 100.0 * v), Verdict::Locked(path.clone()), "{}: {path}", e.id);
            }
            assert!(matches!(e.check(&changed, Some(v), 100.0 * v), Verdict::Right { .. }), "the seed is not locked");
        }
    }

    /// An exercise that locks every setting (a teacher's, by default) refuses any change to the run and names the
    /// setting changed, where one has a name; where it is measured and how it is drawn are free.
    #[test]
    fn locking_every_setting_refuses_any_change_to_the_run() {
        let mut e = lib().lessons[0].exercise.clone().unwrap();
        e.locked = vec![EVERY_SETTING.to_owned()];
        let s = e.scenario().unwrap();
        assert!(matches!(e.check(&s, Some(0.5), 50.0), Verdict::Right { .. }));
        let mut free = s.clone();
        free.measure.from_ns += 1_000_000;
        free.nodes[0].x = Some(7.0);
        free.name = String::from("mine");
        assert!(matches!(e.check(&free, Some(0.5), 50.0), Verdict::Right { .. }), "measuring and drawing are free");
        for path in ["seed", "switch.arbitration", "switch.input_transfers", "source.response", "flows"] {
            let c = changed_setting(&s, path);
            assert_eq!(e.check(&c, Some(0.5), 50.0), Verdict::Locked(path.to_owned()), "{path}");
        }
        let mut node = s.clone();
        node.nodes.iter_mut().find(|n| n.kind == ibcc_core::scenario::NodeKind::Switch).unwrap().switch =
            Some(ibcc_core::scenario::SwitchOverride { max_bypass: Some(9), ..Default::default() });
        assert_eq!(e.check(&node, Some(0.5), 50.0), Verdict::Locked(EVERY_SETTING.to_owned()), "a switch's own");
    }

    /// Every colour a lesson names is the colour the page draws for what the sentence is about: colour words appear
    /// only as references, and each reference's word is the palette's name for its thing in the step's scenario.
    #[test]
    fn lesson_colour_words_name_the_colours_the_page_draws() {
        let mut checked = 0;
        for lesson in lib().lessons {
            let mut s = Scenario::empty("", 1_000_000);
            let mut texts: Vec<(String, Scenario)> = Vec::new();
            for step in &lesson.steps {
                s = step.scenario(&s).unwrap();
                texts.push((step.text.clone(), s.clone()));
            }
            if let Some(e) = &lesson.exercise {
                let es = e.scenario().unwrap();
                texts.push((e.question.clone(), es.clone()));
                texts.push((e.hint.clone(), es.clone()));
                texts.push((e.explanation.clone(), es));
            }
            for (text, scenario) in texts {
                let mut groups: Vec<String> = Vec::new();
                for f in &scenario.flows {
                    if !groups.contains(&f.group) {
                        groups.push(f.group.clone());
                    }
                }
                for span in spans(&text) {
                    match span {
                        Span::Text(t) => {
                            for w in t.split(|c: char| !c.is_alphabetic()) {
                                let w = w.to_lowercase();
                                assert!(
                                    !COLOUR_WORDS.contains(&w.as_str()),
                                    "{}: bare colour word {w:?} in {text:?}",
                                    lesson.id
                                );
                            }
                        }
                        Span::Colour { word, thing } => {
                            let drawn = ibcc_view::palette::referenced(thing, &groups)
                                .unwrap_or_else(|| panic!("{}: [{word}]({thing}) names nothing drawn", lesson.id));
                            assert_eq!(word, drawn.name, "{}: [{word}]({thing}) is drawn {}", lesson.id, drawn.name);
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked >= 6, "the lessons name colours: {checked}");
    }

    #[test]
    fn a_library_with_a_malformed_task_is_refused_with_its_place() {
        let text = r#"{ "version": 1, "lessons": [ { "id": "x", "title": "X", "exercise": null, "steps": [
            { "text": "Look." }, { "text": "Your turn: two things.", "task": { "plot": "buffers", "reach_ms": 3, "done": "ok" } } ] } ] }"#;
        let err = library(text).unwrap_err();
        assert!(err.starts_with("lessons: x step 2: a task asks for exactly one"), "{err}");
    }

    #[test]
    fn colour_references_parse_and_read_as_plain_text() {
        let t = "a [red](root) halo, [x] and [purple](group:victim).";
        assert_eq!(
            spans(t),
            [
                Span::Text("a "),
                Span::Colour { word: "red", thing: "root" },
                Span::Text(" halo, ["),
                Span::Text("x] and "),
                Span::Colour { word: "purple", thing: "group:victim" },
                Span::Text("."),
            ]
        );
        assert_eq!(plain(t), "a red halo, [x] and purple.");
    }

    /// Each step knows its network, so a page restored over another network can say so and reload it.
    #[test]
    fn every_step_knows_the_network_it_is_about() {
        for lesson in lib().lessons {
            for k in 0..lesson.steps.len() {
                let (s, preset, _) = lesson.scenario_at(k).unwrap();
                assert!(preset.is_some(), "{} step {k}: loads a preset first", lesson.id);
                assert!(!s.nodes.is_empty());
            }
        }
        let l = lib().lessons.into_iter().find(|l| l.id == "spreading").unwrap();
        let (fig2, _, _) = l.scenario_at(0).unwrap();
        assert!(!same_network(&fig2, &find("fattree4-hotspot").unwrap().scenario()));
        assert!(same_network(&fig2, &find("infocom03-fig2").unwrap().scenario()));
    }

    /// Each step either sets the scene or asks the student to act, never both; a task is not done before the
    /// student acts, and doing what it says is noticed; a run-to moment lies inside the run; an A/B step compares
    /// the same network; and no text names a setting by its path.
    #[test]
    fn steps_either_set_the_scene_or_ask_and_notice() {
        const ORDERS: &[&str] =
            &["Press", "Switch", "Make", "Change", "Set", "Turn", "Open", "Click", "Drag", "Run", "Try", "Choose"];
        let (mut tasks, mut scenes) = (0, 0);
        for lesson in lib().lessons {
            // What the page shows when each step starts: the plot and how far the run has got.
            let (mut plot, mut time_ms) = (String::from("rates"), 0.0);
            for (k, step) in lesson.steps.iter().enumerate() {
                let at = format!("{} step {k}", lesson.id);
                let (s, _, _) = lesson.scenario_at(k).unwrap();
                if step.load.is_some() {
                    (plot, time_ms) = (String::from("rates"), 0.0);
                }
                if !step.set.is_empty() {
                    time_ms = 0.0;
                }
                let asks = step.text.starts_with("Your turn:");
                match &step.task {
                    Some(task) => {
                        tasks += 1;
                        task.validate().unwrap_or_else(|e| panic!("{at}: {e}"));
                        assert!(!step.sets_the_scene(), "{at}: a step that asks must not act itself");
                        assert!(asks, "{at}: a task step says 'Your turn:'");
                        let seen = Seen { scenario: &s, plot: &plot, time_ms };
                        assert!(!task.done_by(seen), "{at}: the task is done before the student acts");
                        // Doing it is noticed.
                        let (mut did, mut did_plot, mut did_time) = (s.clone(), plot.clone(), time_ms);
                        if let Some(path) = &task.setting {
                            let v = task
                                .equals
                                .clone()
                                .unwrap_or_else(|| Value::from(task.at_least.unwrap().ceil() as u64));
                            did = s
                                .with_settings(&BTreeMap::from([(path.clone(), v)]))
                                .unwrap_or_else(|e| panic!("{at}: {e}"));
                        }
                        if let Some(p) = &task.plot {
                            assert!(["rates", "limits", "buffers", "marks"].contains(&p.as_str()), "{at}: plot {p}");
                            did_plot = p.clone();
                        }
                        if let Some(t) = task.reach_ms {
                            assert!(t * 1e6 <= s.duration_ns as f64, "{at}: the run ends before {t} ms");
                            did_time = t;
                        }
                        assert!(task.done_by(Seen { scenario: &did, plot: &did_plot, time_ms: did_time }), "{at}");
                        (plot, time_ms) = (did_plot, did_time);
                    }
                    None => {
                        scenes += 1;
                        assert!(!asks, "{at}: 'Your turn' without a task to notice");
                        for sentence in step.text.split(['.', ':', '?', '!']) {
                            let first = sentence.split_whitespace().next().unwrap_or("");
                            assert!(!ORDERS.contains(&first), "{at}: a scene step orders {first:?}: {}", step.text);
                        }
                        if let Some(Highlight::Plot(p)) = &step.highlight {
                            plot = p.clone();
                        }
                    }
                }
                if let Some(t) = step.run_to_ms {
                    assert!(t > 0.0 && t * 1e6 <= s.duration_ns as f64, "{at}: run to {t} ms");
                    time_ms = t;
                }
                if let Some(b) = &step.compare {
                    let b = find(b).unwrap_or_else(|| panic!("{at}: no preset {b}")).scenario();
                    assert!(same_network(&s, &b), "{at}: A/B of different networks");
                }
                // No setting is named by its path (the page names settings by their labels).
                for word in step.text.split_whitespace() {
                    let word = word.trim_matches(|c: char| !c.is_alphanumeric() && c != '_');
                    assert!(!word.contains('.') || s.setting(word).is_none(), "{at}: names the setting {word}");
                }
            }
        }
        assert!(tasks >= 8 && scenes >= 20, "{tasks} tasks, {scenes} scenes");
    }

    /// The credit loop (lesson 2): a link of propagation p whose receiver's buffer holds B bytes carries at most B
    /// per round trip, where the round trip is 2p plus the packet's own time and the switch's forwarding delay
    /// (the credit leaves when the packet's tail has left the buffer). Checked against the simulation for several
    /// p and B, within 0.2 points: over the 8 ms measured, one packet more or less is 0.03 points.
    #[test]
    fn a_long_link_carries_one_buffer_per_round_trip() {
        let e = lib().lessons.into_iter().find(|l| l.id == "long-links").unwrap().exercise.unwrap();
        for (p_ns, b) in [(20_000u64, 4u32), (10_000, 4), (5_000, 2), (20_000, 16), (20_000, 24), (1_000, 4)] {
            let set = BTreeMap::from([
                (String::from("link.propagation_ns"), Value::from(p_ns)),
                (String::from("switch.buffer_packets"), Value::from(b)),
            ]);
            let s = e.scenario().unwrap().with_settings(&set).unwrap();
            let mut sim = Run::new(&s).unwrap();
            sim.run();
            let got = sim.measure(e.measure.as_ref().unwrap()).unwrap();
            let bytes = f64::from(s.packet.data_bytes());
            let rtt_ns =
                2.0 * p_ns as f64 + bytes / (s.link.bandwidth_gbps / 8.0) + s.switch.forwarding_delay_ns as f64;
            let bound = (f64::from(b) * bytes / rtt_ns / (s.link.bandwidth_gbps / 8.0)).min(1.0);
            assert!((100.0 * (got - bound)).abs() < 0.2, "p {p_ns} ns, {b} packets: {got} against {bound}");
        }
    }

    /// Each built-in impact exercise, answered with GPCNeT's factor from the congestion impact view's own runs (no
    /// control, on the exercise's network without its flows), is right; far off, wrong; and nothing the student reads
    /// before answering states it.
    #[test]
    fn built_in_impact_exercises_check_answers_against_gpcnet() {
        let mut seen = 0;
        for lesson in lib().lessons {
            let e = lesson.exercise.clone().unwrap();
            let Some(ask) = e.impact else { continue };
            seen += 1;
            let own = e.scenario().unwrap();
            let net = own.network_only();
            let config = crate::impact_plan::config_for(ask.processes_per_node, ask.seed);
            let run = |congested| run_canary(&net, &config, ask.canary, congested).unwrap();
            let i = CanaryImpact::of(run(false), run(true));
            let v = ask.of(&i);
            let (f0, f1) = (&i.isolated.figures, &i.congested.figures);
            eprintln!(
                "{:<28} {v:6.1}X  ±{}  (avg {:.2} -> {:.2}, 99% {:.2} -> {:.2})",
                e.id, e.tolerance_pct, f0.avg, f1.avg, f0.p99, f1.p99
            );
            assert!(v > 1.0, "{}: the lesson needs an impact to show ({v}X)", e.id);
            let shown = format!("{v:.1}X");
            let before = lesson.steps.iter().map(|st| st.text.as_str()).chain([e.question.as_str(), e.hint.as_str()]);
            for text in before {
                assert!(!text.contains(&shown), "{}: {shown} gives the answer away: {text}", e.id);
            }
            assert!(matches!(e.check(&net, Some(v), v + 0.9 * e.tolerance_pct), Verdict::Right { .. }), "{}", e.id);
            assert!(matches!(e.check(&net, Some(v), v + 2.0 * e.tolerance_pct + 0.5), Verdict::Wrong { .. }));
            assert!(matches!(e.check(&net, None, v), Verdict::NotRun(why) if why.contains("Congestion impact view")));
        }
        assert_eq!(seen, 1, "lesson 18 asks for an impact");
    }

    /// Every built-in exercise has a hint, and the hint gives no number away (it asks a question instead).
    #[test]
    fn a_first_wrong_answer_gets_the_hint_and_a_second_try() {
        for lesson in lib().lessons {
            let e = lesson.exercise.unwrap();
            assert!(!e.hint.trim().is_empty(), "{}: no hint", e.id);
            assert!(
                !e.hint.contains('%') && e.hint.contains('?'),
                "{}: the hint should ask, not tell: {}",
                e.id,
                e.hint
            );
            assert!(!e.reveals(0), "{}: the first wrong answer gets the hint", e.id);
            assert!(e.reveals(1), "{}: the second wrong answer gets the answer", e.id);
        }
        let mut bare = lib().lessons[0].exercise.clone().unwrap();
        bare.hint.clear();
        assert!(!bare.reveals(0) && bare.reveals(1), "no hint: a second try all the same");
        assert!(bare.hint_or_reminder().ends_with('?'), "a reminder that asks, as a hint does");
    }

    #[test]
    fn answer_files_make_a_class_table() {
        let answer = |exercise: &str, at: &str, right: bool| Answer {
            exercise: exercise.into(),
            question: "q".into(),
            answer_pct: 15.0,
            simulated_pct: 14.2,
            right,
            at: at.into(),
            scenario_digest: "00ff".into(),
            unit: String::new(),
            position: None,
        };
        let sheet = |student: &str, answers: Vec<Answer>| {
            serde_json::to_string(&AnswerSheet {
                student: student.into(),
                exported_at: "2026-11-23T10:00:00Z".into(),
                answers,
            })
            .unwrap()
        };
        let files = vec![
            ("zoe.json".to_owned(), sheet("Zoe", vec![answer("b", "2", true), answer("a", "1", false)])),
            ("ana.json".to_owned(), sheet("Ana", vec![answer("a", "3", true)])),
            // An export from before names were asked for: a bare list.
            ("old.json".to_owned(), serde_json::to_string(&vec![answer("a", "", false)]).unwrap()),
            ("notes.txt".to_owned(), "my notes".to_owned()),
        ];
        let (rows, errors) = class_table(&files);
        let seen: Vec<(&str, &str, bool)> =
            rows.iter().map(|r| (r.student.as_str(), r.answer.exercise.as_str(), r.answer.right)).collect();
        assert_eq!(seen, [("(old.json)", "a", false), ("Ana", "a", true), ("Zoe", "a", false), ("Zoe", "b", true)]);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors, ["notes.txt: not an answer file: it is not JSON (line 1, column 1)"]);
        let odd = |text: &str| class_table(&[("f.json".to_owned(), text.to_owned())]).1;
        assert_eq!(odd(""), ["f.json: not an answer file: it is empty"]);
        assert_eq!(
            odd("{\n\"student\": \"Zoe\","),
            ["f.json: not an answer file: it is cut short (it ends at line 2 before its JSON does)"]
        );
        assert!(odd("{\"hello\": 1}")[0].starts_with("f.json: not an answer file: its JSON is not a student's answers"));
        // Named in the teacher's sheet's order ("b" first there), not by their ids.
        let (exercises, students) = class_summary(&rows, &["b".to_owned(), "a".to_owned()], &[]);
        let named: Vec<(&str, &str)> = exercises.iter().map(|e| (e.id.as_str(), e.label.as_str())).collect();
        assert_eq!(named, [("b", "Exercise 1"), ("a", "Exercise 2")]);
        let outcome = |right, tries, first_right| Some(Outcome { right, tries, first_right, first_pct: 15.0 });
        assert_eq!(
            students,
            [
                ("(old.json)".to_owned(), vec![None, outcome(false, 1, false)]),
                ("Ana".to_owned(), vec![None, outcome(true, 1, true)]),
                ("Zoe".to_owned(), vec![outcome(true, 1, true), outcome(false, 1, false)]),
            ]
        );
        // Without a sheet: in the order first answered ("" sorts first: the old export's answer).
        let (exercises, _) = class_summary(&rows, &[], &[]);
        assert_eq!(exercises.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        // A built-in lesson's exercise is named by its lesson, and comes after the sheet's; the sheet's are
        // numbered among themselves.
        let lessons = [("a".to_owned(), "Lesson 4".to_owned())];
        let (exercises, _) = class_summary(&rows, &["b".to_owned()], &lessons);
        let named: Vec<(&str, &str)> = exercises.iter().map(|e| (e.id.as_str(), e.label.as_str())).collect();
        assert_eq!(named, [("b", "Exercise 1"), ("a", "Lesson 4")]);
        let (exercises, _) = class_summary(&rows, &[], &lessons);
        let named: Vec<(&str, &str)> = exercises.iter().map(|e| (e.id.as_str(), e.label.as_str())).collect();
        assert_eq!(named, [("a", "Lesson 4"), ("b", "Exercise 1")]);
        // Read without the sheet (a teaching assistant's browser), answers that carry their exercise's number on
        // it are numbered as the students saw them: only the sheet's second exercise answered is "Exercise 2".
        let mut numbered = rows.clone();
        for r in &mut numbered {
            r.answer.position = Some(if r.answer.exercise == "a" { 2 } else { 3 });
        }
        let (exercises, _) = class_summary(&numbered, &[], &[]);
        let named: Vec<(&str, &str)> = exercises.iter().map(|e| (e.id.as_str(), e.label.as_str())).collect();
        assert_eq!(named, [("a", "Exercise 2"), ("b", "Exercise 3")]);
        // The teacher's sheet numbers them by its own order, answered or not: its first, unanswered here, is not
        // given away to the second.
        let (exercises, _) = class_summary(&rows, &["c".to_owned(), "b".to_owned(), "a".to_owned()], &[]);
        let named: Vec<(&str, &str)> = exercises.iter().map(|e| (e.id.as_str(), e.label.as_str())).collect();
        assert_eq!(named, [("b", "Exercise 2"), ("a", "Exercise 3")]);
    }

    #[test]
    fn a_class_table_gathers_files_keeps_first_tries_and_exports_csv() {
        let answer = |at: &str, pct: f64, right: bool| Answer {
            exercise: "t-1".into(),
            question: "How much, \"roughly\"?".into(),
            answer_pct: pct,
            simulated_pct: 14.2,
            right,
            at: at.into(),
            scenario_digest: "00ff".into(),
            unit: String::new(),
            position: None,
        };
        let file = |name: &str, student: &str, answers: Vec<Answer>| {
            let sheet = AnswerSheet { student: student.into(), exported_at: String::new(), answers };
            (name.to_owned(), serde_json::to_string(&sheet).unwrap())
        };
        let cleo = file("cleo.json", "=Cleo", vec![answer("2", 14.0, true), answer("1", 40.0, false)]);
        // The same file opened again adds nothing.
        let (rows, _) = class_table(&[cleo.clone(), cleo]);
        assert_eq!(rows.len(), 2);
        let (exercises, students) = class_summary(&rows, &[], &[]);
        let o = students[0].1[0].unwrap();
        assert_eq!((o.first_right, o.first_pct, o.right, o.tries), (false, 40.0, true, 2), "a wrong first try shows");
        let csv = class_csv(&rows, &exercises);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[0].starts_with("student,file,exercise,"));
        assert_eq!(
            lines[1],
            "'=Cleo,cleo.json,Exercise 1,t-1,\"How much, \"\"roughly\"\"?\",1,40.00,14.20,wrong,yes,1,00ff,%"
        );
        assert!(lines[2].contains(",2,14.00,14.20,right,no,2,"), "{}", lines[2]);
    }

    #[test]
    fn exercises_travel_as_links_alone_or_as_a_sheet() {
        let (a, b) = (lib().lessons[1].exercise.clone().unwrap(), lib().lessons[2].exercise.clone().unwrap());
        let sheet = Sheet { title: "Week 3".into(), exercises: vec![a.clone(), b.clone()] };
        assert_eq!(Sheet::from_link(&sheet.to_link()).unwrap(), sheet);
        // A link from before sheets: one bare exercise.
        let one = Sheet::from_link(&pack(&a)).unwrap();
        assert_eq!((one.title.as_str(), one.exercises), ("", vec![a.clone()]));
        assert!(Sheet::from_link("1.AAAA").unwrap_err().contains("damaged"));
        let mut broken = b.clone();
        broken.preset = Some("nope".into());
        let err = Sheet::from_link(&Sheet { title: String::new(), exercises: vec![a.clone(), broken] }.to_link());
        assert!(err.as_ref().unwrap_err().starts_with("exercise 2:") && err.unwrap_err().contains("no preset"));
        let twice = Sheet { title: String::new(), exercises: vec![a.clone(), a] };
        assert!(Sheet::from_link(&twice.to_link()).unwrap_err().contains("used twice"));
        assert!(Sheet::from_link(&Sheet { title: "x".into(), exercises: vec![] }.to_link())
            .unwrap_err()
            .contains("no exercises"));
    }
}
