// The playground as a teaching instrument: one screen at 1280x720, touch gestures on a tablet, no overflow on a
// phone, the keyboard, one colour per group everywhere, a timeline that goes back exactly, and a default speed that
// reaches the interesting moment in seconds. Screenshots at each size are kept as test output.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { serveDist, closePages, newContext, launchBrowser, screenshot, openTab, simMs, waitSim, pause, nodeAt, flowMiddle, touchDrag, touchTap, touchPinch, hasColour } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
afterEach(() => closePages());
after(async () => { await browser?.close(); await server?.close(); });

/** A page in a fresh context with these options, collecting errors. */
async function open(options, url = server.url) {
  const context = await newContext(browser, options);
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (m) => { if (m.type() === 'error') page.errors.push(m.text()); });
  page.on('pageerror', (e) => page.errors.push(String(e)));
  await page.goto(url);
  await page.getByTestId('run').waitFor();
  return page;
}

const inside = (box, vp) => box && box.x >= 0 && box.y >= 0 && box.x + box.width <= vp.width + 0.5 && box.y + box.height <= vp.height + 0.5;
const viewWidth = async (page) => Number((await page.getByTestId('topology').getAttribute('data-viewbox')).split(' ')[2]);
/** The victim's colour as the palette draws it in the light theme (web/src/palette.rs, PURPLE). */
const VICTIM = [0x8e, 0x24, 0xaa];

test('at 1280x720 the transport, the network, the plot and the side panel share one screen', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const vp = { width: 1280, height: 720 };
    const page = await open({ viewport: vp, colorScheme });
    await page.getByTestId('scenario-picker').selectOption('infocom03-fig2');
    await page.getByTestId('run').click();
    await waitSim(page, 2);
    for (const id of ['run', 'step', 'reset', 'speed', 'timeline', 'topology', 'rate-plot', 'panel-lesson', 'legend']) {
      assert.ok(inside(await page.getByTestId(id).boundingBox(), vp), `${id} fully visible (${colorScheme})`);
    }
    assert.equal(await page.evaluate(() => document.documentElement.scrollHeight), 720, 'no scrolling');
    // The description is one line, with more on request.
    const line = await page.getByTestId('scenario-line').boundingBox();
    assert.ok(line.height < 30, `one line: ${line.height}`);
    await screenshot(page, `instrument-1280x720-${colorScheme}`);
    assert.deepEqual(page.errors, []);
  }
});

test('at 1024x768 with touch: a pinch zooms, one finger drags a node, a tap shows a link card', async () => {
  const page = await open({ viewport: { width: 1024, height: 768 }, hasTouch: true });
  const cdp = await page.context().newCDPSession(page);
  await page.getByTestId('scenario-picker').selectOption('infocom03-fig2');
  // The panel folds away, and comes back.
  await page.getByTestId('side-fold').click();
  assert.ok((await page.getByTestId('topology').boundingBox()).width > 700, 'the drawing takes the room');
  await page.getByTestId('side-fold').click();

  const before = await viewWidth(page);
  const r = await page.getByTestId('topology').boundingBox();
  const [cx, cy] = [r.x + r.width / 2, r.y + r.height / 2];
  await touchPinch(cdp, [cx - 30, cy], [cx - 130, cy], [cx + 30, cy], [cx + 130, cy]);
  await page.waitForFunction((w) => Number(document.querySelector('[data-testid=topology]').getAttribute('data-viewbox').split(' ')[2]) < w, before);
  assert.ok(await viewWidth(page) < before * 0.6, 'fingers apart: closer');
  assert.equal(await page.evaluate(() => window.visualViewport.scale), 1, 'the page itself did not zoom');
  await page.getByTestId('zoom-fit').click();

  const x0 = Number(await page.getByTestId('node-A').getAttribute('data-x'));
  const [ax, ay] = await nodeAt(page, 'A');
  await touchDrag(cdp, [ax, ay], [ax + 60, ay + 30]);
  await page.waitForFunction((x) => Number(document.querySelector('[data-testid=node-A]').getAttribute('data-x')) > x + 20, x0);

  // A tap on a link: its card, which stays until closed.
  const [bx, by] = await nodeAt(page, 'B');
  const [vx, vy] = await nodeAt(page, 'BV');
  await touchTap(cdp, [(bx + vx) / 2, (by + vy) / 2]);
  await page.getByTestId('card').waitFor();
  assert.match(await page.getByTestId('card').innerText(), /Link B — BV[\s\S]*Gb\/s/);
  await screenshot(page, 'instrument-1024x768-touch');
  await page.getByTestId('card-close').click();
  await page.getByTestId('card').waitFor({ state: 'detached' });
  assert.deepEqual(page.errors, []);
});

// A teacher building a network on a tablet, as a walk did: the Link tool shows it is chosen at once; a tap on one
// node then on another links them (a tap alone used to say "S1 cannot be linked to itself"); the palette pressed
// twice puts the second switch beside the first, not on top of it; a refusal on the drawing is readable.
test('at 1024x768 with touch: tap a node then another to link them; two palette presses, two switches in sight', async () => {
  const page = await open({ viewport: { width: 1024, height: 768 }, hasTouch: true });
  const cdp = await page.context().newCDPSession(page);
  await page.getByTestId('scenario-picker').selectOption('empty');
  for (const id of ['S1', 'S2']) {
    await page.getByTestId('palette-switch').click();
    await page.getByTestId(`node-${id}`).waitFor();
  }
  const [a, b] = [await nodeAt(page, 'S1'), await nodeAt(page, 'S2')];
  assert.ok(Math.hypot(a[0] - b[0], a[1] - b[1]) > 30, `apart: ${a} and ${b}`);
  await page.getByTestId('tool-link').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=tool-link]').getAttribute('aria-pressed') === 'true', null, { timeout: 2000 });
  await touchTap(cdp, a);
  await page.waitForTimeout(300);
  assert.equal(await page.getByTestId('canvas-callout').count(), 0, 'a first tap is not a refusal');
  await touchTap(cdp, b);
  await page.getByTestId('link-S1->S2').waitFor({ state: 'attached' });
  // A refusal where it was tried, at the size of the page's text: a host has one link.
  await page.getByTestId('palette-host').click();
  await page.getByTestId('node-h1').waitFor();
  for (const [from, to] of [['h1', 'S1'], ['h1', 'S2']]) {
    await touchTap(cdp, await nodeAt(page, from));
    await page.waitForTimeout(200);
    await touchTap(cdp, await nodeAt(page, to));
    await page.waitForTimeout(300);
  }
  const text = page.getByTestId('canvas-callout').locator('text');
  assert.match(await text.textContent(), /already has its link/);
  const box = await text.boundingBox();
  assert.ok(box.height >= 10, `readable: ${box.height} px high`);
  const drawing = await page.getByTestId('topology').boundingBox();
  const callout = await page.getByTestId('canvas-callout').boundingBox();
  assert.ok(callout.x >= drawing.x && callout.x + callout.width <= drawing.x + drawing.width + 1, 'inside the drawing');
  assert.deepEqual(page.errors, []);
});

// On a phone a tap on a node pins its card over the network; the card's "Edit…" opens the node's editor, in the
// view the tabs call "Selected" (it was "Select", beside the Select tool).
test('on a phone a node\'s card leads to its editor', async () => {
  const page = await open({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const cdp = await page.context().newCDPSession(page);
  await page.getByTestId('start-explore').click();
  await page.getByTestId('phone-network').click();
  await page.getByTestId('node-B').waitFor();
  assert.equal(await page.getByTestId('phone-selection').innerText(), 'Selected');
  await touchTap(cdp, await nodeAt(page, 'B'));
  await page.getByTestId('card-edit').click();
  await page.getByTestId('panel-selection').waitFor();
  assert.equal(await page.getByTestId('phone-selection').getAttribute('aria-pressed'), 'true');
  assert.equal(await page.getByTestId('input-sel-id').inputValue(), 'B');
  assert.deepEqual(page.errors, []);
});

test('at 390x844 nothing overflows sideways, one view at a time, plot text at full size', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const page = await open({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, colorScheme });
    // A first visit opens on the start card (lessons.test.mjs); exploring shows the network.
    await page.getByTestId('start-explore').click();
    await page.getByTestId('run').click();
    await waitSim(page, 5);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390, 'no horizontal overflow');
    assert.ok(await page.getByTestId('topology').isVisible());
    assert.ok(!(await page.getByTestId('rate-plot').isVisible()), 'one view at a time');
    await screenshot(page, `instrument-390x844-network-${colorScheme}`);
    if (colorScheme === 'light') {
      // One finger on empty space of the drawing scrolls the page (two fingers or a node are the drawing's).
      const cdp = await page.context().newCDPSession(page);
      const r = await page.getByTestId('topology').boundingBox();
      const view = await page.getByTestId('topology').getAttribute('data-viewbox');
      await touchDrag(cdp, [r.x + 12, r.y + r.height - 12], [r.x + 12, r.y + 60]);
      await page.waitForFunction(() => window.scrollY > 50);
      assert.equal(await page.getByTestId('topology').getAttribute('data-viewbox'), view, 'the drawing did not pan');
      await page.evaluate(() => window.scrollTo(0, 0));
    }
    await page.getByTestId('phone-plot').click();
    assert.ok(await page.getByTestId('rate-plot').isVisible());
    // The plot is drawn at the screen's pixel density for its shown size: its 11 px text is not scaled down. (The
    // canvas is sized by the frame after it is shown: wait for that frame.)
    await page.waitForFunction(() => {
      const c = document.querySelector('[data-testid=rate-plot]');
      return c.width === Math.round(c.clientWidth * devicePixelRatio);
    }, null, { timeout: 5_000 });
    const [px, css, dpr] = await page.getByTestId('rate-plot').evaluate((c) => [c.width, c.clientWidth, devicePixelRatio]);
    assert.equal(px, Math.round(css * dpr));
    await page.getByTestId('phone-settings').click();
    assert.ok(await page.getByLabel('Marking policy', { exact: true }).isVisible());
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390);
    await screenshot(page, `instrument-390x844-settings-${colorScheme}`);
    // The results' wide tables scroll in their own boxes, not the page.
    await page.getByTestId('phone-results').click();
    await page.getByTestId('flows-table').waitFor({ state: 'attached' });
    await page.locator('[data-testid=results-table] details summary').click();
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390, 'results: no horizontal overflow');
    assert.deepEqual(page.errors, []);
  }
});

test('the keyboard: arrows scroll the page until the network has focus, then move the selected node', async () => {
  const page = await open({ viewport: { width: 390, height: 700 } });
  await page.getByTestId('start-explore').click();
  await page.getByTestId('scenario-picker').selectOption('infocom03-fig2');
  await page.evaluate(() => document.activeElement?.blur());
  const y0 = await page.evaluate(() => window.scrollY);
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction((y) => window.scrollY > y, y0);
  await page.evaluate(() => window.scrollTo(0, 0));

  // Tab reaches the drawing; arrows move the focus between nodes and links; Enter selects; arrows move it.
  await page.getByTestId('topology').focus();
  await page.keyboard.press('ArrowRight');
  await page.getByTestId('focus-ring').waitFor({ state: 'attached' });
  const [ax, ay] = await nodeAt(page, 'A');
  await page.mouse.click(ax, ay);
  const y = Number(await page.getByTestId('node-A').getAttribute('data-y'));
  const scrolled = await page.evaluate(() => window.scrollY);
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction((y) => Number(document.querySelector('[data-testid=node-A]').getAttribute('data-y')) === y + 10, y);
  // The page stays put: an arrow scrolls it by 40 px; the edit restarting the run may nudge the layout a little
  // (scroll anchoring follows it by a few pixels).
  const moved = Math.abs((await page.evaluate(() => window.scrollY)) - scrolled);
  assert.ok(moved < 20, `the page scrolled by ${moved} px`);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Delete');
  await page.waitForFunction(() => !document.querySelector('[data-testid="node-A"]'));
  assert.deepEqual(page.errors, []);
});

test('the victim is purple in the drawing, the legend, the plot and its PNG, before and during a run', async () => {
  const page = await open({ viewport: { width: 1280, height: 720 } });
  await page.getByTestId('scenario-picker').selectOption('infocom03-fig2');
  const purple = `rgb(${VICTIM.join(', ')})`;
  const drawn = () => page.getByTestId('flow-victim').first().evaluate((e) => getComputedStyle(e).stroke);
  const check = async (when) => {
    assert.equal(await drawn(), purple, `drawing, ${when}`);
    assert.match(await page.getByTestId('legend-group-victim').innerText(), /purple: victim flows/);
    // (The plot's groups come with the run's first frame, once the worker has loaded.)
    let plotted = false;
    for (let i = 0; i < 50 && !plotted; i++) {
      plotted = await hasColour(page, '[data-testid=rate-plot]', VICTIM);
      if (!plotted) await page.waitForTimeout(200);
    }
    assert.ok(plotted, `plot, ${when}`);
    const [png] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-png').click()]);
    const url = 'data:image/png;base64,' + (await readFile(await png.path())).toString('base64');
    assert.ok(await hasColour(page, url, VICTIM), `PNG, ${when}`);
  };
  await check('before the run');
  await page.getByTestId('run').click();
  await waitSim(page, 45);
  await check('during the run');
  assert.deepEqual(page.errors, []);
});

test('scrubbing back and forward gives the results of a direct run to that time', async () => {
  const results = (page) => page.getByTestId('results-table').innerText();
  const direct = await open({ viewport: { width: 1280, height: 720 } });
  await direct.getByTestId('scenario-picker').selectOption('infocom03-fig2');
  await direct.getByTestId('to-measured-end').click();
  await direct.waitForFunction(() => document.querySelector('[data-testid=sim-time]').innerText === '60.000 ms', null, { timeout: 60_000 });
  await openTab(direct, 'results');
  const want = await results(direct);
  assert.match(want, /victim/);

  const page = await open({ viewport: { width: 1280, height: 720 } });
  await page.getByTestId('scenario-picker').selectOption('infocom03-fig2');
  await page.getByTestId('speed').selectOption({ label: 'as fast as possible' });
  await page.getByTestId('run').click();
  await waitSim(page, 100);
  // Drag the timeline back to about 20 ms: the drawing and tables show that time.
  const t = await page.getByTestId('timeline').locator('.track').boundingBox();
  await page.mouse.move(t.x + t.width * 0.9, t.y + t.height / 2);
  await page.mouse.down();
  await page.mouse.move(t.x + t.width * 0.5, t.y + t.height / 2, { steps: 5 });
  await page.mouse.move(t.x + t.width * 0.2, t.y + t.height / 2, { steps: 5 });
  await page.mouse.up();
  // (The clock shows the time asked for with "…" until the run is there.)
  await page.waitForFunction(() => {
    const shown = document.querySelector('[data-testid=sim-time]').innerText;
    return !shown.endsWith('…') && Math.abs(parseFloat(shown) - 20) < 0.5;
  });
  await openTab(page, 'results');
  assert.notEqual(await results(page), want);
  await page.getByTestId('to-measured-end').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=sim-time]').innerText === '60.000 ms');
  await page.waitForFunction((w) => document.querySelector('[data-testid=results-table]').innerText === w, want);
  // The moments on the timeline: the victim's start.
  await page.getByTestId('moment-victim-starts').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=sim-time]').innerText === '40.000 ms');
  await screenshot(page, 'instrument-scrubbed');
  // Dragged to the track's end (let go a pixel or two short, as a hand does): the run's end, not a hair before it.
  await page.mouse.move(t.x + t.width * 0.5, t.y + t.height / 2);
  await page.mouse.down();
  await page.mouse.move(t.x + t.width - 2, t.y + t.height / 2, { steps: 5 });
  await page.mouse.up();
  await page.waitForFunction(() => document.querySelector('[data-testid=sim-time]').innerText === '100.000 ms', null, { timeout: 30_000 });
  // The buttons are named by their words (WCAG 2.5.3: the visible label is the name; symbols are decoration).
  assert.equal(await page.getByRole('button', { name: 'Measured end', exact: true }).count(), 1);
  assert.equal(await page.getByRole('button', { name: 'Reset', exact: true }).count(), 1);
  assert.equal(await page.getByRole('button', { name: /^(Run|Pause)$/ }).count(), 1);
  assert.deepEqual([...direct.errors, ...page.errors], []);
});

test('INFOCOM\'03 Fig. 2 at its own speed reaches the victim (40 ms) within 10 s; Step moves a visible amount', async () => {
  const page = await open({ viewport: { width: 1280, height: 720 } });
  await page.getByTestId('scenario-picker').selectOption('infocom03-fig2');
  assert.equal(await page.getByLabel('Speed').inputValue(), '3', '10 ms/s');
  assert.match(await page.getByLabel('Speed').locator('option:checked').innerText(), /10 ms\/s/);
  const t0 = Date.now();
  await page.getByTestId('run').click();
  await waitSim(page, 40, 10_000);
  assert.ok(Date.now() - t0 < 10_000);
  await page.getByTestId('run').click();
  // Paused once the worker says so (a frame or two may still have been under way).
  await page.waitForFunction(() => /Run/.test(document.querySelector('[data-testid=run]').innerText));
  const paused = await simMs(page);
  await page.getByTestId('step-size').selectOption('1ms');
  assert.match(await page.getByTestId('step').getAttribute('title'), /1 ms/);
  await page.getByTestId('step').click();
  await page.waitForFunction((t) => Math.abs(parseFloat(document.querySelector('[data-testid=sim-time]').innerText) - (t + 1)) < 0.0015, paused);
  assert.deepEqual(page.errors, []);
});

test('the Results tab counts everything over one window, and the paper\'s numbers only beside the preset as published', async () => {
  const page = await open({ viewport: { width: 1280, height: 720 } });
  await page.getByTestId('scenario-picker').selectOption('infocom03-fig2');
  await openTab(page, 'results');
  await page.getByTestId('paper-vs-ours').waitFor();
  // Before the measured interval (40-60 ms) nothing is measured: no rows of 0.0% beside links drawn busy.
  const t = await page.getByTestId('timeline').locator('.track').boundingBox();
  await page.mouse.click(t.x + t.width * 0.2, t.y + t.height / 2);
  await page.waitForFunction(() => {
    const shown = document.querySelector('[data-testid=sim-time]').innerText;
    return !shown.endsWith('…') && Math.abs(parseFloat(shown) - 20) < 1;
  }, null, { timeout: 60_000 });
  await page.getByTestId('links-not-yet').waitFor();
  assert.match(await page.getByTestId('links-not-yet').innerText(), /measured from 40\.0 ms on/);
  assert.equal(await page.getByTestId('links-table').count(), 0);
  // Inside the interval the paper's numbers are ours so far, and say up to when; past it, the whole interval's.
  const seek = async (ms) => {
    await page.mouse.click(t.x + t.width * ms / 100, t.y + t.height / 2);
    await page.waitForFunction((ms) => {
      const shown = document.querySelector('[data-testid=sim-time]').innerText;
      return !shown.endsWith('…') && Math.abs(parseFloat(shown) - ms) < 1;
    }, ms, { timeout: 60_000 });
  };
  const ours = async () => {
    await page.getByTestId('paper-vs-ours').waitFor();
    const cells = await page.getByTestId('paper-ours').allInnerTexts();
    assert.equal(cells.length, 2, 'the victim\'s rate and the inter-switch link\'s');
    return cells;
  };
  await seek(50);
  for (const cell of await ours()) assert.match(cell, /^\d+\.\d% so far, to (49|50)\.\d ms$/);
  await seek(70);
  for (const cell of await ours()) assert.match(cell, /^\d+\.\d%$/);
  await seek(20);

  // Marking on: the run is no longer the paper's, so its numbers go, and say why.
  await openTab(page, 'settings');
  await page.getByTestId('input-marking-policy').selectOption('input_triggered');
  await openTab(page, 'results');
  await page.getByTestId('paper-edited').waitFor();
  assert.equal(await page.getByTestId('paper-vs-ours').count(), 0);

  const marks = async () => {
    const row = page.getByTestId('group-remote');
    return { shown: Number((await row.locator('td').nth(3).innerText()).trim()), whole: await row.locator('td').nth(3).getAttribute('title') };
  };
  await page.getByTestId('to-measured-end').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=sim-time]').innerText === '60.000 ms', null, { timeout: 60_000 });
  await page.getByTestId('links-table').waitFor();
  assert.match(await page.getByTestId('links-table').innerText(), /Busiest links, measured from 40\.0 to 60\.0 ms/);
  assert.match(await page.getByTestId('results-table').innerText(), /Groups, measured from 40\.0 to 60\.0 ms/);
  // The links that waited longest for credit, on request (a fabric's congestion tree is not among its busiest): the
  // hosts feeding the root, longest first.
  await page.getByTestId('links-order').selectOption('stall');
  assert.match(await page.getByTestId('links-table').innerText(), /Links waiting longest for credit, measured from 40\.0 to 60\.0 ms/);
  const stalls = (await page.getByTestId('links-table').locator('tbody tr td:last-child').allInnerTexts()).map((t) => parseFloat(t));
  assert.ok(stalls[0] > 10 && stalls.every((v, i) => i === 0 || v <= stalls[i - 1]), stalls.join(' '));
  await page.getByTestId('links-order').selectOption('busy');
  const at60 = await marks();
  assert.ok(at60.shown > 0, `the remote flows are marked in the interval: ${JSON.stringify(at60)}`);
  // On to the end: the interval is over, so what it counted stays; the whole run's count (in the title) grows.
  await page.getByLabel('Speed').selectOption({ label: 'as fast as possible' });
  await page.getByTestId('run').click();
  await waitSim(page, 100);
  const at100 = await marks();
  assert.equal(at100.shown, at60.shown, 'marks counted over the same window as the throughput beside them');
  assert.ok(parseInt(at100.whole, 10) > parseInt(at60.whole, 10), `${at60.whole} -> ${at100.whole}`);
  assert.match(await page.getByTestId('totals').innerText(), /^Since the start:/);
  assert.deepEqual(page.errors, []);
});

test('the keyboard during a lesson: moving through the drawing is announced, Enter shows the choice in the Selection tab', async () => {
  const page = await open({ viewport: { width: 1280, height: 720 } });
  await page.getByTestId('start-lesson').click();
  await page.getByTestId('panel-lesson').waitFor();
  await page.getByTestId('topology').focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => /^(Switch|Host|Link) /.test(document.querySelector('[data-testid=canvas-announce]').innerText));
  // A link (arrows go node, link, node...), then Enter: the Lesson tab gives way, as no hover card shows it.
  for (let k = 0; k < 5 && !/^Link /.test(await page.getByTestId('canvas-announce').innerText()); k++) {
    await page.keyboard.press('ArrowRight');
  }
  assert.match(await page.getByTestId('canvas-announce').innerText(), /^Link /);
  await page.keyboard.press('Enter');
  await page.getByTestId('panel-selection').waitFor();
  assert.match(await page.getByTestId('selection-title').innerText(), /^Link /);
  assert.match(await page.getByTestId('canvas-announce').innerText(), /selected: its settings are in the Selection tab/);
  assert.deepEqual(page.errors, []);
});

test('a skip link is the first tab stop and leads to the lesson; starting it leaves the focus on its first step', async () => {
  const page = await open({ viewport: { width: 1280, height: 720 } });
  // (A first visit's start card, which the link leads to, drawn first: on a loaded machine the link could be
  // followed before it was, and lead to the lesson picker instead, as it should then.)
  await page.getByTestId('start-lesson').waitFor();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'skip-to-lesson');
  assert.ok(await page.getByTestId('skip-to-lesson').isVisible(), 'shown while it has the focus');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.dataset.testid === 'start-lesson');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.dataset.testid === 'lesson-step');
  assert.match(await page.getByTestId('lesson-text').innerText(), /\w/);
  assert.deepEqual(page.errors, []);
});

test('a run\'s notice takes the scenario line (nothing moves), the side tables fit, and a plot says what ran over the run\'s own length', async () => {
  for (const vp of [{ width: 1280, height: 720 }, { width: 1024, height: 768 }]) {
    const page = await open({ viewport: vp });
    await page.getByTestId('scenario-picker').selectOption('fattree4-hotspot');
    // The plot's axis spans the run, before its first frame too (not a microsecond with ticks of 1e-4).
    assert.ok(Number(await page.getByTestId('rate-plot').getAttribute('data-x-max')) >= 1);
    await page.waitForFunction(() => Number(document.querySelector('[data-testid=rate-plot]').getAttribute('data-x-max')) === parseFloat(document.querySelector('.clock .end').innerText.replace('/', '')));
    const y0 = (await page.getByTestId('topology').boundingBox()).y;
    // A change that needs a new run: its notice comes and the drawing stays where it was.
    await openTab(page, 'settings');
    const section = page.locator('details', { has: page.getByTestId('input-arbitration') });
    if ((await section.getAttribute('open')) === null) await section.locator('summary').click();
    await page.getByTestId('run').click();
    await waitSim(page, 1);
    await pause(page);
    await page.getByTestId('input-arbitration').selectOption('round_robin');
    await page.getByTestId('restart').waitFor();
    assert.ok(Math.abs((await page.getByTestId('topology').boundingBox()).y - y0) <= 1, 'the notice did not push the drawing down');
    // The notice says the run is paused at 1 ms, and the drawing still shows it there (its buffers filling), not an
    // idle network.
    assert.match(await page.getByTestId('notice').innerText(), /paused at 1\.\d{3} ms/);
    assert.ok(await page.locator('svg.topology rect.level[data-fill]:not([data-fill="0.000"])').count() > 0, 'buffers drawn as they were');
    await page.getByTestId('restart').click();
    await page.getByTestId('speed').selectOption({ label: 'as fast as possible' });
    await page.getByTestId('run').click();
    await waitSim(page, 20);
    // The hot spot's 11 flows add up to more than their one link while the tree's buffers fill: the plot says why.
    assert.match(await page.getByTestId('plot-over-note').innerText(), /^A group's rate is what its hosts send/);
    // The plot's title says the run is an edited preset.
    assert.match(await page.getByTestId('rate-plot').getAttribute('aria-label'), /^Edited: /);
    await openTab(page, 'results');
    for (const id of ['groups-table', 'links-table']) {
      const fits = await page.getByTestId(id).evaluate((t) => t.parentElement.scrollWidth <= t.parentElement.clientWidth + 1);
      assert.ok(fits, `${id} fits the side panel at ${vp.width}x${vp.height}`);
    }
    assert.deepEqual(page.errors, []);
  }
});

// On a phone a label is wider than a host's circle: drawn over it, its halo hid half the circle and the flows
// curving past read as part of the name ("B1("). It goes beside the circle instead, clear of it.
test('on a phone every host label lies clear of its circle, or inside it', async () => {
  const page = await open({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  await page.getByTestId('start-explore').click();
  await page.getByTestId('phone-network').click();
  await page.getByTestId('node-B1').waitFor();
  const clash = await page.evaluate(() => {
    const out = [];
    const labels = [...document.querySelectorAll('svg.topology text.node-label')];
    for (const c of document.querySelectorAll('svg.topology g.node circle.host')) {
      const id = c.closest('g.node').dataset.testid.slice('node-'.length);
      const t = labels.find((l) => l.textContent === id);
      if (!t) continue;
      const [a, b] = [t.getBoundingClientRect(), c.getBoundingClientRect()];
      const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
      const within = a.left >= b.left && a.right <= b.right && a.top >= b.top && a.bottom <= b.bottom;
      out.push({ id, ok: apart || within });
    }
    return out;
  });
  assert.ok(clash.length >= 9, `host labels drawn: ${clash.length}`);
  assert.deepEqual(clash.filter((c) => !c.ok).map((c) => c.id), []);
  assert.deepEqual(page.errors, []);
});

// Three things a walk found wrong on screen, as a person sees them.
test('a drawing limited by its height keeps 11 px labels; the paper table shows whole; a new network has no old focus ring', async () => {
  const page = await open({ viewport: { width: 1280, height: 720 } });
  await page.getByTestId('start-explore').click();
  // The ring fills a wide, short panel: its height sets the scale, and the labels were drawn at 6 px.
  await page.getByTestId('scenario-picker').selectOption('ring6-deadlock');
  await page.getByTestId('node-sw-0').waitFor();
  const heights = await page.locator('svg.topology text.node-label').evaluateAll((ts) => ts.map((t) => t.getBoundingClientRect().height));
  assert.ok(heights.length > 0 && heights.every((h) => h >= 10), heights.join(' '));
  // Fig. 2's Results at its end: the paper's numbers beside the run's, every row in sight (a box that scrolls
  // sideways had shrunk to its caption in the side panel, under the tables below it).
  await page.getByTestId('scenario-picker').selectOption('infocom03-fig2');
  await page.getByLabel('Speed').selectOption({ label: 'as fast as possible' });
  await page.getByTestId('run').click();
  await waitSim(page, 100);
  await openTab(page, 'results');
  await page.getByTestId('links-table').waitFor();
  const [box, table] = await page.getByTestId('paper-vs-ours').evaluate((t) => [t.parentElement.clientHeight, t.scrollHeight]);
  assert.ok(box >= table, `the table's box ${box} px, the table ${table} px`);
  // The keyboard's focus on a link, then another network: no ring on whatever link now has that number.
  await page.getByTestId('topology').focus();
  await page.keyboard.press('ArrowRight');
  await page.getByTestId('focus-ring').waitFor({ state: 'attached' });
  await page.getByTestId('scenario-picker').selectOption('fattree4-hotspot');
  await page.getByTestId('node-c0').waitFor();
  assert.equal(await page.getByTestId('focus-ring').count(), 0);
  assert.deepEqual(page.errors, []);
});
