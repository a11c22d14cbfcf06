// Screenshots of the page at the sizes people use it (a look, not a test): 1280x720, 1024x768 with touch, 390x844,
// in light and dark: the playground after running INFOCOM'03 Fig. 2 (or the preset given) to its victim's interval
// (or a shorter run to its end),
// and with `--views` also the settings panel, the A/B comparison, a sweep and a congestion impact run; with `--fabric` a generated 648-host
// fabric (hosts folded) and a k=4 fat tree with a shift's routes on it. Usage, after `trunk build --release`:
//   node tests/browser/shots.mjs [output folder] [preset] [--views] [--fabric]
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { serveDist, launchBrowser, openTab, pattern } from './harness.mjs';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const fabric = process.argv.includes('--fabric');
const views = process.argv.includes('--views');
const out = args[0] ?? join(import.meta.dirname, 'output', 'shots');
const preset = args[1] ?? 'infocom03-fig2';
const sizes = [
  { name: 'desktop', viewport: { width: 1280, height: 720 } },
  { name: 'tablet', viewport: { width: 1024, height: 768 }, hasTouch: true },
  { name: 'phone', viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
];
await mkdir(out, { recursive: true });
const server = await serveDist();
const browser = await launchBrowser();
try {
  for (const size of sizes) {
    for (const colorScheme of ['light', 'dark']) {
      const context = await browser.newContext({ ...size, colorScheme });
      const page = await context.newPage();
      page.on('pageerror', (e) => console.log('pageerror', String(e)));
      page.on('console', (m) => { if (m.type() === 'error') console.log('console', m.text()); });
      await page.goto(server.url);
      await page.getByTestId('scenario-picker').selectOption(preset);
      await page.getByTestId('run').click();
      // To 45 ms, or to the run's end if it is shorter (then Run is disabled, and there is nothing to pause).
      await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) >= 45
        || document.querySelector('[data-testid=run]').disabled, null, { timeout: 30000 })
        .catch(() => console.log('did not reach 45 ms'));
      if (await page.getByTestId('run').isEnabled()) await page.getByTestId('run').click();
      await page.waitForTimeout(400);
      const file = join(out, `${size.name}-${colorScheme}.png`);
      await page.screenshot({ path: file });
      console.log(file, await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]));
      if (views) await viewShots(page, `${size.name}-${colorScheme}`);
      if (fabric) await fabricShots(page, `${size.name}-${colorScheme}`);
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
}

/// The settings panel, A/B (B with naive marking, run to the end), a sweep of buffer sizes and a congestion impact
/// run.
async function viewShots(page, tag) {
  const shot = async (what) => {
    const file = join(out, `${what}-${tag}.png`);
    await page.screenshot({ path: file });
    console.log(file);
  };
  // (On a phone the side panel's tabs are the view's own buttons.)
  if (await page.getByTestId('phone-settings').isVisible()) await page.getByTestId('phone-settings').click();
  else await openTab(page, 'settings');
  await page.waitForTimeout(300);
  await shot('settings');
  await page.getByTestId('tab-compare').click();
  await page.getByTestId('compare-setup').click();
  await page.getByTestId('compare-b-settings').click();
  await page.getByTestId('input-b-marking-policy').selectOption('naive');
  await page.getByTestId('compare-run').click();
  await page.getByTestId('compare-results').waitFor({ timeout: 90000 }).catch(() => console.log('no A/B results'));
  await shot('compare');
  await page.getByTestId('tab-sweep').click();
  await page.getByTestId('sweep-values1').fill('2, 4, 8');
  await page.getByTestId('sweep-run').click();
  await page.waitForFunction(() => /done/.test(document.querySelector('[data-testid=sweep-status]')?.innerText ?? ''), null, { timeout: 120000 })
    .catch(() => console.log('sweep not done'));
  await shot('sweep');
  // GPCNeT on the PFT paper's 120 nodes, no control and ECN + LIPD, the latency test only: running, then done.
  await page.getByTestId('tab-impact').click();
  await page.getByTestId('impact-load-120').click();
  await page.getByTestId('impact-canary-bandwidth').uncheck();
  await page.getByTestId('impact-run').click();
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=impact-progress]')?.getAttribute('value')) > 0, null, { timeout: 60000 })
    .catch(() => console.log('impact run shows no progress'));
  await shot('impact-running');
  await page.waitForFunction(() => /done/.test(document.querySelector('[data-testid=impact-status]')?.innerText ?? ''), null, { timeout: 120000 })
    .catch(() => console.log('impact run not done'));
  await shot('impact');
  // Back to the playground, where the fabric shots (`--fabric`) begin.
  await page.getByTestId('tab-playground').click();
  await page.getByTestId('run').waitFor();
}

/// A generated 648-host two-level fat tree (its hosts folded by leaf), then a k=4 fat tree with a shift's routes.
async function fabricShots(page, tag) {
  const shot = async (what) => {
    const file = join(out, `${what}-${tag}.png`);
    await page.screenshot({ path: file });
    console.log(file);
  };
  const settings = async () => {
    if (await page.getByTestId('phone-settings').isVisible()) await page.getByTestId('phone-settings').click();
    else await openTab(page, 'settings');
  };
  const generate = async (shape, size) => {
    await settings();
    const section = page.getByTestId('generate-section');
    if (!(await section.evaluate((d) => d.open))) await section.locator('summary').click();
    await page.getByLabel('Shape').selectOption(shape);
    await page.locator('#generate-a').fill(size);
    await page.getByRole('button', { name: 'Generate' }).click();
  };
  const network = async () => {
    if (await page.getByTestId('phone-network').isVisible()) await page.getByTestId('phone-network').click();
    await page.waitForTimeout(300);
  };
  await generate('fabric_two_level', '36');
  await page.getByTestId('node-spine-17').waitFor({ state: 'attached' });
  await network();
  await shot('fabric-648');
  // A hot spot over a shift of background flows, run a moment: the congestion tree on the canvas layer.
  await settings();
  const tool648 = page.getByTestId('pattern-section');
  if (!(await tool648.evaluate((d) => d.open))) await tool648.locator('summary').click();
  await pattern(page, 'shift', 18, 'flows');
  await pattern(page, 'hotspot', 36, 'add');
  await network();
  await page.getByTestId('speed').selectOption({ label: '1 ms/s' });
  await page.getByTestId('run').click();
  await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) > 0.5, null, { timeout: 60_000 });
  await page.getByTestId('run').click();
  await page.waitForTimeout(300);
  await shot('fabric-648-run');
  await generate('fabric_fat_tree', '4');
  await page.getByTestId('node-core-3').waitFor({ state: 'attached' });
  const tool = page.getByTestId('pattern-section');
  if (!(await tool.evaluate((d) => d.open))) await tool.locator('summary').click();
  await pattern(page, 'shift', 4);
  await page.getByTestId('pattern-summary').scrollIntoViewIfNeeded();
  await shot('fabric-k4-shift-panel');
  await network();
  await shot('fabric-k4-shift');
}
