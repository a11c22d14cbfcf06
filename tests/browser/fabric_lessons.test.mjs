// The fabric lessons (15-17) as a student walks them: each step's scene on a fabric routed as OpenSM routes it,
// the settings the student is asked to change noticed, and the exercise answered against the page's own run.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { serveDist, closePages, launchBrowser, openPage, screenshot, openTab, setField, runPast, check, pattern } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
afterEach(() => closePages());
after(async () => { await browser?.close(); await server?.close(); });

const atMs = (page, ms) => page.waitForFunction((ms) => document.querySelector('[data-testid=sim-time]').innerText === `${ms.toFixed(3)} ms`, ms, { timeout: 60_000 });

/** Opens the section of the settings holding `testid` (the settings are folded by topic). */
async function reveal(page, label) {
  const section = page.locator('details', { has: page.getByLabel(label, { exact: true }) }).first();
  if ((await section.getAttribute('open')) === null) await section.locator('summary').first().click();
}

/** Sets a select of the settings by its label, and waits for the saved scenario to have it. */
async function pick(page, label, value) {
  await reveal(page, label);
  await page.getByLabel(label, { exact: true }).selectOption(value);
}

/** The exercise: a wrong answer gets the hint, the run's own value is right. */
async function answer(page, runMs, low, high) {
  await page.getByTestId('exercise-load').click();
  await atMs(page, 0);
  await runPast(page, runMs);
  const hinted = await check(page, 99.9);
  assert.match(hinted, /^Not quite\. A hint: .*\?/);
  const wrong = await check(page, 0.1);
  const simulated = Number(wrong.match(/gives (\d+\.\d)%/)[1]);
  assert.ok(simulated >= low && simulated <= high, `the run gives ${simulated}%`);
  assert.match(await check(page, simulated), /^Right\./);
  return simulated;
}

test('lesson 15: minhop funnels a shift onto two core switches, ftree spreads it; the exercise asks a flow\'s rate', async () => {
  const page = await openPage(browser, server.url);
  await page.getByTestId('lesson-picker').selectOption({ label: '15. How InfiniBand routes a fat tree' });
  assert.equal(await page.getByLabel('Scenario').inputValue(), 'fattree4-shift');
  await atMs(page, 1);
  // The busiest uplinks carry two routes each and run full; core-1 and core-2 carry nothing.
  const rate = async (l) => Number(await page.getByTestId(`link-${l}`).getAttribute('data-rate'));
  assert.ok(await rate('agg-0-0->core-0') > 0.95, 'agg-0-0->core-0 full');
  assert.equal(await rate('agg-0-0->core-1'), 0, 'core-1 idle');
  await page.getByTestId('lesson-next').click();
  // The pattern tool, as the step says: shift by 4, its routes shown; the busiest link carries two.
  await openTab(page, 'settings');
  await page.getByTestId('pattern-section').locator('summary').click();
  assert.match(await pattern(page, 'shift', 4), /Busiest link: 2 routes/);
  await screenshot(page, 'lesson-fabric-routing');
  await openTab(page, 'lesson');
  await page.getByTestId('lesson-next').click();
  await page.getByTestId('task-todo').waitFor();
  await openTab(page, 'settings');
  await pick(page, 'Routing engine', 'ftree');
  await openTab(page, 'lesson');
  // The run paused at 1 ms cannot take it: the step says so and offers the restart, then says what ftree does.
  await page.getByTestId('task-done').waitFor();
  assert.match(await page.getByTestId('task-done').innerText(), /^✓ Set\. It needs a new run: the drawing still shows the old one, paused\./);
  await page.getByTestId('task-restart').click();
  await page.waitForFunction(() => /ftree routes destinations leaf by leaf/.test(document.querySelector('[data-testid=task-done]')?.innerText ?? ''));
  // The exercise is minhop's: its scenario comes back with minhop.
  const got = await answer(page, 2, 45, 55);
  assert.ok(got < 55, `minhop's ${got}%`);
  assert.deepEqual(page.errors, []);
});

test('lesson 16: the ring deadlocks and says where; two VLs and dfsssp break the loop; the exercise asks p0\'s rate', async () => {
  const page = await openPage(browser, server.url);
  await page.getByTestId('lesson-picker').selectOption({ label: '16. Deadlock and virtual lanes' });
  assert.equal(await page.getByLabel('Scenario').inputValue(), 'ring6-deadlock');
  const alert = page.getByTestId('deadlock');
  await alert.waitFor({ timeout: 30_000 });
  assert.match(await alert.innerText(), /^Deadlock by 0\.\d{3} ms: .* wait on each other round a cycle of 6 links .* The run stopped at 0\.500 ms, where its check found them\./);
  // The cycle opens below the first line.
  await page.getByTestId('deadlock-cycle').locator('summary').click();
  const cycle = (await alert.innerText()).match(/The cycle: ((?:sw-\d → )+sw-\d)\. The last stuck packet came in at 0\.\d{3} ms/);
  assert.ok(cycle, await alert.innerText());
  // The drawing shows the cycle the message names: an arrow along each of its six links, and a legend entry.
  assert.equal(await page.locator('svg.topology line.cycle').count(), 6);
  const nodes = cycle[1].split(' → ');
  assert.equal(nodes.length, 7, 'six switches and back to the first');
  for (let i = 0; i < 6; i++) {
    assert.equal(await page.getByTestId(`cycle-${nodes[i]}->${nodes[i + 1]}`).count(), 1, `${nodes[i]}->${nodes[i + 1]}`);
  }
  await page.getByTestId('legend-cycle').waitFor();
  await screenshot(page, 'lesson-deadlock');
  // A 2 ms run averages its rates over 0.1 ms, not the papers' 2 ms (the whole run): a setting of its own.
  await openTab(page, 'settings');
  await reveal(page, 'Rate window');
  assert.equal(await page.getByLabel('Rate window', { exact: true }).inputValue(), '0.1');
  // Measured from 0.1 ms, after the deadlock formed: every group at 0.0%, and the cycle's links stalled for all
  // of the 0.4 ms measured.
  await openTab(page, 'results');
  const results = await page.getByTestId('results-table').innerText();
  assert.match(results, /Groups, measured from 0\.1 to 0\.5 ms\n[^\n]*\nring\t5\t0\.0% mean[^\n]*\nwatched\t1\t0\.0%/);
  assert.match(results, /sw-0->sw-1\t0\.0%\t0\t0\.40/);
  // Measuring moved past where the run stopped: the results say nothing was measured, not 0.0% and a Jain of 1.000.
  await setField(page, 'input-measure-from', '1');
  await page.getByTestId('run').click();
  await alert.waitFor({ timeout: 30_000 });
  await openTab(page, 'results');
  const none = await page.getByTestId('results-table').innerText();
  assert.match(none, /Groups: nothing measured: the run stopped at 0\.500 ms, and measuring starts at 1\.0 ms/);
  assert.doesNotMatch(none, /0\.0%|1\.000/);
  await setField(page, 'input-measure-from', '0.1');
  await openTab(page, 'lesson');
  await page.getByTestId('lesson-next').click();
  // The credit-loop check finds the cycle in the routes.
  await openTab(page, 'settings');
  await page.getByTestId('credit-loop-section').locator('summary').click();
  await page.getByTestId('credit-loop-check').click();
  assert.match(await page.getByTestId('credit-loop').innerText(), /^A credit loop: (sw-\d → ){6}sw-\d \(6 links\)/);
  // The same cycle as the run's deadlock: its arrows stay, over the stopped run's rates.
  assert.equal(await page.locator('svg.topology line.cycle').count(), 6);
  await openTab(page, 'lesson');
  await page.getByTestId('lesson-next').click();
  await openTab(page, 'settings');
  await reveal(page, 'Data VLs');
  await page.getByLabel('Data VLs').fill('2');
  await page.getByLabel('Data VLs').press('Enter');
  await openTab(page, 'lesson');
  await page.getByTestId('task-done').waitFor();
  await page.getByTestId('lesson-next').click();
  await openTab(page, 'settings');
  await pick(page, 'Routing engine', 'dfsssp');
  await page.getByTestId('credit-loop-check').click();
  assert.match(await page.getByTestId('credit-loop').innerText(), /^No credit loop/);
  await openTab(page, 'lesson');
  await page.getByTestId('task-done').waitFor();
  // The exercise's own run (dfsssp on two VLs) goes to its end with no deadlock.
  await answer(page, 2, 45, 55);
  assert.equal(await page.getByTestId('deadlock').count(), 0, 'no deadlock');
  assert.deepEqual(page.errors, []);
});

test('lesson 17: a hot spot on a 32-host fabric grows a tree with victims; the exercise asks the victim\'s rate', async () => {
  const page = await openPage(browser, server.url);
  await page.getByTestId('lesson-picker').selectOption({ label: '17. Congestion on a real fabric' });
  assert.equal(await page.getByLabel('Scenario').inputValue(), 'fabric32-hotspot');
  await atMs(page, 1);
  // The step points at the root, spine-0->leaf-0: the plot shows its rate first, though other links are as busy.
  const header = async () => {
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
    return (await readFile(await csv.path(), 'utf8')).split('\n')[0];
  };
  let first = '';
  for (let i = 0; i < 20 && !first.startsWith('time_ms,spine-0->leaf-0,'); i++) {
    first = await header();
    if (!first.startsWith('time_ms,spine-0->leaf-0,')) await page.waitForTimeout(250);
  }
  assert.match(first, /^time_ms,spine-0->leaf-0,/);
  await page.getByTestId('lesson-next').click();
  // The victim, pointed at, is drawn as one (on the SVG or, on a layered drawing, counted on the canvas).
  const layer = page.getByTestId('live-layer');
  if (await layer.count()) {
    assert.ok(Number(await layer.getAttribute('data-victims')) >= 1);
    assert.equal(Number(await layer.getAttribute('data-roots')), 1);
    assert.equal(Number(await layer.getAttribute('data-routes')), 1, 'its route is drawn');
  } else {
    assert.match(await page.getByTestId('flow-p8').getAttribute('class'), /victim/);
    // Its route along its links (h-2-0, leaf-2, spine-0, leaf-3, h-3-0), under the curve joining its ends.
    assert.equal((await page.getByTestId('route-p8').getAttribute('d')).split(/[ML]/).filter((p) => p.trim()).length, 5);
  }
  await screenshot(page, 'lesson-fabric-hotspot');
  await page.getByTestId('lesson-next').click();
  await openTab(page, 'settings');
  await pick(page, 'Marking policy', 'input_triggered');
  await openTab(page, 'lesson');
  await page.getByTestId('task-done').waitFor();
  await page.getByTestId('lesson-next').click();
  await openTab(page, 'settings');
  await pick(page, 'Source response', 'lipd');
  await openTab(page, 'lesson');
  await page.getByTestId('task-done').waitFor();
  await answer(page, 3, 11, 17);
  // The Results tab gives a group's rate as the plot does: the hot spot's 8 flows into h-0-0 by their sum, the
  // background's 31, each to a host of its own, by their mean (their sum would be 20 links' worth).
  await openTab(page, 'results');
  assert.match(await page.getByTestId('group-hotspot').innerText(), /\d+\.\d% sum/);
  const background = await page.getByTestId('group-background').innerText();
  const mean = Number(background.match(/(\d+\.\d)% mean/)?.[1]);
  assert.ok(mean > 10 && mean <= 100, background);
  assert.deepEqual(page.errors, []);
});
