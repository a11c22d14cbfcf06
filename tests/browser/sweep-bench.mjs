// The browser sweep against the native one (a benchmark, not a test): INFOCOM'03 Fig. 6, buffer sizes 1..8 x
// LIPD, FIMD, AIMD x continuous, discrete rates (48 runs of 500 ms), in the page's web workers and with
// `ibcc sweep` on the same cores. Usage, after `trunk build --release` and `cargo build --release -p ibcc-cli`:
//   node tests/browser/sweep-bench.mjs
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveDist, launchBrowser, openPage } from './harness.mjs';

const dir = mkdtempSync(join(tmpdir(), 'ibcc-sweep-bench-'));
const spec = join(dir, 'spec.json');
writeFileSync(spec, JSON.stringify({
  base: 'preset:infocom03-fig6',
  axes: [{ path: 'switch.buffer_packets', range: { from: 1, to: 8, step: 1 } },
         { path: 'source.response', values: ['lipd', 'fimd', 'aimd'] },
         { path: 'source.rate', values: ['continuous', 'discrete'] }],
}));
const ibcc = join(import.meta.dirname, '..', '..', 'target', 'release', 'ibcc');
const t0 = Date.now();
execFileSync(ibcc, ['sweep', spec, '--out', join(dir, 'out')], { stdio: 'ignore' });
const nativeS = (Date.now() - t0) / 1000;

const server = await serveDist();
const browser = await launchBrowser();
try {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('infocom03-fig6');
  await page.getByText('Sweep (one run per point').click();
  await page.getByTestId('sweep-values1').fill('1..8');
  await page.getByTestId('sweep-path2').selectOption('source.response');
  await page.getByTestId('sweep-values2').fill('lipd, fimd, aimd');
  await page.getByTestId('sweep-path3').selectOption('source.rate');
  await page.getByTestId('sweep-values3').fill('continuous, discrete');
  await page.getByTestId('sweep-run').click();
  await page.waitForFunction(() => /48\/48 points, .* done/.test(document.querySelector('[data-testid=sweep-status]')?.innerText ?? ''), null, { timeout: 600_000 });
  const status = await page.getByTestId('sweep-status').innerText();
  const browserS = Number(status.match(/([\d.]+) s/)[1]);
  const workers = await page.evaluate(() => navigator.hardwareConcurrency);
  console.log(`INFOCOM'03 Fig. 6: 48 runs of 500 ms (buffer 1..8 x LIPD/FIMD/AIMD x continuous/discrete)`);
  console.log(`native ibcc sweep: ${nativeS.toFixed(2)} s; browser, ${workers} web workers: ${browserS.toFixed(2)} s; ratio ${(browserS / nativeS).toFixed(2)}`);
} finally {
  await browser.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
