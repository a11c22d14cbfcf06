//! `ibcc finc`: the time each source-response function takes from Rmin to Rmax, and optionally the Finc(t) curve as
//! CSV (INFOCOM'03 §VI-B, Fig. 5).

use crate::output::outln;
use ibcc_core::cc::response::{ResponseFunction, ResponseParams};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Rmin as a divisor of Rmax (Rmin = Rmax / N).
    #[arg(long, default_value_t = 256.0)]
    r_min_divisor: f64,
    /// Decrease factor m of AIMD and FIMD.
    #[arg(long, default_value_t = 2.0)]
    m: f64,
    /// Link rate in Gb/s (the papers' 1 GB/s is 8 Gb/s).
    #[arg(long, default_value_t = 8.0)]
    gbps: f64,
    /// Packet size in bytes that sets the packet time (the paper's Fig. 5 uses 2048).
    #[arg(long, default_value_t = 2048.0)]
    packet_bytes: f64,
    /// Print Finc(t)/Rmax at this many evenly spaced times as CSV instead of the summary.
    #[arg(long)]
    csv_points: Option<u32>,
}

pub fn run(args: &Args) -> Result<(), String> {
    if !(args.gbps.is_finite() && args.gbps > 0.0) {
        return Err(format!("--gbps must be a positive number, got {}", args.gbps));
    }
    if !(args.packet_bytes.is_finite() && args.packet_bytes > 0.0) {
        return Err(format!("--packet-bytes must be a positive number, got {}", args.packet_bytes));
    }
    let p = ResponseParams::new(1.0 / args.r_min_divisor, args.m).map_err(|e| e.to_string())?;
    let packet_time_ms = args.packet_bytes * 8.0 / (args.gbps * 1e9) * 1e3;
    match args.csv_points {
        None => {
            outln!("Rmin = Rmax/{}, m = {}, packet time = {:.4} us", args.r_min_divisor, args.m, packet_time_ms * 1e3);
            for f in ResponseFunction::ALL {
                outln!("{:<5} Rmin -> Rmax in {:10.3} ms", f.name(), f.time_to_rmax(&p) * packet_time_ms);
            }
        }
        Some(n) => {
            let n = n.max(2);
            let end = ResponseFunction::ALL.iter().map(|f| f.time_to_rmax(&p)).fold(0.0, f64::max);
            outln!("t_ms,aimd,fimd,lipd");
            for i in 0..n {
                let t = end * f64::from(i) / f64::from(n - 1);
                let [a, f, l] = ResponseFunction::ALL.map(|func| func.finc_t(&p, t));
                outln!("{},{a},{f},{l}", t * packet_time_ms);
            }
        }
    }
    Ok(())
}
