//! Writing results to standard output. A reader that stops early (`ibcc run x | head`) is normal use, not an error.

use std::io::Write;

/// Prints `text`; a closed pipe ends the output quietly instead of panicking as `println!` would.
pub fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// `println!` through [`print`]: a closed pipe (`ibcc bench | head`) ends the output quietly.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::output::print(&format!("{}\n", format_args!($($arg)*)))
    };
}
pub(crate) use outln;
