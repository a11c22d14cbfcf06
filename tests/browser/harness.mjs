// Shared by the browser tests: a static server for dist/ on 127.0.0.1 and a headless chromium page that records
// console errors. Playwright's own browser download does not work here; Debian's chromium does.
import { createServer } from 'node:http';
import { readFile, mkdir } from 'node:fs/promises';
import { extname, join, normalize, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const HERE = dirname(fileURLToPath(import.meta.url));
export const DIST = resolve(process.env.DIST_DIR ?? join(HERE, '..', '..', 'dist'));
export const OUTPUT = join(HERE, 'output');

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.svg': 'image/svg+xml', '.json': 'application/json', '.png': 'image/png',
};

/**
 * Serves DIST on 127.0.0.1 at a free port, under `prefix` (a sub-path such as '/a/b/'; nothing else is served
 * there); resolves to { url, close, requests, pages, rewrite }. `requests`: every path asked for; `pages`: extra
 * pages by path (a tutorial page embedding the playground); `rewrite(name, text => text)`: changes a file as served
 * (a newer build's service worker).
 */
export async function serveDist({ prefix = '/' } = {}) {
  const requests = [];
  const pages = new Map();
  const rewrites = new Map();
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    requests.push(path);
    if (pages.has(path)) { res.writeHead(200, { 'content-type': TYPES['.html'] }).end(pages.get(path)); return; }
    if (!path.startsWith(prefix)) { res.writeHead(404).end('not found'); return; }
    const rel = path.slice(prefix.length);
    const file = normalize(join(DIST, rel === '' || rel.endsWith('/') ? rel + 'index.html' : rel));
    if (!file.startsWith(DIST)) { res.writeHead(403).end(); return; }
    try {
      let body = await readFile(file);
      const rewrite = rewrites.get(rel);
      if (rewrite) body = rewrite(body.toString('utf8'));
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    origin: `http://127.0.0.1:${port}`,
    requests,
    pages,
    rewrite: (name, f) => rewrites.set(name, f),
    close: () => new Promise((ok) => { server.closeAllConnections?.(); server.close(ok); }),
  };
}

/** Launches headless chromium with the flags this closed network needs. */
export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
           '--disable-component-update', '--disable-sync'],
  });
}

/** Contexts opened by the tests, closed after each test so no page keeps a simulation running behind the next. */
const contexts = [];

/** Closes every page the last test opened (use as `afterEach(closePages)`). */
export async function closePages() {
  for (const c of contexts.splice(0)) await c.close().catch(() => {});
}

/** A new browser context with `options`, closed by `closePages`. */
export async function newContext(browser, options) {
  const context = await browser.newContext(options);
  contexts.push(context);
  return context;
}

/** A new page that collects console errors and page errors into `page.errors`. */
export async function openPage(browser, url, { viewport = { width: 1280, height: 800 }, colorScheme = 'light' } = {}) {
  const context = await newContext(browser, { viewport, colorScheme });
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') page.errors.push(msg.text()); });
  page.on('pageerror', (err) => page.errors.push(String(err)));
  await page.goto(url);
  return page;
}

/** Saves a screenshot under tests/browser/output/ (kept as test output) and returns its path. */
export async function screenshot(page, name) {
  await mkdir(OUTPUT, { recursive: true });
  const path = join(OUTPUT, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Opens a tab of the playground's side panel (Lesson, Selection, Settings, Results) by its id. */
export async function openTab(page, id) {
  await page.getByTestId(`side-${id}`).click();
  await page.getByTestId(`panel-${id}`).waitFor();
}

/** Types `value` into the settings field `testid` (opening its section if folded) and presses Enter. */
export async function setField(page, testid, value) {
  await openTab(page, 'settings');
  const field = page.getByTestId(testid);
  const section = page.locator('details', { has: field });
  if ((await section.getAttribute('open')) === null) await section.locator('summary').click();
  await field.fill(value);
  await field.press('Enter');
}

/** The simulated time shown, in ms. */
export const simMs = async (page) => parseFloat(await page.getByTestId('sim-time').innerText());

/** Resolves once the simulated time shown is at least `ms` and is the run's own (not a seek's target still being
 * worked toward, shown with a trailing '…'): what is drawn is then that moment's. */
export async function waitSim(page, ms, timeout = 60_000) {
  await page.waitForFunction((t) => {
    const shown = document.querySelector('[data-testid=sim-time]').innerText;
    return parseFloat(shown) >= t && !shown.endsWith('…');
  }, ms, { timeout });
}

/** Presses Pause and waits until the worker says it has paused (frames already under way may still move the clock). */
export async function pause(page) {
  await page.getByTestId('run').click();
  await page.waitForFunction(() => !/Pause/.test(document.querySelector('[data-testid=run]').innerText));
}

/** Plays at "as fast as possible" until at least `ms`, then pauses (if the run has not finished). */
export async function runPast(page, ms) {
  await page.getByLabel('Speed').selectOption({ label: 'as fast as possible' });
  await page.getByTestId('run').click();
  await waitSim(page, ms);
  if (/Pause/.test(await page.getByTestId('run').innerText())) {
    // It may reach its end (and the button be disabled) between the look and the click.
    await page.getByTestId('run').click({ timeout: 5_000 }).catch(async (e) => {
      if (!(await page.getByTestId('run').isDisabled())) throw e;
    });
    await page.waitForFunction(() => !/Pause/.test(document.querySelector('[data-testid=run]').innerText));
  }
}

/** Checks the open exercise's answer (first writing `answer`, if given) and resolves to the new verdict's text:
 * the check is answered by the simulation's worker, and the exercise counts its verdicts. */
export async function check(page, answer) {
  if (answer !== undefined) await page.getByTestId('exercise-answer').fill(String(answer));
  const n = Number(await page.getByTestId('exercise').getAttribute('data-checks'));
  await page.getByTestId('exercise-check').click();
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=exercise]').getAttribute('data-checks')) > n, n);
  return page.getByTestId('exercise-verdict').innerText();
}

/** Page coordinates of view point (x, y) on the drawing (viewBox with preserveAspectRatio xMidYMid meet). */
export async function toPage(page, x, y) {
  const svg = page.getByTestId('topology');
  const [vx, vy, vw, vh] = (await svg.getAttribute('data-viewbox')).split(' ').map(Number);
  const r = await svg.boundingBox();
  const s = Math.min(r.width / vw, r.height / vh);
  return [r.x + (r.width - vw * s) / 2 + (x - vx) * s, r.y + (r.height - vh * s) / 2 + (y - vy) * s];
}

/** Page coordinates of a node's centre. */
export async function nodeAt(page, id) {
  const g = page.getByTestId(`node-${id}`);
  return toPage(page, Number(await g.getAttribute('data-x')), Number(await g.getAttribute('data-y')));
}

/** Page coordinates of the middle of a flow's curve (its quadratic Bezier at t = 0.5). */
export async function flowMiddle(page, id) {
  const d = await page.getByTestId(`flow-${id}`).first().getAttribute('d');
  const [x0, y0, cx, cy, x1, y1] = d.match(/-?[\d.]+/g).map(Number);
  return toPage(page, 0.25 * x0 + 0.5 * cx + 0.25 * x1, 0.25 * y0 + 0.5 * cy + 0.25 * y1);
}

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/** One finger from `from` to `to` ([x, y] page points), by CDP touch events (`cdp`: a CDP session of the page). */
export async function touchDrag(cdp, [x0, y0], [x1, y1], steps = 10) {
  const send = (type, touchPoints) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints });
  await send('touchStart', [{ x: x0, y: y0, id: 0 }]);
  for (let i = 1; i <= steps; i++) {
    const f = i / steps;
    await send('touchMove', [{ x: x0 + (x1 - x0) * f, y: y0 + (y1 - y0) * f, id: 0 }]);
    await sleep(16);
  }
  await send('touchEnd', []);
}

/** A tap at [x, y]. */
export async function touchTap(cdp, [x, y]) {
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y, id: 0 }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

/** Two fingers moving from a0, b0 to a1, b1 (all [x, y]), as a pinch. */
export async function touchPinch(cdp, a0, a1, b0, b1, steps = 10) {
  const send = (type, touchPoints) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints });
  const at = (p, q, f) => ({ x: p[0] + (q[0] - p[0]) * f, y: p[1] + (q[1] - p[1]) * f });
  await send('touchStart', [{ ...at(a0, a0, 0), id: 0 }, { ...at(b0, b0, 0), id: 1 }]);
  for (let i = 1; i <= steps; i++) {
    const f = i / steps;
    await send('touchMove', [{ ...at(a0, a1, f), id: 0 }, { ...at(b0, b1, f), id: 1 }]);
    await sleep(16);
  }
  await send('touchEnd', []);
}

/** Whether the canvas (or PNG data URL) shown on the page has a pixel of exactly rgb `[r, g, b]`. */
export async function hasColour(page, source, [r, g, b]) {
  return page.evaluate(async ({ source, r, g, b }) => {
    let canvas = source.startsWith('data:') ? null : document.querySelector(source);
    if (!canvas) {
      const img = new Image();
      img.src = source;
      await img.decode();
      canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      canvas.getContext('2d').drawImage(img, 0, 0);
    }
    const d = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    for (let i = 0; i < d.length; i += 4) if (d[i] === r && d[i + 1] === g && d[i + 2] === b) return true;
    return false;
  }, { source, r, g, b });
}

/** The link in the input `testid` once it is made for what the page shows now (links are deflated by the browser
 * in the background: after a change the input is empty for a moment). */
export async function linkOf(page, testid) {
  // Let the page render the last change first (its link is then cleared until the new one is ready).
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.waitForFunction((id) => document.querySelector(`[data-testid="${id}"]`)?.value.includes('#'), testid);
  return page.getByTestId(testid).inputValue();
}

/** Frames per second and the longest main-thread task over `s` seconds (tasks as `observeLongTasks` records them). */
export const watchFrames = (page, s) => page.evaluate((s) => new Promise((done) => {
  window.__longTasks = [];
  let frames = 0;
  const start = performance.now();
  const tick = () => {
    frames++;
    if (performance.now() - start < s * 1000) requestAnimationFrame(tick);
    else done({ fps: frames / s, longest: Math.max(0, ...window.__longTasks) });
  };
  requestAnimationFrame(tick);
}), s);

/** Records the page's long main-thread tasks (in `window.__longTasks`) from its first script on. */
export const observeLongTasks = (page) => page.addInitScript(() => {
  window.__longTasks = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); })
    .observe({ type: 'longtask', buffered: true });
});

/**
 * Settings > Traffic pattern (open): works out a `shift` by `k` or a `hotspot` of `k` senders and shows its routes;
 * resolves to the summary once it is there, `then` ('flows': make them the flows, 'add': add them, or nothing).
 */
export async function pattern(page, kind, k, then, timeout = 30_000) {
  await page.getByLabel('Pattern', { exact: true }).selectOption(kind);
  await page.getByLabel(kind === 'hotspot' ? 'Senders K' : 'Shift by K').fill(String(k));
  await page.getByTestId('pattern-show').click();
  const summary = await page.getByTestId('pattern-summary').innerText({ timeout });
  if (then) await page.getByTestId(`pattern-${then}`).click();
  return summary;
}

/** The simulation's events so far, as the page shows them. */
export const shownEvents = async (page) => Number(await page.getByTestId('sim-time').getAttribute('data-events'));
