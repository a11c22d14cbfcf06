//! Labelled form controls shared by the views: each shows its unit, a one-line definition, and its error (if any)
//! right next to it.

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct NumberFieldProps {
    pub id: AttrValue,
    pub label: AttrValue,
    pub unit: AttrValue,
    pub help: AttrValue,
    pub value: AttrValue,
    pub error: Option<AttrValue>,
    pub on_change: Callback<String>,
    /// Shown while the field is empty (the value used then).
    #[prop_or_default]
    pub placeholder: AttrValue,
    /// Report the value when the field is left or Enter is pressed, not at every keystroke (one undo step per
    /// edit).
    #[prop_or_default]
    pub on_commit_only: bool,
    /// Free text rather than a number (names, groups).
    #[prop_or_default]
    pub text: bool,
    /// The scenario path it sets, shown small beside the label.
    #[prop_or_default]
    pub path: AttrValue,
    /// Why it cannot be changed now (an exercise fixes it): shown disabled, with the reason.
    #[prop_or_default]
    pub locked: Option<AttrValue>,
}

/// A labelled input (a number unless `text`) with its unit, a one-line definition, and its error (if any) right
/// next to it.
#[component]
pub fn NumberField(p: &NumberFieldProps) -> Html {
    let emit = {
        let on_change = p.on_change.clone();
        move |e: &Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            on_change.emit(input.value());
        }
    };
    let (oninput, onchange) = if p.on_commit_only {
        (None, Some(Callback::from(move |e: Event| emit(&e))))
    } else {
        (Some(Callback::from(move |e: InputEvent| emit(&e))), None)
    };
    let help_id = format!("{}-help", p.id);
    html! {
        <div class={classes!("field", p.error.is_some().then_some("invalid"))}>
            <label for={p.id.clone()}>{ &p.label }</label>{ path(&p.path) }
            <div class="input-row">
                <input id={p.id.clone()} type="text" inputmode={if p.text { "text" } else { "decimal" }} value={p.value.clone()}
                    placeholder={p.placeholder.clone()} {oninput} {onchange}
                    aria-describedby={help_id.clone()} aria-invalid={p.error.is_some().to_string()}
                    disabled={p.locked.is_some()} title={p.locked.clone()}
                    data-testid={format!("input-{}", p.id)} />
                <span class="unit">{ &p.unit }</span>
            </div>
            <small id={help_id}>{ &p.help }</small>
            { locked(&p.locked, &p.id) }
            if let Some(err) = &p.error {
                <small class="error" role="alert" data-testid={format!("error-{}", p.id)}>{ err }</small>
            }
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct ChoiceProps {
    pub id: AttrValue,
    pub label: AttrValue,
    pub help: AttrValue,
    /// `(value, label)` pairs.
    pub options: Vec<(AttrValue, AttrValue)>,
    pub value: AttrValue,
    pub on_change: Callback<String>,
    #[prop_or_default]
    pub path: AttrValue,
    /// Why it cannot be changed now, as for [`NumberField`].
    #[prop_or_default]
    pub locked: Option<AttrValue>,
}

/// The reason a field is locked, under it.
fn locked(reason: &Option<AttrValue>, id: &AttrValue) -> Html {
    match reason {
        Some(r) => html! { <small class="locked" data-testid={format!("locked-{id}")}>{ "🔒 " }{ r.clone() }</small> },
        None => html! {},
    }
}

/// A scenario path as secondary text (nothing when empty).
fn path(p: &AttrValue) -> Html {
    if p.is_empty() {
        html! {}
    } else {
        html! { <code class="path">{ p.clone() }</code> }
    }
}

/// A labelled select.
#[component]
pub fn Choice(p: &ChoiceProps) -> Html {
    let onchange = {
        let on_change = p.on_change.clone();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            on_change.emit(select.value());
        })
    };
    let help_id = format!("{}-help", p.id);
    html! {
        <div class="field">
            <label for={p.id.clone()}>{ &p.label }</label>{ path(&p.path) }
            <select id={p.id.clone()} {onchange} aria-describedby={help_id.clone()} data-testid={format!("input-{}", p.id)}
                disabled={p.locked.is_some()} title={p.locked.clone()}>
                for (value, label) in p.options.iter() {
                    <option value={value.clone()} selected={*value == p.value}>{ label }</option>
                }
            </select>
            <small id={help_id}>{ &p.help }</small>
            { locked(&p.locked, &p.id) }
        </div>
    }
}
