//! Independent runs on all cores (or `jobs`), their results in the order of their inputs.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// `f` of every item, on `jobs` threads (all cores if `None`), in the items' order.
pub fn map<T: Sync, R: Send>(items: &[T], jobs: Option<usize>, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(items.len()) {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(k) else { break };
                let r = f(item);
                out.lock().expect("no panics while holding")[k] = Some(r);
            });
        }
    });
    out.into_inner().expect("no panics").into_iter().map(|r| r.expect("every item ran")).collect()
}

/// `f` of every item on all cores, started in `order` (the items' indices, each once), the results in the items'
/// order: runs of very unequal length go longest first, so that none starts last and leaves the other cores idle.
pub fn map_in_order<T: Sync, R: Send>(items: &[T], order: &[usize], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let done = map(order, None, |&i| (i, f(&items[i])));
    let mut out: Vec<Option<R>> = (0..items.len()).map(|_| None).collect();
    for (i, r) in done {
        out[i] = Some(r);
    }
    out.into_iter().map(|r| r.expect("every item ran")).collect()
}
