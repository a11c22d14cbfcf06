// Start card in several viewports; lesson 1 walk.
export default async function ({ server, browser, shot, log, text, hscroll, atMs, openTab, setField, runPast, check, closePages }) {
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
  const views = [
    ['desk-light', { viewport: { width: 1280, height: 720 }, colorScheme: 'light' }],
    ['desk-dark', { viewport: { width: 1280, height: 720 }, colorScheme: 'dark' }],
    ['tab-light', { viewport: { width: 1024, height: 768 }, hasTouch: true, colorScheme: 'light' }],
    ['phone-light', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, colorScheme: 'light' }],
    ['phone-dark', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, colorScheme: 'dark' }],
  ];
  for (const [name, opts] of views) {
    const p = await open(opts);
    await p.getByTestId('start-card').waitFor({ timeout: 15000 });
    await p.waitForTimeout(800);
    log(name, 'hscroll', JSON.stringify(await hscroll(p)));
    if (name === 'desk-light') log('START CARD:\n' + await text(p, 'start-card'));
    await shot(p, `01-start-${name}`);
    log(name, 'errors', p.errors);
    await p.ctx.close();
  }

  // Lesson 1 as a student at 1280x720.
  const page = await open(views[0][1]);
  await page.getByTestId('start-lesson').click();
  await page.getByTestId('lesson-step').waitFor();
  await atMs(page, 20);
  await page.waitForTimeout(500);
  log('L1 step1:', await text(page, 'lesson-step'), '\n', await text(page, 'lesson-text'));
  await shot(page, '02-l1-s1');
  await openTab(page, 'results');
  await page.waitForTimeout(300);
  log('L1 results:\n' + await text(page, 'panel-results'));
  await shot(page, '02-l1-s1-results');
  await openTab(page, 'lesson');
  await page.getByTestId('lesson-next').click();
  await page.waitForTimeout(800);
  log('L1 step2:', await text(page, 'lesson-text'));
  await shot(page, '02-l1-s2');
  // Link states to compare with the step's words
  const links = await page.locator('[data-testid^="link-"]').evaluateAll((ls) => ls.map((l) => [l.dataset.testid, l.getAttribute('data-rate'), l.getAttribute('class')]));
  log('links', JSON.stringify(links));
  await page.getByTestId('lesson-next').click();
  await page.waitForTimeout(500);
  log('L1 step3:', await text(page, 'lesson-text'));
  await shot(page, '02-l1-s3');
  const plotSel = page.locator('select').filter({ has: page.locator('option', { hasText: /Buffer occupancy/ }) }).first();
  await plotSel.selectOption({ label: 'Buffer occupancy' }).catch(async (e) => { log('plot select failed', e.message); });
  await page.waitForTimeout(800);
  log('L1 step3 after:', await text(page, 'lesson-text'));
  await shot(page, '02-l1-s3-done');
  await page.getByTestId('lesson-next').click();
  await page.waitForTimeout(500);
  log('L1 step4:', await text(page, 'lesson-text'));
  await setField(page, 'input-buffer', '1');
  await openTab(page, 'lesson');
  await page.waitForTimeout(500);
  log('L1 step4 after set:', await text(page, 'panel-lesson'));
  await shot(page, '02-l1-s4-set');
  if (await page.getByTestId('task-restart').count()) {
    await page.getByTestId('task-restart').click();
    await page.waitForTimeout(2500);
    log('L1 after restart:', await text(page, 'panel-lesson'));
    await shot(page, '02-l1-s4-restarted');
  }
  // exercise
  await page.getByTestId('exercise-load').click();
  await atMs(page, 0);
  log('Exercise shown:\n', await text(page, 'exercise'));
  log('verdict before run:', await check(page, '50'));
  await runPast(page, 40);
  await shot(page, '03-l1-ex-ran');
  log('wrong1:', await check(page, '50'));
  await shot(page, '03-l1-ex-wrong1');
  log('wrong2:', await check(page, '40'));
  const v = await text(page, 'exercise-verdict');
  const m = v.match(/gives (\d+\.\d)%/);
  log('right:', await check(page, m ? m[1] : '83'));
  log('explanation:', await text(page, 'exercise-explanation'));
  await shot(page, '03-l1-ex-right');
  await openTab(page, 'results');
  await page.waitForTimeout(300);
  log('L1 ex results:\n' + await text(page, 'panel-results'));
  await shot(page, '03-l1-ex-results');
  log('errors', page.errors);
}
