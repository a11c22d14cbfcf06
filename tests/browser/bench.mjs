// The simulator's speed in the browser's wasm next to native (a benchmark, not a test): runs `ibcc bench --json`
// and the page's `?selftest=bench` with the same scenarios and simulated duration, and prints both and their ratio;
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
    const page = await openPage(browser, `${server.url}?selftest=bench&duration=${ms}`);
    const text = await page.getByTestId('bench-json').textContent({ timeout: 120_000 });
    wasmRows.push(...parse(text));
    await page.context().close();
  }
} finally {
  await browser.close();
  await server.close();
}
const wasm = best(wasmRows);
console.log(`${ms} ms simulated, best of ${runs}; native: ibcc bench; wasm: headless chromium`);
console.log('scenario                     native Mev/s  wasm Mev/s  wasm/native');
for (const [name, n] of native) {
  const w = wasm.get(name);
  const ratio = w.events_per_s / n.events_per_s;
  console.log(`${name.padEnd(28)} ${(n.events_per_s / 1e6).toFixed(2).padStart(12)} ${(w.events_per_s / 1e6).toFixed(2).padStart(11)} ${ratio.toFixed(2).padStart(12)}`);
  if (w.events !== n.events) console.log(`  events differ: native ${n.events}, wasm ${w.events}`);
}
const routingNative = parse(execFileSync(ibcc, ['bench', '--routing', '--json', '--repeat', String(runs)], { encoding: 'utf8' }));
console.log(`\nrouting, best of ${runs}; native: ibcc bench --routing; wasm: the page's worker, headless chromium`);
console.log('fabric          hosts  engine   native ms   wasm ms  wasm/native');
for (const n of routingNative) {
  const w = routingRows.filter((r) => r.engine === n.engine && r.fabric === n.fabric).reduce((a, b) => (a && a.wall_s < b.wall_s ? a : b), null);
  console.log(`${n.fabric.padEnd(15)} ${String(n.hosts).padStart(5)}  ${n.engine.padEnd(7)} ${(n.wall_s * 1e3).toFixed(1).padStart(10)} ${(w.wall_s * 1e3).toFixed(1).padStart(9)} ${(w.wall_s / n.wall_s).toFixed(2).padStart(12)}`);
}
