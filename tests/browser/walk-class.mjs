import { mkdir, writeFile } from 'node:fs/promises';
import { serveDist, launchBrowser, openPage, openTab, setField, waitSim, runPast, check, linkOf, flowMiddle, toPage, nodeAt, closePages } from './harness.mjs';

const OUT = '/tmp/walk-class';
await mkdir(OUT, { recursive: true });
const shot = async (page, name, full = false) => { await page.screenshot({ path: `${OUT}/${name}.png`, fullPage: full }); console.log('shot', name); };
const log = (...a) => console.log(...a);
const text = async (page, id) => (await page.getByTestId(id).count()) ? page.getByTestId(id).first().innerText() : '(none)';
const hscroll = (page) => page.evaluate(() => ({ sw: document.documentElement.scrollWidth, cw: document.documentElement.clientWidth }));
const atMs = (page, ms) => page.waitForFunction((ms) => document.querySelector('[data-testid=sim-time]').innerText === `${ms.toFixed(3)} ms`, ms, { timeout: 60_000 });

const server = await serveDist();
const browser = await launchBrowser();
const phase = process.env.PHASE ?? '1';
try {
  const mod = await import(`./walk-phase${phase}.mjs`).catch(() => null);
  if (mod) await mod.default({ server, browser, shot, log, text, hscroll, atMs, openPage, openTab, setField, waitSim, runPast, check, linkOf, flowMiddle, toPage, nodeAt, closePages, OUT });
} catch (e) {
  console.error('FAILED', e);
} finally {
  await closePages();
  await browser.close();
  await server.close();
}
