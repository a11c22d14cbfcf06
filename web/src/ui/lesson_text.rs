//! Lesson text as the page shows it: its colour references ("the purple flow") drawn in the colour the page uses,
//! with a swatch. The lessons panel and the A/B view (a lesson step that compares) both show it.

use super::theme::paint;
use crate::course::{spans, Span};
use ibcc_view::palette;
use yew::prelude::*;

/// Lesson text with its colour references shown as the colour the page draws, with a swatch.
pub fn lesson_text(text: &str, groups: &[String]) -> Html {
    spans(text)
        .into_iter()
        .map(|s| match s {
            Span::Text(t) => unbroken_links(t),
            Span::Colour { word, thing } => match palette::referenced(thing, groups) {
                Some(c) => html! {
                    <span class="colour-ref" data-colour={c.name}>
                        <i class="swatch" style={format!("background: {}", paint(c))} aria-hidden="true" />{ word }
                    </span>
                },
                None => html! { { word } },
            },
        })
        .collect()
}

/// `text` with each link name ("B->BC") kept on one line: a browser may break a line after the hyphen, and "B-"
/// over ">BC" reads as nothing.
pub fn unbroken_links(text: &str) -> Html {
    text.split_inclusive(' ')
        .map(|word| {
            if word.contains("->") {
                html! { <span class="nowrap">{ word.to_owned() }</span> }
            } else {
                html! { { word.to_owned() } }
            }
        })
        .collect()
}
