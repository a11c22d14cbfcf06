//! CSV as both front ends write it: RFC 4180's quoting (a field holding a comma, a double quote, a carriage return
//! or a line feed is put in double quotes, and its double quotes doubled), one record per line ending in a line
//! feed (what spreadsheets and `pandas.read_csv` expect; RFC 4180 allows it for text files).

use std::fmt::Write;

/// One field, quoted if it must be.
pub fn field(s: &str) -> String {
    if s.contains([',', '"', '\r', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

/// One record: the fields, quoted as they must be, separated by commas, and the line feed.
pub fn record<S: AsRef<str>>(fields: impl IntoIterator<Item = S>) -> String {
    let mut out = String::new();
    for (i, f) in fields.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&field(f.as_ref()));
    }
    out.push('\n');
    out
}

/// A number as a CSV field: Rust's shortest exact form (`0.1`, `67.68`), empty for NaN.
pub fn number(x: f64) -> String {
    if x.is_nan() {
        String::new()
    } else {
        let mut s = String::new();
        let _ = write!(s, "{x}");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_as_rfc_4180_says() {
        assert_eq!(field("plain"), "plain");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field("two\nlines"), "\"two\nlines\"");
        assert_eq!(field("cr\r"), "\"cr\r\"");
        assert_eq!(record(["x", "a,b", ""]), "x,\"a,b\",\n");
        assert_eq!(number(0.5), "0.5");
        assert_eq!(number(f64::NAN), "");
    }
}
