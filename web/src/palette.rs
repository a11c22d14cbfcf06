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
//! - grey to black (grey to white in the dark theme), and line width: how busy a link is;
//! - purple, green, blue...: flow groups (victim purple, remote green, local blue).

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
pub const BLUE: Colour = Colour::new("blue", "#1565c0", "#64b5f6");
pub const TEAL: Colour = Colour::new("teal", "#00897b", "#4db6ac");
pub const PINK: Colour = Colour::new("pink", "#d81b60", "#f48fb1");
pub const ORANGE: Colour = Colour::new("orange", "#e65100", "#ffb74d");
pub const BROWN: Colour = Colour::new("brown", "#6d4c41", "#bcaaa4");
pub const INDIGO: Colour = Colour::new("indigo", "#3949ab", "#9fa8da");
pub const OLIVE: Colour = Colour::new("olive", "#827717", "#d4e157");
pub const CYAN: Colour = Colour::new("cyan", "#00838f", "#80deea");
/// Flows without a group.
pub const GREY: Colour = Colour::new("grey", "#757575", "#9e9e9e");
/// The selection, keyboard focus and what a lesson points at.
pub const FOCUS: Colour = Colour::new("blue", "#2563eb", "#7aa2ff");
/// An idle link.
pub const INK_IDLE: Colour = Colour::new("grey", "#c3c9cf", "#4a525c");
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

/// Colours for other groups, in the order they are handed out.
const OTHERS: &[Colour] = &[ORANGE, BROWN, INDIGO, OLIVE, CYAN, PINK, GREEN, BLUE, TEAL, PURPLE];

/// Links in plots: thin lines in muted tones, told apart from the groups' thick vivid ones.
const LINKS: &[Colour] = &[
    Colour::new("dark grey", "#37474f", "#cfd8dc"),
    Colour::new("grey", "#8d9aa3", "#7f8c95"),
    Colour::new("brown", "#8d6e63", "#a1887f"),
    Colour::new("olive", "#9e9d24", "#c0ca33"),
    Colour::new("slate blue", "#5c6f91", "#9aa9c7"),
    Colour::new("khaki", "#a1887f", "#d7ccc8"),
];

/// The colour of each group of a scenario, `groups` in first-appearance order (the order the results give). A
/// group named for its role keeps that role's colour; others take the next colour no earlier group has, so two
/// groups of one scenario never share a colour while colours last.
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
    let mut next = OTHERS.iter().cycle().take(OTHERS.len() * 2);
    for slot in out.iter_mut().filter(|c| c.is_none()) {
        let c = next.by_ref().find(|c| !taken.contains(&c.name)).copied().unwrap_or(GREY);
        taken.push(c.name);
        *slot = Some(c);
    }
    out.into_iter().map(|c| c.unwrap_or(GREY)).collect()
}

/// The colour of group `name` among `groups`.
pub fn group_colour<S: AsRef<str>>(groups: &[S], name: &str) -> Colour {
    groups.iter().position(|g| g.as_ref() == name).map_or(GREY, |i| group_colours(groups)[i])
}

/// The colour of a link's curve in a plot, by its channel (the same link has the same colour in every plot).
pub fn link_colour(channel: usize) -> Colour {
    LINKS[channel % LINKS.len()]
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

/// How a link carrying `rate` (fraction of capacity) is coloured: from idle grey to black (white in the dark
/// theme), in `theme`, as `#rrggbb`.
pub fn rate_colour(rate: f32, theme: Theme) -> String {
    let r = f64::from(rate.clamp(0.0, 1.0));
    let (a, b) = (INK_IDLE.rgb(theme), INK_FULL.rgb(theme));
    let mix = |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * r).round() as u8;
    format!("#{:02x}{:02x}{:02x}", mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
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
    pub const ALL: [Mark; 8] = [
        Mark::Rate,
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
            Mark::Root | Mark::Contributor => RED,
            Mark::Ecn => YELLOW,
        }
    }

    /// Its name in the lesson text's colour references (`[red](root)`).
    pub fn id(self) -> &'static str {
        match self {
            Mark::Rate => "rate",
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
            Mark::Rate => "link rate: thicker, darker is busier",
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
        return Some(FOCUS);
    }
    Mark::ALL.into_iter().find(|m| m.id() == thing).map(Mark::colour)
}

/// Every colour with a name, for finding colour words in text.
pub const NAMED: &[Colour] =
    &[RED, AMBER, YELLOW, PURPLE, GREEN, BLUE, TEAL, PINK, ORANGE, BROWN, INDIGO, OLIVE, CYAN, GREY, INK_FULL];

/// The page's colours as CSS custom properties for both themes (`--c-root`, `--c-blocked`...), so the stylesheet
/// and the SVG use the same values as the plots.
pub fn css() -> String {
    let vars = |theme: Theme| {
        let mut s = String::new();
        for m in Mark::ALL {
            s += &format!("--c-{}: {}; ", m.id(), m.colour().hex(theme));
        }
        s += &format!("--c-ink-idle: {}; --c-ink-full: {}; ", INK_IDLE.hex(theme), INK_FULL.hex(theme));
        s += &format!("--c-focus: {}; ", FOCUS.hex(theme));
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
    fn colour_does_not_depend_on_other_scenarios_curves() {
        // The same three groups give the same colours whatever links or groups a plot shows beside them.
        let a = group_colours(&["local", "remote", "victim"]);
        let b = group_colours(&["local", "remote", "victim"]);
        assert_eq!(a, b);
    }

    #[test]
    fn the_rate_scale_runs_from_idle_to_full_in_each_theme() {
        assert_eq!(rate_colour(0.0, Theme::Light), INK_IDLE.light);
        assert_eq!(rate_colour(1.0, Theme::Light), INK_FULL.light);
        assert_eq!(rate_colour(7.0, Theme::Dark), INK_FULL.dark);
        let grey = |hex: String| parse_hex(&hex).0;
        assert!(grey(rate_colour(0.2, Theme::Light)) > grey(rate_colour(0.8, Theme::Light)), "darker when busier");
        assert!(rate_width(0.0) < rate_width(0.5) && rate_width(1.0) == rate_width(3.0));
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
