//! `ibcc`: the IBCC Playground simulator on the command line.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod finc;

#[derive(Debug, Parser)]
#[command(name = "ibcc", version, about = "IBCC Playground: congestion control in lossless InfiniBand-style networks")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Recovery time from Rmin to Rmax of the source-response functions (INFOCOM'03 Fig. 5).
    Finc(finc::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Finc(args) => finc::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("ibcc: {message}");
            // 2: the input was refused (the contract scripts rely on).
            ExitCode::from(2)
        }
    }
}
