// Lesson 16's deadlock message on several viewports: clipping.
export default async function ({ server, browser, shot, log, text, hscroll }) {
  const open = async (opts) => {
    const ctx = await browser.newContext(opts);
    const page = await ctx.newPage();
    page.errors = [];
    page.on('console', (m) => { if (m.type() === 'error') page.errors.push(m.text()); });
    page.on('pageerror', (e) => page.errors.push(String(e)));
    await page.goto(server.url);
    page.ctx = ctx;
    return page;
  };
  for (const [name, opts] of [
    ['desk', { viewport: { width: 1280, height: 720 } }],
    ['tab', { viewport: { width: 1024, height: 768 }, hasTouch: true, colorScheme: 'dark' }],
    ['phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, colorScheme: 'dark' }],
  ]) {
    const p = await open(opts);
    await p.getByTestId('start-lesson').click();
    if (name === 'phone') await p.getByTestId('phone-lesson').click().catch(() => {});
    await p.getByTestId('lesson-picker').selectOption({ label: '16. Deadlock and virtual lanes' });
    const alert = p.getByTestId('deadlock');
    await alert.waitFor({ state: 'attached', timeout: 30_000 });
    await p.waitForTimeout(800);
    await shot(p, `30-l16-${name}-lesson`);
    if (name === 'phone') {
      await p.getByTestId('lesson-show').click().catch(() => p.getByTestId('phone-network').click());
      await p.waitForTimeout(600);
      await shot(p, `30-l16-${name}-network`);
    }
    await p.getByTestId('deadlock-cycle').locator('summary').click();
    await p.waitForTimeout(400);
    const geo = await p.getByTestId('deadlock').evaluate((el) => {
      const out = [];
      for (let e = el; e && e !== document.body; e = e.parentElement) {
        const cs = getComputedStyle(e);
        out.push({ tag: e.tagName, cls: e.className, sh: e.scrollHeight, ch: e.clientHeight, ov: cs.overflow, maxh: cs.maxHeight, h: cs.height });
        if (out.length > 3) break;
      }
      const d = el.querySelector('details');
      const r = el.getBoundingClientRect();
      const dr = d ? d.getBoundingClientRect() : null;
      return { out, rect: [r.top, r.bottom], details: dr && [dr.top, dr.bottom], detailsSh: d && d.scrollHeight };
    });
    log(name, JSON.stringify(geo));
    await shot(p, `30-l16-${name}-open`);
    log(name, 'hscroll', JSON.stringify(await hscroll(p)));
    log(name, 'errors', p.errors);
    await p.ctx.close();
  }
}
