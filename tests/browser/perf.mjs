// Measures the playground in headless chromium and prints figures (a benchmark, not a test): time until the page is
// interactive (the Run button usable), the longest main-thread task and the frame rate while a scenario runs, and
// the wasm download size. Usage, after `trunk build --release`:
//   node tests/browser/perf.mjs [preset] [seconds] [speed label, e.g. "as fast as possible"]
import { readdir, readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { serveDist, launchBrowser, openPage, DIST } from './harness.mjs';

const preset = process.argv[2] ?? 'infocom03-fig2';
const seconds = Number(process.argv[3] ?? 5);
const speed = process.argv[4] ?? '1 ms/s';
const server = await serveDist();
const browser = await launchBrowser();
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); })
      .observe({ type: 'longtask', buffered: true });
  });
  const t0 = Date.now();
  await page.goto(server.url);
  await page.getByRole('button', { name: 'Run' }).waitFor();
  const interactiveMs = Date.now() - t0;
  await page.getByLabel('Scenario').selectOption(preset);
  await page.getByLabel('Speed').selectOption({ label: speed });
  await page.evaluate(() => { window.__longTasks = []; });
  await page.getByRole('button', { name: 'Run' }).click();
  const fps = await page.evaluate((s) => new Promise((done) => {
    let frames = 0;
    const start = performance.now();
    const tick = () => { frames++; if (performance.now() - start < s * 1000) requestAnimationFrame(tick); else done(frames / s); };
    requestAnimationFrame(tick);
  }), seconds);
  const longest = await page.evaluate(() => Math.max(0, ...window.__longTasks));
  const simMs = await page.getByTestId('sim-time').innerText();
  const wasm = (await readdir(DIST)).find((f) => f.endsWith('.wasm'));
  const bytes = await readFile(join(DIST, wasm));
  console.log(`preset ${preset}, ${seconds} s at ${speed} (reached ${simMs})`);
  console.log(`interactive after ${interactiveMs} ms (page load until the Run button is usable)`);
  console.log(`frames per second while running: ${fps.toFixed(1)}`);
  console.log(`longest main-thread task while running: ${longest.toFixed(0)} ms (long tasks are those over 50 ms)`);
  console.log(`wasm: ${bytes.length} bytes, ${gzipSync(bytes, { level: 9 }).length} gzipped`);
} finally {
  await browser.close();
  await server.close();
}
