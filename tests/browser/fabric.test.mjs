// Real fabrics in the page, as a network engineer brings one: paste a public ibnetdiscover file, see its switches,
// hosts and links drawn in levels; a malformed file is refused by its line and the network stays; a generated
// 648-host fabric is drawn on one screen as a tree, not a strip; the routing engine is a setting.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { serveDist, closePages, launchBrowser, openPage, screenshot, openTab, runPast, pattern } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
afterEach(() => closePages());
after(async () => { await browser?.close(); await server?.close(); });

const X5 = new URL('../../core/tests/fabrics/X5.topofile', import.meta.url);
const FTREE_TABLES = new URL('./fixtures/fattree4-ftree.lfts.dump', import.meta.url);
const nodes = (page) => page.locator('svg.topology [data-testid^="node-"]');
const saved = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('ibcc.playground.scenario')));

/** Opens a page and generates a fabric with Settings > Generate a network (the size field is the first). */
async function generated(shape, size, last) {
  const page = await openPage(browser, server.url);
  await openTab(page, 'settings');
  await page.getByText('Generate a network').click();
  await page.getByLabel('Shape').selectOption(shape);
  await page.locator('#generate-a').fill(size);
  await page.getByRole('button', { name: 'Generate' }).click();
  await page.getByTestId(`node-${last}`).waitFor();
  return page;
}

/** Each drawn node's centre, by id, in view units (a folded group's as its switch's id with a "fold:" prefix). */
const centres = (page) => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('svg.topology [data-testid^="node-"], svg.topology [data-testid^="fold-"]')]
  .map((g) => { const b = g.getBBox(); return [g.dataset.testid.replace(/^node-/, '').replace(/^fold-/, 'fold:'), [b.x + b.width / 2, b.y + b.height / 2]]; })));

test('paste a public fabric: its switches, hosts and links, drawn in levels, hosts under their switch', async () => {
  const text = await readFile(X5, 'utf8');
  // What the file says, counted here independently of the page: a "Switch" or "Ca" line opens each node.
  const switches = text.split('\n').filter((l) => l.startsWith('Switch')).length;
  const cas = text.split('\n').filter((l) => l.startsWith('Ca')).length;
  const page = await openPage(browser, server.url);
  await openTab(page, 'settings');
  await page.getByText('Bring a fabric').click();
  await page.getByTestId('fabric-text').fill(text);
  await page.getByTestId('fabric-load').click();
  await page.getByTestId('fabric-counts').waitFor();
  const counts = await page.getByTestId('fabric-counts').innerText();
  const [, s, h] = counts.match(/(\d+) switches, (\d+) hosts, (\d+) links/).map(Number);
  assert.deepEqual([s, h], [switches, cas], counts);
  // Drawn: every switch, and every host on its own or in its switch's folded group (89 hosts: a switch's more than
  // four fold).
  const folded = (await page.locator('svg.topology [data-testid^="fold-"]').evaluateAll((gs) => gs.map((g) => g.getAttribute('aria-label'))))
    .map((t) => Number(t.match(/^(\d+) hosts/)[1]));
  assert.ok(folded.length > 0, 'some hosts are folded');
  assert.equal(await nodes(page).count() + folded.reduce((a, b) => a + b, 0), switches + cas);
  assert.match(await page.getByLabel('Scenario').locator('option:checked').innerText(), /pasted fabric/);

  // Levels: every host (or group of hosts) below every switch, each under (or near) the switch it hangs from.
  const at = await centres(page);
  const ids = Object.keys(at);
  const scenario = await saved(page);
  const kind = Object.fromEntries(scenario.nodes.map((n) => [n.id, n.kind]));
  const lowestSwitch = Math.max(...ids.filter((id) => kind[id] === 'switch').map((id) => at[id][1]));
  const below = ids.filter((id) => kind[id] === 'host' || id.startsWith('fold:'));
  assert.ok(below.length > 0 && below.every((id) => at[id][1] > lowestSwitch), 'hosts below the switches');
  for (const link of scenario.links) {
    const [host, sw] = kind[link.a] === 'host' ? [link.a, link.b] : [link.b, link.a];
    if (kind[host] !== 'host') continue;
    const spot = at[host] ?? at[`fold:${sw}`];
    assert.ok(spot, `${host} is drawn, alone or in ${sw}'s group`);
    assert.ok(Math.abs(spot[0] - at[sw][0]) < 200, `${host} under ${sw}`);
  }
  await screenshot(page, 'fabric-x5');
  assert.deepEqual(page.errors, []);
});

test('a malformed fabric is refused by its line, and the network stays', async () => {
  const page = await openPage(browser, server.url);
  const before = await nodes(page).count();
  const name = await page.getByLabel('Scenario').inputValue();
  await openTab(page, 'settings');
  await page.getByText('Bring a fabric').click();
  const good = (await readFile(X5, 'utf8')).split('\n');
  const at = good.findIndex((l) => l.startsWith('['));
  good[at] = '[1]\t"S-00000000"[x]';
  await page.getByTestId('fabric-text').fill(good.join('\n'));
  await page.getByTestId('fabric-load').click();
  const error = await page.getByTestId('fabric-error').innerText();
  assert.match(error, new RegExp(`^pasted fabric: line ${at + 1}: `), error);
  assert.equal(await nodes(page).count(), before, 'the drawing is the one before');
  assert.equal(await page.getByLabel('Scenario').inputValue(), name);
  // Dropping a file that is not a fabric: the same, named by the file.
  await page.getByTestId('fabric-file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello\n') });
  await page.waitForFunction(() => document.querySelector('[data-testid=fabric-error]').innerText.startsWith('notes.txt'));
  assert.match(await page.getByTestId('fabric-error').innerText(), /^notes\.txt: no Switch or Ca records: not a fabric file/);
  assert.equal(await nodes(page).count(), before);
  // Another network loaded: the refused text and its error are about none of it, and go.
  await page.getByLabel('Scenario').selectOption('infocom03-fig2');
  await page.getByTestId('fabric-error').waitFor({ state: 'detached' });
  assert.equal(await page.getByTestId('fabric-text').inputValue(), '');
  assert.deepEqual(page.errors, []);
});

test('a 648-host two-level fat tree is generated and fits one screen; the routing engine is a setting', async () => {
  const page = await openPage(browser, server.url, { viewport: { width: 1280, height: 720 } });
  await openTab(page, 'settings');
  await page.getByText('Generate a network').click();
  await page.getByLabel('Shape').selectOption('fabric_two_level');
  await page.getByLabel('K', { exact: true }).fill('7');
  await page.getByRole('button', { name: 'Generate' }).click();
  assert.match(await page.getByTestId('generate-error').innerText(), /K must be even, from 4 to 48/);
  await page.getByLabel('K', { exact: true }).fill('36');
  await page.getByRole('button', { name: 'Generate' }).click();
  await page.getByTestId('node-spine-17').waitFor();
  // The switches, and each leaf's 18 hosts as one group.
  assert.equal(await nodes(page).count(), 54);
  assert.equal(await page.locator('svg.topology [data-testid^="fold-"]').count(), 36);
  assert.match(await page.getByTestId('fold-leaf-3').getAttribute('aria-label'), /^18 hosts of leaf-3, folded/);
  // Its labels readable, as a map's: none under 11 screen pixels, none over another; the groups' counts as "18"
  // where "18 hosts" does not fit, on at least every other group, and some switches named.
  const labels = await page.locator('svg.topology .labels text').evaluateAll((ts) => ts.map((t) => {
    const r = t.getBoundingClientRect();
    return { text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a, r: [r.left, r.top, r.right, r.bottom] };
  }));
  assert.ok(labels.every((l) => l.px >= 10.9), labels.map((l) => l.px).join(' '));
  for (const [i, a] of labels.entries()) {
    for (const b of labels.slice(i + 1)) {
      const meet = a.r[0] < b.r[2] - 1 && b.r[0] < a.r[2] - 1 && a.r[1] < b.r[3] - 1 && b.r[1] < a.r[3] - 1;
      assert.ok(!meet, `${a.text} and ${b.text} overlap`);
    }
  }
  const texts = labels.map((l) => l.text);
  const counts = texts.filter((t) => t === '18 hosts' || t === '18');
  assert.ok(counts.length >= 18 && new Set(counts).size === 1, texts.join(' '));
  assert.ok(texts.filter((t) => /^(spine|leaf)-/.test(t)).length >= 10, texts.join(' '));
  // On one 1280x720 screen, as a tree: the spines on top, the leaves below them and the hosts at the bottom, the
  // levels well apart (the panel's height used, not a strip), and a switch still a visible box.
  const box = async (id) => page.getByTestId(`node-${id}`).boundingBox();
  const [spine, leaf] = [await box('spine-0'), await box('leaf-35')];
  const host = await page.getByTestId('fold-leaf-35').boundingBox();
  const svg = await page.locator('svg.topology').boundingBox();
  assert.ok(svg.y + svg.height <= 720 && svg.x + svg.width <= 1280, 'the drawing is on the screen');
  assert.ok(spine.y + spine.height < leaf.y && leaf.y + leaf.height < host.y, 'spines, leaves, hosts, top to bottom');
  assert.ok(host.y - spine.y > svg.height / 2, `levels spread over the panel: ${host.y - spine.y} of ${svg.height} px`);
  assert.ok(spine.width >= 4, `a switch is ${spine.width} px across`);
  await screenshot(page, 'fabric-twolevel-36');

  // Picking a group opens it: its hosts one by one, under their leaf, the one picked selected.
  await page.getByTestId('fold-leaf-3').click();
  await page.getByTestId('node-h-3-17').waitFor();
  assert.equal(await page.locator('svg.topology [data-testid^="node-h-3-"]').count(), 18);
  assert.equal(await page.getByTestId('fold-leaf-3').count(), 0);
  assert.equal(await page.locator('svg.topology [data-testid^="fold-"]').count(), 35);
  assert.match(await page.getByTestId('selection-title').innerText(), /^Host h-3-/);
  await screenshot(page, 'fabric-twolevel-36-open');

  // The routing engine is a setting, saved with the scenario.
  await openTab(page, 'settings');
  await page.locator('details', { hasText: 'Network and run' }).locator('summary').first().click();
  await page.getByLabel('Routing engine').selectOption('ftree');
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('ibcc.playground.scenario')).routing?.engine === 'ftree');
  assert.deepEqual(page.errors, []);
});

test('a hot spot over a shift on the 648-host fabric: its congestion tree painted on the layer, found among 684 flows', async () => {
  const page = await generated('fabric_two_level', '36', 'spine-17');
  const layer = page.getByTestId('live-layer');
  const painted = (what) => layer.getAttribute(`data-${what}`).then(Number);
  // A large network's live marks go on a canvas under the SVG, which keeps the nodes and groups (and no lanes).
  assert.equal(await layer.count(), 1);
  assert.equal(await page.locator('svg.topology [data-testid^="link-"]').count(), 0);
  await page.getByText('Network and run').click();
  await page.getByLabel('Routing engine').selectOption('ftree');
  await page.getByText('Traffic pattern').click();
  await pattern(page, 'shift', 18, 'flows');
  // The hot spot: 36 hosts spread over the leaves, added over the shift in a group of its own. ftree brings every
  // route to one host down one spine, so all 36 share spine-0's cable to leaf-0 (and the host's).
  assert.match(await pattern(page, 'hotspot', 36, 'add'), /^36 flows\. Busiest link: 36 routes \(spine-0->leaf-0\)/);
  const flows = saved(page).then((s) => s.flows);
  assert.equal((await flows).length, 684);
  assert.equal((await flows).filter((f) => f.group === 'hotspot').length, 36);
  await runPast(page, 0.3);
  // Every flow painted; the root (where the 36 meet) and the 37 flows feeding it found.
  assert.equal(await painted('flows'), 684);
  assert.ok(await painted('roots') >= 1, 'a root of the congestion tree');
  assert.equal(await painted('contributors'), 37, "the hot spot's 36 and the shift's flow into h-0-0");
  assert.ok(await painted('buffers') > 0 && await painted('full') > 0, 'buffers filling, some full');
  await screenshot(page, 'fabric-648-hotspot');
  // A flow picked in the results is painted with its route along its links.
  assert.equal(await painted('routes'), 0);
  await openTab(page, 'results');
  await page.getByTestId('results-table').locator('details > summary').click();
  await page.locator('[data-testid^="flow-row-"]').first().click();
  await page.waitForFunction(() => document.querySelector('[data-testid=live-layer]').getAttribute('data-routes') === '1');
});

test('a shift on a generated fat tree: its routes drawn and the busiest named, minhop against ftree; then run it', async () => {
  const page = await generated('fabric_fat_tree', '4', 'core-3');
  assert.equal(await nodes(page).count(), 16 + 20);

  const busiest = async () => {
    await page.getByTestId('pattern-show').click();
    const text = await page.getByTestId('pattern-summary').innerText();
    return [Number(text.match(/Busiest link: (\d+) routes?/)[1]), text];
  };
  await page.getByText('Traffic pattern').click();
  await page.getByLabel('Shift by K').fill('16');
  await page.getByTestId('pattern-show').click();
  assert.match(await page.getByTestId('pattern-error').innerText(), /shift must be a whole number from 1 to 15/);
  await page.getByLabel('Shift by K').fill('4');
  const [minhop, said] = await busiest();
  assert.match(said, /^16 flows\. /);
  // The drawing labels each lane with its routes; the busiest number is among them, none above it.
  const labels = (await page.locator('svg.topology [data-testid^="routes-"]').allTextContents()).map(Number);
  assert.equal(Math.max(...labels), minhop);
  // ... and the legend says what a lane's width means now.
  assert.match(await page.getByTestId('legend-rate').innerText(), /routes on a link/);

  // ftree lays a shift so that no channel carries two of its routes (core's tests check the same natively).
  await page.locator('details', { hasText: 'Network and run' }).locator('summary').first().click();
  await page.getByLabel('Routing engine').selectOption('ftree');
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('ibcc.playground.scenario')).routing?.engine === 'ftree');
  assert.equal(await page.locator('svg.topology [data-testid^="routes-"]').count(), 0, 'an edit drops the old routes');
  const [ftree] = await busiest();
  assert.equal(ftree, 1);
  assert.ok(minhop >= ftree, `minhop ${minhop}, ftree ${ftree}`);
  await screenshot(page, 'fabric-k4-shift-routes');
  // Another pattern chosen: the routes of the one before go, and with them its button (which made the old one).
  await page.getByLabel('Shift by K').fill('5');
  assert.equal(await page.getByTestId('pattern-summary').count(), 0);
  assert.equal(await page.getByTestId('pattern-flows').count(), 0);
  assert.equal(await page.locator('svg.topology [data-testid^="routes-"]').count(), 0);
  await page.getByLabel('Shift by K').fill('4');
  assert.equal((await busiest())[0], ftree);
  // A random permutation sends from every host, to another (a derangement: this seed's shuffle first drew a host
  // to itself, which left it sending nothing before).
  await page.getByLabel('Pattern').selectOption('permutation');
  const [, perm] = await busiest();
  assert.match(perm, /^16 flows\./);
  await page.getByLabel('Pattern').selectOption('shift');
  await page.getByLabel('Shift by K').fill('4');
  await busiest();

  // One click makes the pattern the flows; the run carries them.
  await page.getByTestId('pattern-flows').click();
  assert.equal((await saved(page)).flows.length, 16);
  await page.getByRole('button', { name: 'Run' }).click();
  await page.waitForFunction(() => parseFloat(document.querySelector('[data-testid=sim-time]').innerText) > 1);
  await page.getByRole('button', { name: 'Pause' }).click();
  assert.equal(await page.locator('svg.topology [data-testid^="routes-"]').count(), 0, 'a run shows its rates');
  assert.match(await page.getByTestId('legend-rate').innerText(), /link rate/);
  assert.deepEqual(page.errors, []);
});

test('a pattern of more flows than a scenario holds can be shown, and says so, but not made flows', async () => {
  // 288 hosts all-to-all: 82,656 flows, over the 65,536 a scenario may hold. Making them once froze the page for
  // 20 s to be refused.
  const page = await openPage(browser, server.url);
  await openTab(page, 'settings');
  await page.getByText('Generate a network').click();
  await page.getByLabel('Shape').selectOption('fabric_two_level');
  await page.locator('#generate-a').fill('24');
  await page.getByRole('button', { name: 'Generate' }).click();
  await page.getByTestId('fabric-counts').waitFor({ state: 'attached' });
  await page.getByText('Traffic pattern').click();
  await page.getByLabel('Pattern').selectOption('all_to_all');
  await page.getByTestId('pattern-show').click();
  assert.match(await page.getByTestId('pattern-summary').innerText(), /^82656 flows\./);
  assert.match(await page.getByTestId('pattern-too-many').innerText(), /^82656 flows are more than the 65536 a scenario may hold/);
  assert.ok(await page.getByTestId('pattern-flows').isDisabled());
  assert.ok(await page.getByTestId('pattern-add').isDisabled());
  assert.deepEqual(page.errors, []);
});

test('pick a host, choose another, and read the route hop by hop as ibtracert prints it, marked on the drawing', async () => {
  const page = await generated('fabric_fat_tree', '4', 'h-3-1-1');
  await page.getByTestId('node-h-0-0-0').click();
  await page.getByTestId('panel-selection').waitFor();
  await page.getByTestId('route-show').click();
  assert.match(await page.getByTestId('route-error').innerText(), /choose the host it goes to/);
  await page.getByTestId('route-to').selectOption('h-3-1-1');
  await page.getByTestId('route-show').click();
  const text = await page.getByTestId('tracert').innerText();
  const lines = text.trim().split('\n');
  // From the CA, the six ports entered (edge, aggregation, core, aggregation, edge, the CA), to the CA, each with
  // its node's LIDs, as `ibcc fabric path` prints it for the same file (core's tests hold them equal).
  assert.equal(lines.length, 8, text);
  assert.match(lines[0], /^From ca \{0x[0-9a-f]{16}\} portnum 1 lid \d+-\d+ "h-0-0-0"$/);
  assert.match(lines[7], /^To ca \{0x[0-9a-f]{16}\} portnum 1 lid \d+-\d+ "h-3-1-1"$/);
  assert.equal(await page.locator('svg.topology [data-testid^="routes-"]').count(), 6, 'a mark on each channel it takes');
  await screenshot(page, 'fabric-k4-tracert');
  assert.deepEqual(page.errors, []);
});

test('a ring has a credit loop, said in words and marked; dfsssp on two VLs routes without one', async () => {
  const page = await openPage(browser, server.url);
  await openTab(page, 'settings');
  await page.getByText('Generate a network').click();
  await page.getByLabel('Shape').selectOption('ring');
  await page.getByLabel('Switches', { exact: true }).fill('6');
  await page.getByLabel('Hosts per switch').fill('1');
  await page.getByRole('button', { name: 'Generate' }).click();
  await page.getByTestId('node-h-5-0').waitFor();
  assert.equal(await nodes(page).count(), 12);
  await page.getByText('Credit loops').click();
  await page.getByTestId('credit-loop-check').click();
  const said = await page.getByTestId('credit-loop').innerText();
  assert.match(said, /^A credit loop: (sw-\d → ){6}sw-\d \(6 links\)\. .*deadlock/, said);
  const marked = await page.locator('svg.topology line.lane[data-testid^="link-sw-"]').evaluateAll((lanes) =>
    lanes.filter((l) => Number(l.getAttribute('data-rate')) > 0).length);
  assert.equal(marked, 6, 'each link of the loop marked once');
  // An arrow along each, leading round the loop; the legend says what they are, and leaves out the run's marks
  // (no run is drawn: the lanes are the loop's routes).
  assert.equal(await page.locator('svg.topology line.cycle').count(), 6, 'arrows round the loop');
  await page.getByTestId('legend-cycle').waitFor();
  assert.equal(await page.getByTestId('legend-blocked').count(), 0, 'no run, no blocked links in the legend');
  await screenshot(page, 'fabric-ring-credit-loop');

  await page.locator('details', { hasText: 'Network and run' }).locator('summary').first().click();
  await page.getByLabel('Data VLs').fill('2');
  await page.getByLabel('Routing engine').selectOption('dfsssp');
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('ibcc.playground.scenario')).routing?.engine === 'dfsssp');
  await page.getByTestId('credit-loop-check').click();
  assert.match(await page.getByTestId('credit-loop').innerText(), /^No credit loop/);
  // What dfsssp says: the ring's cycle needs both lanes.
  assert.match(await page.getByTestId('routing-note').innerText(), /^Routing: dfsssp: 2 of 2 virtual lanes needed to break every cycle/);
  // updn looks for root switches as OpenSM does and, on a ring where every switch looks alike, finds none: it
  // falls back to minhop, loop and all, and says so.
  await page.getByLabel('Routing engine').selectOption('updn');
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('ibcc.playground.scenario')).routing?.engine === 'updn');
  await page.getByTestId('credit-loop-check').click();
  await page.getByText('Routing: updn').waitFor();
  assert.match(await page.getByTestId('credit-loop').innerText(), /^A credit loop/);
  assert.match(await page.getByTestId('routing-note').innerText(), /^Routing: updn found no root switch .* falls back to minhop/);
  // Given a root, as OpenSM's -a gives one, updn routes round it: no loop. A host is no root: refused in place.
  const roots = page.getByLabel('updn root switches');
  await roots.fill('h-0-0');
  await roots.press('Enter');
  assert.match(await page.locator('.field', { has: roots }).innerText(), /h-0-0/);
  assert.equal(JSON.parse(await page.evaluate(() => localStorage.getItem('ibcc.playground.scenario'))).routing.roots, undefined);
  await roots.fill('sw-0');
  await roots.press('Enter');
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('ibcc.playground.scenario')).routing?.roots?.[0] === 'sw-0');
  await page.getByTestId('credit-loop-check').click();
  await page.getByText('Routing: updn: 1 root switch').waitFor();
  assert.match(await page.getByTestId('credit-loop').innerText(), /^No credit loop/);
  assert.deepEqual(page.errors, []);
});

// A site's own routing: the k=4 fat tree's shift routed by minhop funnels two routes onto some links; ftree's tables
// (tests/browser/fixtures: as `ibcc fabric route` writes OpenSM's dump) pasted in its place spread it as ftree does.
// A file that does not fit the fabric is refused naming its line, and the scenario stays as it was.
test('a fabric\'s own forwarding tables replace the engine\'s; a bad line is named and changes nothing', async () => {
  const dump = await readFile(FTREE_TABLES, 'utf8');
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('fattree4-shift');
  await openTab(page, 'settings');
  await page.getByTestId('pattern-section').locator('summary').click();
  assert.match(await pattern(page, 'shift', 4), /Busiest link: 2 routes/);
  await page.getByTestId('fabric-section').locator('summary').click();
  // A port core-0 does not have, on the dump's fourth line.
  const lines = dump.split('\n');
  lines[3] = lines[3].replace(/^(0x[0-9a-f]+) \d+/, '$1 077');
  // Pasted: a switch this fabric does not have.
  await page.getByTestId('tables-text').fill("Unicast lids [0-1] of switch Lid 1 guid 0x00000000deadbeef ('other'):\n0x0001 000 # Switch");
  await page.getByTestId('tables-use').click();
  assert.equal(await page.getByTestId('tables-error').innerText(), 'the pasted tables: line 1: switch 0x00000000deadbeef is not in the fabric');
  // (Opened as files, as a site's dump would be: pasting 40 KB through the browser's editing takes seconds here.)
  await page.getByTestId('tables-file').setInputFiles({ name: 'bad.dump', mimeType: 'text/plain', buffer: Buffer.from(lines.join('\n')) });
  const error = await page.getByTestId('tables-error').filter({ hasText: 'bad.dump' }).innerText();
  assert.match(error, /^bad\.dump: line 4: /, error);
  assert.equal((await saved(page)).routing, undefined, 'the scenario is as it was');
  await page.getByTestId('tables-file').setInputFiles(fileURLToPath(FTREE_TABLES));
  await page.getByTestId('tables-given').waitFor();
  assert.equal((await saved(page)).routing.tables, dump);
  assert.match(await pattern(page, 'shift', 4), /Busiest link: 1 route\b/);
  assert.match(await page.getByTestId('routing-note').innerText(), /forwarding by the tables given \(20 of 20 switches/);
  await screenshot(page, 'fabric-tables');
  // Run: every flow of the shift now has a link of its own.
  await runPast(page, 2);
  await openTab(page, 'results');
  assert.match(await page.getByTestId('group-shift').innerText(), /\b9[89]\.\d%|1[45]\d\d\.\d%/);
  await openTab(page, 'settings');
  await page.getByTestId('tables-drop').click();
  await page.waitForFunction(() => !JSON.parse(localStorage.getItem('ibcc.playground.scenario')).routing?.tables);
  assert.match(await pattern(page, 'shift', 4), /Busiest link: 2 routes/);
  assert.deepEqual(page.errors, []);
});

// A generated fabric keeps the run settings, and says which; Annex A10's times, scaled for the paper's 8 Gb/s links
// when it was turned on, are scaled again for the fabric's 100 Gb/s ones.
test('a fabric generated from a paper\'s scenario names the run it keeps, and rescales A10', async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('infocom03-fig2');
  await openTab(page, 'settings');
  await page.locator('details', { has: page.getByTestId('input-ib-cc') }).locator('summary').click();
  await page.getByTestId('input-ib-cc').selectOption('on');
  assert.match(await page.getByTestId('a10-scaled').innerText(), /^Times scaled to the 8 Gb\/s host links/);
  await page.getByTestId('generate-section').locator('summary').click();
  await page.getByTestId('input-generate-shape').selectOption('fabric_parallel');
  assert.match(await page.locator('#generate-shape-help').innerText(), /a run of 100 ms, measured from 40 ms to 60 ms/);
  await page.getByRole('button', { name: 'Generate' }).click();
  await page.getByTestId('node-h-1-3').waitFor();
  assert.equal(await page.getByTestId('input-ib-cc').inputValue(), 'on');
  assert.match(await page.getByTestId('a10-scaled').innerText(), /^Times scaled to the 100 Gb\/s host links/);
  assert.deepEqual(page.errors, []);
});

// Parallel cables (a trunk between two switches) are drawn as one wider link with their count; each cable keeps its
// own group for the keyboard and screen readers, and a run's rate on them is their mean.
test('parallel cables are one thick link with their count', async () => {
  const page = await openPage(browser, server.url);
  await openTab(page, 'settings');
  await page.getByTestId('generate-section').locator('summary').click();
  await page.getByLabel('Shape').selectOption('fabric_parallel');
  await page.getByLabel('Cables').fill('4');
  await page.getByLabel('Hosts per switch').fill('4');
  await page.getByRole('button', { name: 'Generate' }).click();
  await page.getByTestId('node-h-1-3').waitFor();
  assert.equal(await page.getByTestId('cables-sw-0-sw-1').textContent(), '×4');
  assert.equal(await page.locator('svg.topology [data-testid="link-sw-0->sw-1"]').count(), 1, 'one lane each way');
  assert.equal(await page.locator('svg.topology g.link[aria-label="link sw-0 — sw-1"]').count(), 4, 'each cable named');
  // Every host sends to the host across: the four cables share the traffic, and the trunk is wide and busy.
  await page.getByTestId('pattern-section').locator('summary').click();
  assert.match(await pattern(page, 'shift', 4, 'flows'), /Busiest link: 1 route\b/);
  await runPast(page, 1);
  const rate = Number(await page.getByTestId('link-sw-0->sw-1').getAttribute('data-rate'));
  assert.ok(rate > 0.9, `the trunk's mean rate ${rate}`);
  const width = await page.getByTestId('link-sw-0->sw-1').evaluate((l) => parseFloat(l.style.strokeWidth));
  const host = await page.getByTestId('link-h-0-0->sw-0').evaluate((l) => parseFloat(l.style.strokeWidth));
  assert.ok(width > 1.5 * host, `the trunk (${width}) is drawn wider than one cable (${host})`);
  await screenshot(page, 'fabric-parallel');
  assert.deepEqual(page.errors, []);
});

// The PFT paper's 120 nodes as docs/gpcnet.md builds them: a leaf and spine of any size, generated in the page,
// with its trunks, its groups of hosts and a bad size refused in place.
test('a leaf and spine of any size: the PFT paper\'s 120 nodes', async () => {
  const page = await openPage(browser, server.url);
  await openTab(page, 'settings');
  await page.getByTestId('generate-section').locator('summary').click();
  await page.getByLabel('Shape').selectOption('fabric_leaf_spine');
  assert.deepEqual(
    await Promise.all(['Leaves', 'Hosts per leaf', 'Spines', 'Cables per leaf and spine'].map((l) => page.getByLabel(l).inputValue())),
    ['10', '12', '6', '2'],
    'the paper\'s sizes come first',
  );
  await page.getByLabel('Hosts per leaf').fill('300');
  await page.getByRole('button', { name: 'Generate' }).click();
  assert.match(await page.getByTestId('generate-error').innerText(), /Hosts per leaf must be a whole number from 1 to 64/);
  await page.getByLabel('Hosts per leaf').fill('12');
  await page.getByRole('button', { name: 'Generate' }).click();
  await page.getByTestId('node-spine-5').waitFor();
  assert.equal(await nodes(page).count() - (await page.locator('svg.topology [data-testid^="node-h-"]').count()), 16, '10 leaves, 6 spines');
  const folded = await page.locator('svg.topology [data-testid^="fold-"]').evaluateAll((gs) => gs.map((g) => g.getAttribute('aria-label')));
  assert.equal(folded.length, 10, 'each leaf\'s 12 hosts as one group');
  assert.ok(folded.every((t) => t.startsWith('12 hosts of leaf-')), folded.join('; '));
  // Its 60 trunks of two cables: all of one size, so counted once, in the legend (a row of "×2" on the drawing
  // could be read against the wrong link); each cable named for screen readers.
  assert.equal(await page.locator('svg.topology .cables-label').count(), 0);
  assert.match(await page.getByTestId('legend-bundles').innerText(), /every bundle of parallel cables here is 2 cables/);
  const named = page.locator('svg.topology g.link[aria-label="link leaf-3 — spine-5"], svg.topology g.link[aria-label="link spine-5 — leaf-3"]');
  assert.equal(await named.count(), 2);
  assert.match(await page.getByLabel('Scenario').locator('option:checked').innerText(), /10 leaves of 12 hosts under 6 spines, 2 cables each/);
  assert.deepEqual(page.errors, []);
});

// Zoomed in, every link end says its port number (the fabric file's: a generated k=4 tree cables each edge switch's
// hosts to its ports 1 and 2, its uplinks from port 3); at the whole drawing none clutter it.
test('zooming in shows every link end\'s port number', async () => {
  const page = await openPage(browser, server.url);
  await page.getByLabel('Scenario').selectOption('fattree4-shift');
  await page.getByTestId('node-edge-0-0').waitFor();
  const labels = page.locator('svg.topology .port-label');
  assert.equal(await labels.count(), 0, 'none at the whole drawing');
  for (let i = 0; i < 6 && (await labels.count()) === 0; i++) await page.getByTestId('zoom-in').click();
  assert.ok(await labels.count() > 0, 'shown zoomed in');
  const at = async (id) => (await page.locator(`svg.topology [data-testid^="port-${id}"]`).allTextContents()).map(Number);
  const edge = await at('edge-0-0-');
  assert.ok(edge.includes(1) && edge.includes(2) && edge.some((p) => p >= 3), `edge-0-0's ports ${edge}`);
  assert.deepEqual([...new Set(await at('h-0-0-0-'))], [1], 'a host cabled on its port 1');
  await screenshot(page, 'fabric-ports');
  assert.deepEqual(page.errors, []);
});
