// Determinism across platforms: the golden scenario run in the browser (wasm) must give the same results digest as
// the native test run (core/tests/golden.rs), both checked against tests/golden/digest.txt.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { serveDist, closePages, launchBrowser, openPage } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
afterEach(() => closePages());
after(async () => { await browser?.close(); await server?.close(); });

test('the golden run gives the recorded digest in wasm', async () => {
  const recorded = (await readFile(new URL('../golden/digest.txt', import.meta.url), 'utf8')).trim();
  const page = await openPage(browser, server.url + '?selftest=digest');
  const digest = await page.getByTestId('golden-digest').innerText({ timeout: 60_000 });
  assert.equal(digest, recorded);
  assert.deepEqual(page.errors, []);
});

test('the benchmark page runs the bench scenarios in wasm', async () => {
  const page = await openPage(browser, `${server.url}?selftest=bench&duration=5`);
  const rows = (await page.getByTestId('bench-json').textContent()).trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(rows.map((r) => r.scenario), ['fig4-lipd-input-triggered', 'fig2-no-control', 'many-flows-1024', 'fattree8-shift']);
  assert.ok(rows.every((r) => r.events > 1000 && r.events_per_s > 0));
  assert.deepEqual(page.errors, []);
});
