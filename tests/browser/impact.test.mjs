// The congestion impact view: GPCNeT's canaries on the playground's network in web workers, with progress, the
// congestors' and canaries' routes on the network, histograms, the impact table and its CSV; the same figures as
// `ibcc gpcnet` natively; results kept while another view is shown; a stop in the middle of a 120-node run; a
// network too small refused by name.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveDist, closePages, launchBrowser, openPage, screenshot } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
afterEach(() => closePages());
after(async () => { await browser?.close(); await server?.close(); });

const status = (page) => page.getByTestId('impact-status').innerText();
const labels = (page) => page.locator('[data-testid=topology] [data-testid^="routes-"]').evaluateAll((ls) => ls.map((l) => `${l.dataset.testid}=${l.textContent}`).join(' '));

test('GPCNeT in the page: progress, routes, histograms, the table, and the native figures', async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('fabric32-hotspot');
  // The network as the view runs it (its flows taken away), saved from the page, for the native run below.
  await page.getByTestId('share-open').click();
  const [saved] = await Promise.all([page.waitForEvent('download'), page.getByTestId('save-json').click()]);
  const net = JSON.parse(readFileSync(await saved.path(), 'utf8'));
  net.flows = [];
  // The playground's own run, with its congestion tree drawn: the view draws the network without it (found in a
  // walk: the root and the blocked links of the last run stayed on the view's drawing, under "without its flows").
  await page.getByTestId('run').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=topology] .tree-root').length > 0, null, { timeout: 60_000 });
  await page.getByTestId('run').click();
  await page.getByTestId('tab-impact').click();
  await page.getByTestId('impact-run').waitFor();
  assert.equal(await page.locator('[data-testid=topology] .tree-root, [data-testid=topology] .tree-blocked').count(), 0);
  // The network is drawn without its flows, and the legend lists none.
  assert.equal(await page.locator('[data-testid=legend] [data-testid^=legend-group-]').count(), 0);
  // Defaults: 1 process per node, no control and ECN + LIPD, the latency and bandwidth tests.
  await page.getByTestId('impact-run').click();
  await page.waitForFunction(() => /8\/8 runs on .* at 1 per node, .* done/.test(document.querySelector('[data-testid=impact-status]')?.innerText ?? ''), null, { timeout: 120_000 });
  assert.equal(Number(await page.getByTestId('impact-progress').getAttribute('value')), 1);
  // The congestors' routes are drawn, then the canaries' (fewer, and others).
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=topology] [data-testid^="routes-"]').length > 0);
  const congestors = await labels(page);
  await page.getByTestId('impact-show-canaries').click();
  await page.waitForFunction((before) => {
    const now = [...document.querySelectorAll('[data-testid=topology] [data-testid^="routes-"]')].map((l) => `${l.dataset.testid}=${l.textContent}`).join(' ');
    return now !== before && now.length > 0;
  }, congestors);
  await screenshot(page, 'impact-done');
  // A histogram per test: isolated with no control, and each mechanism congested.
  assert.equal(await page.getByTestId('impact-latency-rate-plot').getAttribute('data-curves'), '3');
  assert.equal(await page.getByTestId('impact-bandwidth-rate-plot').getAttribute('data-curves'), '3');
  const row = (await page.getByTestId('impact-row-no control-latency').innerText()).replace(/\s+/g, ' ');
  assert.match(row, /no control latency \(usec\) [\d.]+ \/ [\d.]+ [\d.]+ \/ [\d.]+ \d+\.\dX \/ \d+\.\dX unrounded [\d.]+ \/ [\d.]+ 1\.00/);
  // GPCNeT's factor is of figures rounded to 0.1; the unrounded ratio under it is of the figures beside it (shown
  // to two decimals, so to within about 3%).
  const [iso, con, unrounded] = [/\) ([\d.]+) \//, /\/ [\d.]+ ([\d.]+) \//, /unrounded ([\d.]+)/].map((r) => Number(row.match(r)[1]));
  assert.ok(Math.abs(unrounded - con / iso) <= 0.03 * unrounded + 0.01, `${row}: ${con} / ${iso} against ${unrounded}`);
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('impact-csv').click()]);
  const lines = readFileSync(await csv.path(), 'utf8').trim().split('\n');
  assert.equal(lines[0], 'mechanism,canary,units,isolated_avg,isolated_p99,congested_avg,congested_p99,impact_avg,impact_p99,fc');
  assert.deepEqual(lines.slice(1).map((l) => l.split(',').slice(0, 2).join(',')),
    ['no control,latency', 'no control,bandwidth', 'ECN + LIPD,latency', 'ECN + LIPD,bandwidth']);

  // The results stay while another view is shown (the shell keeps them), and so do the settings.
  await page.getByTestId('tab-playground').click();
  await page.getByTestId('tab-impact').click();
  assert.match(await status(page), /8\/8 runs on .* at 1 per node, .* done/);
  assert.equal((await page.getByTestId('impact-row-no control-latency').innerText()).replace(/\s+/g, ' '), row);
  assert.ok(await page.getByTestId('impact-mech-1').isChecked());

  // The same figures as the command line's on the same network (deterministic: page and native are one run).
  const built = ['debug', 'release'].map((p) => join(import.meta.dirname, '..', '..', 'target', p, 'ibcc')).find(existsSync);
  assert.ok(built, 'ibcc is built (cargo test builds target/debug/ibcc)');
  const dir = mkdtempSync(join(tmpdir(), 'ibcc-impact-'));
  const file = join(dir, 'net.json');
  writeFileSync(file, JSON.stringify(net));
  const native = JSON.parse(execFileSync(built, ['gpcnet', file, '--ppn', '1', '--seed', '1', '--canary', 'latency', '--canary', 'bandwidth', '--json'], { encoding: 'utf8' }));
  rmSync(dir, { recursive: true });
  for (const t of native.tests) {
    const line = lines.find((l) => l.startsWith(`no control,${t.canary},`)).split(',');
    const page4 = line.slice(3, 7).map(Number);
    const f = [t.isolated.figures.avg, t.isolated.figures.p99, t.congested.figures.avg, t.congested.figures.p99];
    assert.deepEqual(page4, f.map((v) => Number(v.toFixed(4))), `${t.canary}: page ${page4}, native ${f}`);
    assert.deepEqual(line.slice(7, 9).map(Number), [t.impact_avg, t.impact_p99]);
  }
  assert.deepEqual(page.errors, []);
});

test('a 120-node run stops when asked, and a small network is refused by name', async () => {
  const page = await openPage(browser, server.url, { viewport: { width: 390, height: 844 } });
  await page.getByTestId('tab-impact').click();
  await page.getByTestId('impact-load-120').click();
  assert.match(await page.getByTestId('impact-network-name').innerText(), /120 hosts/);
  await page.getByTestId('impact-ppn').selectOption('16');
  await page.getByTestId('impact-run').click();
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=impact-progress]')?.getAttribute('value')) > 0, null, { timeout: 60_000 });
  await screenshot(page, 'impact-running-phone');
  // On a phone nothing is wider than the screen (the table scrolls on its own).
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling');
  await page.getByTestId('impact-stop').click();
  // (How many of the eight runs finish before the click depends on the machine's speed: the first, isolated runs
  // are short. That the rest never start is what is checked.)
  assert.match(await status(page), /[0-7]\/8 runs on .*120 hosts.* at 16 per node, .* stopped/);
  const shown = await page.getByTestId('impact-progress').getAttribute('value');
  await page.waitForTimeout(1000);
  assert.equal(await page.getByTestId('impact-progress').getAttribute('value'), shown, 'nothing moves once stopped');
  // Ring6: 6 hosts, too few for GPCNeT's 2 canary and 8 congestor nodes.
  await page.getByTestId('tab-playground').click();
  await page.getByLabel('Scenario').selectOption('ring6-deadlock');
  await page.getByTestId('tab-impact').click();
  await page.getByTestId('impact-run').click();
  assert.match(await page.getByTestId('impact-error').innerText(), /this network has 6 hosts/);
  assert.deepEqual(page.errors, []);
});

test('lesson 18 opens the view at 4 processes per node, enough canary processes for its histograms', async () => {
  const page = await openPage(browser, server.url);
  await page.getByTestId('lesson-picker').selectOption({ label: '18. What congestion does to an HPC application' });
  await page.getByTestId('lesson-next').click();
  await page.getByTestId('lesson-open-impact').click();
  assert.equal(await page.getByTestId('impact-ppn').inputValue(), '4');
  assert.deepEqual(page.errors, []);
});
