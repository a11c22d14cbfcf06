// The page on a large fabric, measured in headless chromium (a benchmark that prints figures, not a test): a
// 648-host two-level fat tree of 36-port switches generated in the page, a shift by 18 hosts made its flows (every
// host sends, each leaf's traffic to the next leaf), routed by ftree, and a hot spot over it (36 hosts, two per
// leaf, sending to the first, in flows of their own); then the frame rate and the longest
// main-thread task while it runs at 1 ms/s (issue 30's targets: 30 frames/s or more, no task over 50 ms); the events
// per second of a run from 0 at "as fast as possible", and the worker's own on the same run with nothing drawn (the
// page's share of it: target 80%); and the 1,024-host k=16 fat tree: generated, routed, run.
// Usage, after `trunk build --release`:
//   node tests/browser/fabric_perf.mjs [seconds, default 5] [µs run flat out, default 400] [pairs, default 3]
import { serveDist, launchBrowser, watchFrames, observeLongTasks, pattern, pause } from './harness.mjs';

const seconds = Number(process.argv[2] ?? 5);
const fastUs = Number(process.argv[3] ?? 400);
const pairs = Number(process.argv[4] ?? 3);

/** Presses Reset and Run at "as fast as possible" and measures the run from its first frame (the worker has routed
 * and built it) to its last: events per second, animation frames per second, the longest main-thread task. */
async function flatOut(page) {
  await page.getByTestId('speed').selectOption({ label: 'as fast as possible' });
  await page.getByTestId('reset').click();
  await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) === 0);
  await page.getByTestId('run').click();
  return page.evaluate(() => new Promise((done) => {
    const shown = () => document.querySelector('[data-testid=sim-time]');
    let first = null;
    let frames = 0;
    const tick = () => {
      const t = parseFloat(shown().innerText);
      const events = Number(shown().getAttribute('data-events'));
      const now = performance.now();
      if (first === null && t > 0) {
        first = { now, events };
        window.__longTasks = [];
      } else if (first !== null) {
        frames++;
      }
      if (first !== null && !/Pause/.test(document.querySelector('[data-testid=run]').innerText)) {
        const s = (now - first.now) / 1000;
        done({ rate: (events - first.events) / s, events, fps: frames / s, longest: Math.max(0, ...window.__longTasks), s });
      } else {
        requestAnimationFrame(tick);
      }
    };
    requestAnimationFrame(tick);
  }));
}
const server = await serveDist();
const browser = await launchBrowser();

const watch = watchFrames;

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
  t0 = Date.now();
  const shift = await pattern(page, 'shift', 18, 'flows');
  console.log(`shift by 18 routed in a worker, drawn and made the flows in ${Date.now() - t0} ms: ${shift}`);
  // A hot spot over it: 36 hosts (two per leaf) all sending to the first.
  await pattern(page, 'hotspot', 36, 'add');

  await page.getByTestId('speed').selectOption({ label: '1 ms/s' });
  await page.evaluate(() => { window.__longTasks = []; });
  t0 = Date.now();
  await page.getByTestId('run').click();
  await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) > 0.01, null, { timeout: 60_000 });
  console.log(`first frame of the run after ${Date.now() - t0} ms (the worker routes and builds the run)`);
  const own = await watch(page, seconds);
  console.log(`running at 1 ms/s: ${own.fps.toFixed(1)} frames/s, longest main-thread task ${own.longest.toFixed(0)} ms`);

  // "As fast as possible" against the worker alone, over the same simulated span (a run of its own from 0 to
  // `fastUs`): the same events both ways (checked), so the two speeds are measured on the same work. The two cores
  // are shared with whatever else the machine runs, and the worker alone swings by a third from one run to the
  // next: the two are measured in turn, `pairs` times, and each pair's ratio printed with their median.
  await pause(page);
  for (const [field, value] of [['Measure from', '0'], ['Measure until', ''], ['Duration', String(fastUs / 1000)]]) {
    await page.getByLabel(field).fill(value);
    await page.getByLabel(field).blur();
  }
  const context = page.context();
  const ratios = [];
  let playground = page;
  for (let pair = 0; pair < pairs; pair++) {
    if (!playground) {
      // The edited scenario, saved by the page, comes back with it.
      playground = await context.newPage();
      await observeLongTasks(playground);
      await playground.goto(server.url);
    }
    const fast = await flatOut(playground);
    console.log(`as fast as possible, 0 to ${fastUs} µs: ${(fast.rate / 1e6).toFixed(2)} M events/s in the page over ${fast.s.toFixed(1)} s, ${fast.fps.toFixed(1)} frames/s, longest task ${fast.longest.toFixed(0)} ms`);
    // The worker's own speed on the same scenario (saved by the page as it is edited, with its duration), with
    // nothing drawn: the self-test page's benchmark, run alone (the playground closed first, so that the two do
    // not share the cores).
    await playground.close();
    playground = null;
    const bench = await context.newPage();
    await bench.goto(`${server.url}?selftest=bench&saved=1`);
    const row = JSON.parse(await bench.getByTestId('bench-json').textContent({ timeout: 300_000 }));
    await bench.close();
    const alone = row.events / (row.wall_s ?? row.wall_ms / 1000);
    if (row.events !== fast.events) console.log(`(the page counted ${fast.events} events, the worker alone ${row.events}: not the same run)`);
    ratios.push(fast.rate / alone);
    console.log(`the worker alone: ${(alone / 1e6).toFixed(2)} M events/s (${row.events} events); the page keeps ${(100 * fast.rate / alone).toFixed(0)}% of it`);
  }
  const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)];
  console.log(`the page at "as fast as possible" keeps ${ratios.map((r) => `${(100 * r).toFixed(0)}%`).join(', ')} of the worker alone: median ${(100 * median).toFixed(0)}% (target 80%)`);

  // The largest generated fabric: a 3-level fat tree of 16-port switches (1,024 hosts), a shift by 512.
  const big = await context.newPage();
  await observeLongTasks(big);
  await big.goto(server.url);
  await big.getByTestId('side-settings').click();
  await big.getByText('Generate a network').click();
  await big.getByLabel('Shape').selectOption('fabric_fat_tree');
  await big.getByLabel('k', { exact: true }).fill('16');
  t0 = Date.now();
  await big.getByRole('button', { name: 'Generate' }).click();
  await big.locator('svg.topology [data-testid^="fold-"]').first().waitFor({ timeout: 60_000 }).catch(() => {});
  await big.locator('svg.topology [data-testid^="node-"]').first().waitFor();
  console.log(`1,024-host k=16 fat tree generated and drawn in ${Date.now() - t0} ms (${await big.locator('svg.topology [data-testid^="node-"]').count()} nodes and ${await big.locator('svg.topology [data-testid^="fold-"]').count()} groups drawn)`);
  await big.getByText('Network and run').click();
  await big.getByLabel('Routing engine').selectOption('ftree');
  await big.getByText('Traffic pattern').click();
  t0 = Date.now();
  const big512 = await pattern(big, 'shift', 512, 'flows', 120_000);
  console.log(`shift by 512 routed, drawn and made the flows in ${Date.now() - t0} ms: ${big512}`);
  await big.getByTestId('speed').selectOption({ label: '1 ms/s' });
  t0 = Date.now();
  await big.getByTestId('run').click();
  await big.waitForFunction(() => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) > 0.01, null, { timeout: 120_000 });
  console.log(`first frame of its run after ${Date.now() - t0} ms`);
  const k16 = await watch(big, seconds);
  console.log(`running at 1 ms/s: ${k16.fps.toFixed(1)} frames/s, longest main-thread task ${k16.longest.toFixed(0)} ms`);
} finally {
  await browser.close();
  await server.close();
}
