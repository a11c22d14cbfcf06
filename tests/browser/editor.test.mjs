// Building a network on the canvas as a person does: drag switches and hosts from the palette, drag links and
// flows between them, run it, change the marking, reset, undo; select, move, delete; zoom; edit properties.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { serveDist, closePages, newContext, launchBrowser, openPage, screenshot, OUTPUT, openTab, toPage, nodeAt, flowMiddle, simMs, pause, setField } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
afterEach(() => closePages());
after(async () => { await browser?.close(); await server?.close(); });

async function drag(page, [x1, y1], [x2, y2]) {
  await page.mouse.move(x1, y1);
  await page.mouse.down();
  await page.mouse.move((x1 + x2) / 2, (y1 + y2) / 2, { steps: 4 });
  await page.mouse.move(x2, y2, { steps: 4 });
  await page.mouse.up();
}

/** Drags a palette item onto view point (x, y); resolves once a node with `id` exists. */
async function dropNode(page, kind, x, y, id) {
  const b = await page.getByTestId(`palette-${kind}`).boundingBox();
  await drag(page, [b.x + b.width / 2, b.y + b.height / 2], await toPage(page, x, y));
  await page.getByTestId(`node-${id}`).waitFor();
}

async function connect(page, tool, a, b) {
  await page.getByTestId(`tool-${tool}`).click();
  // The toolbar shows the tool chosen at once (found in a walk: it showed Select until the drawing was touched).
  await page.waitForFunction((t) => document.querySelector(`[data-testid=tool-${t}]`).getAttribute('aria-pressed') === 'true', tool, { timeout: 2000 });
  await drag(page, await nodeAt(page, a), await nodeAt(page, b));
}

const flowCount = (page) => page.locator('svg.topology path[data-testid^="flow-"]').count();

test('build a two-switch network by dragging, run it, change marking, reset, undo', async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('empty');
  await page.getByText('Drag a switch or a host here').waitFor();

  await dropNode(page, 'switch', 350, 250, 'S1');
  await dropNode(page, 'switch', 650, 250, 'S2');
  await dropNode(page, 'host', 250, 400, 'h1');
  await dropNode(page, 'host', 400, 400, 'h2');
  await dropNode(page, 'host', 750, 400, 'h3');
  // Selecting on the drawing shows the Selection tab (no lesson is being followed).
  await page.getByTestId('panel-selection').waitFor();
  assert.equal(await page.getByTestId('selection-title').innerText(), 'Host h3', 'a dropped node is selected');

  await connect(page, 'link', 'S1', 'S2');
  await connect(page, 'link', 'h1', 'S1');
  await connect(page, 'link', 'h2', 'S1');
  await connect(page, 'link', 'h3', 'S2');
  await page.getByTestId('link-S1->S2').waitFor({ state: 'attached' });
  await page.getByTestId('link-h3->S2').waitFor({ state: 'attached' });

  // Invalid edits are refused with a message where they were tried.
  await connect(page, 'link', 'h1', 'S2');
  assert.match(await page.getByTestId('canvas-message').innerText(), /host h1 already has its link/);
  await page.getByTestId('canvas-callout').waitFor();
  await connect(page, 'flow', 'h1', 'S2');
  assert.match(await page.getByTestId('canvas-message').innerText(), /S2 is a switch/);

  await connect(page, 'flow', 'h1', 'h3');
  await connect(page, 'flow', 'h2', 'h3');
  await page.getByTestId('flow-f2').waitFor();
  assert.equal(await flowCount(page), 2);
  await screenshot(page, 'editor-built');

  // Run: the two flows share S2->h3, so it saturates, and the results fill in.
  await page.getByLabel('Speed').selectOption({ label: '1 ms/s' });
  await page.getByRole('button', { name: 'Run' }).click();
  await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid="link-S2->h3"]').getAttribute('data-rate')) > 0.9);
  await openTab(page, 'results');
  await page.getByTestId('flow-row-f1').waitFor({ state: 'attached' });
  assert.match(await page.getByTestId('flow-row-f1').textContent(), /f1.*%/);
  await pause(page);
  const paused = await simMs(page);
  assert.ok(paused > 0);

  // Marking changes apply to the paused run from that moment (no restart).
  await openTab(page, 'settings');
  await page.getByLabel('Marking policy', { exact: true }).selectOption('naive');
  await page.getByTestId('notice').waitFor();
  assert.match(await page.getByTestId('notice').innerText(), /Marking changed at .* applies from then on/);
  assert.equal(await simMs(page), paused);
  await page.getByRole('button', { name: 'Reset' }).click();
  await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) === 0);

  // Undo walks back the marking change, then the last flow; redo brings the flow back.
  await page.keyboard.press('Control+z');
  assert.equal(await page.getByLabel('Marking policy', { exact: true }).inputValue(), 'none');
  await page.keyboard.press('Control+z');
  await page.waitForFunction(() => !document.querySelector('[data-testid="flow-f2"]'));
  assert.equal(await flowCount(page), 1);
  await page.keyboard.press('Control+Shift+z');
  await page.getByTestId('flow-f2').waitFor();

  // The work survives a reload, and the picker says what it is.
  await page.reload();
  await page.getByTestId('flow-f2').waitFor();
  assert.equal(await page.getByLabel('Scenario').inputValue(), 'custom');
  assert.equal(await page.getByLabel('Scenario').locator('option:checked').innerText(), 'Built on the canvas');
  assert.equal(await page.getByTestId('node-h3').count(), 1);
  assert.deepEqual(page.errors, []);
});

test('a saved network that cannot be read is reported, and the page still works', async () => {
  const context = await newContext(browser, { viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => {
    if (!sessionStorage.getItem('seeded')) {
      localStorage.setItem('ibcc.playground.scenario', '{"format": "ibcc-scenario", "version": 1, "nodes": [');
      sessionStorage.setItem('seeded', '1');
    }
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(server.url);
  assert.match(await page.getByTestId('restore-error').innerText(), /could not be restored \(.*line 1.*\)/);
  await page.getByTestId('node-A').waitFor();
  await page.getByRole('button', { name: 'Step' }).click();
  await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) > 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('select, move, delete, edit properties and zoom on the canvas', async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('infocom03-fig2');
  // Move switch A by dragging it with the Select tool.
  const before = await page.getByTestId('node-A').getAttribute('data-x');
  const [ax, ay] = await nodeAt(page, 'A');
  await drag(page, [ax, ay], [ax - 60, ay + 40]);
  assert.notEqual(await page.getByTestId('node-A').getAttribute('data-x'), before, 'moved');
  await page.getByTestId('panel-selection').waitFor();
  assert.equal(await page.getByTestId('selection-title').innerText(), 'Switch A');
  // Arrow keys move the selected node too.
  const x0 = Number(await page.getByTestId('node-A').getAttribute('data-x'));
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((x) => Number(document.querySelector('[data-testid=node-A]').getAttribute('data-x')) === x + 10, x0);

  // Its buffer size: a bad value is refused next to the field, a good one applies.
  await page.getByLabel('Input buffer size').fill('zero');
  await page.getByLabel('Input buffer size').press('Enter');
  assert.match(await page.getByTestId('error-sel-buffer').innerText(), /not a number/);
  await page.getByLabel('Input buffer size').fill('8');
  await page.getByLabel('Input buffer size').press('Enter');
  await page.waitForFunction(() => !document.querySelector('[data-testid=error-sel-buffer]'));

  // Delete removes the switch, its links and the flows that lose their path; undo brings them back.
  const flows = await flowCount(page);
  // Click it again (the keyboard goes to the page, not the field), then Delete.
  const [mx, my] = await nodeAt(page, 'A');
  await page.mouse.click(mx, my);
  await page.keyboard.press('Delete');
  await page.waitForFunction(() => !document.querySelector('[data-testid="node-A"]'));
  assert.match(await page.getByTestId('canvas-message').innerText(), /Also removed .* links and flows? .*no path left/);
  assert.ok(await flowCount(page) < flows);
  await page.keyboard.press('Control+z');
  await page.getByTestId('node-A').waitFor();
  assert.equal(await flowCount(page), flows);

  // A link: click it, change its bandwidth.
  const [bx, by] = await nodeAt(page, 'B');
  const [cx, cy] = await nodeAt(page, 'BC');
  await page.mouse.click((bx + cx) / 2, (by + cy) / 2);
  assert.match(await page.getByTestId('selection-title').innerText(), /^Link /);
  await page.getByLabel('Bandwidth').fill('16');
  await page.getByLabel('Bandwidth').press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid="input-sel-bandwidth"]').value === '16');

  // Zoom with the wheel and the buttons; Fit goes back. (The edits above held the view where it was: fit it first.)
  await page.getByTestId('zoom-fit').click();
  const fitted = await page.getByTestId('topology').getAttribute('data-viewbox');
  await page.mouse.move(bx, by);
  await page.mouse.wheel(0, -300);
  await page.waitForFunction((v) => document.querySelector('[data-testid=topology]').getAttribute('data-viewbox') !== v, fitted);
  const zoomed = (await page.getByTestId('topology').getAttribute('data-viewbox')).split(' ').map(Number);
  assert.ok(zoomed[2] < Number(fitted.split(' ')[2]), 'the wheel zooms in');
  await page.getByTestId('zoom-fit').click();
  assert.equal(await page.getByTestId('topology').getAttribute('data-viewbox'), fitted);
  await page.getByTestId('zoom-out').click();
  assert.ok(Number((await page.getByTestId('topology').getAttribute('data-viewbox')).split(' ')[2]) > Number(fitted.split(' ')[2]));
  assert.deepEqual(page.errors, []);
});

test('the congestion tree is highlighted and the plots can be chosen', async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('infocom03-fig2');
  await page.getByLabel('Speed').selectOption({ label: '10 ms/s' });
  await page.getByRole('button', { name: 'Run' }).click();
  // Without congestion control (Fig. 2), B->BC is the root and the tree spreads back over A->B.
  await page.getByTestId('root-B->BC').waitFor({ state: 'attached' });
  await page.getByTestId('blocked-A->B').waitFor({ state: 'attached' });
  await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) > 45);
  await page.getByRole('button', { name: 'Pause' }).click();
  // The victim flow (from 40 ms) crosses the blocked A->B but not the root; hovering shows its figures.
  assert.match(await page.locator('svg.topology [data-testid=flow-victim]').getAttribute('class'), /victim/);
  await page.mouse.move(...(await flowMiddle(page, 'victim')));
  await page.getByTestId('card').waitFor();
  assert.match(await page.getByTestId('card').innerText(), /rate limit[\s\S]*throughput[\s\S]*Victim/);
  const [bx, by] = await nodeAt(page, 'B');
  const [cx, cy] = await nodeAt(page, 'BC');
  await page.mouse.move((bx + cx) / 2, (by + cy) / 2);
  await page.waitForFunction(() => /Link B — BC/.test(document.querySelector('[data-testid=card]')?.innerText ?? ''));
  assert.match(await page.getByTestId('card').innerText(), /B->BC: .*utilization.*marks.*waiting for credit.*Root/);
  await screenshot(page, 'editor-congestion-tree');

  // Each plot kind shows its own plot (named in its accessible name): some curves, and none of marks (Fig. 2 marks
  // nothing).
  for (const [kind, label, curves] of [['limits', 'Flow rate limits', '>0'], ['buffers', 'Buffer occupancy', '>0'], ['marks', 'Marks per second', '0']]) {
    await page.getByTestId('plot-kind').selectOption(kind);
    await page.waitForFunction(([l, c]) => {
      const p = document.querySelector('[data-testid=rate-plot]');
      const n = Number(p.getAttribute('data-curves'));
      return p.getAttribute('aria-label').endsWith(l) && (c === '0' ? n === 0 : n > 0);
    }, [label, curves]);
  }
  await page.getByTestId('plot-kind').selectOption('buffers');
  await screenshot(page, 'editor-buffer-plot');
  assert.deepEqual(page.errors, []);
});

test('A/B comparison: B with marking and LIPD against A without, overlaid and side by side', async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('infocom03-fig2');
  await page.getByTestId('tab-compare').click();
  await page.getByTestId('compare-setup').click();
  assert.match(await page.getByTestId('compare-diff').innerText(), /same as A/);
  // B's settings show only what differs, unless asked.
  assert.equal(await page.getByTestId('input-b-marking-policy').count(), 0);
  await page.getByTestId('compare-b-settings').click();
  await page.getByTestId('input-b-marking-policy').selectOption('input_triggered');
  await page.getByTestId('input-b-response').selectOption('lipd');
  // What changed, mechanism by mechanism in words; every setting behind a fold.
  const mechanisms = await page.getByTestId('compare-mechanisms').innerText();
  assert.match(mechanisms, /Marking: none → input-triggered: a full buffer marks what waits for its outputs/);
  assert.match(mechanisms, /Source response: none → LIPD/);
  assert.match(await page.getByTestId('compare-settings-diff').locator('summary').innerText(), /Every setting that differs \(2\)/);
  await page.getByTestId('compare-settings-diff').locator('summary').click();
  assert.match(await page.getByTestId('compare-settings-diff').innerText(), /Marking policy: none → input_triggered/);
  // (No progress bar before a start: an empty one read as a control that does nothing.)
  assert.equal(await page.getByTestId('compare-progress').isVisible(), false);
  await page.getByTestId('compare-run').click();
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=compare-progress]').value) >= 1, null, { timeout: 60_000 });
  const table = await page.getByTestId('compare-results').innerText();
  assert.match(table, /victim flows throughput/);
  const aggregate = Number(table.match(/aggregate throughput\s+([\d.]+)%/)[1]);
  assert.ok(aggregate > 100, `several hosts send: ${aggregate}%`);
  assert.match(await page.getByTestId('compare-aggregate-note').innerText(), /passes 100% when flows send from different hosts/, 'a total above 100% is explained where it is shown');
  assert.match(table, /remote flows marks\s+0\s+[1-9]\d*\s+\+[1-9]/, 'B marks the remote flows; the difference column says so');
  assert.match(table, /dropped packets \(whole run\)\s+0\s+0\s+0\b/, 'no difference has no sign');
  assert.doesNotMatch(table, /-0\.0+\b(?!\d)/, 'no "-0.000"');
  const marked = table.match(/packets marked\s+(\d+)\s+(\d+)/);
  assert.equal(marked[1], '0', 'A marks nothing');
  assert.ok(Number(marked[2]) > 0, 'B marks');
  assert.ok(Number(await page.getByTestId('cmp-rate-plot').getAttribute('data-curves')) >= 4, 'A and B curves overlaid');
  assert.equal(await page.getByTestId('compare-same').count(), 0, 'B differs from A');
  await page.getByTestId('compare').screenshot({ path: join(OUTPUT, 'editor-compare.png') });
  // Marking alone, with no source to respond: B's curves lie on A's, and the page says why.
  await page.getByTestId('input-b-response').selectOption('none');
  await page.getByTestId('compare-run').click();
  await page.getByTestId('compare-same').waitFor({ timeout: 60_000 });
  assert.match(await page.getByTestId('compare-same').innerText(), /^B moved every packet exactly as A did\. Its switches mark differently, but nothing responds to a mark here/);
  assert.deepEqual(page.errors, []);
});

test('settings speak in words and in the units they show: limits, keys, paper terms, a flow\'s start', async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('infocom03-fig2');
  await openTab(page, 'settings');
  // A build limit is stated for the number as typed, in the field's unit (not the clamped u32, not nanoseconds).
  await page.locator('details', { has: page.getByTestId('input-duration') }).locator('summary').click();
  await page.getByTestId('input-buffer').fill('99999999999');
  // (The field says the run keeps the value it had: a run started now uses it.)
  assert.equal(await page.getByTestId('error-buffer').innerText(), "99999999999 packets is over this build's limit of 1024 packets. Not applied: still 4 packets");
  await page.getByTestId('input-buffer').fill('-3');
  assert.equal(await page.getByTestId('error-buffer').innerText(), 'must not be negative. Not applied: still 4 packets');
  await page.getByTestId('input-buffer').fill('4');
  await page.getByTestId('input-duration').fill('1e9');
  assert.equal(await page.getByTestId('error-duration').innerText(), "1e9 ms is over this build's limit of 100000 ms. Not applied: still 100 ms");
  // A run shorter than where measuring starts: the setting in the way is named (not "the end of the run", which
  // is what was typed).
  await page.getByTestId('input-duration').fill('6');
  assert.equal(await page.getByTestId('error-duration').innerText(), "'Measure from' must be before the end of the run: change it first. Not applied: still 100 ms");
  await page.getByTestId('input-duration').fill('100');
  // The scenario file's keys are there for whoever asks; the labels say the paper's terms in words.
  const key = page.locator('[data-testid=params] code.path', { hasText: 'switch.buffer_packets' });
  assert.equal(await key.isVisible(), false);
  await page.getByTestId('show-keys').check();
  assert.equal(await key.isVisible(), true);
  assert.ok(await page.getByLabel('A packet counts as waiting for its output (cnt1) until').isVisible());
  assert.deepEqual(await page.getByTestId('input-full-check').locator('option').allInnerTexts(), ['when a packet is received whole', "when a packet's head arrives"]);
  // A flow's start and stop in ms, as the timeline: the victim starts at 40 ms.
  await page.mouse.click(...(await flowMiddle(page, 'victim')));
  await openTab(page, 'selection');
  assert.equal(await page.getByTestId('input-sel-start').inputValue(), '40');
  assert.equal(await page.getByTestId('input-sel-stop').inputValue(), '60');
  // A refused value is said in the card's words, and what the flow keeps.
  await page.getByTestId('input-sel-stop').fill('10');
  await page.getByTestId('input-sel-stop').press('Enter');
  assert.equal(await page.getByTestId('error-sel-stop').innerText(), "Stop must be after the flow's start, or none (it never stops). Not applied: still 60 ms");
  // A negative time, or one past the build's limit, is refused in the field's own unit (found in a walk: "-1" read
  // as "Start 18446744073709551615 is over this build's limit of 100000000000").
  for (const [typed, said] of [['-1', 'must not be negative'], ['1e20', "Start 1e20 ms is over this build's limit of 100000 ms"]]) {
    await page.getByTestId('input-sel-start').fill(typed);
    await page.getByTestId('input-sel-start').press('Enter');
    assert.equal(await page.getByTestId('error-sel-start').innerText(), `${said}. Not applied: still 40 ms`);
  }
  await page.getByTestId('input-sel-start').fill('40');
  await page.getByTestId('input-sel-start').press('Enter');
  // A start past the run's end is allowed (the run may be made longer), and said: it sends nothing in this run.
  assert.equal(await page.getByTestId('flow-after-end').count(), 0);
  for (const [field, value] of [['input-sel-stop', ''], ['input-sel-start', '120']]) {
    await page.getByTestId(field).fill(value);
    await page.getByTestId(field).press('Enter');
  }
  assert.match(await page.getByTestId('flow-after-end').innerText(), /^It starts at 120 ms, at or after the run's end at 100 ms: it sends nothing/);
  assert.deepEqual(page.errors, []);
});

test('a victim that runs for part of the measured interval: Results say what it had while it ran', async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('infocom03-fig2');
  await page.mouse.click(...(await flowMiddle(page, 'victim')));
  await openTab(page, 'selection');
  for (const [field, value] of [['input-sel-start', '45'], ['input-sel-stop', '52']]) {
    await page.getByTestId(field).fill(value);
    await page.getByTestId(field).press('Enter');
  }
  await page.getByLabel('Speed').selectOption({ label: 'as fast as possible' });
  await page.getByRole('button', { name: 'Run' }).click();
  await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) >= 60, null, { timeout: 60_000 });
  await openTab(page, 'results');
  // Its throughput is over 40-60 ms, seven of whose twenty it ran: the rate while it ran is 20/7 of it.
  const said = await page.getByTestId('ran-within-group-victim').innerText();
  const m = said.match(/^victim ran from 45\.0 to 52\.0 ms of the measured 40\.0 to (\d+\.\d) ms: its (\d+\.\d)% is over the whole interval, (\d+\.\d)% while it ran\.$/);
  assert.ok(m, said);
  const [to, whole, ran] = m.slice(1).map(Number);
  assert.ok(Math.abs(ran - whole * (to - 40) / 7) < 0.15, said);
  assert.equal(await page.getByTestId('ran-within-group-local').count(), 0, 'the local flows ran throughout');
  await screenshot(page, 'ran-within');
  assert.deepEqual(page.errors, []);
});

test('building by hand: a drop lands under the pointer and nothing moves on its own; a drag takes the hover card away', async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('empty');
  await page.getByText('Drag a switch or a host here').waitFor();
  const view = await page.getByTestId('topology').getAttribute('data-viewbox');
  const b = await page.getByTestId('palette-switch').boundingBox();
  // Page points chosen once, before any drop: each node must land exactly there.
  const p1 = await toPage(page, 150, 260);
  const p2 = await toPage(page, 700, 420);
  await drag(page, [b.x + b.width / 2, b.y + b.height / 2], p1);
  await page.getByTestId('node-S1').waitFor();
  await drag(page, [b.x + b.width / 2, b.y + b.height / 2], p2);
  await page.getByTestId('node-S2').waitFor();
  for (const [id, p] of [['S1', p1], ['S2', p2]]) {
    const at = await nodeAt(page, id);
    assert.ok(Math.hypot(at[0] - p[0], at[1] - p[1]) < 2, `${id} at ${at}, dropped at ${p}`);
  }
  assert.equal(await page.getByTestId('topology').getAttribute('data-viewbox'), view, 'the view did not re-fit');
  // Fit is asked for, not imposed.
  await page.getByTestId('zoom-fit').click();
  assert.notEqual(await page.getByTestId('topology').getAttribute('data-viewbox'), view);

  // Hovering a node shows its card; dragging the node away takes it down.
  const [x, y] = await nodeAt(page, 'S1');
  await page.mouse.move(x, y);
  await page.getByTestId('card').waitFor();
  await page.mouse.down();
  await page.mouse.move(x + 40, y + 30, { steps: 4 });
  await page.mouse.up();
  assert.equal(await page.getByTestId('card').count(), 0);
  assert.deepEqual(page.errors, []);
});

test('the flows table names each flow\'s hosts and group, and a row selects the flow; a group keeps its colour', async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('infocom03-fig2');
  await page.getByRole('button', { name: 'Run' }).click();
  await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) > 1);
  await page.getByRole('button', { name: 'Pause' }).click();
  await openTab(page, 'results');
  await page.getByTestId('results-table').getByText(/^Flows \(7\)$/).click();
  const cells = await page.getByTestId('flow-row-victim').locator('td').allInnerTexts();
  assert.deepEqual(cells.slice(0, 2), ['AV→BV', 'victim']);
  await page.getByTestId('flow-row-victim').click();
  await page.getByTestId('panel-selection').waitFor();
  assert.match(await page.getByTestId('selection-title').innerText(), /victim/);
  assert.match(await page.locator('svg.topology [data-testid=flow-victim]').first().getAttribute('class'), /selected/);

  // Regroup the last flow as "b", then the first as "a" (listed before it now): "b" keeps its colour.
  const regroup = async (flow, group) => {
    await openTab(page, 'results');
    await page.getByTestId(`flow-select-${flow}`).click();
    await page.getByTestId('panel-selection').waitFor();
    await page.getByTestId('input-sel-group').fill(group);
    await page.getByTestId('input-sel-group').press('Enter');
    await page.getByTestId(`legend-group-${group}`).waitFor();
  };
  await regroup('victim', 'b');
  const colourOfB = await page.getByTestId('legend-group-b').innerText();
  await regroup('local1', 'a');
  assert.equal(await page.getByTestId('legend-group-b').innerText(), colourOfB);
  assert.notEqual(await page.getByTestId('legend-group-a').innerText().then((t) => t.split(':')[0]), colourOfB.split(':')[0]);
  assert.deepEqual(page.errors, []);
});

test('A/B/C: three variants of one scenario run side by side, each said in words against A', async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('infocom03-fig2');
  // A stays Fig. 2 (no control); B gets Annex A10; C gets PFT.
  await page.getByTestId('tab-compare').click();
  await page.getByTestId('compare-setup').click();
  await page.getByTestId('compare-add-c').click();
  const choose = async (id, value) => {
    await page.locator('details', { has: page.getByTestId(id) }).locator('summary').click();
    await page.getByTestId(id).selectOption(value);
  };
  await page.getByTestId('compare-b-settings').click();
  await choose('input-b-ib-cc', 'on');
  await page.getByTestId('compare-c-settings').click();
  assert.equal(await page.getByTestId('input-b-ib-cc').count(), 0, "one variant's settings at a time");
  await choose('input-c-pft', 'ft_fi');
  assert.match(await page.getByTestId('compare-mechanisms').innerText(), /Annex A10: off → on/);
  assert.match(await page.getByTestId('compare-c-mechanisms').innerText(), /PFT: off → on/);
  await page.getByTestId('compare-run').click();
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=compare-progress]').value) >= 1, null, { timeout: 90_000 });
  const table = page.getByTestId('compare-results');
  assert.deepEqual(await table.locator('thead th').allInnerTexts(), ['', 'A', 'B', 'C', 'B − A', 'C − A']);
  const victim = await table.locator('tr', { hasText: 'victim flows throughput' }).locator('td').allInnerTexts();
  assert.equal(victim.length, 5);
  const [a, b] = victim.slice(0, 2).map((t) => parseFloat(t));
  assert.ok(b > a + 20, `Annex A10 frees the victim: ${victim}`);
  assert.ok(Number(await page.getByTestId('cmp-rate-plot').getAttribute('data-curves')) >= 6, 'three runs overlaid');
  // Back to two: C goes.
  await page.getByTestId('compare-remove-c').click();
  assert.equal(await page.getByTestId('compare-c-diff').count(), 0);
  await screenshot(page, 'editor-compare-abc');
  assert.deepEqual(page.errors, []);
});

test('Annex A10 turned on for 100 Gb/s links takes times scaled to them, its numbers can be changed, and unscaled ones are offered scaling', async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('fabric32-hotspot');
  await openTab(page, 'settings');
  await page.locator('details', { has: page.getByTestId('input-ib-cc') }).locator('summary').click();
  assert.equal(await page.getByTestId('input-a10-ird-unit').count(), 0, 'no A10 numbers while it is off');
  await page.getByTestId('input-ib-cc').selectOption('on');
  assert.match(await page.getByTestId('a10-scaled').innerText(), /^Times scaled to the 100 Gb\/s host links/);
  assert.equal(await page.getByTestId('input-a10-ird-unit').inputValue(), '5120');
  assert.equal(await page.getByTestId('input-a10-ccti-timer').inputValue(), '4');
  // The papers' 8 Gb/s unit typed back in: the page says what suits these links and puts it back on a click.
  await page.getByTestId('input-a10-ird-unit').fill('64000');
  await page.getByTestId('input-a10-ird-unit').press('Enter');
  assert.match(await page.getByTestId('a10-unscaled').innerText(), /64 bytes take 5120 ps[\s\S]*this scenario has 64000 ps and 4/);
  await page.getByTestId('a10-scale').click();
  assert.equal(await page.getByTestId('input-a10-ird-unit').inputValue(), '5120');
  await page.getByTestId('a10-scaled').waitFor();
  // A number the standard refuses is refused by name.
  await page.getByTestId('input-a10-threshold').fill('16');
  assert.match(await page.getByTestId('error-a10-threshold').innerText(), /from 0 to 15\. Not applied: still 15/);
  // Its table by its shape: linear, 128 entries up to 1024 units; made again quadratic, with 32 entries.
  assert.equal(await page.getByTestId('input-a10-cct-shape').inputValue(), 'linear');
  assert.equal(await page.getByTestId('input-a10-cct-entries').inputValue(), '128');
  assert.equal(await page.getByTestId('input-a10-cct-max').inputValue(), '1024');
  await page.getByTestId('input-a10-cct-shape').selectOption('quadratic');
  await setField(page, 'input-a10-cct-entries', '32');
  await page.waitForFunction(() => {
    const cct = JSON.parse(localStorage.getItem('ibcc.playground.scenario') ?? '{}').ib_cc?.cct ?? [];
    return cct.length === 32 && cct[16].multiplier === 273 && cct[31].multiplier === 1024;
  });
  await setField(page, 'input-a10-cct-entries', '2000');
  assert.match(await page.getByTestId('error-a10-cct-entries').innerText(), /from 1 to 1024\. Not applied: still 32/);
  assert.deepEqual(page.errors, []);
});

test('a scenario is named and described in Settings: its words under the controls, kept with it', async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('infocom03-fig2');
  await openTab(page, 'settings');
  await page.getByTestId('naming').locator('summary').click();
  await page.getByTestId('input-scenario-name').fill('Lab 2: spreading');
  await page.getByTestId('input-scenario-name').press('Enter');
  await page.getByTestId('input-scenario-description').fill('Watch the victim AV->BV: it shares nothing with the hot spot but a buffer.');
  await page.getByTestId('input-scenario-description').blur();
  await page.getByTestId('scenario-line').filter({ hasText: /^Watch the victim AV->BV/ }).waitFor();
  // Kept as the scenario's own (what its file and share link carry).
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('ibcc.playground.scenario') ?? '{}').name === 'Lab 2: spreading');
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('ibcc.playground.scenario')));
  assert.match(saved.description, /^Watch the victim/);
  assert.deepEqual(page.errors, []);
});

test('a preset\'s words, once it is edited, say they describe it as loaded', async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('infocom03-fig2');
  assert.match(await page.getByTestId('scenario-line').innerText(), /^Congestion spreading without congestion control/);
  await openTab(page, 'settings');
  await setField(page, 'input-buffer', '11');
  await page.waitForFunction(() => /^As loaded, before the changes since: Congestion spreading/.test(document.querySelector('[data-testid=scenario-line]').innerText));
  assert.deepEqual(page.errors, []);
});
