// The browser sweep: a setting swept over values in web workers, with progress, the plot, cancel, and a point opened
// as the playground's scenario; the results equal the playground's own run of that point, and stay when the
// sweep is shown again.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { serveDist, closePages, launchBrowser, openPage, screenshot, openTab, waitSim } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
afterEach(() => closePages());
after(async () => { await browser?.close(); await server?.close(); });

test('sweep buffer sizes in workers, plot them, open a point', async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('infocom03-fig2');
  await openTab(page, 'settings');
  await page.getByText('Network and run').click();
  // A short run: the preset measures 40-60 ms, so measure from 10 ms (to 30, the end) first.
  await page.getByLabel('Measure from').fill('10');
  await page.getByLabel('Duration').fill('30');
  await page.getByTestId('tab-sweep').click();
  await page.getByTestId('sweep-values1').fill('1..0');
  await page.getByTestId('sweep-run').click();
  assert.match(await page.getByTestId('sweep-error').innerText(), /Input buffer \(packets\): .*range/);
  await page.getByTestId('sweep-values1').fill('1..4');
  await page.getByTestId('sweep-path2').selectOption('seed');
  await page.getByTestId('sweep-values2').fill('1, 2');
  await page.getByTestId('sweep-quantity').selectOption('link:A->B');
  await page.getByTestId('sweep-run').click();
  await page.waitForFunction(() => /8\/8 points, .* done/.test(document.querySelector('[data-testid=sweep-status]')?.innerText ?? ''), null, { timeout: 60_000 });
  assert.equal(await page.getByTestId('sweep-rate-plot').getAttribute('data-curves'), '2');
  const row = await page.getByTestId('sweep-row-4').innerText();
  assert.match(row, /Input buffer \(packets\) = 3, Seed = 1\s+\d+\.\d%/);
  // The plot and its numbers download.
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('sweep-export-csv').click()]);
  assert.equal(csv.suggestedFilename(), 'ibcc-sweep.csv');
  // A header (the swept setting's path, then a column per curve: one per seed) and a row per buffer size.
  const lines = (await readFile(await csv.path(), 'utf8')).trim().split('\n');
  assert.match(lines[0], /^switch\.buffer_packets,Seed = 1,Seed = 2$/);
  assert.deepEqual(lines.slice(1).map((l) => l.split(',')[0]), ['1', '2', '3', '4']);
  assert.ok(lines.slice(1).every((l) => l.split(',').slice(1).every((v) => Number(v) > 0 && Number(v) <= 100)), lines.join('\n'));
  const [png] = await Promise.all([page.waitForEvent('download'), page.getByTestId('sweep-export-png').click()]);
  assert.equal(png.suggestedFilename(), 'ibcc-sweep.png');
  assert.equal((await readFile(await png.path())).subarray(1, 4).toString(), 'PNG');
  await screenshot(page, 'sweep-done');

  // Open the point: the playground runs the same scenario, to the same inter-switch utilization.
  const swept = Number(row.match(/(\d+\.\d)%/)[1]);
  await page.getByTestId('sweep-open-4').click();
  assert.equal(await page.getByLabel('Scenario').inputValue(), 'custom');
  await page.getByLabel('Speed').selectOption({ label: 'as fast as possible' });
  await page.getByRole('button', { name: 'Run' }).click();
  await waitSim(page, 30);
  await openTab(page, 'results');
  const util = await page.locator('[data-testid=results-table] tr', { hasText: 'A->B' }).first().innerText();
  // Both show 0.1% steps of the same number.
  const shown = Number(util.match(/([\d.]+)%/)[1]);
  assert.equal(shown, swept, `playground ${shown}, sweep ${swept}`);
  await page.getByTestId('tab-sweep').click();
  // Back in the sweep, its results and its settings are still there (the page's shell keeps them).
  assert.match(await page.getByTestId('sweep-status').innerText(), /8\/8 points, .* done/);
  assert.equal(await page.getByTestId('sweep-values1').inputValue(), '1..4');
  assert.equal(await page.getByTestId('sweep-rate-plot').getAttribute('data-curves'), '2');

  // Cancel stops a long sweep.
  await page.getByTestId('sweep-values1').fill('1..40');
  await page.getByTestId('sweep-path2').selectOption('');
  await page.getByTestId('sweep-run').click();
  await page.getByTestId('sweep-cancel').click();
  assert.match(await page.getByTestId('sweep-status').innerText(), /stopped: cancelled/);
  assert.deepEqual(page.errors, []);
});

test('a sweep over a choice: its choices offered, taken as the page names them, a wrong one refused by name', async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('infocom03-fig2');
  await page.getByTestId('tab-sweep').click();
  await page.getByTestId('sweep-path1').selectOption('marking.policy');
  assert.match(await page.getByTestId('sweep-values1').inputValue(), /^none, naive, input_triggered/);
  await page.getByTestId('sweep-values1').fill('none, fastest');
  await page.getByTestId('sweep-run').click();
  assert.match(await page.getByTestId('sweep-error').innerText(), /^Marking policy: fastest is not one of its choices \(none, naive, input_triggered/);
  await page.getByTestId('sweep-values1').fill('none, input-triggered');
  await page.getByTestId('sweep-run').click();
  await page.waitForFunction(() => /2\/2 points, .* done/.test(document.querySelector('[data-testid=sweep-status]')?.innerText ?? ''), null, { timeout: 120_000 });
  assert.match(await page.getByTestId('sweep-row-1').innerText(), /Marking policy = input-triggered/);
  assert.deepEqual(page.errors, []);
});

test('a sweep over congestion control itself: A10 off and on on a fabric, the on point opened with its times scaled', async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('fabric32-hotspot');
  await page.getByTestId('tab-sweep').click();
  await page.getByTestId('sweep-path1').selectOption('ib_cc');
  assert.equal(await page.getByTestId('sweep-values1').inputValue(), 'off, on');
  await page.getByTestId('sweep-quantity').selectOption('group:victim');
  await page.getByTestId('sweep-run').click();
  await page.waitForFunction(() => /2\/2 points, .* done/.test(document.querySelector('[data-testid=sweep-status]')?.innerText ?? ''), null, { timeout: 120_000 });
  const percent = async (i) => {
    const row = await page.getByTestId(`sweep-row-${i}`).innerText();
    assert.match(row, new RegExp(`InfiniBand Annex A10 = ${i ? 'on' : 'off'}\\s+\\d+\\.\\d%`));
    return Number(row.match(/(\d+\.\d)%/)[1]);
  };
  // The victim behind the hot spot: a sixth of its link without control, most of it with A10 (docs/sweeps.md).
  const [off, on] = [await percent(0), await percent(1)];
  assert.ok(off < 25 && on > 60, `victim ${off}% off, ${on}% on`);
  // The x axis names the two runs.
  assert.equal(await page.getByTestId('sweep-rate-plot').getAttribute('data-curves'), '1');
  await screenshot(page, 'sweep-a10');
  assert.match(await page.getByTestId('sweep-of').innerText(), /^Last sweep: InfiniBand Annex A10 on A hot spot on a real fabric, OpenSM; each point a run of 3 ms, measured from 1 ms to the end\.$/);
  // A setting that changes nothing here: every flow has SL 0, so more data VLs give the same run, and the page says so.
  await page.getByTestId('sweep-path1').selectOption('virtual_lanes.data_vls');
  assert.equal(await page.getByTestId('sweep-values1').inputValue(), '', "the mechanism's choices are cleared for a number");
  await page.getByTestId('sweep-values1').fill('1, 2');
  await page.getByTestId('sweep-path2').selectOption('virtual_lanes.data_vls');
  await page.getByTestId('sweep-values2').fill('4');
  await page.getByTestId('sweep-run').click();
  assert.equal(await page.getByTestId('sweep-error').innerText(), 'Data VLs (per port) is on two axes: give all its values on one');
  await page.getByTestId('sweep-path2').selectOption('');
  await page.getByTestId('sweep-run').click();
  await page.waitForFunction(() => /2\/2 points, .* done/.test(document.querySelector('[data-testid=sweep-status]')?.innerText ?? ''), null, { timeout: 120_000 });
  assert.match(await page.getByTestId('sweep-all-same').innerText(), /^Every point gave the same throughput of the victim flows/);
  // Back to A10; then another scenario in the playground: the results say they are of the one swept.
  await page.getByTestId('sweep-path1').selectOption('ib_cc');
  await page.getByTestId('sweep-run').click();
  await page.waitForFunction(() => /2\/2 points, .* done/.test(document.querySelector('[data-testid=sweep-status]')?.innerText ?? ''), null, { timeout: 120_000 });
  assert.equal(await page.getByTestId('sweep-stale').count(), 0);
  await page.getByTestId('tab-playground').click();
  await page.getByLabel('Scenario').selectOption('infocom03-fig2');
  await page.getByTestId('tab-sweep').click();
  await page.getByTestId('sweep-stale').waitFor();
  await page.getByTestId('tab-playground').click();
  await page.getByLabel('Scenario').selectOption('fabric32-hotspot');
  await page.getByTestId('tab-sweep').click();
  assert.equal(await page.getByTestId('sweep-stale').count(), 0, 'the scenario swept is back');
  // The on point opened: A10 is on in Settings, its times scaled to the fabric's 100 Gb/s host links.
  await page.getByTestId('sweep-open-1').click();
  await openTab(page, 'settings');
  await page.locator('details', { has: page.getByTestId('input-ib-cc') }).locator('summary').click();
  assert.equal(await page.getByTestId('input-ib-cc').inputValue(), 'on');
  assert.match(await page.getByTestId('a10-scaled').innerText(), /^Times scaled to the 100 Gb\/s host links/);
  assert.deepEqual(page.errors, []);
});
