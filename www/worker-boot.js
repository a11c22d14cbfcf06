// The simulation worker's first script (web/src/ui/bridge.rs starts it). It loads the Trunk-built worker (worker.js,
// worker_bg.wasm, beside this file) and holds the page's messages until the wasm is ready and its `main` has set the
// real handler. A file of its own, not a blob, so it is found relative to the page and cached for offline use.
importScripts('worker.js');
const queued = [];
self.onmessage = (e) => queued.push(e);
// Rethrown outside the promise, a failure (the wasm would not load, or trapped on a queued message) is the worker's
// error event, which the page shows; inside it, it would be an unhandled rejection that nobody sees.
const fail = (err) => setTimeout(() => { throw err; });
wasm_bindgen('worker_bg.wasm').then(() => {
  for (const e of queued) {
    try { self.onmessage(e); } catch (err) { fail(err); return; }
  }
}, fail);
