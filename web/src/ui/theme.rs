//! The system's light or dark preference, for what CSS cannot style (canvas plots).

use crate::finc_plot::PlotTheme;

/// The plot colours matching `prefers-color-scheme`.
pub fn plot_theme() -> PlotTheme {
    let dark = web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|q| q.matches());
    if dark {
        PlotTheme::DARK
    } else {
        PlotTheme::LIGHT
    }
}
