//! The page's side of a simulation worker (`bin/worker.rs`): start one, send it messages, get its replies as
//! callbacks. Dropping the handle stops the worker.

use crate::protocol::{FromWorker, ToWorker};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{ErrorEvent, MessageEvent, Worker};
use yew::Callback;

/// A running worker and its handlers.
pub struct SimWorker {
    worker: Worker,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

impl std::fmt::Debug for SimWorker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SimWorker")
    }
}

/// A worker, started from `worker-boot.js` beside the page (a relative URL: any sub-path works). That script loads
/// the Trunk-built worker and holds messages until the wasm is ready; the worker's `main` then takes them.
fn spawn() -> Result<Worker, JsValue> {
    Worker::new("worker-boot.js")
}

impl SimWorker {
    /// Starts a worker; its messages go to `on_message`, a failure (it could not load, or crashed) to `on_error`.
    /// A message that cannot be read is logged and skipped (and acknowledged): the next frame replaces it.
    pub fn start(on_message: Callback<FromWorker>, on_error: Callback<String>) -> Result<Self, String> {
        let worker = spawn().map_err(|e| format!("could not start a web worker: {e:?}"))?;
        let me = worker.clone();
        let handler = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            let bytes = js_sys::Uint8Array::new(&e.data()).to_vec();
            match FromWorker::from_bytes(&bytes) {
                Ok(m) => on_message.emit(m),
                Err(err) => {
                    web_sys::console::warn_1(&JsValue::from_str(&err));
                    // It may have been a frame: acknowledge it, or the worker would wait for ever.
                    let _ = me.post_message(&js_sys::Uint8Array::from(ToWorker::Ack.to_bytes().as_slice()));
                }
            }
        });
        worker.set_onmessage(Some(handler.as_ref().unchecked_ref()));
        let failed = Closure::<dyn FnMut(ErrorEvent)>::new(move |e: ErrorEvent| {
            on_error.emit(format!("the simulation worker failed: {}", e.message()))
        });
        worker.set_onerror(Some(failed.as_ref().unchecked_ref()));
        Ok(Self { worker, _on_message: handler, _on_error: failed })
    }

    /// Asks a worker of its own one question: its first answer (or its failure) goes to `answer`, and the worker
    /// is dropped once that handler has returned (its closures must outlive their own call).
    pub fn ask(question: &ToWorker, answer: Callback<Result<FromWorker, String>>) {
        let me: Rc<RefCell<Option<SimWorker>>> = Rc::default();
        let done = {
            let me = me.clone();
            move |reply: Result<FromWorker, String>| {
                answer.emit(reply);
                let me = me.clone();
                yew::platform::spawn_local(async move {
                    me.borrow_mut().take();
                });
            }
        };
        let done = Rc::new(done);
        let (on_message, on_error) = {
            let (d1, d2) = (done.clone(), done.clone());
            (Callback::from(move |m: FromWorker| d1(Ok(m))), Callback::from(move |e: String| d2(Err(e))))
        };
        match Self::start(on_message, on_error) {
            Ok(w) => {
                w.post(question);
                *me.borrow_mut() = Some(w);
            }
            Err(e) => done(Err(e)),
        }
    }

    pub fn post(&self, m: &ToWorker) {
        let _ = self.worker.post_message(&js_sys::Uint8Array::from(m.to_bytes().as_slice()));
    }
}

impl Drop for SimWorker {
    fn drop(&mut self) {
        // Its handlers go with it: a message the browser had already queued must find none (not a freed closure).
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

/// The page's clock, in wall milliseconds (when workers' answers came, how long a run took).
pub fn wall_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// How many workers a sweep (or the congestion impact view) may use: one per core.
pub fn cores() -> usize {
    web_sys::window().map_or(2, |w| w.navigator().hardware_concurrency() as usize).clamp(1, 16)
}

/// Jobs handed out to workers in turn (the sweep's points, the congestion impact view's runs).
pub trait Jobs {
    fn workers(&mut self) -> &mut Vec<SimWorker>;
    /// Gives worker `w` the next job, if any.
    fn feed(&mut self, w: usize);
}

/// Starts `count` workers for `jobs`, each given a job at once. Worker `w`'s messages go to `on_message(w, ...)`; a
/// failure to `on_failed`, and then every worker stops. (The handlers hold the jobs weakly: a worker holding
/// itself would never be dropped.)
pub fn start_jobs<J: Jobs + 'static>(
    jobs: &Rc<RefCell<J>>,
    count: usize,
    on_message: impl Fn(usize, FromWorker, &std::rc::Weak<RefCell<J>>) + Clone + 'static,
    on_failed: impl Fn(String) + Clone + 'static,
) -> Result<(), String> {
    for w in 0..count {
        let (weak, handle) = (Rc::downgrade(jobs), on_message.clone());
        let on_message = Callback::from(move |m: FromWorker| handle(w, m, &weak));
        let (weak, failed) = (Rc::downgrade(jobs), on_failed.clone());
        let on_error = Callback::from(move |e: String| {
            failed(e);
            if let Some(j) = weak.upgrade() {
                j.borrow_mut().workers().clear();
            }
        });
        let worker = SimWorker::start(on_message, on_error)?;
        let mut j = jobs.borrow_mut();
        j.workers().push(worker);
        j.feed(w);
    }
    Ok(())
}
