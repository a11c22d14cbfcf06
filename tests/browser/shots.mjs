// Screenshots of the playground at the sizes people use it (a look, not a test): 1280x720, 1024x768 with touch,
// 390x844, in light and dark, each after running INFOCOM'03 Fig. 2 to its victim's interval. Usage, after
// `trunk build --release`: node tests/browser/shots.mjs [output folder] [preset]
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { serveDist, launchBrowser } from './harness.mjs';

const out = process.argv[2] ?? join(import.meta.dirname, 'output', 'shots');
const preset = process.argv[3] ?? 'infocom03-fig2';
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
      await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) >= 45, null, { timeout: 30000 })
        .catch(() => console.log('did not reach 45 ms'));
      await page.getByTestId('run').click();
      await page.waitForTimeout(400);
      const file = join(out, `${size.name}-${colorScheme}.png`);
      await page.screenshot({ path: file });
      console.log(file, await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]));
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
}
