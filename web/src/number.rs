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

#[cfg(test)]
mod tests {
    use super::parse;

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
