//! What the playground draws, computed from a scenario and a snapshot: node positions, and how a link's rate looks.
//! Pure Rust, so it is tested natively.

use ibcc_core::scenario::Scenario;

/// Where each node is drawn, in the scenario's coordinates, and the box around them all.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    pub positions: Vec<(f64, f64)>,
    /// `(min_x, min_y, width, height)`, with a margin.
    pub view_box: (f64, f64, f64, f64),
}

/// Nodes keep their `x`, `y`; nodes without them go on a circle, so any valid scenario can be drawn.
pub fn layout(s: &Scenario) -> Layout {
    let n = s.nodes.len().max(1) as f64;
    let positions: Vec<(f64, f64)> = s
        .nodes
        .iter()
        .enumerate()
        .map(|(i, node)| match (node.x, node.y) {
            (Some(x), Some(y)) => (x, y),
            _ => {
                let a = core::f64::consts::TAU * i as f64 / n;
                (500.0 + 300.0 * a.cos(), 300.0 + 250.0 * a.sin())
            }
        })
        .collect();
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for &(x, y) in &positions {
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    if positions.is_empty() {
        (x0, y0, x1, y1) = (0.0, 0.0, 100.0, 100.0);
    }
    let margin = 60.0;
    Layout { positions, view_box: (x0 - margin, y0 - margin, (x1 - x0) + 2.0 * margin, (y1 - y0) + 2.0 * margin) }
}

/// Stroke width of a directed link carrying `rate` (fraction of capacity): thin when idle, thick when full.
pub fn rate_width(rate: f32) -> f32 {
    1.5 + 7.0 * rate.clamp(0.0, 1.0)
}

/// Colour of a directed link carrying `rate`: grey when idle, through blue, to red when saturated.
pub fn rate_colour(rate: f32) -> String {
    let r = rate.clamp(0.0, 1.0);
    if r < 0.02 {
        return String::from("#9aa0a6");
    }
    // Hue from 210 (blue) to 0 (red).
    let hue = 210.0 * (1.0 - r);
    format!("hsl({hue:.0}, 75%, 48%)")
}

/// The point `offset` units to the right of the line from `a` to `b` (so the two directions of a link sit side by
/// side, each on its own right-hand lane).
pub fn offset_line(a: (f64, f64), b: (f64, f64), offset: f64) -> ((f64, f64), (f64, f64)) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (nx, ny) = (-dy / len * offset, dx / len * offset);
    ((a.0 + nx, a.1 + ny), (b.0 + nx, b.1 + ny))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preset_positions_are_kept_and_others_placed() {
        let s = ibcc_core::presets::find("infocom03-fig2").unwrap().scenario();
        let l = layout(&s);
        assert_eq!(l.positions[0], (300.0, 300.0));
        let (x0, y0, w, h) = l.view_box;
        assert!(l.positions.iter().all(|&(x, y)| x > x0 && x < x0 + w && y > y0 && y < y0 + h));
        let mut bare = s.clone();
        for n in &mut bare.nodes {
            n.x = None;
        }
        let l = layout(&bare);
        assert!(l.positions.windows(2).all(|w| w[0] != w[1]), "distinct places on the circle");
    }

    #[test]
    fn rate_styling_is_monotone_and_bounded() {
        assert!(rate_width(0.0) < rate_width(0.5) && rate_width(0.5) < rate_width(1.0));
        assert_eq!(rate_width(7.0), rate_width(1.0));
        assert_eq!(rate_colour(0.0), "#9aa0a6");
        assert_eq!(rate_colour(1.0), "hsl(0, 75%, 48%)");
    }

    #[test]
    fn offset_lines_sit_to_the_right() {
        let ((x, y), _) = offset_line((0.0, 0.0), (10.0, 0.0), 2.0);
        assert_eq!((x, y), (0.0, 2.0));
        let ((x, y), _) = offset_line((10.0, 0.0), (0.0, 0.0), 2.0);
        assert_eq!((x, y), (10.0, -2.0), "the other direction on the other side");
    }
}
