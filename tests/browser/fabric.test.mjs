// Real fabrics in the page, as a network engineer brings one: paste a public ibnetdiscover file, see its switches,
// hosts and links drawn in levels; a malformed file is refused by its line and the network stays; a generated
// 648-host fabric is drawn on one screen; the routing engine is a setting, and a fabric's run is routed by it.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { serveDist, closePages, launchBrowser, openPage, screenshot, openTab } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
afterEach(() => closePages());
after(async () => { await browser?.close(); await server?.close(); });

const X5 = new URL('../../core/tests/fabrics/X5.topofile', import.meta.url);
const nodes = (page) => page.locator('svg.topology [data-testid^="node-"]');
const saved = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('ibcc.playground.scenario')));

/** Each drawn node's centre, by id, in view units. */
const centres = (page) => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('svg.topology [data-testid^="node-"]')]
  .map((g) => { const b = g.getBBox(); return [g.dataset.testid.slice(5), [b.x + b.width / 2, b.y + b.height / 2]]; })));

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
  const [, s, h, l] = counts.match(/(\d+) switches, (\d+) hosts, (\d+) links/).map(Number);
  assert.deepEqual([s, h], [switches, cas], counts);
  assert.equal(await nodes(page).count(), switches + cas);
  assert.equal(await page.locator('svg.topology line.lane[data-testid^="link-"]').count(), 2 * l, 'two lanes a link');
  assert.match(await page.getByLabel('Scenario').locator('option:checked').innerText(), /pasted fabric/);

  // Levels: every host below every switch, each under (or near) the switch it hangs from.
  const at = await centres(page);
  const ids = Object.keys(at);
  const scenario = await saved(page);
  const kind = Object.fromEntries(scenario.nodes.map((n) => [n.id, n.kind]));
  const lowestSwitch = Math.max(...ids.filter((id) => kind[id] === 'switch').map((id) => at[id][1]));
  assert.ok(ids.filter((id) => kind[id] === 'host').every((id) => at[id][1] > lowestSwitch), 'hosts below the switches');
  for (const link of scenario.links) {
    const [host, sw] = kind[link.a] === 'host' ? [link.a, link.b] : [link.b, link.a];
    if (kind[host] !== 'host') continue;
    assert.ok(Math.abs(at[host][0] - at[sw][0]) < 200, `${host} under ${sw}`);
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
  assert.equal(await nodes(page).count(), 648 + 54);
  // The whole fabric is inside the drawing's box on the screen.
  const svg = await page.locator('svg.topology').boundingBox();
  for (const id of ['spine-0', 'spine-17', 'leaf-0', 'leaf-35', 'h-0-0', 'h-35-17']) {
    const b = await page.getByTestId(`node-${id}`).boundingBox();
    assert.ok(b.x >= svg.x && b.x + b.width <= svg.x + svg.width && b.y >= svg.y && b.y + b.height <= svg.y + svg.height, id);
  }
  await screenshot(page, 'fabric-twolevel-36');

  // The routing engine is a setting, saved with the scenario.
  await page.locator('details', { hasText: 'Network and run' }).locator('summary').first().click();
  await page.getByLabel('Routing engine').selectOption('ftree');
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('ibcc.playground.scenario')).routing?.engine === 'ftree');
  assert.deepEqual(page.errors, []);
});
