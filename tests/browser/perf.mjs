// Measures the playground in headless chromium and prints figures (a benchmark, not a test):
// - time until the page is interactive (the Run button usable);
// - at "as fast as possible": the simulation's speed in the page (events per second, read off the frames) next to
//   the same wasm's speed on the page's benchmark (?selftest=bench, the scenario ibcc bench calls
//   fig4-lipd-input-triggered: INFOCOM'03 Fig. 4b), and the frame rate meanwhile;
// - at the preset's own speed: the frame rate and the longest main-thread task;
// - while dragging the timeline back and forth: the longest main-thread task.
// Usage, after `trunk build --release`: node tests/browser/perf.mjs [preset, default infocom03-fig4b] [seconds, default 5]
import { serveDist, launchBrowser, DIST, watchFrames, observeLongTasks, shownEvents } from './harness.mjs';
import { readdir, readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const preset = process.argv[2] ?? 'infocom03-fig4b';
const seconds = Number(process.argv[3] ?? 5);
const server = await serveDist();
const browser = await launchBrowser();

const [watch, events] = [watchFrames, shownEvents];

try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await observeLongTasks(page);
  const t0 = Date.now();
  await page.goto(server.url);
  await page.waitForFunction(() => !document.querySelector('[data-testid=run]')?.disabled);
  const interactiveMs = Date.now() - t0;
  console.log(`interactive after ${interactiveMs} ms (page load until the Run button is usable)`);

  // As fast as possible: events per second in the page, from the frames' event counts (the run made long enough
  // to go on for the whole measurement).
  await page.getByTestId('scenario-picker').selectOption(preset);
  await page.getByTestId('side-settings').click();
  await page.getByText('Network and run').click();
  await page.getByLabel('Duration').fill('20000');
  await page.getByLabel('Duration').blur();
  await page.getByTestId('speed').selectOption({ label: 'as fast as possible' });
  await page.getByTestId('run').click();
  await page.waitForTimeout(1000);
  const [e0, w0] = [await events(page), Date.now()];
  const fast = await watch(page, seconds);
  const [e1, w1] = [await events(page), Date.now()];
  const pageRate = (e1 - e0) / ((w1 - w0) / 1000);
  console.log(`${preset} as fast as possible: ${(pageRate / 1e6).toFixed(2)} M events/s in the page, ${fast.fps.toFixed(1)} frames/s, longest task ${fast.longest.toFixed(0)} ms`);
  await page.getByTestId('run').click().catch(() => {});

  // The same wasm on the benchmark page (no drawing), the scenario ibcc bench runs.
  const bench = await context.newPage();
  await bench.goto(`${server.url}?selftest=bench&duration=200`);
  const rows = (await bench.getByTestId('bench-json').textContent({ timeout: 120_000 })).trim().split('\n').map((l) => JSON.parse(l));
  const fig4 = rows.find((r) => r.scenario === 'fig4-lipd-input-triggered');
  console.log(`the same wasm without the page (?selftest=bench, fig4-lipd-input-triggered): ${(fig4.events_per_s / 1e6).toFixed(2)} M events/s; page/bench ${(pageRate / fig4.events_per_s).toFixed(2)}`);
  await bench.close();

  // Each two-switch preset at its own speed: smooth drawing.
  for (const name of ['infocom03-fig2', 'infocom03-fig4b']) {
    await page.getByTestId('scenario-picker').selectOption(name);
    await page.getByTestId('run').click();
    await page.waitForTimeout(500);
    const own = await watch(page, seconds);
    console.log(`${name} at its own speed (${await page.getByTestId('speed').locator('option:checked').innerText()}): ${own.fps.toFixed(1)} frames/s, longest task ${own.longest.toFixed(0)} ms`);
    await page.getByTestId('run').click().catch(() => {});
  }

  // Scrubbing: drag the timeline back and forth over the computed part.
  await page.getByTestId('to-measured-end').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=run]') && !/Pause/.test(document.querySelector('[data-testid=run]').innerText));
  await page.waitForTimeout(2000);
  const t = await page.getByTestId('timeline').locator('.track').boundingBox();
  await page.evaluate(() => { window.__longTasks = []; });
  await page.mouse.move(t.x + t.width * 0.6, t.y + 9);
  await page.mouse.down();
  for (let i = 0; i < 4; i++) {
    await page.mouse.move(t.x + t.width * 0.05, t.y + 9, { steps: 20 });
    await page.mouse.move(t.x + t.width * 0.6, t.y + 9, { steps: 20 });
  }
  await page.mouse.up();
  await page.waitForTimeout(1000);
  console.log(`dragging the timeline back and forth: longest main-thread task ${Math.max(0, ...(await page.evaluate(() => window.__longTasks))).toFixed(0)} ms`);

  for (const f of (await readdir(DIST)).filter((f) => f.endsWith('.wasm'))) {
    const bytes = await readFile(join(DIST, f));
    console.log(`${f}: ${bytes.length} bytes, ${gzipSync(bytes, { level: 9 }).length} gzipped`);
  }
} finally {
  await browser.close();
  await server.close();
}
