// Build on the empty canvas: two hosts send to one; then a flow's start/stop; Results.
export default async function ({ server, browser, shot, log, text, hscroll, openTab, toPage, nodeAt, flowMiddle, waitSim }) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 720 }, colorScheme: process.env.DARK ? 'dark' : 'light' });
  const page = await ctx.newPage();
  page.errors = [];
  page.on('console', (m) => { if (m.type() === 'error') page.errors.push(m.text()); });
  page.on('pageerror', (e) => page.errors.push(String(e)));
  await page.goto(server.url);
  const drag = async ([x1, y1], [x2, y2]) => {
    await page.mouse.move(x1, y1); await page.mouse.down();
    await page.mouse.move((x1 + x2) / 2, (y1 + y2) / 2, { steps: 4 });
    await page.mouse.move(x2, y2, { steps: 4 }); await page.mouse.up();
  };
  const dropNode = async (kind, x, y, id) => {
    const b = await page.getByTestId(`palette-${kind}`).boundingBox();
    await drag([b.x + b.width / 2, b.y + b.height / 2], await toPage(page, x, y));
    await page.getByTestId(`node-${id}`).waitFor();
  };
  const connect = async (tool, a, b) => {
    await page.getByTestId(`tool-${tool}`).click();
    await drag(await nodeAt(page, a), await nodeAt(page, b));
  };
  await page.getByTestId('start-explore').click();
  await page.getByLabel('Scenario').selectOption('empty');
  await page.getByText('Drag a switch or a host here').waitFor();
  await shot(page, '40-empty');
  log('empty canvas text:', await page.getByTestId('canvas-panel').innerText().catch(() => '?'));
  await dropNode('switch', 450, 250, 'S1');
  await dropNode('host', 250, 150, 'h1');
  await dropNode('host', 250, 350, 'h2');
  await dropNode('host', 650, 250, 'h3');
  await connect('link', 'h1', 'S1');
  await connect('link', 'h2', 'S1');
  await connect('link', 'h3', 'S1');
  await connect('flow', 'h1', 'h3');
  await connect('flow', 'h2', 'h3');
  await page.waitForTimeout(500);
  log('flows:', await page.locator('svg.topology path[data-testid^="flow-"]').evaluateAll((ps) => ps.map((p) => p.dataset.testid)));
  await shot(page, '41-built');
  log('scenario line:', await text(page, 'scenario-line'));
  log('clock:', await text(page, 'sim-time'), await page.locator('.clock .end').innerText().catch(() => ''));
  await openTab(page, 'settings');
  log('settings (head):', (await text(page, 'panel-settings')).slice(0, 1500));
  await shot(page, '41-settings');
  // Run at a watchable speed for a while
  await page.getByLabel('Speed').selectOption({ label: '1 ms/s' }).catch(async () => log('speeds', await page.getByLabel('Speed').locator('option').allInnerTexts()));
  await page.getByTestId('run').click();
  await page.waitForTimeout(3000);
  await page.getByTestId('run').click();
  await page.waitForTimeout(500);
  const links = await page.locator('[data-testid^="link-"]').evaluateAll((ls) => ls.filter((l) => l.dataset.testid !== 'link-legend').map((l) => [l.dataset.testid, l.getAttribute('data-rate'), l.getAttribute('class')]));
  log('at', await text(page, 'sim-time'), 'links', JSON.stringify(links));
  log('root/victim classes:', await page.locator('svg.topology .root, svg.topology [class*=root]').count());
  await shot(page, '42-running');
  await openTab(page, 'results');
  log('results early:\n' + await text(page, 'panel-results'));
  await shot(page, '42-results-early');
  // Select flow f1, edit start/stop
  const fm = await flowMiddle(page, 'f1');
  log('at f1 middle:', await page.evaluate(([x, y]) => { const e = document.elementFromPoint(x, y); return e && (e.getAttribute('data-testid') || e.tagName + '.' + e.getAttribute('class')); }, fm));
  log('tool flow pressed?', await page.getByTestId('tool-flow').getAttribute('aria-pressed'));
  await page.getByTestId('tool-select').click();
  log('after select tool, at f1 middle:', await page.evaluate(([x, y]) => { const e = document.elementFromPoint(x, y); return e && (e.getAttribute('data-testid') || e.tagName + '.' + e.getAttribute('class')); }, fm));
  await openTab(page, 'results');
  await page.getByTestId('results-table').getByText(/^Flows \(/).click();
  await page.getByTestId('flow-row-f1').click();
  await openTab(page, 'selection');
  await page.waitForTimeout(300);
  log('selection f1:\n' + await text(page, 'panel-selection'));
  await shot(page, '43-selection-f1');
  for (const [f, v] of [['input-sel-start', process.env.S1 ?? '1'], ['input-sel-stop', process.env.S2 ?? '3']]) {
    await page.getByTestId(f).fill(v);
    await page.getByTestId(f).press('Enter');
    await page.waitForTimeout(300);
  }
  log('selection f1 after:\n' + await text(page, 'panel-selection'));
  log('scenario line:', await text(page, 'scenario-line'));
  await shot(page, '43-selection-f1-edited');
  // Run to the end as fast as possible
  await page.getByLabel('Speed').selectOption({ label: 'as fast as possible' });
  if (await page.getByTestId('restart').count()) { log('restart offered'); await page.getByTestId('restart').click(); await page.waitForTimeout(500); }
  const runTxt = await page.getByTestId('run').innerText();
  if (/Run/.test(runTxt) && await page.getByTestId('run').isEnabled()) await page.getByTestId('run').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=run]').disabled || /Run/.test(document.querySelector('[data-testid=run]').innerText), null, { timeout: 90000 });
  await page.waitForTimeout(1500);
  log('ended at', await text(page, 'sim-time'));
  await openTab(page, 'results');
  log('results end:\n' + await text(page, 'panel-results'));
  await shot(page, '44-results-end' + (process.env.DARK ? '-dark' : ''));
  await page.getByTestId('results-table').getByText(/^Flows \(/).click().catch(() => log('no flows summary'));
  await page.waitForTimeout(300);
  log('results flows:\n' + await text(page, 'results-table'));
  await shot(page, '44-results-flows', true);
  await page.getByTestId('plot-panel').screenshot({ path: '/tmp/walk-class/44-plot' + (process.env.DARK ? '-dark' : '') + '.png' }).catch((e) => log('plot shot fail', e.message));
  log('errors', page.errors);
  await ctx.close();
}
