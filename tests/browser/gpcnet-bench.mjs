// The congestion impact view against the command line (a benchmark, not a test): one GPCNeT canary test (latency,
// or the one named) on the PFT paper's 120 nodes, isolated and congested (two runs, one per worker), at 1 and 16
// processes per node, in the page's web workers and with `ibcc gpcnet` on the same network and counts, two threads.
// Usage, after `trunk build --release` and `cargo build --release -p ibcc-cli`:
//   node tests/browser/gpcnet-bench.mjs [latency|bandwidth|allreduce]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveDist, launchBrowser, openPage } from './harness.mjs';

const canary = process.argv[2] ?? 'latency';
const ibcc = join(import.meta.dirname, '..', '..', 'target', 'release', 'ibcc');
const dir = mkdtempSync(join(tmpdir(), 'ibcc-gpcnet-bench-'));
// The view's counts (impact_plan::config_for): GPCNeT's defaults below 8 per node, the PFT experiment's from 8.
const scaled = { rings: 1, latency_warmup: 2, latency_iterations: 10, bandwidth_warmup: 0, bandwidth_iterations: 1 };
const server = await serveDist();
const browser = await launchBrowser();
try {
  const page = await openPage(browser, server.url);
  await page.getByTestId('tab-impact').click();
  await page.getByTestId('impact-load-120').click();
  // The network as the view runs it, saved from the page's own menu.
  await page.getByTestId('tab-playground').click();
  await page.getByTestId('share-open').click();
  const [saved] = await Promise.all([page.waitForEvent('download'), page.getByTestId('save-json').click()]);
  const net = JSON.parse(readFileSync(await saved.path(), 'utf8'));
  net.flows = [];
  const file = join(dir, 'fabric120.json');
  writeFileSync(file, JSON.stringify(net));
  await page.getByTestId('tab-impact').click();
  await page.getByTestId('impact-mech-1').uncheck();
  for (const c of ['latency', 'bandwidth', 'allreduce']) {
    await page.getByTestId(`impact-canary-${c}`).setChecked(c === canary);
  }
  for (const ppn of [1, 16]) {
    await page.getByTestId('impact-ppn').selectOption(String(ppn));
    const t0 = Date.now();
    await page.getByTestId('impact-run').click();
    await page.waitForFunction(() => /done|stopped/.test(document.querySelector('[data-testid=impact-status]')?.innerText ?? ''), null, { timeout: 600_000 });
    const pageS = (Date.now() - t0) / 1000;
    const status = await page.getByTestId('impact-status').innerText();
    const config = JSON.stringify(ppn >= 8 ? scaled : {});
    const t1 = Date.now();
    const out = JSON.parse(execFileSync(ibcc, ['gpcnet', file, '--ppn', String(ppn), '--canary', canary, '--config', config, '--jobs', '2', '--json'], { encoding: 'utf8' }));
    const nativeS = (Date.now() - t1) / 1000;
    const row = await page.getByTestId(`impact-row-no control-${canary}`).innerText();
    const t = out.tests[0];
    console.log(`${ppn} per node: page ${pageS.toFixed(1)} s (${status}); ibcc gpcnet ${nativeS.toFixed(1)} s; page/native ${(pageS / nativeS).toFixed(2)}`);
    console.log(`  page:   ${row.replace(/\s+/g, ' ')}`);
    console.log(`  native: isolated ${t.isolated.figures.avg.toFixed(2)} / ${t.isolated.figures.p99.toFixed(2)}, congested ${t.congested.figures.avg.toFixed(2)} / ${t.congested.figures.p99.toFixed(2)}, impact ${t.impact_avg}X / ${t.impact_p99}X`);
  }
} finally {
  await browser.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
}
