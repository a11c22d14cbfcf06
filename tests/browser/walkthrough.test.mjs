// Every lesson walked as a student would, from the start card to its exercise, driven by www/lessons.json: each
// scene step shows its moment and what it points at, each task waits for the student and notices when it is done
// (done here through the page's own controls), the words a step quotes are on the page, and the exercise locks its
// settings, gives a hint at the first wrong answer, the value at the second, and takes the right one.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { serveDist, closePages, launchBrowser, openPage, openTab, screenshot, runPast, check } from './harness.mjs';

const library = JSON.parse(await readFile(new URL('../../www/lessons.json', import.meta.url), 'utf8'));

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
afterEach(() => closePages());
after(async () => { await browser?.close(); await server?.close(); });

/** Lesson text as the page shows it: colour references `[word](thing)` read as their word. */
const plain = (text) => text.replace(/\[([^\][]+)\]\(([^) ]+)\)/g, '$1');

/** Opens the Settings section holding the field `testid` and returns the field. */
async function settingField(page, testid) {
  await openTab(page, 'settings');
  const field = page.getByTestId(testid);
  const section = page.locator('details', { has: field });
  if ((await section.getAttribute('open')) === null) await section.locator('summary').click();
  return field;
}

/** What each task asks, done through the controls a student would use. */
const DO = {
  'switch.buffer_packets': async (page, v) => {
    const f = await settingField(page, 'input-buffer');
    await f.fill(String(v));
    await f.press('Enter');
  },
  'marking.output_threshold_packets': async (page, v) => {
    const f = await settingField(page, 'input-output-threshold');
    await f.fill(String(v));
    await f.press('Enter');
  },
  'source.response': async (page, v) => (await settingField(page, 'input-response')).selectOption(v),
  'marking.policy': async (page, v) => (await settingField(page, 'input-marking-policy')).selectOption(v),
  'routing.engine': async (page, v) => (await settingField(page, 'input-routing-engine')).selectOption(v),
  'source.persistent_state': async (page, v) => (await settingField(page, 'input-persistent')).selectOption(v ? 'true' : 'false'),
  'switch.arbitration': async (page, v) => (await settingField(page, 'input-arbitration')).selectOption(v),
  'virtual_lanes.data_vls': async (page, v) => {
    const f = await settingField(page, 'input-data-vls');
    await f.fill(String(v));
    await f.press('Enter');
  },
};

async function doTask(page, task) {
  if (task.setting) {
    assert.ok(DO[task.setting], `no way to do ${task.setting} in this test`);
    await DO[task.setting](page, task.equals ?? Math.ceil(task.at_least));
    await openTab(page, 'lesson');
  } else if (task.plot) {
    await page.getByTestId('plot-kind').selectOption(task.plot);
  } else {
    await runPast(page, task.reach_ms);
  }
}

const simText = (ms) => `${ms.toFixed(3)} ms`;

// A step's claims (what the drawing shows at its moment: www/lessons.json, checked natively in
// web/src/lesson_claims.rs) read off the page's own drawing: the root and blocked halos, the victims' flow halos,
// each link's rate.
async function checkClaims(page, claims, where) {
  const shown = await page.evaluate(() => {
    const drawing = document.querySelector('[data-testid=topology]');
    const ids = (sel, cut) => [...drawing.querySelectorAll(sel)].map((e) => e.dataset.testid.slice(cut));
    return {
      roots: ids('[data-testid^="root-"]', 5),
      blocked: ids('[data-testid^="blocked-"]', 8),
      victims: ids('path.flow.victim', 5),
      rates: Object.fromEntries([...drawing.querySelectorAll('[data-testid^="link-"][data-rate]')]
        .map((e) => [e.dataset.testid.slice(5), Number(e.dataset.rate)])),
    };
  });
  const says = `${where}: the drawing shows roots ${shown.roots}, blocked ${shown.blocked}, victims ${shown.victims}`;
  if (claims.roots) assert.deepEqual([...shown.roots].sort(), [...claims.roots].sort(), says);
  for (const l of claims.blocked ?? []) assert.ok(shown.blocked.includes(l), `${says}; claims ${l} blocked`);
  for (const l of claims.not_blocked ?? []) assert.ok(!shown.blocked.includes(l), `${says}; claims ${l} not blocked`);
  for (const f of claims.victims ?? []) assert.ok(shown.victims.includes(f), `${says}; claims ${f} a victim`);
  for (const f of claims.not_victims ?? []) assert.ok(!shown.victims.includes(f), `${says}; claims ${f} no victim`);
  for (const [l, [low, high]] of Object.entries(claims.rates ?? {})) {
    const pct = 100 * shown.rates[l];
    assert.ok(pct >= low && pct <= high, `${where}: claims ${l} at ${low}-${high}%, the drawing shows ${pct.toFixed(1)}%`);
  }
}

// An impact exercise (lesson 18): answered from the congestion impact view's runs, which the page's shell keeps. The
// view opens set up for the question, holds the asked factor back until the answer is in, and shows it after.
async function impactExercise(page, e) {
  await page.getByTestId('exercise-load').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=sim-time]').innerText === '0.000 ms');
  assert.match(await check(page, 1), /^Not yet: run the latency test .* in the Congestion impact view first/, e.id);
  await page.getByTestId('exercise-open-impact').click();
  assert.equal(await page.getByTestId('impact-ppn').inputValue(), String(e.impact.processes_per_node));
  assert.ok(await page.getByTestId(`impact-canary-${e.impact.canary}`).isChecked());
  await page.getByTestId('impact-run').click();
  await page.waitForFunction(() => / done/.test(document.querySelector('[data-testid=impact-status]')?.innerText ?? ''), null, { timeout: 120_000 });
  const row = () => page.getByTestId(`impact-row-no control-${e.impact.canary}`).innerText();
  assert.match(await row(), /hidden until you answer/, `${e.id}: the factor is held back`);
  assert.ok(await page.getByTestId('impact-csv').isDisabled(), 'and so is the CSV');
  await page.getByTestId('tab-playground').click();
  await openTab(page, 'lesson');
  const hinted = await check(page, -50);
  assert.match(hinted, /^Not quite\. A hint: /, e.id);
  assert.doesNotMatch(hinted, /\d+\.\dX/, `${e.id}: no value in the hint`);
  const revealed = await check(page, 500);
  const value = Number(revealed.match(/The run gives (\d+\.\d)X/)?.[1]);
  assert.ok(Number.isFinite(value), `${e.id}: ${revealed}`);
  assert.equal(await page.getByTestId('exercise-explanation').innerText(), e.explanation);
  assert.match(await check(page, value), /^Right\./, e.id);
  // Answered: the view shows the factor, the same as the exercise's.
  await page.getByTestId('tab-impact').click();
  const p99 = (await row()).match(/(\d+\.\d)X \/ (\d+\.\d)X/);
  assert.ok(p99, await row());
  assert.equal(Number(p99[e.impact.statistic === 'avg' ? 1 : 2]), value);
  console.log(`${e.id}: ${value}X`);
  assert.deepEqual(page.errors, []);
}

for (const viewport of [{ width: 1280, height: 720 }, { width: 1024, height: 768 }])
for (const [i, lesson] of library.lessons.entries()) {
  test(`walk lesson ${lesson.title} at ${viewport.width}x${viewport.height}`, async () => {
    const page = await openPage(browser, server.url, { viewport });
    // A first visit: the start card leads into the first lesson; the others are picked.
    if (i === 0) await page.getByTestId('start-lesson').click();
    else {
      await page.getByTestId('start-explore').click();
      await page.getByTestId('lesson-picker').selectOption({ label: lesson.title });
    }
    const pageText = await page.evaluate(() => document.body.textContent);
    for (const [k, step] of lesson.steps.entries()) {
      const where = `${lesson.id} step ${k + 1}`;
      if (step.compare) {
        // A/B opens with both runs under way and the step's text above them; back to the lesson after.
        await page.getByTestId('compare-lesson').waitFor();
        assert.equal((await page.getByTestId('compare-lesson').innerText()).split('\n')[0].trim(), plain(step.text).trim());
        await page.waitForFunction(() => Number(document.querySelector('[data-testid=compare-progress]').value) >= 1, null, { timeout: 90_000 });
        await page.getByTestId('compare-results').waitFor();
        if (k === 1) await screenshot(page, `walk-${lesson.id}-compare-${viewport.width}`);
        await page.getByTestId('compare-back-to-lesson').click();
        await page.getByTestId('lesson-step').waitFor();
      }
      await page.getByTestId('lesson-step').filter({ hasText: `Step ${k + 1} of ${lesson.steps.length}` }).waitFor();
      const text = await page.getByTestId('lesson-text').innerText();
      assert.equal(text.trim(), plain(step.text).trim(), where);
      // Words a step quotes name something the page shows (a setting, a section, a plot).
      for (const [, quoted] of step.text.matchAll(/(?<![A-Za-z])'([^']+)'(?![A-Za-z])/g)) {
        const shown = pageText.includes(quoted) || (await page.evaluate(() => document.body.textContent)).includes(quoted);
        assert.ok(shown, `${where}: '${quoted}' is not on the page`);
      }
      if (step.run_to_ms) {
        await page.waitForFunction((t) => document.querySelector('[data-testid=sim-time]').innerText === t, simText(step.run_to_ms), { timeout: 60_000 });
      }
      if (step.claims) await checkClaims(page, step.claims, where);
      const h = step.highlight;
      if (h?.link) await page.getByTestId(`highlight-${h.link}`).waitFor({ state: 'attached' });
      if (h?.buffer && !step.task) await page.getByTestId('highlight-buffer').waitFor({ state: 'attached' });
      if (h?.flow) await page.locator('.lesson-flow').first().waitFor({ state: 'attached' });
      if (h?.plot) assert.match(await page.getByTestId('plot-figure').getAttribute('class'), /lesson-mark-plot/, where);
      // The plot framed is the one pointed at, unless choosing it is the step's task.
      if (h?.plot && !step.task?.plot) assert.equal(await page.getByTestId('plot-kind').inputValue(), h.plot, where);
      if (step.task) {
        // The step waits for the student, then says what they did.
        await page.getByTestId('task-todo').waitFor();
        await doTask(page, step.task);
        // A change the paused run cannot take says so, with the restart at hand: the step's conclusion waits
        // for the new run.
        await page.getByTestId('task-done').waitFor();
        if (await page.getByTestId('task-restart').count()) {
          assert.match(await page.getByTestId('task-done').innerText(), /^✓ Set\. It needs a new run/, where);
          await page.getByTestId('task-restart').click();
          await page.getByTestId('task-restart').waitFor({ state: 'detached' });
        }
        assert.equal((await page.getByTestId('task-done').innerText()).replace(/^✓\s*/, ''), step.task.done, where);
      } else {
        assert.equal(await page.getByTestId('task-todo').count(), 0, where);
      }
      if (k + 1 < lesson.steps.length) await page.getByTestId('lesson-next').click();
    }
    await page.getByTestId('lesson-end').waitFor();
    await screenshot(page, `walk-${lesson.id}-end-${viewport.width}`);

    // The exercise, on its own scenario: the settings it fixes show disabled, with the reason.
    const e = lesson.exercise;
    if (e.impact) return impactExercise(page, e);
    await page.getByTestId('exercise-load').click();
    await page.waitForFunction(() => document.querySelector('[data-testid=sim-time]').innerText === '0.000 ms');
    await openTab(page, 'settings');
    const locks = page.locator('[data-testid^=locked-]');
    assert.ok((await locks.count()) > 0, `${e.id}: a locked setting is shown`);
    assert.match(await locks.first().textContent(), /Fixed by the exercise/);
    const lockedField = page.getByTestId(`input-${(await locks.first().getAttribute('data-testid')).slice('locked-'.length)}`);
    assert.ok(await lockedField.isDisabled(), `${e.id}: the locked field is disabled`);
    await openTab(page, 'lesson');
    // "Go to the measured end" runs fast to where the answer is read.
    await page.getByTestId('exercise-to-end').click();
    const endMs = e.measure.to_ns ? e.measure.to_ns / 1e6 : null;
    if (endMs) await page.waitForFunction((t) => document.querySelector('[data-testid=sim-time]').innerText === t, simText(endMs), { timeout: 90_000 });
    else await page.waitForFunction(() => document.querySelector('[data-testid=run]').disabled || /Run|Resume/.test(document.querySelector('[data-testid=run]').innerText), null, { timeout: 90_000 });
    // Wrong: the hint and a second try, and nothing of the answer.
    const hinted = await check(page, -50);
    assert.match(hinted, /^Not quite\. A hint: /, e.id);
    assert.equal(await page.getByTestId('exercise-hint').innerText(), e.hint);
    assert.doesNotMatch(hinted, /\d+(\.\d)?%/, `${e.id}: no value in the hint`);
    // Wrong again: the value and the explanation.
    const revealed = await check(page, 500);
    const value = Number(revealed.match(/The run gives (-?\d+\.\d)%/)?.[1]);
    assert.ok(Number.isFinite(value), `${e.id}: ${revealed}`);
    assert.equal(await page.getByTestId('exercise-explanation').innerText(), e.explanation);
    // Right.
    assert.match(await check(page, value), /^Right\./, e.id);
    assert.match(await page.getByTestId('lesson-picker').locator('option:checked').innerText(), / ✓$/, 'progress kept');
    console.log(`${e.id}: ${value}%`);
    assert.deepEqual(page.errors, []);
  });
}
