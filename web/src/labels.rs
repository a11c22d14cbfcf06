//! Node labels that stay readable at any zoom, as a map's place names do: never drawn smaller than
//! [`MIN_PX`] screen pixels, and where, at that size, two would overlap (a 32-host fabric on a phone, a 648-host
//! one on a laptop), only the first is drawn. Switches come before hosts and the selection before both, so the
//! tree's shape stays named; zooming in gives the labels room and brings the others back.

use crate::scene::Point;

/// A label's smallest height on screen, in pixels.
pub const MIN_PX: f64 = 11.0;
/// A label's height in view units when the drawing is shown at its own size or larger.
pub const BASE: f64 = 11.0;
/// Width of a character as a share of the font size (a sans-serif's average, digits and hyphens included).
const CHAR_EM: f64 = 0.6;
/// Room kept between two labels, as a share of the font size.
const GAP_EM: f64 = 0.4;

/// The labels' font size in view units when `view_w` view units are shown across `screen_w` pixels: [`BASE`], or
/// larger so as to be [`MIN_PX`] on screen, in steps of a fifth (so that a pinch re-lays the labels a few times,
/// not at every frame of it).
pub fn size(view_w: f64, screen_w: f64) -> f64 {
    if !(screen_w > 0.0 && view_w > 0.0) {
        return BASE;
    }
    let want = MIN_PX * view_w / screen_w;
    if want <= BASE {
        return BASE;
    }
    BASE * 1.2f64.powf((want / BASE).log(1.2).ceil())
}

/// One label to place: centred at `at`, `chars` long; a lower `rank` is placed first.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Label {
    pub at: Point,
    pub chars: usize,
    pub rank: u8,
}

impl Label {
    /// Half its width at font size `size`, in view units.
    fn half(&self, size: f64) -> f64 {
        CHAR_EM * size * self.chars as f64 / 2.0
    }

    /// A host's label, which starts at the host's centre: kept there while it fits inside the circle of radius
    /// `radius`, else moved just outside it, on the side away from `from` (the switch the host hangs from, so the
    /// label does not lie on its link): to the left or right of a host beside its switch, above or below one under
    /// it. Drawn over the circle, a label wider than it would hide its outline under the label's halo, and the
    /// flows curving past the host would read as part of its name ("B1(").
    pub fn off_host(self, size: f64, radius: f64, from: Option<Point>) -> Label {
        let half = self.half(size);
        if half <= radius * 0.85 {
            return self;
        }
        let (x, y) = self.at;
        let (dx, dy) = from.map_or((1.0, 0.0), |(fx, fy)| (x - fx, y - fy));
        let side = |d: f64| if d < 0.0 { -1.0 } else { 1.0 };
        let gap = GAP_EM * size;
        let at = if dx.abs() >= dy.abs() {
            (x + side(dx) * (radius + gap + half), y)
        } else {
            (x, y + side(dy) * (radius + gap + size / 2.0))
        };
        Label { at, ..self }
    }

    /// Moved sideways, if need be, so that at font size `size` it lies between `left` and `right` (the drawing's
    /// edges: the first and last switch of a wide row are named in full).
    pub fn within(self, size: f64, (left, right): (f64, f64)) -> Label {
        let half = self.half(size);
        let x =
            if right - left <= 2.0 * half { (left + right) / 2.0 } else { self.at.0.clamp(left + half, right - half) };
        Label { at: (x, self.at.1), ..self }
    }
}

/// Where each of `labels` is drawn at font size `size` (view units), if it is: each in turn, by rank then by order,
/// unless its box would overlap one already placed. A label of rank 0 (what is selected or pointed at, which must
/// be named) that would is tried a line above its place, then a line below, before it gives way (two neighbours a
/// lesson names, side by side on a phone). A label at no place (not finite) is not drawn.
pub fn fit(labels: &[Label], size: f64) -> Vec<Option<Point>> {
    let mut order: Vec<usize> = (0..labels.len()).collect();
    order.sort_by_key(|&i| (labels[i].rank, i));
    let gap = GAP_EM * size;
    // The boxes placed, each new one checked against all: with a large fabric's hosts folded, a few hundred labels
    // (a few ms at worst), and no map's code in the page.
    let mut placed: Vec<(f64, f64, f64, f64)> = Vec::new();
    let mut shown = vec![None; labels.len()];
    for i in order {
        let Label { at: (x, y), rank, .. } = labels[i];
        if !(x.is_finite() && y.is_finite()) {
            continue;
        }
        let half = labels[i].half(size) + gap / 2.0;
        let tries: &[f64] = if rank == 0 { &[0.0, -1.2, 1.2] } else { &[0.0] };
        for dy in tries.iter().map(|k| k * size) {
            let b = (x - half, y + dy - size / 2.0, x + half, y + dy + size / 2.0);
            if !placed.iter().any(|o| b.0 < o.2 && o.0 < b.2 && b.1 < o.3 && o.1 < b.3) {
                placed.push(b);
                shown[i] = Some((x, y + dy));
                break;
            }
        }
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(n: usize, spacing: f64, chars: usize) -> Vec<Label> {
        (0..n).map(|i| Label { at: (i as f64 * spacing, 0.0), chars, rank: 1 }).collect()
    }

    #[test]
    fn labels_are_never_smaller_than_min_px_on_screen() {
        assert_eq!(size(1000.0, 1000.0), BASE, "at its own size the drawing keeps its labels");
        assert_eq!(size(500.0, 1000.0), BASE, "zoomed in, they grow with the drawing");
        for (view_w, screen_w) in [(1000.0, 370.0), (4000.0, 1200.0), (20000.0, 390.0)] {
            let px = size(view_w, screen_w) * screen_w / view_w;
            assert!((MIN_PX..MIN_PX * 1.2 + 1e-9).contains(&px), "{view_w} on {screen_w}: {px} px");
        }
        assert_eq!(size(1000.0, 0.0), BASE, "a drawing not yet laid out");
    }

    /// Whether each is drawn.
    fn drawn(labels: &[Label], size: f64) -> Vec<bool> {
        fit(labels, size).iter().map(Option::is_some).collect()
    }

    #[test]
    fn crowded_labels_are_thinned_and_room_brings_them_back() {
        // Seven characters at 11 units are about 46 wide: at a spacing of 60 all fit, at 30 every other one.
        assert!(drawn(&row(8, 60.0, 7), 11.0).iter().all(|&s| s));
        let thin = drawn(&row(8, 30.0, 7), 11.0);
        assert_eq!(thin, [true, false, true, false, true, false, true, false]);
        // Labels in different rows do not meet.
        let mut two = row(4, 30.0, 7);
        two.extend(row(4, 30.0, 7).into_iter().map(|l| Label { at: (l.at.0, 40.0), ..l }));
        assert_eq!(drawn(&two, 11.0).iter().filter(|&&s| s).count(), 4);
        // Where it fits, a label is drawn at its place.
        assert_eq!(fit(&row(2, 60.0, 7), 11.0), [Some((0.0, 0.0)), Some((60.0, 0.0))]);
    }

    #[test]
    fn neighbours_a_lesson_names_are_both_drawn_one_a_line_up() {
        // leaf-2 and leaf-3 side by side, too close for both on one line: the second goes a line above.
        let mut pair = row(2, 30.0, 6);
        pair.iter_mut().for_each(|l| l.rank = 0);
        assert_eq!(fit(&pair, 10.0), [Some((0.0, 0.0)), Some((30.0, -12.0))]);
        // A third between them goes below; a fourth has no room left and gives way.
        let mut four = row(4, 10.0, 6);
        four.iter_mut().for_each(|l| l.rank = 0);
        assert_eq!(fit(&four, 10.0), [Some((0.0, 0.0)), Some((10.0, -12.0)), Some((20.0, 12.0)), None]);
        // Others only ever at their place.
        assert_eq!(drawn(&row(2, 30.0, 6), 10.0), [true, false]);
    }

    #[test]
    fn a_label_at_the_edge_is_moved_inside() {
        let l = Label { at: (5.0, 3.0), chars: 10, rank: 1 };
        // Ten characters at 10 units: 60 wide.
        assert_eq!(l.within(10.0, (0.0, 500.0)).at, (30.0, 3.0));
        assert_eq!(Label { at: (495.0, 3.0), ..l }.within(10.0, (0.0, 500.0)).at, (470.0, 3.0));
        assert_eq!(Label { at: (200.0, 3.0), ..l }.within(10.0, (0.0, 500.0)).at, (200.0, 3.0), "inside: kept");
        assert_eq!(l.within(10.0, (0.0, 40.0)).at, (20.0, 3.0), "wider than the drawing: centred");
    }

    #[test]
    fn a_host_label_wider_than_its_circle_goes_beside_it_away_from_its_switch() {
        let host = Label { at: (100.0, 50.0), chars: 2, rank: 2 };
        // Two characters at 11 units are 13.2 wide: inside a circle of radius 13.
        assert_eq!(host.off_host(11.0, 13.0, Some((0.0, 50.0))).at, (100.0, 50.0));
        // At 22 units (a phone's), 26.4 wide: beside it, on the far side from the switch, clear of the circle.
        let (size, gap) = (22.0, GAP_EM * 22.0);
        let at = |from| host.off_host(size, 13.0, from).at;
        let near = |p: Point, q: Point| (p.0 - q.0).abs() < 1e-9 && (p.1 - q.1).abs() < 1e-9;
        assert!(near(at(Some((0.0, 40.0))), (100.0 + 13.0 + gap + 13.2, 50.0)));
        assert!(near(at(Some((300.0, 60.0))), (100.0 - 13.0 - gap - 13.2, 50.0)));
        // Under its switch (a fat tree's hosts): below; over it: above.
        assert!(near(at(Some((90.0, -100.0))), (100.0, 50.0 + 13.0 + gap + 11.0)));
        assert!(near(at(Some((90.0, 200.0))), (100.0, 50.0 - 13.0 - gap - 11.0)));
        // A host on no link yet: to the right.
        assert_eq!(at(None), at(Some((0.0, 40.0))));
    }

    #[test]
    fn the_first_ranked_are_placed_first() {
        let mut labels = row(3, 30.0, 7);
        labels[1].rank = 0;
        assert_eq!(drawn(&labels, 11.0), [false, true, false]);
        labels[1].at = (f64::NAN, f64::NAN);
        assert_eq!(drawn(&labels, 11.0), [true, false, true], "a label with no place is not drawn and blocks none");
    }
}
