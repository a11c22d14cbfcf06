//! `ibcc link` and `ibcc unlink`: share links (the page's `#s=` URL fragment) from scenarios and back.

use crate::error::Error;
use ibcc_core::scenario::link::{decode, embed_code, encode, Shared};

/// The page's address, to which a link's fragment is appended.
pub const DEFAULT_BASE: &str = "http://127.0.0.1:8080/";

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The scenario: a JSON file, `-` for standard input, or `preset:NAME`.
    scenario: String,
    /// The plot the page shows first.
    #[arg(long, value_enum)]
    plot: Option<Plot>,
    /// The page's address (where the playground is published, for example https://example.org/courses/net/playground/).
    #[arg(long, default_value = DEFAULT_BASE)]
    base: String,
    /// Print the `<iframe>` that embeds the scenario in another page (see docs/embedding.md) instead of the link.
    #[arg(long)]
    embed: bool,
}

/// The page's plots, by the names links use.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Plot {
    Rates,
    Limits,
    Buffers,
    Marks,
}

impl Plot {
    fn id(self) -> &'static str {
        match self {
            Plot::Rates => "rates",
            Plot::Limits => "limits",
            Plot::Buffers => "buffers",
            Plot::Marks => "marks",
        }
    }
}

pub fn link(args: &Args) -> Result<(), Error> {
    let scenario = crate::run::load(&args.scenario)?;
    let scenario_name = scenario.name.clone();
    let link = encode(&Shared { scenario, plot: args.plot.map(|p| p.id().into()) });
    let base = &args.base;
    if args.embed {
        crate::output::print(&(embed_code(base, &link, &scenario_name) + "\n"));
    } else {
        crate::output::print(&format!("{base}#s={link}\n"));
    }
    Ok(())
}

/// The link part of `text`: after `#s=` if there is one, else all of it.
pub fn payload(text: &str) -> &str {
    text.split_once("#s=").map_or(text, |(_, l)| l)
}

/// The shared state of a link or a URL holding one.
pub fn open(text: &str) -> Result<Shared, String> {
    decode(payload(text)).map_err(|e| e.to_string())
}

pub fn unlink(text: &str) -> Result<(), String> {
    crate::output::print(&(open(text)?.scenario.to_json() + "\n"));
    Ok(())
}
