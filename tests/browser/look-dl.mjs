import { serveDist, launchBrowser } from './harness.mjs';
const server = await serveDist();
const browser = await launchBrowser();
const sizes = [['desktop', { viewport: { width: 1280, height: 720 } }], ['tablet', { viewport: { width: 1024, height: 768 }, hasTouch: true }], ['phone', { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true }]];
for (const [name, opts] of sizes) {
  const ctx = await browser.newContext({ ...opts, colorScheme: 'light', deviceScaleFactor: name === 'desktop' ? 2 : 1 });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.log('pageerror', String(e)));
  await page.goto(server.url);
  await page.getByTestId('lesson-picker').selectOption({ label: '16. Deadlock and virtual lanes' });
  await page.getByTestId('deadlock').waitFor({ timeout: 30000 });
  await page.waitForTimeout(800);
  await page.screenshot({ path: `/tmp/look/dl-${name}.png` }); if (name === 'desktop') await page.getByTestId('topology').screenshot({ path: '/tmp/look/dl-topo.png', scale: 'device' });
  await ctx.close();
}
await browser.close(); await server.close();
