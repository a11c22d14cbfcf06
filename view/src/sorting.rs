//! One sort for the page's lists. Each direct `sort_by` compiles to its own copy of the standard library's sort
//! (about 2 KB of wasm per element type and comparison); these all share one, on indices with the comparison
//! behind a pointer (issue 19: the page's size). The lists are short (links, flows, moments), so the extra
//! indirection costs nothing anyone sees.

use std::cmp::Ordering;

/// Sorts `v` by `cmp`, keeping equal items in their order (like `slice::sort_by`).
pub fn sort_by<T>(v: &mut Vec<T>, cmp: impl Fn(&T, &T) -> Ordering) {
    let mut order: Vec<usize> = (0..v.len()).collect();
    sort_indices(&mut order, &|a, b| cmp(&v[a], &v[b]));
    let mut items: Vec<Option<T>> = std::mem::take(v).into_iter().map(Some).collect();
    v.extend(order.into_iter().map(|i| items[i].take().expect("a permutation takes each item once")));
}

/// Sorts `v` in its natural order.
pub fn sort<T: Ord>(v: &mut Vec<T>) {
    sort_by(v, T::cmp);
}

#[inline(never)]
fn sort_indices(order: &mut [usize], cmp: &dyn Fn(usize, usize) -> Ordering) {
    order.sort_by(|&a, &b| cmp(a, b));
}

#[cfg(test)]
mod tests {
    use super::{sort, sort_by};

    /// The same order as the standard library's stable sort, equal items included.
    #[test]
    fn sorts_like_the_standard_library() {
        let mut rng = ibcc_core::rng::Rng::new(7, 0);
        for n in [0, 1, 2, 5, 40, 300] {
            let v: Vec<(u8, usize)> = (0..n).map(|i| ((rng.next_u64() % 7) as u8, i)).collect();
            let (mut ours, mut std) = (v.clone(), v);
            sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
            std.sort_by_key(|a| a.0);
            assert_eq!(ours, std, "n = {n}");
        }
        let mut words = vec!["b", "a", "c", "a"];
        sort(&mut words);
        assert_eq!(words, ["a", "a", "b", "c"]);
    }
}
