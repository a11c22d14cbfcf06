//! Why a command failed, and its exit status: 2 when its input was refused (a bad scenario, link, spec or option:
//! scripts rely on it), 1 when something else went wrong (a file could not be read or written).

use std::fmt;

#[derive(Debug)]
pub enum Error {
    /// The input was refused; the message names what is wrong.
    Refused(String),
    /// Reading or writing failed.
    Io(String),
}

impl Error {
    /// An I/O failure on `what` (a path, "standard input").
    pub fn io(what: impl fmt::Display, e: &std::io::Error) -> Self {
        Error::Io(format!("{what}: {e}"))
    }

    /// The process's exit status.
    pub fn status(&self) -> u8 {
        match self {
            Error::Refused(_) => 2,
            Error::Io(_) => 1,
        }
    }
}

impl From<String> for Error {
    fn from(message: String) -> Self {
        Error::Refused(message)
    }
}

impl From<&str> for Error {
    fn from(message: &str) -> Self {
        Error::Refused(message.to_owned())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Refused(m) | Error::Io(m) => f.write_str(m),
        }
    }
}
