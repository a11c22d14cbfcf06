//! A hint that memory is about to be read: the workspace's one `unsafe` block (a prefetch instruction, which reads
//! nothing into the program and cannot fault). A run of a fabric too large for the caches uses it to bring in what
//! its next few events will touch (`sim::lookahead`); elsewhere (wasm, other architectures) it does nothing.

/// Asks the processor to bring every cache line of `*x` into its caches. Changes nothing but the time later reads of
/// it take.
#[inline(always)]
pub(crate) fn prefetch<T: ?Sized>(x: &T) {
    if size_of_val(x) == 0 {
        return; // (nothing to bring in, and its address may be no object's)
    }
    let start = x as *const T as *const u8;
    // The lines from the one `*x` starts in to the one it ends in.
    let lines = (start as usize % 64 + size_of_val(x)).div_ceil(64);
    for line in 0..lines {
        hint(start.wrapping_add(line * 64));
    }
}

#[inline(always)]
fn hint(at: *const u8) {
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    // SAFETY: `_mm_prefetch` only hints: it dereferences nothing and cannot fault, whatever the address (ours are
    // inside a live object anyway). Rust marks it unsafe (in older releases for its pointer, now for
    // its `target_feature(enable = "sse")`, which every x86_64 processor has).
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(at as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}
