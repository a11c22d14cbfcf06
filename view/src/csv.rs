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

/// A number as a CSV field: rounded to 10 significant digits, then in its shortest form (`0.1`, `67.68`, not the
/// `67.67999999999999` of `100.0 * 0.6768`: the simulator's figures have nothing to say past the tenth digit);
/// empty for NaN.
pub fn number(x: f64) -> String {
    if x.is_nan() {
        return String::new();
    }
    // Scaled to a whole number of 10 digits, rounded, scaled back: a division of whole numbers by a power of ten
    // is rounded to the double nearest the decimal, which prints as that decimal. (Not a parse of "{x:.9e}": the
    // page would carry a float parser for it.)
    let digits = if x == 0.0 || !x.is_finite() { 0 } else { 9 - x.abs().log10().floor() as i32 };
    let rounded = match digits {
        0 => x,
        d if (1..=22).contains(&d) => (x * 10f64.powi(d)).round() / 10f64.powi(d),
        d if (-22..0).contains(&d) => (x / 10f64.powi(-d)).round() * 10f64.powi(-d),
        _ => x,
    };
    let mut s = String::new();
    let _ = write!(s, "{rounded}");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_carry_no_floating_point_noise() {
        assert_eq!(number(100.0 * 0.6768), "67.68");
        assert_eq!(number(67.67999999999999), "67.68");
        assert_eq!(number(0.1 + 0.2), "0.3");
        assert_eq!(number(20000.0005), "20000.0005");
        assert_eq!(number(1e-7), "0.0000001");
        assert_eq!(number(f64::NAN), "");
        assert_eq!(number(-3.0), "-3");
    }

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
