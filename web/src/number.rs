//! Numbers typed by a person (a parameter, an answer, a sweep's values), read by serde_json's exact float reader:
//! the page then carries one decimal-to-float converter, not two (issue 19: the page's size), and a number typed
//! here means exactly what the same text means in a scenario file.

/// The number `text` spells, if any: decimal with an optional sign, fraction and exponent (`3`, `-0.5`, `.5`,
/// `5.`, `+2`, `1e-3`). Surrounding spaces are ignored; `inf` and `NaN` are not numbers.
pub fn parse(text: &str) -> Option<f64> {
    let t = text.trim();
    let t = t.strip_prefix('+').unwrap_or(t);
    let (sign, digits) = match t.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", t),
    };
    if !digits.split(['e', 'E']).next().is_some_and(|m| m.bytes().any(|b| b.is_ascii_digit())) {
        return None;
    }
    // JSON wants a digit on both sides of the point: ".5" is "0.5", "5." is "5" (and "5.e3" is "5e3").
    let mut s = String::with_capacity(digits.len() + 2);
    s.push_str(sign);
    if digits.starts_with('.') {
        s.push('0');
    }
    match digits.find('.') {
        Some(p) if !digits[p + 1..].starts_with(|c: char| c.is_ascii_digit()) => {
            s.push_str(&digits[..p]);
            s.push_str(&digits[p + 1..]);
        }
        _ => s.push_str(digits),
    }
    if !s.bytes().all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b)) {
        return None;
    }
    serde_json::from_str::<f64>(&s).ok().filter(|x| x.is_finite())
}

/// `v` as a whole number, refused in words that name what is wrong with it (a setting's own lower limit, often 1, is
/// validation's to name). The settings panel and the selection's fields both read whole numbers so.
pub fn whole(v: f64) -> Result<u64, &'static str> {
    if v < 0.0 {
        Err("must not be negative")
    } else if v.fract() != 0.0 {
        Err("must be a whole number")
    } else if v >= 9.0e15 {
        Err("is too large")
    } else {
        Ok(v as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::{parse, whole};

    #[test]
    fn a_whole_number_is_refused_by_what_is_wrong_with_it() {
        assert_eq!([0.0, 4.0].map(whole), [Ok(0), Ok(4)]);
        assert_eq!(
            [-3.0, 2.5, 1e16].map(whole),
            [Err("must not be negative"), Err("must be a whole number"), Err("is too large")]
        );
    }

    /// What a person types reads as Rust's own `str::parse` reads it, bit for bit; what is not a number is `None`.
    #[test]
    fn reads_what_people_type() {
        for t in
            ["3", "-0.5", ".5", "5.", "+2", "1e-3", " 42 ", "0.1", "2.5E3", "-.25", "1.7976931348623157e308", "5.e2"]
        {
            let std: f64 = t.trim().trim_start_matches('+').parse().unwrap();
            assert_eq!(parse(t).map(f64::to_bits), Some(std.to_bits()), "{t:?}");
        }
        for t in ["", "-", ".", "abc", "1,5", "inf", "NaN", "1e999", "--1", "1 2", "0x10", "\"1\""] {
            assert_eq!(parse(t), None, "{t:?}");
        }
    }
}
