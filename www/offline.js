// Registers the service worker (www/sw.js) that keeps the playground working offline, and says when a newer build
// is ready: its button lets the new build take over and reloads, so the page never runs a mix of both.
// Registered a little after the page has loaded, so a first visit's caching does not compete with the page's own
// downloads (the wasm and the worker).
const register = () => navigator.serviceWorker.register('sw.js');
if ('serviceWorker' in navigator && window.isSecureContext) {
  const registered = new Promise((ok) => window.addEventListener('load', () => setTimeout(() => ok(register()), 1500)));
  registered.then((registration) => {
    const offer = (worker) => {
      if (document.querySelector('.update-ready')) return;
      const bar = document.createElement('div');
      bar.className = 'update-ready';
      bar.setAttribute('role', 'status');
      bar.dataset.testid = 'update-ready';
      bar.textContent = 'A newer version of the playground is ready. ';
      const button = document.createElement('button');
      button.textContent = 'Reload';
      button.addEventListener('click', () => worker.postMessage('take-over'));
      bar.append(button);
      document.body.append(bar);
    };
    const watch = (worker) => worker.addEventListener('statechange', () => {
      // Installed while an older build controls the page: a newer version waits.
      if (worker.state === 'installed' && navigator.serviceWorker.controller) offer(worker);
    });
    if (registration.waiting && navigator.serviceWorker.controller) offer(registration.waiting);
    if (registration.installing) watch(registration.installing);
    registration.addEventListener('updatefound', () => watch(registration.installing));
  }).catch((e) => console.warn('offline use is not available:', e));
  let reloading = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    // Only a page that was controlled before reloads (the first visit's claim is not an update).
    if (reloading || !window.__ibccControlled) return;
    reloading = true;
    location.reload();
  });
  window.__ibccControlled = Boolean(navigator.serviceWorker.controller);
}
