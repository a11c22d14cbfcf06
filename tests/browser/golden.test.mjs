// Determinism across platforms: the golden runs in the browser (wasm) must give the same fingerprints as the native
// test runs (core/tests/golden.rs), both checked against tests/golden/fingerprints.txt.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { serveDist, closePages, launchBrowser, openPage } from './harness.mjs';

let server, browser;
before(async () => { server = await serveDist(); browser = await launchBrowser(); });
afterEach(() => closePages());
after(async () => { await browser?.close(); await server?.close(); });

test('every golden run gives its recorded fingerprint in wasm', async () => {
  const recorded = (await readFile(new URL('../golden/fingerprints.txt', import.meta.url), 'utf8')).trim();
  const page = await openPage(browser, server.url + '?selftest=fingerprints');
  const lines = (await page.getByTestId('golden-fingerprints').textContent({ timeout: 120_000 })).trim();
  assert.ok(recorded.split('\n').length >= 20, 'a line per preset and more');
  assert.equal(lines, recorded);
  assert.deepEqual(page.errors, []);
});

// OpenSM's engines on the 648-host two-level fat tree, in the worker as it routes before a run: the same tables
// (and dfsssp's lanes) as native routing, which cli/tests/opensm.rs checks against the real OpenSM. A wasm build
// that miscompiled ftree once crashed here (Cargo.toml, [profile.wasm-release]).
test('the worker routes a 648-host fat tree as native routing does', async () => {
  const recorded = (await readFile(new URL('../golden/routing.txt', import.meta.url), 'utf8')).trim();
  const page = await openPage(browser, server.url + '?selftest=routing');
  // The answer, or the worker's failure as the page shows it (a crash must fail here, not time out).
  const out = page.locator('[data-testid="routing-json"], [role="alert"]').first();
  const text = await out.textContent({ timeout: 120_000 });
  assert.equal(await out.getAttribute('data-testid'), 'routing-json', text);
  const rows = text.trim().split('\n').map((l) => JSON.parse(l));
  assert.ok(rows.every((r) => r.hosts === 648 && r.routed), JSON.stringify(rows));
  assert.equal(rows.map((r) => `${r.engine} ${r.digest}`).join('\n'), recorded);
  assert.deepEqual(page.errors, []);
});

test('the benchmark page runs the bench scenarios in wasm', async () => {
  const page = await openPage(browser, `${server.url}?selftest=bench&duration=5`);
  const rows = (await page.getByTestId('bench-json').textContent()).trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(rows.map((r) => r.scenario), ['fig4-lipd-input-triggered', 'fig2-no-control', 'many-flows-1024', 'fattree8-shift']);
  assert.ok(rows.every((r) => r.events > 1000 && r.events_per_s > 0));
  assert.deepEqual(page.errors, []);
});
