//! The page's simulation worker: it owns the playground's run (`protocol::Worker`, a `driver::Driver`) and sends
//! frames as the run goes; the sweep, the A/B comparison and the congestion impact view start more of them, one
//! per point or per run (a GPCNeT run steps in the same slices, reporting its progress). The run works in slices
//! of about 12 ms, yielding between them so the page's messages (pause, seek, a marking change) are handled at
//! once; a slice with nothing to do waits for the next message. A message does not run a slice itself: it
//! schedules one behind the messages already queued, so a burst (a dragged timeline's seeks) is read whole and
//! only its last seek is worked on.

#[cfg(target_arch = "wasm32")]
fn main() {
    use ibcc_web::protocol::Worker;
    use std::cell::{Cell, RefCell};
    use std::rc::Rc;
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::{JsCast, JsValue};

    /// Wall time one slice may take, in ms.
    const SLICE_MS: f64 = 12.0;

    struct Shell {
        scope: web_sys::DedicatedWorkerGlobalScope,
        worker: RefCell<Worker>,
        /// Bumped by each message from the page: a slice scheduled before it is stale (the message ran one).
        generation: Cell<u64>,
        /// Zero-delay scheduling (a timer of 0 ms waits at least 4 ms once nested).
        channel: web_sys::MessageChannel,
    }

    impl Shell {
        /// A message to the page, its bytes handed over rather than copied.
        fn send(&self, m: &ibcc_web::protocol::FromWorker) {
            let bytes = js_sys::Uint8Array::from(m.to_bytes().as_slice());
            let _ = self.scope.post_message_with_transfer(&bytes, &js_sys::Array::of1(&bytes.buffer()));
        }

        fn now(&self) -> f64 {
            self.scope.performance().map_or(0.0, |p| p.now())
        }

        fn pump(self: &Rc<Self>) {
            let clock = || self.now();
            let (frame, again) = self.worker.borrow_mut().work(&clock, SLICE_MS);
            if let Some(f) = frame {
                self.send(&f);
            }
            let generation = self.generation.get();
            match again {
                None => {}
                Some(ms) if ms <= 0.0 => {
                    let _ = self.channel.port2().post_message(&JsValue::from_f64(generation as f64));
                }
                Some(ms) => {
                    let me = self.clone();
                    let later = Closure::once_into_js(move || {
                        if me.generation.get() == generation {
                            me.pump();
                        }
                    });
                    let _ = self
                        .scope
                        .set_timeout_with_callback_and_timeout_and_arguments_0(later.unchecked_ref(), ms.ceil() as i32);
                }
            }
        }
    }

    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let Ok(channel) = web_sys::MessageChannel::new() else { return };
    let shell =
        Rc::new(Shell { scope: scope.clone(), worker: RefCell::new(Worker::new()), generation: Cell::new(0), channel });

    let me = shell.clone();
    let on_tick = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        if e.data().as_f64() == Some(me.generation.get() as f64) {
            me.pump();
        }
    });
    shell.channel.port1().set_onmessage(Some(on_tick.as_ref().unchecked_ref()));
    on_tick.forget();

    let me = shell.clone();
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        let bytes = js_sys::Uint8Array::new(&e.data()).to_vec();
        let clock = || me.now();
        let replies = me.worker.borrow_mut().handle(&bytes, &clock);
        for r in replies {
            me.send(&r);
        }
        me.generation.set(me.generation.get() + 1);
        let _ = me.channel.port2().post_message(&JsValue::from_f64(me.generation.get() as f64));
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("worker runs in the browser as the page's simulation web worker.");
}
