// Lessons and exercises as a student and a teacher use them: walk a lesson (each step loads its scenario and
// points at what to watch), answer an exercise right and wrong, export the answers, and make an exercise link that
// a student opens in a fresh browser.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveDist, closePages, launchBrowser, openPage, screenshot, openTab, setField, runPast, check, linkOf, flowMiddle, OUTPUT } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
afterEach(() => closePages());
after(async () => { await browser?.close(); await server?.close(); });

test('walk the spreading lesson and answer its exercise right and wrong', async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('empty');
  await page.getByTestId('lesson-picker').selectOption({ label: '3. Congestion spreading and its victims' });
  // Step 1 loads Fig. 2 and points at the victim flow.
  assert.equal(await page.getByLabel('Scenario').inputValue(), 'infocom03-fig2');
  assert.match(await page.getByTestId('lesson-text').innerText(), /victim flow AV->BV/);
  assert.match(await page.getByTestId('flow-victim').getAttribute('class'), /lesson-flow/);
  // "Look at where it goes": its route is drawn along AV->A->B->BV, not only the curve joining its ends.
  await page.getByTestId('route-victim').waitFor();
  assert.equal((await page.getByTestId('route-victim').getAttribute('d')).split(/[ML]/).filter((p) => p.trim()).length, 4);
  // Predict first: the victim's rate, the exercise's question, is out of the plot and the results until answered.
  await page.waitForFunction(() => document.querySelector('[data-testid=sim-time]').innerText === '55.000 ms', null, { timeout: 60_000 });
  assert.equal(await page.getByTestId('plot-panel').getAttribute('data-hidden'), 'victim');
  await openTab(page, 'results');
  assert.equal(await page.getByTestId('group-victim').getByTestId('hidden-measure').innerText(), 'hidden until you answer');
  assert.match(await page.getByTestId('group-remote').innerText(), /\d+\.\d%/, 'the other groups are shown');
  // Nor do the links only the victim uses (its source's, AV->A, is among the busiest) give it away.
  const victimLink = page.getByTestId('links-table').locator('tr', { has: page.locator('th', { hasText: /^AV->A$/ }) });
  assert.match(await victimLink.innerText(), /hidden until you answer/);
  assert.doesNotMatch(await page.getByTestId('links-table').innerText(), /AV->A\s+\d/);
  // Nor does hovering the victim's flow give it away.
  await page.mouse.move(...(await flowMiddle(page, 'victim')));
  await page.getByTestId('card').waitFor();
  const card = await page.getByTestId('card').innerText();
  assert.match(card, /its rate: hidden until you answer/);
  assert.doesNotMatch(card, /throughput|rate limit/);
  await page.mouse.move(5, 5);
  await openTab(page, 'lesson');
  // Watch it happen: the run plays from its start at the lesson's speed and stops at the step's moment.
  await page.getByTestId('lesson-watch').click();
  await page.waitForFunction(() => { const t = parseFloat(document.querySelector('[data-testid=sim-time]').innerText); return t > 1 && t < 50; }, null, { timeout: 20_000 });
  await page.waitForFunction(() => document.querySelector('[data-testid=sim-time]').innerText === '55.000 ms', null, { timeout: 60_000 });
  assert.match(await page.getByTestId('run').innerText(), /Run/, 'paused at the moment');
  assert.equal(await page.getByTestId('lesson-away').count(), 0, 'at the step\'s moment');
  // Reset: the step's words are about 55 ms, and the page says the run is elsewhere, and how to go back.
  await page.getByTestId('reset').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=sim-time]').innerText === '0.000 ms');
  assert.match(await page.getByTestId('lesson-away').innerText(), /^The run is at 0\.000 ms now; this step describes it at 55 ms/);
  await page.getByTestId('lesson-redo').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=sim-time]').innerText === '55.000 ms', null, { timeout: 60_000 });
  await page.getByTestId('lesson-away').waitFor({ state: 'detached' });
  await page.getByTestId('lesson-next').click();
  await page.getByTestId('highlight-A->B').waitFor({ state: 'attached' });
  await page.getByTestId('lesson-next').click();
  // The step about the Results tab frames nothing on the drawing or the plot.
  assert.doesNotMatch(await page.getByTestId('plot-figure').getAttribute('class'), /lesson-mark-plot/);
  // Isolation: the same network with the victim on its own VL, run to 55 ms, B's buffer from A pointed at (its
  // VL 0 stripe full); then the student takes the lanes away.
  await page.getByTestId('lesson-next').click();
  assert.equal(await page.getByLabel('Scenario').inputValue(), 'vl-isolation-two-switch');
  await page.getByTestId('highlight-buffer').waitFor({ state: 'attached' });
  await page.waitForFunction(() => document.querySelector('[data-testid=sim-time]').innerText === '55.000 ms', null, { timeout: 60_000 });
  const vl0 = Number(await page.getByTestId('buffer-B-A-vl0').getAttribute('data-fill'));
  assert.ok(vl0 >= 0.75, `VL 0's stripe full or all but full (3 or 4 of 4 packets), as the step says: ${vl0}`);
  // Results says what the drawing shows: A->B, drawn blocked, has no stall of its own (VL 1 sends), and VL 0's wait
  // is named beneath it.
  await openTab(page, 'results');
  const ab = page.getByTestId('links-table').locator('tr', { has: page.getByRole('rowheader', { name: 'A->B', exact: true }) });
  assert.match(await ab.locator('td').last().innerText(), /^0\.00\s*VL 0: (\d+\.\d\d)$/);
  const waited = Number((await page.getByTestId('vl-stall-A->B-0').innerText()).replace('VL 0: ', ''));
  assert.ok(waited > 5 && waited <= 15, `VL 0 of A->B waits most of the 15 ms measured so far: ${waited}`);
  // The hosts' links wait on one VL as long as the link does: nothing beneath them repeats that.
  assert.equal(await page.locator('[data-testid^="vl-stall-"]').count(), 1, 'only A->B\'s VL 0 is named');
  await openTab(page, 'lesson');
  await page.getByTestId('lesson-next').click();
  assert.match(await page.getByTestId('lesson-text').innerText(), /Your turn: take the lanes away/);
  await openTab(page, 'settings');
  const section = page.locator('details', { has: page.getByTestId('input-data-vls') });
  if ((await section.getAttribute('open')) === null) await section.locator('summary').click();
  await page.getByTestId('input-data-vls').fill('1');
  await page.getByTestId('input-data-vls').press('Enter');
  await openTab(page, 'lesson');
  // The run at 55 ms cannot take it: the step offers the restart before it says what one VL does.
  await page.getByTestId('task-restart').click();
  await page.getByText('One data VL again').waitFor();
  assert.ok(await page.getByTestId('lesson-next').isDisabled(), 'the last step');
  // The way on: the exercise, then the next lesson.
  assert.match(await page.getByTestId('lesson-end').innerText(), /Now try the exercise below/);
  assert.equal(await page.getByTestId('lesson-next-lesson').innerText(), 'Next lesson: 4. A congestion tree in a fat tree');
  await screenshot(page, 'lesson-spreading');

  // The exercise on its own scenario: checking before running says so; then a wrong and a right answer.
  await page.getByTestId('exercise-load').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=sim-time]').innerText === '0.000 ms');
  await page.getByTestId('exercise-answer').fill('15');
  assert.match(await check(page), /Not yet: run the scenario/);
  await runPast(page, 60);
  // While the exercise waits for its answer nothing states it: the paper's numbers are held back, and the settings
  // it fixes are shown disabled, with the reason.
  assert.doesNotMatch(await page.getByTestId('scenario-line').textContent(), /15%/);
  await openTab(page, 'results');
  await page.getByTestId('paper-held-back').waitFor();
  assert.equal(await page.getByTestId('paper-vs-ours').count(), 0);
  await openTab(page, 'settings');
  assert.ok(await page.getByLabel('Marking policy', { exact: true }).isDisabled(), 'a fixed setting is disabled');
  assert.match(await page.getByTestId('locked-marking-policy').innerText(), /Fixed by the exercise/);
  assert.ok(await page.getByLabel('Duration').isEnabled(), 'the others are not');
  await openTab(page, 'lesson');
  // A first wrong answer gets the author's hint and another try, and nothing of the answer.
  await page.getByTestId('exercise-answer').fill('60');
  const hinted = await check(page);
  assert.match(hinted, /^Not quite\. A hint: .*\?/);
  assert.doesNotMatch(hinted, /\d+(\.\d)?%/, 'no value given away');
  assert.equal(await page.getByTestId('exercise-explanation').count(), 0, 'no explanation yet');
  // The second wrong answer gets the value and the explanation.
  await page.getByTestId('exercise-answer').fill('70');
  const wrong = await check(page);
  assert.match(wrong, /Not quite\. The run gives (\d+\.\d)%/);
  const simulated = Number(wrong.match(/gives (\d+\.\d)%/)[1]);
  assert.ok(simulated > 10 && simulated < 20, `the victim's share ${simulated}`);
  await page.getByTestId('exercise-answer').fill(String(Math.round(simulated)));
  assert.match(await check(page), /^Right\./);
  assert.match(await page.getByTestId('exercise-explanation').innerText(), /congestion spreading/);
  // Answered: the paper's numbers are back, and the victim's own rate.
  await openTab(page, 'results');
  await page.getByTestId('paper-vs-ours').waitFor();
  assert.equal(await page.getByTestId('hidden-measure').count(), 0);
  assert.equal(await page.getByTestId('plot-panel').getAttribute('data-hidden'), null);
  assert.match(await page.getByTestId('scenario-line').textContent(), /about 15%/);

  // A locked setting changed: refused.
  await openTab(page, 'settings');
  await page.getByLabel('Marking policy', { exact: true }).selectOption('naive');
  await openTab(page, 'lesson');
  assert.match(await check(page), /fixes 'Marking policy'/);

  // Exporting asks for the student's name once; the file carries it, the time, each answer, its verdict and the
  // scenario's digest.
  assert.ok(await page.getByTestId('export-answers').isDisabled(), 'a name first');
  await page.getByTestId('student-name').fill('Ada L.');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-answers').click()]);
  assert.equal(download.suggestedFilename(), 'ibcc-answers-Ada-L-.json');
  const sheet = JSON.parse(await readFile(await download.path(), 'utf8'));
  assert.equal(sheet.student, 'Ada L.');
  assert.match(sheet.exported_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d/);
  assert.deepEqual(sheet.answers.map((a) => [a.exercise, a.right]), [['spreading-victim', false], ['spreading-victim', false], ['spreading-victim', true]]);
  for (const a of sheet.answers) {
    assert.match(a.at, /^\d{4}-\d\d-\d\dT/);
    assert.match(a.scenario_digest, /^[0-9a-f]{16}$/);
  }
  // The teacher opens this file and another student's at once: a class table.
  const other = { ...sheet, student: 'Ben', answers: [{ ...sheet.answers[2], right: false, answer_pct: 40 }] };
  const otherPath = join(tmpdir(), 'ibcc-answers-Ben.json');
  await writeFile(otherPath, JSON.stringify(other));
  const teacher = await openPage(browser, server.url);
  await teacher.getByText('Class answers (teachers)').click();
  // A file that is not answers first: said so in words, and no empty table.
  const notesPath = join(tmpdir(), 'notes.json');
  await writeFile(notesPath, '{"student": "Ann",');
  await teacher.getByTestId('class-files').setInputFiles([notesPath]);
  await teacher.getByTestId('class-no-answers').waitFor();
  assert.match(await teacher.locator('.class-answers .error').innerText(), /notes\.json: not an answer file: it is cut short/);
  assert.equal(await teacher.getByTestId('class-table').count(), 0);
  await rm(notesPath);
  await teacher.getByTestId('class-clear').click();
  await teacher.getByTestId('class-files').setInputFiles([await download.path(), otherPath]);
  await teacher.getByTestId('class-table').waitFor();
  await rm(otherPath);
  const rows = await teacher.getByTestId('class-row').allInnerTexts();
  assert.equal(rows.length, 4);
  // Exercises by name, not by id (the question on hover): a built-in lesson's by its lesson.
  assert.match(rows[0], /^Ada L\.\s+Lesson 3\s+60\.0%\s+\d+\.\d%\s+wrong/);
  assert.match(rows[2], /^Ada L\.\s+Lesson 3\s+\d+\.0%\s+\d+\.\d%\s+right/);
  assert.match(rows[3], /^Ben\s+Lesson 3\s+40\.0%\s+\d+\.\d%\s+wrong/);
  await screenshot(teacher, 'class-table');
  // Progress: the lesson is ticked in the picker.
  assert.match(await page.getByTestId('lesson-picker').locator('option:checked').innerText(), /^3\. Congestion spreading and its victims ✓$/);
  assert.deepEqual(page.errors, []);
});

test('lesson 1 asks for a one-packet buffer; its exercise then says where to go, and blames no one', async () => {
  const page = await openPage(browser, server.url);
  await page.getByTestId('start-lesson').click();
  for (let k = 0; k < 3; k++) await page.getByTestId('lesson-next').click();
  assert.match(await page.getByTestId('lesson-text').innerText(), /Your turn: make the buffers one packet deep/);
  await setField(page, 'input-buffer', '1');
  await openTab(page, 'lesson');
  await page.getByTestId('task-done').waitFor();
  await page.getByTestId('reset').click();
  // Check an answer on the lesson's run (buffers of 1): the exercise fixes 'Input buffer' at 4.
  await page.getByTestId('exercise-answer').fill('83');
  const verdict = await check(page);
  assert.match(verdict, /runs on its own scenario, with its own 'Input buffer \(packets\)'/);
  assert.doesNotMatch(verdict, /you changed it/);
  assert.equal(await page.getByTestId('exercise-verdict').getAttribute('class'), 'notice');
  // Loaded, the exercise's scenario says whose it is.
  await page.getByTestId('exercise-load').click();
  assert.match(await page.getByLabel('Scenario').locator('option:checked').innerText(), /^Exercise of lesson 1\. Lossless links and credits$/);
  assert.deepEqual(page.errors, []);
});

test('on a phone the start card runs the network and shows it, as its words say', async () => {
  const page = await openPage(browser, server.url, { viewport: { width: 390, height: 844 } });
  assert.match(await page.getByTestId('start-card').innerText(), /Press ▶ Run and watch/);
  assert.ok(!(await page.getByTestId('topology').isVisible()), 'the card covers the network');
  await page.getByTestId('start-watch').click();
  await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) > 0.5, null, { timeout: 20_000 });
  assert.ok(await page.getByTestId('topology').isVisible(), 'the network, running');
  assert.equal(await page.getByTestId('start-card').count(), 0);
  assert.deepEqual(page.errors, []);
});

test('a first visit shows the start card: it starts the first lesson, and is not shown again', async () => {
  const page = await openPage(browser, server.url);
  const card = page.getByTestId('start-card');
  assert.match(await card.innerText(), /switches \(rectangles\)[\s\S]*hosts \(circles\)[\s\S]*Press ▶ Run/);
  await screenshot(page, 'start-card');
  await page.getByTestId('start-lesson').click();
  assert.equal(await card.count(), 0);
  assert.equal(await page.getByTestId('lesson-picker').inputValue(), '0', 'the first lesson');
  assert.match(await page.getByTestId('lesson-step').innerText(), /Step 1 of/);
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('ibcc.lessons.at') ?? 'null')?.[0] === 'credits');
  await page.reload();
  await page.getByTestId('lesson-picker').waitFor();
  assert.equal(await page.getByTestId('start-card').count(), 0, 'not shown again');
  assert.equal(await page.getByTestId('lesson-picker').inputValue(), '0', 'the lesson is kept');
  // "Explore on my own" puts it away too.
  const other = await openPage(browser, server.url);
  await other.getByTestId('start-card').waitFor();
  assert.ok(!(await other.getByTestId('start-watch').isVisible()), 'its Run is for phones: here the network shows');
  await other.getByTestId('start-explore').click();
  await other.reload();
  await other.getByTestId('lesson-picker').waitFor();
  assert.equal(await other.getByTestId('start-card').count(), 0);
  // So does a lesson picked from the list (the card stood above it, a phone's screen high).
  const third = await openPage(browser, server.url);
  await third.getByTestId('start-card').waitFor();
  await third.getByTestId('lesson-picker').selectOption({ index: 3 });
  await third.getByTestId('lesson-step').waitFor();
  assert.equal(await third.getByTestId('start-card').count(), 0);
  await third.getByTestId('lesson-picker').selectOption({ index: 0 });
  assert.equal(await third.getByTestId('start-card').count(), 0, 'not back when the lesson is left');
  assert.deepEqual([...page.errors, ...other.errors, ...third.errors], []);
});

test('on a phone a first visit opens on the start card; exploring shows the network', async () => {
  const page = await openPage(browser, server.url, { viewport: { width: 390, height: 844 } });
  const card = page.getByTestId('start-card');
  await card.waitFor();
  const box = await card.boundingBox();
  assert.ok(box && box.y + box.height <= 844, 'the card is on the first screen');
  await screenshot(page, 'start-card-phone');
  await page.getByTestId('start-explore').click();
  assert.ok(await page.getByTestId('canvas-panel').isVisible(), 'the network is shown');
  assert.equal(await page.getByTestId('phone-network').getAttribute('aria-pressed'), 'true');
  // Later visits open on the network.
  await page.reload();
  await page.getByTestId('canvas-panel').waitFor();
  assert.equal(await page.getByTestId('phone-network').getAttribute('aria-pressed'), 'true');
  assert.deepEqual(page.errors, []);
});

test('a reload in the middle of a lesson keeps the step; over another network it offers the lesson\'s again', async () => {
  const page = await openPage(browser, server.url);
  await page.getByTestId('start-explore').click();
  await page.getByTestId('lesson-picker').selectOption({ label: '3. Congestion spreading and its victims' });
  await page.getByTestId('lesson-next').click();
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('ibcc.lessons.at') ?? 'null')?.[1] === 1);
  await page.reload();
  assert.match(await page.getByTestId('lesson-step').innerText(), /Step 2 of 5/);
  assert.equal(await page.getByLabel('Scenario').inputValue(), 'infocom03-fig2');
  await page.getByTestId('lesson-text').waitFor();
  // Another network picked, then a reload: the step does not describe the fat tree as if it were Fig. 2.
  await page.getByLabel('Scenario').selectOption('fattree4-hotspot');
  // (Kept in the browser as soon as it is drawn.)
  await page.waitForFunction(() => /fattree4-hotspot/.test(localStorage.getItem('ibcc.playground.scenario')));
  await page.reload();
  await page.getByTestId('lesson-elsewhere').waitFor();
  assert.equal(await page.getByTestId('lesson-text').count(), 0);
  await page.getByTestId('lesson-reload').click();
  assert.equal(await page.getByLabel('Scenario').inputValue(), 'infocom03-fig2');
  await page.getByTestId('lesson-text').waitFor();
  assert.match(await page.getByTestId('lesson-step').innerText(), /Step 2 of 5/);
  assert.deepEqual(page.errors, []);
});

test('a teacher makes an exercise link; a student opens it and answers', async () => {
  const teacher = await openPage(browser, server.url);
  await teacher.getByLabel('Scenario').selectOption('infocom03-fig3b');
  await teacher.getByText('Make an exercise from this scenario').click();
  await teacher.getByTestId('author-make').click();
  assert.match(await teacher.getByTestId('author-error').innerText(), /write the question/);
  await teacher.getByTestId('author-question').fill('How busy is the inter-switch link while the victim runs?');
  await teacher.getByTestId('author-what').selectOption('link:A->B');
  await teacher.getByTestId('author-from').fill('40');
  // A time past the run's end is refused, not cut to the end unsaid.
  await teacher.getByTestId('author-to').fill('300');
  await teacher.getByTestId('author-make').click();
  assert.match(await teacher.getByTestId('author-error').innerText(), /to: 300 ms is past the run's end at \d+ ms/);
  await teacher.getByTestId('author-to').fill('60');
  await teacher.getByTestId('author-tolerance').fill('abc');
  await teacher.getByTestId('author-make').click();
  assert.match(await teacher.getByTestId('author-error').innerText(), /tolerance must be a number/);
  await teacher.getByTestId('author-tolerance').fill('4');
  await teacher.getByTestId('author-explanation').fill('With one remote flow and a window of one, A->B never blocks.');
  // Every setting is locked to begin with; this exercise locks one and lets students change the rest.
  assert.ok(await teacher.getByTestId('author-lock-*').isChecked());
  await teacher.getByTestId('author-lock-*').uncheck();
  await teacher.getByTestId('author-lock-source.window_packets').check();
  await teacher.getByTestId('author-make').click();
  const link = await linkOf(teacher, 'author-link');
  assert.match(link, /#x=1\./);
  // The form says what the simulation answers: nothing before the run has covered 40-60 ms, then the value and
  // the range the tolerance accepts.
  await teacher.getByTestId('author-answer').filter({ hasText: /nothing yet/ }).waitFor();
  await teacher.getByTestId('to-measured-end').click();
  await teacher.waitForFunction(() => document.querySelector('[data-testid=sim-time]').innerText === '60.000 ms', null, { timeout: 60_000 });
  await teacher.getByTestId('author-measure').click();
  const told = await teacher.getByTestId('author-answer').filter({ hasText: /answers from/ }).innerText();
  const [, teacherPct, lo, hi] = told.match(/^(\d+\.\d)%: answers from (-?\d+\.\d)% to (\d+\.\d)% count/).map(Number);
  // The card shows every part of the exercise the students will get.
  assert.equal(await teacher.getByTestId('author-card').getByTestId('card-question').innerText(), 'How busy is the inter-switch link while the victim runs?');
  assert.equal(await teacher.getByTestId('author-card').getByTestId('card-measured').innerText(), 'utilization of A->B, 40-60 ms');
  assert.equal(await teacher.getByTestId('author-card').getByTestId('card-fixed').innerText(), 'Window (packets): 1');
  assert.equal(await teacher.getByTestId('author-card').getByTestId('card-hint').innerText(), 'none');
  assert.match(await teacher.getByTestId('author-card').getByTestId('card-explanation').innerText(), /A->B never blocks/);
  assert.ok(Math.abs(hi - lo - 8) < 0.11, `±4 points: ${told}`);
  await teacher.getByTestId('author-answer').scrollIntoViewIfNeeded();
  await teacher.screenshot({ path: join(OUTPUT, 'exercise-author.png') });
  // Edited after: the form says the link still carries the scenario as made, and does not measure another run.
  assert.equal(await teacher.getByTestId('author-changed-since').count(), 0);
  await setField(teacher, 'input-buffer', '8');
  await openTab(teacher, 'lesson');
  await teacher.getByTestId('author-changed-since').waitFor();
  assert.ok(await teacher.getByTestId('author-measure').isDisabled());
  await setField(teacher, 'input-buffer', '4');
  await openTab(teacher, 'lesson');
  await teacher.getByTestId('author-changed-since').waitFor({ state: 'detached' });
  assert.ok(await teacher.getByTestId('author-measure').isEnabled());
  // Preview as a student: the link, in a new tab.
  const [preview] = await Promise.all([teacher.context().waitForEvent('page'), teacher.getByTestId('author-preview').click()]);
  await preview.getByTestId('exercise-question').filter({ hasText: /inter-switch link while the victim runs/ }).waitFor();
  await preview.close();

  const student = await openPage(browser, link);
  assert.match(await student.getByTestId('exercise-question').innerText(), /inter-switch link while the victim runs/);
  assert.match(await student.locator('.exercise .muted').innerText(), /utilization of A->B, 40-60 ms. Fixed: 'Window \(packets\)'/);
  // A student's page from the link leaves the teachers' tools out.
  assert.equal(await student.getByTestId('author').count() + await student.getByTestId('class-answers').count(), 0);
  // "Go to the measured end" runs to where the answer is read.
  await student.getByTestId('exercise-to-end').click();
  await student.waitForFunction(() => document.querySelector('[data-testid=sim-time]').innerText === '60.000 ms', null, { timeout: 60_000 });
  await student.getByTestId('exercise-answer').fill('10');
  // No hint written: a reminder and a second try, as the lessons' own exercises give; then the value.
  assert.match(await check(student), /^Not quite\. A hint: Look again at what the exercise measures and over which interval/);
  await student.getByTestId('exercise-answer').fill('11');
  const verdict = await check(student);
  assert.match(verdict, /Not quite\. The run gives (\d+\.\d)%/);
  const truth = Number(verdict.match(/gives (\d+\.\d)%/)[1]);
  assert.equal(truth, teacherPct, "the student's run gives what the teacher was told");
  await student.getByTestId('exercise-answer').fill(`${truth + 3}%`);
  assert.match(await check(student), /^Right\./);
  await screenshot(student, 'exercise-from-teacher');

  const broken = await openPage(browser, server.url + '#x=1.AAAA');
  assert.match(await broken.getByTestId('exercise-link-error').innerText(), /could not be opened: .*damaged/);
  assert.deepEqual([...teacher.errors, ...student.errors, ...broken.errors], []);
});

test('a lesson opens the Finc(t) explorer and the place is kept on return', async () => {
  const page = await openPage(browser, server.url);
  await page.getByTestId('lesson-picker').selectOption({ label: '9. Source-response functions and recovery time' });
  await page.getByTestId('lesson-open-finc').click();
  await page.getByTestId('finc-plot').waitFor();
  await page.getByTestId('tab-playground').click();
  assert.equal(await page.getByTestId('lesson-picker').inputValue(), '8');
  assert.match(await page.getByTestId('lesson-text').innerText(), /Finc\(t\) explorer/);
  assert.match(await page.getByLabel('Scenario').locator('option:checked').innerText(), /^For the lesson: LIPD with static traffic over 500 ms, INFOCOM'03 Fig\. 6$/);
  assert.deepEqual(page.errors, []);
});

test('a teacher makes a sheet of two exercises; a student answers both and the class table shows the verdicts', async () => {
  const teacher = await openPage(browser, server.url);
  const author = async (preset, question, what) => {
    await teacher.getByLabel('Scenario').selectOption(preset);
    // Another network under a filled form: the form asks what to keep.
    if (await teacher.getByTestId('author-scenario-changed').count()) await teacher.getByTestId('author-start-fresh').click();
    await teacher.getByTestId('author-question').fill(question);
    await teacher.getByTestId('author-what').selectOption(what);
    await teacher.getByTestId('author-from').fill('40');
    await teacher.getByTestId('author-to').fill('60');
    await teacher.getByTestId('author-tolerance').fill('3');
    await teacher.getByTestId('author-make').click();
    await teacher.getByTestId('author-add').click();
  };
  await teacher.getByText('Make an exercise from this scenario').click();
  await author('infocom03-fig3b', 'With one remote flow, how busy is A->B while the victim runs?', 'link:A->B');
  await author('infocom03-fig3c', 'With five remote flows, what share does the victim get?', 'group:victim');
  assert.equal(await teacher.getByTestId('author-sheet-item').count(), 2);
  await teacher.getByTestId('author-sheet-title').fill('Week 3: windows');
  const link = await linkOf(teacher, 'author-sheet-link');
  assert.match(link, /#x=1\./);
  // The sheet survives a reload of the teacher's page.
  await teacher.reload();
  await teacher.getByText('Make an exercise from this scenario').click();
  assert.equal(await teacher.getByTestId('author-sheet-item').count(), 2);
  // Preview as a student: the sheet in a new tab.
  const [preview] = await Promise.all([teacher.context().waitForEvent('page'), teacher.getByTestId('author-sheet-preview').click()]);
  await preview.getByTestId('sheet-title').filter({ hasText: 'Week 3: windows' }).waitFor();
  await preview.close();

  // The student answers each exercise on its own scenario: wrong, wrong (the value), right.
  const student = await openPage(browser, link);
  assert.equal(await student.getByTestId('sheet-title').innerText(), 'Week 3: windows');
  const answer = async (n, question) => {
    await student.getByTestId(`sheet-${n}`).click();
    await student.getByTestId('exercise-question').filter({ hasText: question }).waitFor();
    await student.getByTestId('exercise-to-end').click();
    await student.waitForFunction(() => document.querySelector('[data-testid=sim-time]').innerText === '60.000 ms', null, { timeout: 60_000 });
    await student.getByTestId('exercise-answer').fill('-50');
    assert.match(await check(student), /^Not quite\./);
    const value = (await check(student)).match(/gives (-?\d+\.\d)%/)[1];
    await student.getByTestId('exercise-answer').fill(value);
    assert.match(await check(student), /^Right\./);
  };
  await answer(1, /how busy is A->B/);
  await answer(2, /what share does the victim get/);
  assert.deepEqual(await student.locator('.sheet-pager button').allInnerTexts(), ['Exercise 1 ✓', 'Exercise 2 ✓']);
  await screenshot(student, 'sheet-student');
  await student.getByTestId('student-name').fill('Cleo');
  const [download] = await Promise.all([student.waitForEvent('download'), student.getByTestId('export-answers').click()]);

  await teacher.getByText('Class answers (teachers)').click();
  await teacher.getByTestId('class-files').setInputFiles([await download.path()]);
  await teacher.getByTestId('class-table').waitFor();
  const rows = await teacher.getByTestId('class-row').allInnerTexts();
  assert.equal(rows.length, 6);
  assert.equal(rows.filter((r) => /^Cleo\s.*\bright\b/.test(r.trim())).length, 2, rows.join('\n'));
  assert.equal(rows.filter((r) => /^Cleo\s.*\bwrong\b/.test(r.trim())).length, 4, rows.join('\n'));
  // At a glance: each student's outcome per exercise, wider than the side panel when opened wide.
  assert.match(await teacher.getByTestId('class-summary-row').innerText(), /^Cleo\s+1st ✗ -50\.0% · in the end ✓ right \(3 answers\)\s+1st ✗ -50\.0% · in the end ✓ right \(3 answers\)$/);
  assert.deepEqual(await teacher.getByTestId('class-cell').evaluateAll((cells) => cells.map((c) => [c.dataset.first, c.dataset.final])), [['wrong', 'right'], ['wrong', 'right']]);
  await teacher.getByTestId('class-wide').click();
  const box = await teacher.getByTestId('class-table').boundingBox();
  assert.ok(box.width > 600, `the wide table is ${box.width}px wide`);
  await screenshot(teacher, 'class-table-wide');
  assert.deepEqual([...teacher.errors, ...student.errors], []);
});

test('what a step points at comes into view: the zoom lets go of it; on a phone "Show me" switches views', async () => {
  const page = await openPage(browser, server.url, { viewport: { width: 1024, height: 768 } });
  await page.getByTestId('start-explore').click();
  await page.getByTestId('lesson-picker').selectOption({ label: '3. Congestion spreading and its victims' });
  await page.locator('.lesson-flow').first().waitFor({ state: 'attached' });
  const fitted = await page.getByTestId('topology').getAttribute('data-viewbox');
  // Zoomed in on the middle, the victim's hosts at the edges are out of view...
  for (let i = 0; i < 5; i++) await page.getByTestId('zoom-in').click();
  assert.notEqual(await page.getByTestId('topology').getAttribute('data-viewbox'), fitted);
  await page.getByTestId('lesson-next').click();
  await page.getByTestId('lesson-back').click();
  // ...so pointing at the victim again shows the whole network.
  await page.waitForFunction((v) => document.querySelector('[data-testid=topology]').getAttribute('data-viewbox') === v, fitted);

  const phone = await openPage(browser, server.url, { viewport: { width: 390, height: 844 } });
  await phone.getByTestId('start-lesson').click();
  assert.equal(await phone.getByTestId('phone-lesson').getAttribute('aria-pressed'), 'true');
  await phone.getByTestId('lesson-show').click();
  assert.equal(await phone.getByTestId('phone-network').getAttribute('aria-pressed'), 'true');
  await phone.getByTestId('highlight-B->BC').waitFor({ state: 'attached' });
  assert.ok(await phone.getByTestId('topology').isVisible());
  assert.deepEqual([...page.errors, ...phone.errors], []);
});

test('a teacher\'s form asks what to keep when another network is loaded, and the sheet shows every part', async () => {
  const teacher = await openPage(browser, server.url);
  await teacher.getByLabel('Scenario').selectOption('a10-two-switch');
  await teacher.getByText('Make an exercise from this scenario').click();
  await teacher.getByTestId('author-question').fill('What share does the victim get under Annex A10?');
  await teacher.getByTestId('author-what').selectOption('group:victim');
  await teacher.getByTestId('author-hint').fill('Which flows does A10 throttle?');
  await teacher.getByTestId('author-explanation').fill('A10 throttles the contributors.');
  await teacher.getByTestId('author-lock-ib_cc').check();
  await teacher.getByTestId('author-make').click();
  assert.equal(await teacher.getByTestId('author-card').getByTestId('card-fixed').innerText(), 'Every setting; InfiniBand Annex A10: on');
  await teacher.getByTestId('author-add').click();

  // PFT now: the A10 exercise's measure and locks do not ride along unasked.
  await teacher.getByLabel('Scenario').selectOption('pft-two-switch');
  await teacher.getByTestId('author-scenario-changed').waitFor();
  assert.ok(await teacher.getByTestId('author-make').isDisabled());
  await teacher.getByTestId('author-keep-text').click();
  assert.equal(await teacher.getByTestId('author-hint').inputValue(), 'Which flows does A10 throttle?');
  assert.equal(await teacher.getByTestId('author-lock-ib_cc').isChecked(), false);
  assert.equal(await teacher.getByTestId('author-what').inputValue(), '');
  await teacher.getByTestId('author-question').fill('What share does the victim get under PFT?');
  await teacher.getByTestId('author-hint').fill('');
  await teacher.getByTestId('author-explanation').fill('PFT throttles at the NIC.');
  await teacher.getByTestId('author-what').selectOption('group:victim');
  await teacher.getByTestId('author-make').click();
  assert.equal(await teacher.getByTestId('author-card').getByTestId('card-fixed').innerText(), 'Every setting');
  assert.match(await teacher.getByTestId('author-card').getByTestId('card-scenario').innerText(), /Proactive Flow Throttling/);
  await teacher.getByTestId('author-add').click();
  // The sheet: each exercise's parts, open to read.
  const items = teacher.getByTestId('author-sheet-item');
  assert.equal(await items.count(), 2);
  for (let i = 0; i < 2; i++) await items.nth(i).locator('summary').click();
  assert.match(await items.nth(0).innerText(), /InfiniBand Annex A10: on[\s\S]*Which flows does A10 throttle\?[\s\S]*A10 throttles the contributors/);
  const second = await items.nth(1).innerText();
  assert.doesNotMatch(second, /A10/);
  assert.match(second, /Hint\s+none[\s\S]*PFT throttles at the NIC/);
  assert.deepEqual(teacher.errors, []);
});

test('the student preview keeps to its own tab: the teacher\'s saved work is as it was', async () => {
  const teacher = await openPage(browser, server.url);
  await teacher.getByLabel('Scenario').selectOption('infocom03-fig3b');
  await teacher.getByText('Make an exercise from this scenario').click();
  await teacher.getByTestId('author-question').fill('How busy is A->B?');
  await teacher.getByTestId('author-what').selectOption('link:A->B');
  await teacher.getByTestId('author-make').click();
  await linkOf(teacher, 'author-link');
  const saved = await teacher.evaluate(() => ({ ...localStorage }));
  const [preview] = await Promise.all([teacher.context().waitForEvent('page'), teacher.getByTestId('author-preview').click()]);
  await preview.getByTestId('exercise-question').waitFor();
  assert.match(preview.url(), /\?preview\b/, 'opened as a preview (the exercise read from the link)');
  await preview.getByTestId('preview-banner').waitFor();
  await preview.getByTestId('exercise-to-end').click();
  await preview.waitForFunction(() => document.querySelector('[data-testid=sim-time]').innerText === '60.000 ms', null, { timeout: 60_000 });
  await preview.getByTestId('exercise-answer').fill('50');
  await check(preview);
  await preview.getByTestId('student-name').fill('Pat');
  await preview.close();
  assert.deepEqual(await teacher.evaluate(() => ({ ...localStorage })), saved, 'nothing the preview did reached localStorage');
  await teacher.reload();
  assert.doesNotMatch(await teacher.getByLabel('Scenario').locator('option:checked').innerText(), /teacher's exercise/i);
  assert.equal(await teacher.getByTestId('export-answers').count(), 0);
  assert.deepEqual(teacher.errors, []);
});

test('the class table gathers answer files opened one after another, and exports CSV', async () => {
  const answer = (exercise, question, at, pct, right) => ({ exercise, question, answer_pct: pct, simulated_pct: 14.2, right, at, scenario_digest: '00ff00ff00ff00ff' });
  const file = async (name, student, answers) => {
    const path = join(tmpdir(), name);
    await writeFile(path, JSON.stringify({ student, exported_at: '2026-11-26T09:00:00Z', answers }));
    return path;
  };
  const a = await file('class-a.json', 'Ada', [answer('t-1', 'How busy is A->B?', '2026-11-26T09:01:00Z', 40, false), answer('t-1', 'How busy is A->B?', '2026-11-26T09:02:00Z', 14, true)]);
  const b = await file('class-b.json', 'Ben', [answer('t-2', 'What share does the victim get?', '2026-11-26T09:03:00Z', 15, true)]);
  const teacher = await openPage(browser, server.url);
  await teacher.getByText('Class answers (teachers)').click();
  await teacher.getByTestId('class-files').setInputFiles([a]);
  await teacher.getByTestId('class-table').waitFor();
  await teacher.getByTestId('class-files').setInputFiles([b]);
  await teacher.waitForFunction(() => document.querySelectorAll('[data-testid=class-summary-row]').length === 2);
  // The same file again adds nothing.
  await teacher.getByTestId('class-files').setInputFiles([a]);
  await teacher.getByTestId('class-file-list').filter({ hasText: /^2 files open/ }).waitFor();
  assert.equal(await teacher.getByTestId('class-row').count(), 3);
  const heads = await teacher.getByTestId('class-summary').locator('thead th').evaluateAll((ths) => ths.map((t) => [t.firstChild.textContent, t.title]));
  assert.deepEqual(heads.slice(1), [['Exercise 1', 'How busy is A->B?'], ['Exercise 2', 'What share does the victim get?']]);
  assert.match(await teacher.getByTestId('class-summary-row').first().innerText(), /^Ada\s+1st ✗ 40\.0% · in the end ✓ right \(2 answers\)\s+not tried$/);
  const [download] = await Promise.all([teacher.waitForEvent('download'), teacher.getByTestId('class-export-csv').click()]);
  assert.equal(download.suggestedFilename(), 'ibcc-class.csv');
  const csv = (await readFile(await download.path(), 'utf8')).trim().split('\n');
  assert.equal(csv.length, 4);
  assert.match(csv[1], /^Ada,class-a\.json,Exercise 1,t-1,How busy is A->B\?,1,40\.00,14\.20,wrong,yes,/);
  await teacher.getByTestId('class-clear').click();
  assert.equal(await teacher.getByTestId('class-table').count(), 0);
  assert.deepEqual(teacher.errors, []);
});

test('lesson 14 shows the paper\'s run, and holds back A->B once the student\'s run is the exercise\'s own', async () => {
  const page = await openPage(browser, server.url);
  await page.getByTestId('lesson-picker').selectOption({ label: '14. What a paper leaves unsaid' });
  await page.waitForFunction(() => document.querySelector('[data-testid=sim-time]').innerText === '60.000 ms', null, { timeout: 60_000 });
  // Oldest first, as the paper's switch: not the exercise's run, so A->B's 32.5% is there to read.
  assert.equal(await page.getByTestId('plot-panel').getAttribute('data-hidden'), null);
  await page.getByTestId('lesson-next').click();
  await openTab(page, 'settings');
  const section = page.locator('details', { has: page.getByTestId('input-arbitration') });
  if ((await section.getAttribute('open')) === null) await section.locator('summary').click();
  await page.getByTestId('input-arbitration').selectOption('round_robin');
  // (A change of the switches' arbiter needs a new run: the page asks.)
  await page.getByTestId('restart').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=plot-panel]').getAttribute('data-hidden') === 'A->B', null, { timeout: 20_000 });
  await runPast(page, 60);
  await openTab(page, 'results');
  const row = page.getByTestId('links-table').locator('tr', { hasText: 'A->B' }).first();
  assert.match(await row.innerText(), /hidden until you answer/);
  assert.deepEqual(page.errors, []);
});

test('lesson 13\'s A/B holds back what its exercise asks of run A until it is answered', async () => {
  const page = await openPage(browser, server.url);
  await page.getByTestId('lesson-picker').selectOption({ label: '13. ECN marking, PFT and Annex A10 side by side' });
  await page.getByTestId('lesson-next').click();
  await page.getByTestId('compare-lesson').waitFor();
  await page.waitForFunction(() => Number(document.querySelector('[data-testid=compare-progress]').value) >= 1, null, { timeout: 90_000 });
  const row = await page.getByTestId('compare-results').locator('tr', { hasText: 'victim flows throughput' }).locator('td').allInnerTexts();
  assert.deepEqual([row[0], row[2]], ['hidden until you answer', '-'], `A's victim and B - A: ${row}`);
  assert.match(row[1], /\d+\.\d%/, "B's is shown");
  assert.deepEqual(page.errors, []);
});

test('lesson 2\'s exercise holds back every link and group that carries its one flow, not only A->B', async () => {
  const page = await openPage(browser, server.url);
  await page.getByTestId('lesson-picker').selectOption({ label: '2. Long links need deep buffers' });
  await page.getByTestId('exercise-load').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=sim-time]').innerText === '0.000 ms');
  await runPast(page, 10);
  // The flow from A1 crosses A1->A, A->B and B->BC: each shows A->B's rate, and so does its group's curve.
  await openTab(page, 'results');
  for (const link of ['A1->A', 'A->B', 'B->BC']) {
    const row = page.getByTestId('links-table').locator('tr', { has: page.locator('th', { hasText: new RegExp(`^${link}$`) }) });
    assert.match(await row.innerText(), /hidden until you answer/, link);
  }
  assert.match(await page.getByTestId('group-long').innerText(), /hidden until you answer/);
  assert.doesNotMatch(await page.getByTestId('links-table').innerText(), /\d+\.\d%/, 'no rate of its links shown');
  // The plot's curves too (its CSV holds what it draws).
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  const header = (await readFile(await csv.path(), 'utf8')).split('\n')[0];
  assert.match(header, /long flows: hidden/, header);
  assert.doesNotMatch(header.replace(/[^,]*: hidden/g, ''), /long flows|A1->A|B->BC/, header);
  assert.deepEqual(page.errors, []);
});
