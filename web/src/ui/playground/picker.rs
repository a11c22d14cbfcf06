//! The scenario picker: presets listed by what they show ("Congestion spreading, INFOCOM'03 Fig. 2"), grouped, and
//! what is loaded when it is not a preset as it is ("Edited: ...", "Generated: ...", "Opened: ..."). Ids stay in
//! links, files and the command line.

use super::super::document::{preset_scenario, use_doc, Action, CUSTOM, EMPTY};
use crate::origin::picker_groups;
use yew::prelude::*;

#[component]
pub fn Picker() -> Html {
    let doc = use_doc();
    let on_pick = {
        let d = doc.dispatcher();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            let (next, origin) = preset_scenario(&select.value());
            d.dispatch(Action::Load { next: Box::new(next), origin });
        })
    };
    let value = doc.origin.picker_value().to_owned();
    html! {
        <label class="picker">
            <span class="visually-hidden">{ "Scenario" }</span>
            <select onchange={on_pick} data-testid="scenario-picker" aria-label="Scenario" title={doc.origin.describe()}>
                if value == CUSTOM {
                    <option value={CUSTOM} selected=true disabled=true>{ doc.origin.describe() }</option>
                }
                <option value={EMPTY} selected={value == EMPTY}>{ "Empty canvas: build your own" }</option>
                for (group, presets) in picker_groups() {
                    <optgroup label={group}>
                        for p in presets {
                            <option value={p.name} selected={p.name == value}>{ p.label() }</option>
                        }
                    </optgroup>
                }
            </select>
        </label>
    }
}
