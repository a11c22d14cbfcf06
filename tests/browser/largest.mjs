// The page on the largest fabric it generates, measured in headless chromium (a benchmark that prints figures, not a
// test): a three-level fat tree of k-port switches (k^3/4 hosts; the page offers k up to 16) generated in the page,
// routed by ftree, a shift by half the hosts made its flows, then run "as fast as possible" for a few microseconds of
// simulated time. Prints how long each step took, its longest main-thread task, and the browser's memory (the
// proportional resident size of every chromium process, summed, sampled every 100 ms): before the fabric, and the
// most it reached. Larger k needs a local build with the generator's cap (web/src/ui/playground/generate.rs) and the
// page's size limits (LIMITS in core/src/scenario/validate.rs) raised: docs/performance.md gives what k=24 and k=36
// measured that way.
// Usage, after `trunk build --release`: node tests/browser/largest.mjs [k, default 16] [µs run, default 20]
import { serveDist, launchBrowser, pattern, observeLongTasks } from './harness.mjs';
import { readFileSync, readdirSync } from 'node:fs';

const k = Number(process.argv[2] ?? 16);
const runUs = Number(process.argv[3] ?? 20);
const hosts = k ** 3 / 4;

/** Proportional resident bytes (Pss) of all the descendants of process `root` (here: the browser's processes, this script's children). */
function residentTree(root) {
  const children = new Map();
  const rss = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      // Fields after the command's closing parenthesis: state ppid ...; Pss shares each shared page among the
      // processes that map it, so the sum over processes counts every page once.
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
      const pss = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${d}/smaps_rollup`, 'utf8'));
      rss.set(Number(d), Number(pss?.[1] ?? 0) * 1024);
    } catch {
      // The process ended while being read.
    }
  }
  let total = -(rss.get(root) ?? 0);
  const todo = [root];
  while (todo.length) {
    const p = todo.pop();
    total += rss.get(p) ?? 0;
    todo.push(...(children.get(p) ?? []));
  }
  return total;
}

const server = await serveDist();
const browser = await launchBrowser();
const pid = process.pid;
let peak = 0;
const sampler = setInterval(() => { peak = Math.max(peak, residentTree(pid)); }, 100);
const mb = (b) => `${(b / 2 ** 20).toFixed(0)} MB`;
let page;
const step = async (what, work) => {
  await page.evaluate(() => { window.__longTasks = []; });
  const t0 = Date.now();
  const out = await work();
  const longest = await page.evaluate(() => Math.max(0, ...window.__longTasks));
  console.log(`${what}: ${((Date.now() - t0) / 1000).toFixed(1)} s${out ? ` (${out})` : ''}; longest main-thread task ${longest.toFixed(0)} ms; memory now ${mb(residentTree(pid))}, most so far ${mb(peak)}`);
};

try {
  page = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
  await observeLongTasks(page);
  page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
  page.on('crash', () => console.log('the page crashed'));
  await page.goto(server.url);
  await page.waitForFunction(() => !document.querySelector('[data-testid=run]')?.disabled);
  console.log(`k=${k}: ${hosts} hosts, ${5 * k * k / 4} switches; the page loaded, resident ${mb(residentTree(pid))}`);
  await page.getByTestId('side-settings').click();
  await page.getByText('Generate a network').click();
  await page.getByLabel('Shape').selectOption('fabric_fat_tree');
  await page.getByLabel('k', { exact: true }).fill(String(k));
  await step('generated and drawn', async () => {
    await page.getByRole('button', { name: 'Generate' }).click();
    await page.locator('svg.topology [data-testid^="node-"]').first().waitFor({ timeout: 600_000 });
    const refused = await page.locator('.error, [role=alert]').allInnerTexts();
    return refused.filter((t) => t.trim()).join(' / ');
  });
  await page.getByText('Network and run').click();
  await page.getByLabel('Routing engine').selectOption('ftree');
  for (const [field, value] of [['Measure from', '0'], ['Measure until', ''], ['Duration', String(runUs / 1000)]]) {
    await page.getByLabel(field).fill(value);
    await page.getByLabel(field).blur();
  }
  await page.getByText('Traffic pattern').click();
  await step(`shift by ${hosts / 2} routed in a worker, drawn and made the flows`,
    () => pattern(page, 'shift', hosts / 2, 'flows', 1_200_000));
  await page.getByTestId('speed').selectOption({ label: 'as fast as possible' });
  await step(`run to ${runUs} µs (the worker routes and builds it, then runs)`, async () => {
    await page.getByTestId('run').click();
    await page.waitForFunction(() => !/Pause/.test(document.querySelector('[data-testid=run]').innerText)
      && parseFloat(document.querySelector('[data-testid=sim-time]').innerText) > 0, null, { timeout: 1_200_000 });
    return `${await page.getByTestId('sim-time').innerText()}, ${await page.getByTestId('sim-time').getAttribute('data-events')} events`;
  });
} finally {
  clearInterval(sampler);
  console.log(`most resident memory of the browser: ${mb(peak)}`);
  await browser.close();
  server.close();
}
