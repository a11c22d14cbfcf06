// The browser sweep: a setting swept over values in web workers, with progress, the plot, cancel, and a point opened
// as the playground's scenario; the results equal the playground's own run of that point.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveDist, launchBrowser, openPage, screenshot } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

test('sweep buffer sizes in workers, plot them, open a point', async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('infocom03-fig2');
  await page.getByText('Network and run').click();
  // A short run: the preset measures 40-60 ms, so measure from 10 ms (to 30, the end) first.
  await page.getByLabel('Measure from').fill('10');
  await page.getByLabel('Duration').fill('30');
  await page.getByText('Sweep (one run per point').click();
  await page.getByTestId('sweep-values1').fill('1..0');
  await page.getByTestId('sweep-run').click();
  assert.match(await page.getByTestId('sweep-error').innerText(), /switch\.buffer_packets: .*range/);
  await page.getByTestId('sweep-values1').fill('1..4');
  await page.getByTestId('sweep-path2').selectOption('seed');
  await page.getByTestId('sweep-values2').fill('1, 2');
  await page.getByTestId('sweep-quantity').selectOption('link:A->B');
  await page.getByTestId('sweep-run').click();
  await page.waitForFunction(() => /8\/8 points, .* done/.test(document.querySelector('[data-testid=sweep-status]')?.innerText ?? ''), null, { timeout: 60_000 });
  assert.equal(await page.getByTestId('sweep-plot').getAttribute('data-curves'), '2');
  const row = await page.getByTestId('sweep-row-4').innerText();
  assert.match(row, /switch\.buffer_packets = 3, seed = 1\s+0\.\d{4}/);
  await screenshot(page, 'sweep-done');

  // Open the point: the playground runs the same scenario, to the same inter-switch utilization.
  const swept = Number(row.match(/(0\.\d{4})/)[1]);
  await page.getByTestId('sweep-open-4').click();
  assert.equal(await page.getByLabel('Scenario').inputValue(), 'custom');
  await page.getByLabel('Speed').selectOption({ label: 'as fast as possible' });
  await page.getByRole('button', { name: 'Run' }).click();
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=progress]').value) >= 1, null, { timeout: 60_000 });
  const util = await page.locator('[data-testid=results-table] tr', { hasText: 'A->B' }).first().innerText();
  // The table shows 0.1% steps and the sweep row four decimals: equal to the table's precision.
  const shown = Number(util.match(/([\d.]+)%/)[1]) / 100;
  assert.ok(Math.abs(shown - swept) <= 0.0005 + 1e-9, `playground ${shown}, sweep ${swept}`);

  // Cancel stops a long sweep.
  await page.getByTestId('sweep-values1').fill('1..40');
  await page.getByTestId('sweep-path2').selectOption('');
  await page.getByTestId('sweep-run').click();
  await page.getByTestId('sweep-cancel').click();
  assert.match(await page.getByTestId('sweep-status').innerText(), /stopped: cancelled/);
  assert.deepEqual(page.errors, []);
});
