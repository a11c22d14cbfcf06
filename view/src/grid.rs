//! A sweep's grid: each axis a setting (by its scenario path) and its values, every combination a point, numbered
//! with the last axis varying fastest. The page's Sweep view and `ibcc sweep` expand their axes here, so a range
//! gives the same values and a point the same number in both; only how many points each allows differs.

use serde_json::Value;

/// Most points a sweep in the browser may have (each a full run in a web worker).
pub const BROWSER_MAX_POINTS: usize = 400;
/// Most points one `ibcc sweep` may have, and most values one of its axes may have.
pub const CLI_MAX_POINTS: usize = 1_000_000;
pub const CLI_MAX_AXIS_VALUES: usize = 100_000;

/// One swept setting.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    pub path: String,
    pub values: Vec<Value>,
}

/// A number as JSON: whole numbers as integers, so integer settings accept them.
pub fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        Value::from(x as i64)
    } else {
        Value::from(x)
    }
}

/// The values `from, from + step, ...` up to `to` (within a billionth of a step: `0.1..0.3 step 0.1` ends at 0.3),
/// at most `max` of them.
pub fn range(from: f64, to: f64, step: f64, max: usize) -> Result<Vec<Value>, String> {
    if !(step > 0.0 && from.is_finite() && to.is_finite() && to >= from) {
        return Err(String::from("a range needs FROM <= TO and a step above 0"));
    }
    let n = ((to - from) / step + 1e-9).floor();
    if n >= max as f64 {
        return Err(format!("{} values is too many (at most {max})", n + 1.0));
    }
    Ok((0..=n as usize).map(|i| number(from + i as f64 * step)).collect())
}

/// Why a grid cannot be swept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SizeError {
    /// No axis, or an axis without values.
    Empty,
    /// More points (the first) than allowed (the second).
    TooMany(usize, usize),
}

impl std::fmt::Display for SizeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Empty => f.write_str("choose at least one setting and its values"),
            Self::TooMany(n, max) => write!(f, "{n} points is too many (at most {max})"),
        }
    }
}

/// How many points `axes` make; an error if none, or more than `max`.
pub fn size(axes: &[Axis], max: usize) -> Result<usize, SizeError> {
    let total = axes.iter().try_fold(1usize, |n, a| n.checked_mul(a.values.len())).unwrap_or(usize::MAX);
    if axes.is_empty() || total == 0 {
        return Err(SizeError::Empty);
    }
    if total > max {
        return Err(SizeError::TooMany(total, max));
    }
    Ok(total)
}

/// Whether `axes` make a grid worth running: no setting on two axes (the later would silently win), and no value
/// twice on one (the same runs twice); the error names the setting in words.
pub fn check(axes: &[Axis]) -> Result<(), String> {
    for (i, a) in axes.iter().enumerate() {
        let name = || crate::settings::label(&a.path);
        if axes[..i].iter().any(|b| b.path == a.path) {
            return Err(format!("{} is on two axes: give all its values on one", name()));
        }
        if let Some(v) = a.values.iter().enumerate().find_map(|(j, v)| a.values[..j].contains(v).then_some(v)) {
            let v = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
            return Err(format!("{}: {v} is given twice", name()));
        }
    }
    Ok(())
}

/// The values of point `index`: one per axis, the last axis varying fastest.
pub fn point(axes: &[Axis], index: usize) -> Vec<Value> {
    let mut rest = index;
    let mut values = vec![Value::Null; axes.len()];
    for (k, a) in axes.iter().enumerate().rev() {
        values[k] = a.values[rest % a.values.len()].clone();
        rest /= a.values.len();
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setting_on_two_axes_or_a_value_twice_is_refused_by_name() {
        let axis = |path: &str, values: &[i64]| Axis {
            path: path.into(),
            values: values.iter().map(|&v| Value::from(v)).collect(),
        };
        assert_eq!(check(&[axis("switch.buffer_packets", &[2, 4]), axis("seed", &[1, 2])]), Ok(()));
        assert_eq!(
            check(&[axis("ib_cc.threshold", &[4]), axis("seed", &[1]), axis("ib_cc.threshold", &[8])]),
            Err(String::from("A10 threshold is on two axes: give all its values on one"))
        );
        assert_eq!(check(&[axis("seed", &[8, 8, 4])]), Err(String::from("Seed: 8 is given twice")));
    }

    #[test]
    fn ranges_and_points_are_numbered_the_same_everywhere() {
        assert_eq!(range(1.0, 4.0, 1.0, 10).unwrap(), [1, 2, 3, 4].map(Value::from));
        assert_eq!(range(0.1, 0.3, 0.1, 10).unwrap().len(), 3, "the end is kept despite rounding");
        assert!(range(1.0, 0.0, 1.0, 10).is_err() && range(0.0, 1.0, 0.0, 10).is_err());
        assert!(range(1.0, 10.0, 1.0, 9).unwrap_err().contains("at most 9"));
        let axes = [
            Axis { path: "a".into(), values: vec![Value::from(1), Value::from(2)] },
            Axis { path: "b".into(), values: vec![Value::from("x"), Value::from("y"), Value::from("z")] },
        ];
        assert_eq!(size(&axes, 6), Ok(6));
        assert_eq!((size(&axes, 5), size(&[], 5)), (Err(SizeError::TooMany(6, 5)), Err(SizeError::Empty)));
        assert_eq!(point(&axes, 0), [Value::from(1), Value::from("x")]);
        assert_eq!(point(&axes, 1), [Value::from(1), Value::from("y")], "the last axis varies fastest");
        assert_eq!(point(&axes, 5), [Value::from(2), Value::from("z")]);
    }
}
