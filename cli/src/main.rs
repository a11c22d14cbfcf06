//! `ibcc`: the IBCC Playground simulator on the command line.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod analysis;
mod bare_loop;
mod bench;
mod bench_pft;
mod bench_scale;
mod exit;
mod fabric;
mod figure_files;
mod figures;
mod finc;
mod gpcnet_figures;
mod gpcnet_table;
mod htsim;
mod input;
mod network_load;
mod opensm;
mod output;
mod parallel;
mod pattern;
mod presets;
mod share_links;
mod simulate;
mod sweep;

#[derive(Debug, Parser)]
#[command(name = "ibcc", version, about = "IBCC Playground: congestion control in lossless InfiniBand-style networks")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run a scenario (a JSON file, or - for standard input) and print its results.
    Run(simulate::Args),
    /// List the built-in scenarios (the papers' experiments).
    Presets,
    /// Print a built-in scenario as scenario JSON.
    Preset {
        /// Its name, from `ibcc presets`.
        name: String,
    },
    /// Make a share link (the page's URL with the scenario in its fragment).
    Link(share_links::Args),
    /// Print the scenario of a share link (or of a URL holding one) as scenario JSON.
    Unlink {
        /// The link, or the whole URL.
        link: String,
    },
    /// Run a scenario over a grid of settings, in parallel (docs/sweeps.md).
    Sweep(sweep::Args),
    /// Join the shards of a sweep in DIR into results.csv and results.jsonl.
    Merge {
        /// The sweep's output directory.
        dir: std::path::PathBuf,
    },
    /// Regenerate the papers' figures (SVG and CSV) and a report next to the papers' statements.
    Figures(figures::Args),
    /// GPCNeT's congestion impact (canaries isolated and under congestion) on a scenario's or a fabric's network.
    Gpcnet(network_load::Args),
    /// Measure the simulator's speed.
    Bench(bench::Args),
    /// Recovery time from Rmin to Rmax of the source-response functions (INFOCOM'03 Fig. 5).
    Finc(finc::Args),
    /// Annex A10 parameters as OpenSM configuration, and back.
    #[command(subcommand)]
    Opensm(opensm::Command),
    /// Curves behind PFT and Annex A10, as CSV.
    #[command(subcommand)]
    Analysis(analysis::Command),
    /// Real InfiniBand fabrics: generate them, route them as OpenSM does.
    #[command(subcommand)]
    Fabric(fabric::Command),
    /// Replace a scenario's flows with a traffic pattern among its hosts; print the scenario and (on standard
    /// error) the pattern's load on its links.
    Pattern(pattern::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result: Result<(), exit::Error> = match cli.command {
        Command::Run(args) => simulate::run(&args),
        Command::Presets => {
            presets::list();
            Ok(())
        }
        Command::Preset { name } => presets::show(&name).map_err(Into::into),
        Command::Link(args) => share_links::link(&args),
        Command::Unlink { link } => share_links::unlink(&link).map_err(Into::into),
        Command::Sweep(args) => sweep::sweep(&args),
        Command::Merge { dir } => sweep::merge_dir(&dir),
        Command::Figures(args) => figures::figures(&args),
        Command::Gpcnet(args) => network_load::run(&args),
        Command::Bench(args) => bench::run(&args).map_err(Into::into),
        Command::Finc(args) => finc::run(&args).map_err(Into::into),
        Command::Opensm(command) => opensm::run(&command),
        Command::Analysis(command) => analysis::run(&command),
        Command::Fabric(command) => fabric::run(&command),
        Command::Pattern(args) => pattern::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ibcc: {e}");
            ExitCode::from(e.status())
        }
    }
}
