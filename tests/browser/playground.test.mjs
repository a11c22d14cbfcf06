// The playground as a person uses it: pick a scenario, run it, watch link rates and results move, pause, step,
// reset; and every preset runs briefly without a console error.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { serveDist, closePages, launchBrowser, openPage, screenshot, openTab, setField, pause, simMs, waitSim, nodeAt } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
afterEach(() => closePages());
after(async () => { await browser?.close(); await server?.close(); });

const rate = async (page, link) => parseFloat(await page.getByTestId(`link-${link}`).getAttribute('data-rate'));

test('run a preset, watch it move, pause, step and reset', async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('infocom03-fig2');
  await page.getByLabel('Speed').selectOption({ label: '10 ms/s' });
  assert.equal(await simMs(page), 0);
  await page.getByRole('button', { name: 'Run' }).click();
  await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) > 5);
  // The root link B->BC saturates; the results table fills in.
  await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid="link-B->BC"]').getAttribute('data-rate')) > 0.9);
  assert.ok(await rate(page, 'B->BC') > 0.9);
  await openTab(page, 'results');
  await page.getByTestId('group-local').waitFor();
  assert.match(await page.getByTestId('totals').innerText(), /dropped 0/);
  // The rate plot is drawn (its canvas is not blank) and redrawn as the run goes on.
  const plot = async () => page.getByTestId('rate-plot').evaluate((c) => c.toDataURL());
  const first = await plot();
  await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) > 12);
  await page.waitForTimeout(300);
  assert.notEqual(await plot(), first, 'the plot follows the run');
  await screenshot(page, 'playground-running');

  // Paused once the worker says so (a frame or two may still have been under way).
  await pause(page);
  const paused = await simMs(page);

  // The plot's data as CSV and the plot as PNG, downloaded as a person would.
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
  const csvText = await readFile(await csv.path(), 'utf8');
  assert.match(csvText.split('\n')[0], /^time_ms,B->BC,A->B,local flows \(sum of 5\),remote flows,victim flows$/);
  assert.ok(csvText.split('\n').length > 20, 'a row per sample');
  const [png] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-png').click()]);
  const pngBytes = await readFile(await png.path());
  assert.equal(pngBytes.subarray(1, 4).toString(), 'PNG');
  // Per-flow results.
  await page.getByTestId('results-table').getByText(/^Flows \(7\)$/).click();
  assert.match(await page.getByTestId('flow-row-victim').innerText(), /victim[\s\S]*\d+\.\d%/, 'its throughput is shown');
  await page.waitForTimeout(300);
  assert.equal(await simMs(page), paused, 'paused time stands still');
  await page.getByRole('button', { name: 'Step' }).click();
  await page.waitForFunction((t) => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) > t, paused);
  await page.getByRole('button', { name: 'Reset' }).click();
  await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) === 0);
  assert.deepEqual(page.errors, []);
});

test('every preset runs briefly without errors', async () => {
  const page = await openPage(browser, server.url);
  const names = await page.getByLabel('Scenario').locator('option').evaluateAll((os) => os.map((o) => o.value));
  assert.ok(names.length >= 15, `presets: ${names}`);
  // Listed by what they show; the ids stay in the values (links, files, the command line).
  const labels = await page.getByLabel('Scenario').locator('option').evaluateAll((os) => os.map((o) => o.textContent));
  assert.ok(labels.includes("Congestion spreading, INFOCOM'03 Fig. 2"), labels.join(' | '));
  await openTab(page, 'results');
  for (const name of names) {
    await page.getByLabel('Scenario').selectOption(name);
    await page.getByRole('button', { name: 'Run' }).click();
    // (A third of a millisecond: the ring that deadlocks stops at 0.5 ms, by design.)
    await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) > 0.3);
    const pause = page.getByRole('button', { name: 'Pause' });
    if (await pause.count()) await pause.click();
    assert.match(await page.getByTestId('totals').innerText(), /dropped 0/, name);
  }
  await screenshot(page, 'playground-last-preset');
  assert.deepEqual(page.errors, []);
});

test('parameter changes while running: marking applies at once, others offer a restart; bad values are refused', async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('infocom03-fig2');
  await page.getByLabel('Speed').selectOption({ label: '10 ms/s' });
  await page.getByRole('button', { name: 'Run' }).click();
  await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) > 2);
  await openTab(page, 'results');
  assert.match(await page.getByTestId('totals').innerText(), /marked 0$/, 'no congestion control: nothing marked');
  await openTab(page, 'settings');

  // A source response cannot change under a running source: the run pauses and offers a restart.
  await page.getByLabel('Source response', { exact: true }).selectOption('lipd');
  await page.getByTestId('restart').waitFor();
  assert.match(await page.getByTestId('notice').innerText(), /needs a new run/);
  assert.ok(await page.getByRole('button', { name: 'Run' }).isDisabled(), 'the old run waits');
  await page.getByTestId('restart').click();
  await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) === 0);

  // Marking applies to the run under way, from that moment: the clock does not go back, and marks appear.
  await page.getByRole('button', { name: 'Run' }).click();
  await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) > 2);
  await page.getByLabel('Marking policy', { exact: true }).selectOption('input_triggered');
  await page.getByTestId('notice').waitFor();
  assert.match(await page.getByTestId('notice').innerText(), /Marking changed at .* applies from then on/);
  assert.ok(await simMs(page) > 2, 'no restart');
  await openTab(page, 'results');
  await page.waitForFunction(() => /marked [1-9]/.test(document.querySelector('[data-testid=totals]').textContent));
  await openTab(page, 'settings');
  // What cnt1 counts is a marking setting too: recounted from the buffers, it applies without a restart.
  const before = await simMs(page);
  await page.getByLabel('A packet counts as waiting for its output (cnt1) until').selectOption('departure');
  assert.equal(await page.getByTestId('restart').count(), 0, 'no restart offered');
  assert.ok(await simMs(page) >= before, 'the clock does not go back');
  await page.waitForFunction((t) => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) > t + 1, before);
  await page.getByRole('button', { name: 'Pause' }).click();

  // A bad value: refused next to its field, the scenario unchanged.
  await page.getByLabel('Decrease factor m', { exact: true }).fill('0.5');
  await page.getByTestId('error-m').waitFor();
  assert.match(await page.getByTestId('error-m').innerText(), /greater than 1/);
  await page.getByLabel('Decrease factor m', { exact: true }).fill('abc');
  assert.match(await page.getByTestId('error-m').innerText(), /not a number/);
  await page.getByLabel('Decrease factor m', { exact: true }).fill('4');
  await page.waitForFunction(() => !document.querySelector('[data-testid=error-m]'));
  await screenshot(page, 'playground-params');

  // How an output chooses among its inputs is built into the switches: changing it offers a new run, and it is kept.
  await page.getByText('Network and run').click();
  await page.getByLabel('Output serves').selectOption('round_robin');
  await page.getByTestId('restart').waitFor();
  await page.getByTestId('restart').click();
  await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) === 0);
  assert.equal(await page.getByLabel('Output serves').inputValue(), 'round_robin');
  assert.deepEqual(page.errors, []);
});

test('generate a two-switch network, a parking lot and a fat tree, and run them', async () => {
  const page = await openPage(browser, server.url);
  await openTab(page, 'settings');
  await page.getByText('Generate a network').click();
  await page.getByLabel('L (local sources)').fill('0');
  await page.getByRole('button', { name: 'Generate' }).click();
  assert.match(await page.getByTestId('generate-error').innerText(), /^L \(local sources\) must be a whole number from 1 to 64$/);
  await page.getByLabel('L (local sources)').fill('3');
  await page.getByLabel('R (remote sources)').fill('2');
  await page.getByRole('button', { name: 'Generate' }).click();
  await page.getByTestId('node-A2').waitFor();
  // The picker says what is loaded.
  assert.match(await page.getByLabel('Scenario').locator('option:checked').innerText(), /^Generated: two-switch L=3 R=2/);
  assert.equal(await page.getByTestId('node-B3').count(), 1);
  assert.equal(await page.getByTestId('node-B4').count(), 0);

  await page.getByLabel('Shape').selectOption('parking_lot');
  await page.getByLabel('Switches').fill('5');
  await page.getByRole('button', { name: 'Generate' }).click();
  await page.getByTestId('node-S5').waitFor();
  await page.getByLabel('Speed').selectOption({ label: '10 ms/s' });
  await page.getByRole('button', { name: 'Run' }).click();
  await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) > 2);
  await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid="link-S5->D"]').getAttribute('data-rate')) > 0.9);
  await page.getByRole('button', { name: 'Pause' }).click();

  await page.getByLabel('Shape').selectOption('fat_tree');
  await page.getByLabel('k', { exact: true }).fill('4');
  await page.getByRole('button', { name: 'Generate' }).click();
  await page.getByTestId('node-c3').waitFor();
  await screenshot(page, 'playground-generated-fat-tree');
  assert.deepEqual(page.errors, []);
});

test("HP's root-VL marking runs in the page, and on Fig. 4 gives exactly input-triggered marking's run", async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('hp-two-switch');
  await openTab(page, 'settings');
  assert.equal(await page.getByLabel('Marking policy', { exact: true }).inputValue(), 'hp_root_vl');
  const measured = async () => {
    await page.getByTestId('to-measured-end').click();
    await waitSim(page, 60);
    await openTab(page, 'results');
    const rows = {};
    for (const g of ['victim', 'remote', 'local']) rows[g] = await page.getByTestId(`group-${g}`).innerText();
    return { rows, totals: await page.getByTestId('totals').innerText() };
  };
  const hp = await measured();
  assert.ok(parseInt(hp.totals.match(/marked (\d+)/)[1]) > 0, hp.totals);
  await openTab(page, 'settings');
  await page.getByLabel('Marking policy', { exact: true }).selectOption('input_triggered');
  await page.getByRole('button', { name: 'Reset' }).click();
  await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) === 0);
  assert.deepEqual(await measured(), hp, 'the same run, number for number');
  assert.deepEqual(page.errors, []);
});

test('ACK coalescing: "ACK every 8" sends about one ACK per eight packets, and the results say so', async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('infocom03-fig2');
  await openTab(page, 'settings');
  await page.getByLabel('ACK every').fill('8');
  await page.getByLabel('ACK every').press('Enter');
  await page.getByTestId('to-measured-end').click();
  await waitSim(page, 60);
  await openTab(page, 'results');
  const totals = await page.getByTestId('totals').innerText();
  const [, acks, acked] = totals.match(/(\d+) ACK packets for (\d+) packets acknowledged/).map(Number);
  // No flow here has a window (no AckReq) or marks: one ACK per eight packets, the last few still to come.
  assert.ok(acked > 1000 && Math.abs(acks - acked / 8) < 20, totals);
  assert.deepEqual(page.errors, []);
});

test('unreliable flows: the inspector shows the transport, a run sends CN packets for marks, and the choice edits the flow', async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('hp-unreliable-two-switch');
  await openTab(page, 'selection');
  await page.getByTestId('inspector').locator('summary').click(); // "Flows (21)"
  await page.getByTestId('pick-flow-victim').click();
  assert.equal(await page.getByLabel('Transport', { exact: true }).inputValue(), 'unreliable');
  await page.getByTestId('to-measured-end').click();
  await waitSim(page, 60);
  await openTab(page, 'results');
  const totals = await page.getByTestId('totals').innerText();
  const marked = +totals.match(/marked (\d+)/)[1], cn = +totals.match(/(\d+) CN packets/)[1];
  assert.ok(cn > 0 && cn <= marked, totals);
  await openTab(page, 'selection');
  await page.getByLabel('Transport', { exact: true }).selectOption('reliable');
  assert.equal(await page.getByLabel('Transport', { exact: true }).inputValue(), 'reliable');
  // The parameters set every flow's at once: one flow changed makes a mix; all reliable, a run sends no CN packet.
  await openTab(page, 'settings');
  assert.equal(await page.getByLabel('Transport of every flow', { exact: true }).inputValue(), 'mixed');
  await page.getByLabel('Transport of every flow', { exact: true }).selectOption('reliable');
  await page.getByTestId('restart').click();
  await page.getByTestId('to-measured-end').click();
  await waitSim(page, 60);
  await openTab(page, 'results');
  assert.doesNotMatch(await page.getByTestId('totals').innerText(), /[1-9]\d* CN packets/);
  assert.deepEqual(page.errors, []);
});

test('virtual lanes: the victim on its own VL keeps its share, buffers show a stripe per VL, and SL, Data VLs and link weights edit the scenario', async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('vl-isolation-two-switch');
  await openTab(page, 'selection');
  await page.getByTestId('inspector').locator('summary').click(); // "Flows (7)"
  await page.getByTestId('pick-flow-victim').click();
  assert.equal(await page.getByLabel('Service level').inputValue(), '1');
  assert.match(await page.getByTestId('flow-vl').innerText(), /VL 1 of the network's 2 data VLs/);
  await page.getByTestId('to-measured-end').click();
  await waitSim(page, 60);
  // B's inter-switch input: VL 0 (the remote flow's) full, in two stripes; the inter-switch link blocked on VL 0
  // only, and the victim, alone on VL 1, no victim.
  const vl0 = Number(await page.getByTestId('buffer-B-A-vl0').getAttribute('data-fill'));
  assert.ok(vl0 > 0.9, `VL 0 at B from A is ${vl0} full`);
  await page.getByTestId('buffer-B-A-vl1').waitFor({ state: 'attached' });
  assert.equal(await page.locator('svg.topology path.flow.victim').count(), 0, 'no flow drawn as a victim');
  assert.ok(await page.locator('svg.topology path.flow.contributor').count() > 0, 'flows feeding the root');
  await openTab(page, 'results');
  const isolated = parseFloat((await page.getByTestId('group-victim').innerText()).match(/([\d.]+)%/)[1]);
  assert.ok(isolated > 49, `the victim on its own VL gets ${isolated}%`);

  // The victim back on VL 0 (its service level 0): it starves, as in Fig. 2.
  await openTab(page, 'selection');
  await page.getByLabel('Service level').fill('0');
  await page.getByLabel('Service level').press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid="flow-vl"]')?.innerText.includes('VL 0'));
  await page.getByTestId('restart').click();
  await page.getByTestId('to-measured-end').click();
  await waitSim(page, 60);
  await openTab(page, 'results');
  const shared = parseFloat((await page.getByTestId('group-victim').innerText()).match(/([\d.]+)%/)[1]);
  assert.ok(shared < 20, `the victim sharing VL 0 gets ${shared}%`);
  // At 60 ms it has just stopped, and a flow that does not send is no one's victim; back at 55 ms, while it runs,
  // it is drawn as one.
  assert.equal(await page.locator('svg.topology path.flow.victim').count(), 0, 'a stopped flow is no victim');
  const track = await page.getByTestId('timeline').locator('.track').boundingBox();
  await page.mouse.click(track.x + track.width * 0.55, track.y + track.height / 2);
  await page.waitForFunction(() => {
    const shown = document.querySelector('[data-testid=sim-time]').innerText;
    return !shown.endsWith('…') && Math.abs(parseFloat(shown) - 55) < 0.5;
  });
  await page.waitForFunction(() => document.querySelectorAll('svg.topology path.flow.victim').length === 1);

  // A link's VL weights, and Data VLs in the settings.
  const [ax, ay] = await nodeAt(page, 'B');
  const [bx, by] = await nodeAt(page, 'BV');
  await openTab(page, 'selection');
  await page.mouse.click((ax + bx) / 2, (ay + by) / 2);
  assert.match(await page.getByTestId('selection-title').innerText(), /^Link /);
  assert.equal(await page.getByLabel('VL 1 weight').getAttribute('placeholder'), '64');
  await page.getByLabel('VL 1 weight').fill('128');
  await page.getByLabel('VL 1 weight').press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid="input-sel-vl-weight-1"]').value === '128');
  await page.getByLabel('VL 1 weight').fill('300');
  await page.getByLabel('VL 1 weight').press('Enter');
  await page.getByText('a weight is 0 to 255 blocks').waitFor();
  await openTab(page, 'settings');
  assert.equal(await page.getByLabel('Data VLs').inputValue(), '2');
  assert.deepEqual(page.errors, []);
});

test('Annex A10 throttles: the flow rate limits plot falls below 100% for both A10 presets', async () => {
  for (const preset of ['a10-two-switch', 'a10-fattree4-hotspot']) {
    const page = await openPage(browser, server.url);
    await page.getByLabel('Scenario').selectOption(preset);
    await page.getByTestId('plot-kind').selectOption('limits');
    await page.getByLabel('Speed').selectOption({ label: 'as fast as possible' });
    await page.getByRole('button', { name: 'Run' }).click();
    // To the end of the run (20 or 100 ms).
    await page.waitForFunction(() => {
      const end = parseFloat(document.querySelector('.clock .end').innerText.replace('/', ''));
      return parseFloat(document.querySelector('[data-testid=sim-time]').innerText) >= end;
    }, null, { timeout: 60_000 });
    // The plotted numbers, as a person would download them: some group's mean rate limit is under 100%.
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
    const rows = (await readFile(await csv.path(), 'utf8')).trim().split('\n').slice(1);
    const values = rows.flatMap((r) => r.split(',').slice(1)).filter((v) => v !== '').map(Number);
    assert.ok(values.length > 10, `${preset}: ${rows.length} rows`);
    assert.ok(Math.min(...values) < 90, `${preset}: the lowest rate limit plotted is ${Math.min(...values)}%`);
    assert.deepEqual(page.errors, []);
  }
});

// A run that has ended makes way for a new one at a change of settings: the page says so (its results would
// otherwise vanish without a word), and the clock is back at 0.
test('a change after a run has ended starts a new run, and says so', async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('infocom03-fig2');
  await page.getByLabel('Speed').selectOption({ label: 'as fast as possible' });
  await page.getByRole('button', { name: 'Run' }).click();
  await waitSim(page, 100);
  await setField(page, 'input-buffer', '2');
  await page.getByTestId('notice').waitFor();
  assert.match(await page.getByTestId('notice').innerText(), /^A new run started with the change; the run that had ended at 100\.000 ms is gone/);
  assert.equal(await simMs(page), 0);
  assert.deepEqual(page.errors, []);
});

// A ring of six switches routed by minhop, every host sending two switches on with no window: the routes form a
// credit loop, the buffers fill and wait on each other, and the run stops at its first deadlock check (0.5 ms) and
// says so in plain words, naming the cycle (tests/golden/link-deadlock.txt: `ibcc link` of that scenario;
// core/tests/routing.rs checks the same run natively).
test('a run that deadlocks stops and says so, naming the cycle', async () => {
  const link = (await readFile(new URL('../golden/link-deadlock.txt', import.meta.url), 'utf8')).trim();
  const page = await openPage(browser, `${server.url}#s=${link}`);
  await page.getByLabel('Speed').selectOption({ label: 'as fast as possible' });
  await page.getByRole('button', { name: 'Run' }).click();
  const alert = page.getByTestId('deadlock');
  await alert.waitFor({ timeout: 15_000 });
  assert.match(await alert.innerText(), /^Deadlock by 0\.0\d\d ms: 48 packets of flows f0, f1, f2, f3, f4, f5 wait on each other round a cycle of 6 links \(the red arrows\) and can never move\. The run stopped at 0\.500 ms, where its check found them\./);
  await page.getByTestId('deadlock-cycle').locator('summary').click();
  const text = await alert.innerText();
  assert.match(text, /The cycle: s0 → s1 → s2 → s3 → s4 → s5 → s0\./);
  assert.match(text, /s0\. The last stuck packet came in at 0\.0\d\d ms; the run checks every 0\.5 ms\./);
  // The run ended before its scenario's measured interval: the timeline draws nothing past its end.
  const [width, viewport] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(width <= viewport, `no sideways overflow: ${width} > ${viewport}`);
  await screenshot(page, 'deadlock');
  assert.deepEqual(page.errors, []);
});

// The same ring routed by OpenSM's dfsssp on two data VLs (the link above, edited as a file would be): the routes
// are the same shortest paths, but dfsssp moves those that close the credit loop to the second lane and each
// flow's SL sends its packets there, so in the page too the run goes on to its end and every flow moves.
test('the same ring under dfsssp on two virtual lanes runs to its end, with no deadlock', async () => {
  const link = (await readFile(new URL('../golden/link-deadlock.txt', import.meta.url), 'utf8')).trim();
  const shared = JSON.parse(inflateRawSync(Buffer.from(link.slice(2), 'base64url')).toString('utf8'));
  shared.scenario.routing = { engine: 'dfsssp' };
  shared.scenario.virtual_lanes = { data_vls: 2 };
  const dfsssp = `1.${deflateRawSync(Buffer.from(JSON.stringify(shared))).toString('base64url')}`;
  const page = await openPage(browser, `${server.url}#s=${dfsssp}`);
  await page.getByLabel('Speed').selectOption({ label: 'as fast as possible' });
  await page.getByRole('button', { name: 'Run' }).click();
  const end = parseFloat((await page.locator('.clock .end').innerText()).replace('/', ''));
  await waitSim(page, end);
  assert.equal(await page.getByTestId('deadlock').count(), 0, 'no deadlock');
  await openTab(page, 'results');
  const text = await page.getByTestId('results-table').innerText();
  const shares = [...text.matchAll(/(\d+\.\d)%/g)].map((m) => parseFloat(m[1]));
  assert.ok(shares.length > 0 && shares.some((v) => v > 10), `flows move: ${text.slice(0, 300)}`);
  assert.deepEqual(page.errors, []);
});
