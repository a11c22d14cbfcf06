// The page on a large fabric, measured in headless chromium (a benchmark that prints figures, not a test): a
// 648-host two-level fat tree of 36-port switches generated in the page, a shift by 18 hosts made its flows (every
// host sends, each leaf's traffic to the next leaf), routed by ftree; then the frame rate and the longest
// main-thread task while it runs at 1 ms/s, and the events per second at "as fast as possible" (issue 30's targets:
// 30 frames/s or more, no task over 50 ms).
// Usage, after `trunk build --release`: node tests/browser/fabric_perf.mjs [seconds, default 5]
import { serveDist, launchBrowser, watchFrames, observeLongTasks, shownEvents } from './harness.mjs';

const seconds = Number(process.argv[2] ?? 5);
const server = await serveDist();
const browser = await launchBrowser();

const [watch, events] = [watchFrames, shownEvents];

try {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
  await observeLongTasks(page);
  await page.goto(server.url);
  await page.getByTestId('side-settings').click();
  await page.getByText('Generate a network').click();
  await page.getByLabel('Shape').selectOption('fabric_two_level');
  await page.getByLabel('K', { exact: true }).fill('36');
  let t0 = Date.now();
  await page.getByRole('button', { name: 'Generate' }).click();
  await page.getByTestId('node-spine-17').waitFor();
  console.log(`648-host fabric generated and drawn in ${Date.now() - t0} ms`);
  await page.getByText('Network and run').click();
  await page.getByLabel('Routing engine').selectOption('ftree');
  await page.getByText('Traffic pattern').click();
  await page.getByLabel('Shift by K').fill('18');
  t0 = Date.now();
  await page.getByTestId('pattern-show').click();
  await page.getByTestId('pattern-summary').waitFor();
  console.log(`shift by 18 routed in a worker and drawn in ${Date.now() - t0} ms: ${await page.getByTestId('pattern-summary').innerText()}`);
  await page.getByTestId('pattern-flows').click();
  await page.getByLabel('Duration').fill('20000');
  await page.getByLabel('Duration').blur();

  await page.getByTestId('speed').selectOption({ label: '1 ms/s' });
  await page.evaluate(() => { window.__longTasks = []; });
  t0 = Date.now();
  await page.getByTestId('run').click();
  await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) > 0.01, null, { timeout: 60_000 });
  console.log(`first frame of the run after ${Date.now() - t0} ms (the worker routes and builds the run)`);
  const own = await watch(page, seconds);
  console.log(`running at 1 ms/s: ${own.fps.toFixed(1)} frames/s, longest main-thread task ${own.longest.toFixed(0)} ms`);

  await page.getByTestId('speed').selectOption({ label: 'as fast as possible' });
  await page.waitForTimeout(1000);
  const [e0, w0] = [await events(page), Date.now()];
  const fast = await watch(page, seconds);
  const [e1, w1] = [await events(page), Date.now()];
  console.log(`as fast as possible: ${((e1 - e0) / ((w1 - w0) / 1000) / 1e6).toFixed(2)} M events/s in the page, ${fast.fps.toFixed(1)} frames/s, longest task ${fast.longest.toFixed(0)} ms`);
} finally {
  await browser.close();
  await server.close();
}
