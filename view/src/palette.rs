//! The page's one visual language: every colour the canvas, the plots, the exports and the legend use, each with
//! the word lessons use for it. A flow group keeps one colour everywhere, chosen from what the group is (victim,
//! remote, local, hot spot...) and never from the position of a curve; links are drawn in neutral tones so that
//! colour always means a group or a role in the congestion tree. Pure Rust, tested natively.
//!
//! What each colour means, once for the whole page:
//! - red: a root of the congestion tree (a link that cannot drain its demand), and the flows that feed one;
//! - amber: congestion that has spread: a link blocked waiting for credit (drawn dashed, the only dashes on the
//!   canvas), a full input buffer, and a victim flow held up by them;
//! - yellow: ECN marks;
//! - line width, with the shade from grey to ink (black, or white in the dark theme): how busy a link is;
//! - purple, green, blue...: flow groups (victim purple, remote green, local blue);
//! - sky blue: the selection, the keyboard's focus and what a lesson points at (a halo, never a line's colour).

/// The two themes, following the system's `prefers-color-scheme`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Theme {
    Light,
    Dark,
}

/// A colour as drawn in each theme, and its name in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Colour {
    /// The word for it, as lesson text uses it ("purple").
    pub name: &'static str,
    pub light: &'static str,
    pub dark: &'static str,
}

impl Colour {
    const fn new(name: &'static str, light: &'static str, dark: &'static str) -> Self {
        Self { name, light, dark }
    }

    /// Its `#rrggbb` in `theme`.
    pub fn hex(&self, theme: Theme) -> &'static str {
        match theme {
            Theme::Light => self.light,
            Theme::Dark => self.dark,
        }
    }

    /// Its red, green and blue in `theme`.
    pub fn rgb(&self, theme: Theme) -> (u8, u8, u8) {
        parse_hex(self.hex(theme))
    }
}

fn parse_hex(hex: &str) -> (u8, u8, u8) {
    let v = u32::from_str_radix(hex.trim_start_matches('#'), 16).unwrap_or(0);
    ((v >> 16) as u8, (v >> 8) as u8, v as u8)
}

pub const RED: Colour = Colour::new("red", "#d32f2f", "#ef5350");
pub const AMBER: Colour = Colour::new("amber", "#ffa000", "#ffca28");
pub const YELLOW: Colour = Colour::new("yellow", "#fdd835", "#fff176");
pub const PURPLE: Colour = Colour::new("purple", "#8e24aa", "#ce93d8");
pub const GREEN: Colour = Colour::new("green", "#2e7d32", "#81c784");
pub const BLUE: Colour = Colour::new("blue", "#1565c0", "#6f9bff");
pub const TEAL: Colour = Colour::new("teal", "#00897b", "#4db6ac");
pub const PINK: Colour = Colour::new("pink", "#d81b60", "#f48fb1");
pub const ORANGE: Colour = Colour::new("orange", "#e65100", "#ffb74d");
pub const BROWN: Colour = Colour::new("brown", "#6d4c41", "#bcaaa4");
pub const INDIGO: Colour = Colour::new("indigo", "#3949ab", "#9fa8da");
pub const OLIVE: Colour = Colour::new("olive", "#827717", "#d4e157");
pub const CYAN: Colour = Colour::new("cyan", "#00838f", "#80deea");
/// Flows without a group.
pub const GREY: Colour = Colour::new("grey", "#757575", "#9e9e9e");
/// The selection, keyboard focus and what a lesson points at: lighter and greener than the local flows' blue.
pub const SELECTION: Colour = Colour::new("sky blue", "#0ea5e9", "#67e8f9");
/// An idle link: light enough to read as idle, dark enough to see on the page (3:1 against it).
pub const INK_IDLE: Colour = Colour::new("grey", "#868f99", "#5f6873");
/// A link carrying all it can.
pub const INK_FULL: Colour = Colour::new("black", "#1c2833", "#f2f4f5");

/// Groups whose name says what they are, and their colours.
const ROLES: &[(&str, Colour)] = &[
    ("victim", PURPLE),
    ("remote", GREEN),
    ("local", BLUE),
    ("hotspot", TEAL),
    ("hot spot", TEAL),
    ("shift", TEAL),
    ("dynamic", PINK),
    ("static", BLUE),
];

/// Colours for other groups: each name prefers one of the first [`PREFERRED`] (by its letters), and a name that
/// finds its colour taken goes on along the list.
const OTHERS: &[Colour] = &[ORANGE, BROWN, INDIGO, OLIVE, CYAN, PINK, GREEN, BLUE, TEAL, PURPLE];
const PREFERRED: usize = 5;

/// The colour a group not named for a role prefers: from its name alone (the sum of its bytes, so that names that
/// count up, "g1", "g2"..., or "a", "b"..., prefer different colours).
fn preferred(name: &str) -> usize {
    name.bytes().map(usize::from).sum::<usize>() % PREFERRED
}

/// Links in plots: thin lines in muted tones, told apart from the groups' thick vivid ones. Their names are
/// neutral (no group's colour word): a lesson refers to a link by its name, never by its colour.
const LINKS: &[Colour] = &[
    Colour::new("slate", "#37474f", "#cfd8dc"),
    Colour::new("steel", "#5c6f91", "#9aa9c7"),
    Colour::new("taupe", "#8d6e63", "#bcaaa4"),
    Colour::new("moss", "#7c7a2a", "#c5c46a"),
    Colour::new("stone", "#8d9aa3", "#7f8c95"),
    Colour::new("plum grey", "#7b6478", "#b9a5b6"),
    Colour::new("sage", "#5f7d6a", "#9fbfa9"),
    Colour::new("sand", "#a08f6a", "#d2c4a0"),
];

/// The colour of each group of a scenario, `groups` in first-appearance order (the order the results give). A
/// group named for its role keeps that role's colour; any other takes the colour its name prefers, or if an earlier
/// group has it, the next one no earlier group has. So a group's colour follows its name: adding, removing or
/// regrouping flows leaves the other groups' colours alone (unless two names want one colour, when the one listed
/// first keeps it), and two groups of one scenario never share a colour while colours last.
pub fn group_colours<S: AsRef<str>>(groups: &[S]) -> Vec<Colour> {
    let role = |g: &str| ROLES.iter().find(|(name, _)| g.eq_ignore_ascii_case(name)).map(|(_, c)| *c);
    let mut taken: Vec<&'static str> = Vec::new();
    // Role colours first, so an unknown group listed earlier does not take the victim's purple.
    let mut out: Vec<Option<Colour>> = groups
        .iter()
        .map(|g| {
            let g = g.as_ref();
            if g.is_empty() {
                return Some(GREY);
            }
            let c = role(g).filter(|c| !taken.contains(&c.name))?;
            taken.push(c.name);
            Some(c)
        })
        .collect();
    for (slot, g) in out.iter_mut().zip(groups).filter(|(c, _)| c.is_none()) {
        let from = preferred(g.as_ref());
        let c = OTHERS.iter().cycle().skip(from).take(OTHERS.len()).find(|c| !taken.contains(&c.name));
        let c = c.copied().unwrap_or(GREY);
        taken.push(c.name);
        *slot = Some(c);
    }
    out.into_iter().map(|c| c.unwrap_or(GREY)).collect()
}

/// The colour of group `name` among `groups`.
pub fn group_colour<S: AsRef<str>>(groups: &[S], name: &str) -> Colour {
    groups.iter().position(|g| g.as_ref() == name).map_or(GREY, |i| group_colours(groups)[i])
}

/// The colour of the `k`-th link curve of one plot (handed out per plot, so no two of its links share one while
/// there are no more than [`LINKS`]; a plot draws at most eight curves).
pub fn link_colour(k: usize) -> Colour {
    LINKS[k % LINKS.len()]
}

/// Sweep curves (one per combination of settings): colours that no role group uses first.
const SERIES: &[Colour] = &[ORANGE, INDIGO, TEAL, BROWN, OLIVE, CYAN, PINK, GREEN, BLUE, PURPLE];

/// The colour of the `k`-th curve of a sweep.
pub fn series_colour(k: usize) -> Colour {
    SERIES[k % SERIES.len()]
}

/// The colour of a source-response function wherever it is drawn (the Finc(t) explorer).
pub fn response_colour(f: ibcc_core::cc::response::ResponseFunction) -> Colour {
    use ibcc_core::cc::response::ResponseFunction::{Aimd, Fimd, Lipd};
    match f {
        Aimd => ORANGE,
        Fimd => INDIGO,
        Lipd => TEAL,
    }
}

/// The CSS paint of a link carrying `rate` (fraction of capacity): [`INK_IDLE`] mixed toward [`INK_FULL`] (the
/// stylesheet's `--c-ink-*`, set by [`css`] for the theme in use).
pub fn rate_paint(rate: f32) -> String {
    let p = (100.0 * rate.clamp(0.0, 1.0)).round();
    format!("color-mix(in srgb, var(--c-ink-full) {p}%, var(--c-ink-idle))")
}

/// Stroke width of a directed link carrying `rate`: thin when idle, thick when full.
pub fn rate_width(rate: f32) -> f32 {
    1.5 + 7.0 * rate.clamp(0.0, 1.0)
}

/// Everything the canvas draws that means something, each with its colour: the legend lists these, and lesson
/// text may name their colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// A link's rate: width and shade.
    Rate,
    /// A cycle of links waiting on each other (a run's deadlock, a credit loop the check found): red arrows along
    /// it.
    Cycle,
    /// A link waiting for credit: dashed, with an amber halo.
    Blocked,
    /// A root of the congestion tree: red halo.
    Root,
    /// Packets marked lately: a yellow dot on the lane.
    Ecn,
    /// An input buffer's occupancy: a bar filling up.
    Buffer,
    /// A full input buffer: the bar turns amber.
    BufferFull,
    /// A flow that feeds a root: a red halo under it.
    Contributor,
    /// A victim: crosses a blocked link but no root; an amber halo under it.
    Victim,
}

impl Mark {
    pub const ALL: [Mark; 9] = [
        Mark::Rate,
        Mark::Cycle,
        Mark::Blocked,
        Mark::Root,
        Mark::Ecn,
        Mark::Buffer,
        Mark::BufferFull,
        Mark::Contributor,
        Mark::Victim,
    ];

    /// Its colour (for `Rate` and `Buffer`, the full end of the scale).
    pub fn colour(self) -> Colour {
        match self {
            Mark::Rate | Mark::Buffer => INK_FULL,
            Mark::Blocked | Mark::BufferFull | Mark::Victim => AMBER,
            Mark::Root | Mark::Contributor | Mark::Cycle => RED,
            Mark::Ecn => YELLOW,
        }
    }

    /// Its name in the lesson text's colour references (`[red](root)`).
    pub fn id(self) -> &'static str {
        match self {
            Mark::Rate => "rate",
            Mark::Cycle => "cycle",
            Mark::Blocked => "blocked",
            Mark::Root => "root",
            Mark::Ecn => "mark",
            Mark::Buffer => "buffer",
            Mark::BufferFull => "buffer-full",
            Mark::Contributor => "contributor",
            Mark::Victim => "victim",
        }
    }

    /// What it means, for the legend.
    pub fn meaning(self) -> &'static str {
        match self {
            Mark::Rate => "link rate: thicker is busier",
            Mark::Cycle => "a cycle of links: each one's packets wait for credit on the next, round to the first",
            Mark::Blocked => "blocked: waits for credit",
            Mark::Root => "root of the congestion tree",
            Mark::Ecn => "packets marked lately",
            Mark::Buffer => "input buffer filling",
            Mark::BufferFull => "buffer full",
            Mark::Contributor => "flow feeding a root",
            Mark::Victim => "victim of spreading",
        }
    }
}

/// The colour a lesson's reference `[word](thing)` points at: `thing` is a [`Mark`] id or `group:NAME` (the
/// group's colour in a scenario with `groups`), or `selection`.
pub fn referenced<S: AsRef<str>>(thing: &str, groups: &[S]) -> Option<Colour> {
    if let Some(g) = thing.strip_prefix("group:") {
        return groups.iter().any(|x| x.as_ref() == g).then(|| group_colour(groups, g));
    }
    if thing == "selection" {
        return Some(SELECTION);
    }
    Mark::ALL.into_iter().find(|m| m.id() == thing).map(Mark::colour)
}

/// The page's colours as CSS custom properties for both themes (`--c-root`, `--c-blocked`...), so the stylesheet
/// and the SVG use the same values as the plots.
pub fn css() -> String {
    let vars = |theme: Theme| {
        let mut s = String::new();
        for m in Mark::ALL {
            s += &format!("--c-{}: {}; ", m.id(), m.colour().hex(theme));
        }
        s += &format!("--c-ink-idle: {}; --c-ink-full: {}; ", INK_IDLE.hex(theme), INK_FULL.hex(theme));
        s += &format!("--c-focus: {}; ", SELECTION.hex(theme));
        s
    };
    format!(
        ":root {{ {} }}\n@media (prefers-color-scheme: dark) {{ :root {{ {} }} }}\n",
        vars(Theme::Light),
        vars(Theme::Dark)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_keep_their_role_colours_wherever_they_are_listed() {
        let fig2 = ["local", "remote", "victim"];
        assert_eq!(group_colours(&fig2), [BLUE, GREEN, PURPLE]);
        // The victim is purple whatever its position, and however many groups come before it.
        let shuffled = ["victim", "x", "y", "local", "remote"];
        let c = group_colours(&shuffled);
        assert_eq!((c[0], c[3], c[4]), (PURPLE, BLUE, GREEN));
        assert!(c[1] != c[2] && ![PURPLE, BLUE, GREEN].contains(&c[1]) && ![PURPLE, BLUE, GREEN].contains(&c[2]));
        assert_eq!(group_colour(&shuffled, "victim"), PURPLE);
        assert_eq!(group_colour(&fig2, "nope"), GREY);
    }

    #[test]
    fn groups_of_one_scenario_never_share_a_colour() {
        // "static" and "local" both want blue: the second takes another colour.
        let c = group_colours(&["local", "static", "a", "b", "c", "d", "e", "f"]);
        for i in 0..c.len() {
            for j in i + 1..c.len() {
                assert_ne!(c[i].name, c[j].name, "{i} and {j}");
            }
        }
        assert_eq!(group_colours(&[""]), [GREY], "no group: grey");
    }

    #[test]
    fn a_group_keeps_its_colour_when_groups_are_added_or_regrouped() {
        let before = group_colours(&["b", "local"]);
        // An ungrouped flow gets group "a" (listed first now), and another group "c" is added after.
        let after = group_colours(&["a", "b", "local", "c"]);
        assert_eq!((after[1], after[2]), (before[0], before[1]));
        // Names that count up prefer different colours.
        let g: Vec<String> = (1..=5).map(|i| format!("g{i}")).collect();
        let c = group_colours(&g);
        for k in 0..5 {
            assert_eq!(c[k], group_colours(&[&g[k]])[0], "g{} has its own colour alone or among the others", k + 1);
        }
    }

    #[test]
    fn colour_does_not_depend_on_the_curves_beside_it() {
        // A plot's curves (links interleaved, groups in any order) get each group its scenario-wide colour.
        use crate::plot::{colours, Curve, What};
        let groups = ["local", "remote", "victim"].map(String::from);
        let want = group_colours(&groups);
        let curve = |w: What| Curve::new("", Vec::new(), w);
        let curves = [
            curve(What::Link(4)),
            curve(What::Group("victim".into())),
            curve(What::Link(0)),
            curve(What::Group("local".into())),
        ];
        let got = colours(&curves, &groups);
        assert_eq!((got[1], got[3]), (want[2], want[0]));
    }

    /// WCAG's relative luminance of a `#rrggbb`.
    fn luminance(hex: &str) -> f64 {
        let (r, g, b) = parse_hex(hex);
        let lin = |c: u8| {
            let c = f64::from(c) / 255.0;
            if c <= 0.040_45 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
    }

    fn contrast(a: &str, b: &str) -> f64 {
        let (x, y) = (luminance(a), luminance(b));
        (x.max(y) + 0.05) / (x.min(y) + 0.05)
    }

    #[test]
    fn the_rate_scale_runs_from_idle_to_full_in_each_theme() {
        assert!(rate_paint(0.0).contains(" 0%") && rate_paint(1.0).contains(" 100%"));
        assert_eq!(rate_paint(7.0), rate_paint(1.0));
        assert!(rate_paint(0.25).contains(" 25%"));
        assert!(rate_width(0.0) < rate_width(0.5) && rate_width(1.0) == rate_width(3.0));
        // The page's backgrounds (www/style.css): an idle link is still seen (3:1, WCAG's non-text contrast),
        // and a full one stands out more.
        for (theme, bg) in [(Theme::Light, "#ffffff"), (Theme::Dark, "#181a1f")] {
            let (idle, full) = (INK_IDLE.hex(theme), INK_FULL.hex(theme));
            assert!(contrast(idle, bg) >= 3.0, "{theme:?}: idle {:.2}", contrast(idle, bg));
            assert!(contrast(full, bg) > contrast(idle, bg) + 5.0, "{theme:?}");
        }
    }

    #[test]
    fn the_selection_is_told_apart_from_the_roles_and_marks() {
        // (Not from every colour a tenth group could take: the hues are too few. Those groups are rare, and the
        // selection is a halo, never a line's own colour.)
        for theme in [Theme::Light, Theme::Dark] {
            let sel = SELECTION.rgb(theme);
            for c in ROLES.iter().map(|(_, c)| *c).chain(Mark::ALL.map(Mark::colour)) {
                let o = c.rgb(theme);
                let d = (i32::from(sel.0) - i32::from(o.0)).abs()
                    + (i32::from(sel.1) - i32::from(o.1)).abs()
                    + (i32::from(sel.2) - i32::from(o.2)).abs();
                assert!(d > 90, "{theme:?}: the selection is too near {}", c.name);
            }
        }
    }

    #[test]
    fn link_colours_are_neutral_and_distinct_in_a_plot() {
        let groups: Vec<&str> = OTHERS.iter().chain(ROLES.iter().map(|(_, c)| c)).map(|c| c.name).collect();
        for k in 0..LINKS.len() {
            assert!(!groups.contains(&link_colour(k).name), "{}", link_colour(k).name);
            for j in 0..k {
                assert_ne!(link_colour(j), link_colour(k));
            }
        }
    }

    #[test]
    fn references_name_what_the_page_draws() {
        assert_eq!(referenced("root", &["local"]), Some(RED));
        assert_eq!(referenced("group:victim", &["local", "victim"]), Some(PURPLE));
        assert_eq!(referenced("group:victim", &["local"]), None, "no such group in the scenario");
        assert_eq!(referenced("nonsense", &["local"]), None);
        assert!(css().contains("--c-root: #d32f2f;") && css().contains("prefers-color-scheme: dark"));
    }
}
