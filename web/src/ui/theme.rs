//! The system's light or dark preference, for what CSS cannot style (canvas plots), and the palette's colours as
//! CSS custom properties, so the stylesheet and the SVG draw with the same values as the plots.

use ibcc_view::palette::{self, Colour, Theme};
use yew::prelude::*;

/// The theme matching `prefers-color-scheme`.
pub fn current() -> Theme {
    let dark = web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|q| q.matches());
    if dark {
        Theme::Dark
    } else {
        Theme::Light
    }
}

/// Puts the palette's CSS custom properties (`--c-root`...) into the page once.
pub fn install_palette() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    if doc.get_element_by_id("ibcc-palette").is_some() {
        return;
    }
    let Ok(style) = doc.create_element("style") else { return };
    style.set_id("ibcc-palette");
    style.set_text_content(Some(&palette::css()));
    if let Some(head) = doc.head() {
        let _ = head.append_child(&style);
    }
}

/// Backend pixels per CSS pixel on this screen (at least 1).
pub fn pixel_ratio() -> f64 {
    web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).max(1.0)
}

/// The theme, following a change of the system's setting while the page is open (a plot is then redrawn).
#[hook]
pub fn use_theme() -> Theme {
    let theme = use_state(current);
    {
        let theme = theme.clone();
        use_effect_with((), move |_| {
            let query = web_sys::window().and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten());
            let listener = query.map(|q| gloo_events::EventListener::new(&q, "change", move |_| theme.set(current())));
            move || drop(listener)
        });
    }
    *theme
}

/// A colour in both themes, for SVG paint (the page declares `color-scheme: light dark`).
pub fn paint(c: Colour) -> String {
    format!("light-dark({}, {})", c.light, c.dark)
}
