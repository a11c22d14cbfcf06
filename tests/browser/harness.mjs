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

/** Serves DIST on 127.0.0.1 at a free port; resolves to { url, close }. */
export async function serveDist() {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const file = normalize(join(DIST, path.endsWith('/') ? path + 'index.html' : path));
    if (!file.startsWith(DIST)) { res.writeHead(403).end(); return; }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((ok) => server.close(ok)) };
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

/** A new page that collects console errors and page errors into `page.errors`. */
export async function openPage(browser, url, { viewport = { width: 1280, height: 800 }, colorScheme = 'light' } = {}) {
  const context = await browser.newContext({ viewport, colorScheme });
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
