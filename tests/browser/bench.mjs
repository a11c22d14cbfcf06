// The simulator's speed in the browser's wasm next to native (a benchmark, not a test): runs `ibcc bench --json`
// and the page's `?selftest=bench` with the same scenarios and simulated duration, and prints both and their ratio:
// "first" is each page's first round (a fresh worker, as a visitor's first run goes: the browser starts on quickly
// compiled wasm and recompiles the hot functions for speed as they run), "warm" its second round;
// then routing (OpenSM's engines on the 648-host fat tree) in the page's simulation worker, where each run is
// routed (`?selftest=routing`), next to `ibcc bench --routing --json`.
// Usage, after `trunk build --release` and `cargo build --release -p ibcc-cli`:
//   node tests/browser/bench.mjs [simulated ms, default 200] [runs, default 3]
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { serveDist, launchBrowser, openPage } from './harness.mjs';

const ms = Number(process.argv[2] ?? 200);
const runs = Number(process.argv[3] ?? 3);
const ibcc = join(import.meta.dirname, '..', '..', 'target', 'release', 'ibcc');
const best = (rows) => {
  const by = new Map();
  for (const r of rows) if (!by.has(r.scenario) || r.wall_s < by.get(r.scenario).wall_s) by.set(r.scenario, r);
  return by;
};
const parse = (text) => text.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
const native = best(parse(execFileSync(ibcc, ['bench', '--json', '--duration-ms', String(ms), '--repeat', String(runs)], { encoding: 'utf8' })));
const server = await serveDist();
const browser = await launchBrowser();
const wasmRows = [];
const routingRows = [];
try {
  for (let i = 0; i < runs; i++) {
    const page = await openPage(browser, `${server.url}?selftest=routing`);
    routingRows.push(...parse(await page.getByTestId('routing-json').textContent({ timeout: 120_000 })));
    await page.context().close();
  }
  for (let i = 0; i < runs; i++) {
    const page = await openPage(browser, `${server.url}?selftest=bench&duration=${ms}&rounds=2`);
    const text = await page.getByTestId('bench-json').textContent({ timeout: 120_000 });
    const rows = parse(text);
    const half = rows.length / 2;
    rows.forEach((r, k) => wasmRows.push({ ...r, round: k < half ? 'first' : 'warm' }));
    await page.context().close();
  }
} finally {
  await browser.close();
  await server.close();
}
const first = best(wasmRows.filter((r) => r.round === 'first'));
const warm = best(wasmRows.filter((r) => r.round === 'warm'));
console.log(`${ms} ms simulated, best of ${runs}; native: ibcc bench; wasm: headless chromium, a page's first and second rounds`);
console.log('scenario                     native Mev/s  first Mev/s  warm Mev/s  first/native  warm/native');
const mev = (r) => (r.events_per_s / 1e6).toFixed(2);
for (const [name, n] of native) {
  const [f, w] = [first.get(name), warm.get(name)];
  const ratio = (r) => (r.events_per_s / n.events_per_s).toFixed(2);
  console.log(`${name.padEnd(28)} ${mev(n).padStart(12)} ${mev(f).padStart(12)} ${mev(w).padStart(11)} ${ratio(f).padStart(13)} ${ratio(w).padStart(12)}`);
  for (const r of [f, w]) if (r.events !== n.events) console.log(`  events differ: native ${n.events}, wasm ${r.events}`);
}
const routingNative = parse(execFileSync(ibcc, ['bench', '--routing', '--json', '--repeat', String(runs)], { encoding: 'utf8' }));
console.log(`\nrouting, best of ${runs}; native: ibcc bench --routing; wasm: the page's worker, headless chromium`);
console.log('fabric          hosts  engine   native ms   wasm ms  wasm/native');
for (const n of routingNative) {
  const w = routingRows.filter((r) => r.engine === n.engine && r.fabric === n.fabric).reduce((a, b) => (a && a.wall_s < b.wall_s ? a : b), null);
  console.log(`${n.fabric.padEnd(15)} ${String(n.hosts).padStart(5)}  ${n.engine.padEnd(7)} ${(n.wall_s * 1e3).toFixed(1).padStart(10)} ${(w.wall_s * 1e3).toFixed(1).padStart(9)} ${(w.wall_s / n.wall_s).toFixed(2).padStart(12)}`);
}
