//! `ibcc link` and `ibcc unlink`: share links (the page's `#s=` URL fragment) from scenarios and back.

use crate::exit::Error;
use ibcc_core::scenario::share_link::{embed_code, encode, fits, Shared, TOO_LONG_ADVICE};
use ibcc_view::names::PlotKind;

/// The page's address, to which a link's fragment is appended.
pub const DEFAULT_BASE: &str = "http://127.0.0.1:8080/";

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The scenario: a JSON file, `-` for standard input, or `preset:NAME`.
    scenario: String,
    /// The plot the page shows first: rates, limits, buffers or marks.
    #[arg(long, value_parser = parse_plot)]
    plot: Option<PlotKind>,
    /// The page's address (where the playground is published, for example https://example.org/courses/net/playground/).
    #[arg(long, default_value = DEFAULT_BASE)]
    base: String,
    /// The moment of the run the page opens at, in milliseconds of simulated time (it computes the run up to it
    /// and pauses there); by default 0, the run's start.
    #[arg(long)]
    at_ms: Option<f64>,
    /// Print the `<iframe>` that embeds the scenario in another page (see docs/embedding.md) instead of the link.
    #[arg(long)]
    embed: bool,
}

/// A plot's id, as links name it.
fn parse_plot(id: &str) -> Result<PlotKind, String> {
    let ids: Vec<&str> = PlotKind::ALL.iter().map(|k| k.id()).collect();
    PlotKind::parse(id).ok_or_else(|| format!("{id:?} is no plot: one of {}", ids.join(", ")))
}

pub fn link(args: &Args) -> Result<(), Error> {
    let scenario = crate::input::load(&args.scenario)?;
    let scenario_name = scenario.name.clone();
    let at_ps = match args.at_ms {
        Some(ms) if !(ms.is_finite() && ms >= 0.0) => {
            return Err(format!("--at-ms {ms}: a moment is a number of milliseconds, 0 or more").into())
        }
        Some(ms) => Some((ms * 1e9).round() as u64),
        None => None,
    };
    let shared = Shared { scenario, plot: args.plot.map(|p| p.id().into()), at_ps };
    // (The page would refuse a moment past the run's end: say so here, where the link is made.)
    shared.moment_in_run().map_err(|e| format!("{}: {e}", args.scenario))?;
    let link = encode(&shared);
    fits(&link).map_err(|e| format!("{}: {e}; {TOO_LONG_ADVICE}", args.scenario))?;
    let base = &args.base;
    if args.embed {
        crate::output::print(&(embed_code(base, &link, &scenario_name) + "\n"));
    } else {
        crate::output::print(&format!("{base}#s={link}\n"));
    }
    Ok(())
}

pub fn unlink(text: &str) -> Result<(), String> {
    crate::output::print(&(crate::input::open_link(text)?.scenario.to_json() + "\n"));
    Ok(())
}
