// Lesson 2 and lesson 16.
export default async function ({ server, browser, shot, log, text, hscroll, atMs, openTab, setField, runPast, check }) {
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
  const page = await open({ viewport: { width: 1280, height: 720 } });
  await page.getByTestId('start-explore').click();
  await page.getByTestId('lesson-picker').selectOption({ label: '2. Long links need deep buffers' });
  await atMs(page, 5);
  await page.waitForTimeout(600);
  log('L2 s1:', await text(page, 'lesson-text'));
  await shot(page, '10-l2-s1');
  const rate = async (l) => page.getByTestId(`link-${l}`).first().evaluate((e) => [e.getAttribute('data-rate'), e.getAttribute('class')]);
  for (const l of ['A1->A', 'A->B', 'B->BC']) log(l, JSON.stringify(await rate(l)));
  await openTab(page, 'results');
  log('L2 results:\n' + await text(page, 'panel-results'));
  await shot(page, '10-l2-s1-results');
  await openTab(page, 'lesson');
  await page.getByTestId('lesson-next').click();
  await page.waitForTimeout(500);
  log('L2 s2:', await text(page, 'lesson-text'));
  await shot(page, '10-l2-s2');
  await page.getByTestId('lesson-next').click();
  await page.waitForTimeout(500);
  log('L2 s3:', await text(page, 'lesson-text'));
  // try first a too-small buffer (10), then 11
  await setField(page, 'input-buffer', '10');
  await openTab(page, 'lesson');
  await page.waitForTimeout(500);
  log('L2 s3 after 10:', await text(page, 'lesson-step'));
  await shot(page, '10-l2-s3-10');
  await setField(page, 'input-buffer', '11');
  await openTab(page, 'lesson');
  await page.waitForTimeout(500);
  log('L2 s3 after 11:', await text(page, 'lesson-step'));
  if (await page.getByTestId('task-restart').count()) {
    await page.getByTestId('task-restart').click();
    await atMs(page, 5).catch(() => log('restart did not reach 5 ms'));
    await page.waitForTimeout(800);
  }
  log('L2 s3 after restart:', await text(page, 'lesson-step'));
  for (const l of ['A1->A', 'A->B', 'B->BC']) log(l, JSON.stringify(await rate(l)));
  await shot(page, '10-l2-s3-restarted');
  await openTab(page, 'results');
  log('L2 results after 11:\n' + await text(page, 'panel-results'));
  await openTab(page, 'lesson');
  // exercise
  await page.getByTestId('exercise-load').click();
  await atMs(page, 0);
  log('L2 exercise:', await text(page, 'exercise'));
  await runPast(page, 10);
  await shot(page, '11-l2-ex-ran');
  log('w1:', await check(page, '45'));
  log('w2:', await check(page, '30'));
  const m = (await text(page, 'exercise-verdict')).match(/gives (\d+\.\d)%/);
  log('right:', await check(page, m ? m[1] : '20'));
  await shot(page, '11-l2-ex-right');
  await openTab(page, 'results');
  log('L2 ex results:\n' + await text(page, 'panel-results'));
  await shot(page, '11-l2-ex-results');
  log('errors', page.errors);
  await page.ctx.close();

  // Lesson 16
  for (const [name, opts] of [['desk', { viewport: { width: 1280, height: 720 } }], ['phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, colorScheme: 'dark' }]]) {
    const p = await open(opts);
    await p.getByTestId('start-explore').click();
    await p.getByTestId('lesson-picker').selectOption({ label: '16. Deadlock and virtual lanes' });
    const alert = p.getByTestId('deadlock');
    await alert.waitFor({ timeout: 30_000 });
    await p.waitForTimeout(800);
    log(name, 'L16 s1 lesson:', await text(p, 'lesson-text'));
    log(name, 'L16 deadlock closed:', await alert.innerText());
    await shot(p, `20-l16-${name}-closed`);
    if (name === 'phone') { await p.getByTestId('phone-network').click().catch(() => {}); await p.waitForTimeout(400); await shot(p, `20-l16-${name}-network-closed`); }
    await p.getByTestId('deadlock-cycle').locator('summary').click();
    await p.waitForTimeout(400);
    log(name, 'L16 deadlock open:', await alert.innerText());
    await shot(p, `20-l16-${name}-open`);
    log(name, 'hscroll', JSON.stringify(await hscroll(p)));
    const cyc = await p.locator('svg.topology line.cycle').count();
    log(name, 'cycle arrows', cyc);
    if (name === 'desk') {
      await openTab(p, 'results');
      log('L16 results:\n' + await text(p, 'panel-results'));
      await shot(p, '20-l16-results');
      await openTab(p, 'lesson');
      await p.getByTestId('lesson-next').click();
      await p.waitForTimeout(400);
      log('L16 s2:', await text(p, 'lesson-text'));
      await openTab(p, 'settings');
      await p.getByTestId('credit-loop-section').locator('summary').click();
      await p.getByTestId('credit-loop-check').click();
      await p.waitForTimeout(500);
      log('credit loop:', await text(p, 'credit-loop'));
      await p.getByTestId('credit-loop').scrollIntoViewIfNeeded();
      await shot(p, '21-l16-s2-check');
      await openTab(p, 'lesson');
      await p.getByTestId('lesson-next').click();
      await setField(p, 'input-data-vls', '2');
      await openTab(p, 'lesson');
      await p.waitForTimeout(500);
      log('L16 s3 done:', await text(p, 'lesson-step'));
      log('deadlock msg now:', await text(p, 'deadlock'));
      await shot(p, '21-l16-s3');
      await p.getByTestId('lesson-next').click();
      await openTab(p, 'settings');
      const sec = p.locator('details', { has: p.getByLabel('Routing engine', { exact: true }) }).first();
      if ((await sec.getAttribute('open')) === null) await sec.locator('summary').first().click();
      await p.getByLabel('Routing engine', { exact: true }).selectOption('dfsssp');
      await openTab(p, 'lesson');
      await p.waitForTimeout(500);
      log('L16 s4 done:', await text(p, 'lesson-step'));
      log('deadlock msg now:', await text(p, 'deadlock'));
      await shot(p, '21-l16-s4');
      if (await p.getByTestId('task-restart').count()) {
        await p.getByTestId('task-restart').click();
        await p.waitForTimeout(1500);
      }
      await p.getByLabel('Speed').selectOption({ label: 'as fast as possible' });
      if (/Run/.test(await p.getByTestId('run').innerText()) && await p.getByTestId('run').isEnabled()) await p.getByTestId('run').click();
      await p.waitForFunction(() => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) >= 2, null, { timeout: 60000 }).catch(() => log('did not reach 2 ms'));
      await p.waitForTimeout(800);
      log('L16 after dfsssp run: sim', await text(p, 'sim-time'), 'deadlock:', await text(p, 'deadlock'));
      log('cycle arrows', await p.locator('svg.topology line.cycle').count());
      log('L16 s4 after run:', await text(p, 'lesson-step'));
      await shot(p, '21-l16-dfsssp-ran');
      await p.getByTestId('exercise-load').click();
      await atMs(p, 0);
      await runPast(p, 2);
      log('w1:', await check(p, '99'));
      log('w2:', await check(p, '10'));
      const mm = (await text(p, 'exercise-verdict')).match(/gives (\d+\.\d)%/);
      log('right:', await check(p, mm ? mm[1] : '50'));
      await openTab(p, 'results');
      log('L16 ex results:\n' + await text(p, 'panel-results'));
      await shot(p, '22-l16-ex-results');
    }
    log(name, 'errors', p.errors);
    await p.ctx.close();
  }
}
