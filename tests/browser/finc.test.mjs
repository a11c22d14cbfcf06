// The Finc(t) explorer (INFOCOM'03 Fig. 5) as a person uses it: open the page, read the recovery times, change m,
// and see both the times and the plot change; a bad value is refused next to its field.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { serveDist, closePages, launchBrowser, openPage, screenshot } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
afterEach(() => closePages());
after(async () => { await browser?.close(); await server?.close(); });

const text = (page, id) => page.getByTestId(id).innerText();
const plotHash = async (page) =>
  createHash('sha256').update(await page.getByTestId('finc-plot').evaluate((c) => c.toDataURL())).digest('hex');

test('recovery times and the plot follow m', async () => {
  const page = await openPage(browser, server.url + '#finc');
  await page.getByTestId('recovery-fimd').waitFor();
  // The paper's numbers (§VI-B): 4.2 ms for FIMD, 133.7 ms for LIPD and AIMD.
  assert.equal(await text(page, 'recovery-fimd'), '4.194 ms');
  assert.equal(await text(page, 'recovery-lipd'), '133.7 ms');
  assert.equal(await text(page, 'recovery-aimd'), '133.7 ms');
  const before = await plotHash(page);
  await screenshot(page, 'finc-explorer');

  await page.getByLabel('m', { exact: true }).fill('4');
  // m = 4: FIMD needs log_4(256) = 4 Trec instead of 8; AIMD's slope (m-1)·Rmin² triples; LIPD ignores m.
  await page.waitForFunction(() => document.querySelector('[data-testid=recovery-fimd]').innerText === '2.097 ms');
  assert.equal(await text(page, 'recovery-aimd'), '44.564 ms');
  assert.equal(await text(page, 'recovery-lipd'), '133.7 ms');
  assert.notEqual(await plotHash(page), before, 'the plot must be redrawn');
  assert.deepEqual(page.errors, []);
});

test('a bad value is refused next to its field and the last good plot stays', async () => {
  const page = await openPage(browser, server.url + '#finc');
  await page.getByTestId('recovery-fimd').waitFor();
  const before = await plotHash(page);
  await page.getByLabel('Link rate').fill('fast');
  await page.getByTestId('error-gbps').waitFor();
  assert.match(await text(page, 'error-gbps'), /not a number/);
  assert.equal(await text(page, 'recovery-fimd'), '4.194 ms');
  assert.equal(await plotHash(page), before);
  await page.getByLabel('Link rate').fill('16');
  await page.waitForFunction(() => document.querySelector('[data-testid=recovery-fimd]').innerText === '2.097 ms');
  assert.equal(await page.getByTestId('error-gbps').count(), 0);
  assert.deepEqual(page.errors, []);
});

test('settings survive a reload, and the dark theme renders', async () => {
  const page = await openPage(browser, server.url + '#finc', { colorScheme: 'dark' });
  await page.getByTestId('recovery-fimd').waitFor();
  await page.getByLabel('Rmin = Rmax /').fill('64');
  await page.waitForFunction(() => document.querySelector('[data-testid=recovery-lipd]').innerText !== '133.7 ms');
  await page.reload();
  await page.getByTestId('recovery-fimd').waitFor();
  assert.equal(await page.getByLabel('Rmin = Rmax /').inputValue(), '64');
  await screenshot(page, 'finc-explorer-dark');
  await page.getByTestId('reset-finc').click();
  await page.waitForFunction(() => document.querySelector('[data-testid=recovery-lipd]').innerText === '133.7 ms');
  assert.deepEqual(page.errors, []);
});
