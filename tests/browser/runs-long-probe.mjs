// Where a 20,000-stage run's time goes (a script, not a test; run by hand):
//   HEDDLE_BIN=<heddle> PHOME=<a folder kept between runs> [HEDDLE_UI_DIR=<ui dist>] [BROWSER=1] [PAN=1] [TAG=name]
//   node tests/browser/runs-long-probe.mjs
// Writes runs-long's two runs into PHOME once (its index is kept, so a second probe need not
// wait for it), starts `heddle serve` on it and times the reads the run screen makes (3 each):
// get_run, run_timeline, run_graph, a page of run_events from the 15,000th stage, and the
// event stream's tail. With BROWSER=1 it opens each run in Chromium from navigation until it
// answers, records two CPU profiles (for Chrome's DevTools), opening (navigation until the
// graph is shown) and answering (until both clicks were answered), as
// test-output/browser/runs-long-probe-<TAG>-<run>-<phase>.cpuprofile, prints the functions
// that took the most time in each, and when the graph's click reached the page. With PAN=1
// as well, it then drags each run's canvas for 30 frames under a Chromium trace (`tracedPan`).
// With REOPEN=1 the page opens the run once before the measured opening (as runs-long's later
// rounds do: the server answers run_graph from its cache). With NOPROF=1 no profile is taken:
// stopping a profile walks the page's heap on its main thread (about 130 ms for the chain), so
// with profiles the click is sent that much later and `click_arrived` includes it.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, screenshotDir, uiDist } from './support/paths.mjs';
import { chainDot, finishedRun, loopDot, loopVisits, syntheticUlid } from './support/syntheticRun.mjs';

const { chromium } = createRequire(join(repoRoot, 'ui', 'package.json'))('playwright-core');
const STAGES = 20000;
const home = process.env.PHOME;
if (!home || !process.env.HEDDLE_BIN) throw new Error('set HEDDLE_BIN and PHOME');
/** runs-long's run `tag` in PHOME, written unless a probe before wrote it: its id and stage count. */
function probeRun(tag, dot, visits, steps) {
  const id = syntheticUlid(tag, 1);
  if (!existsSync(join(home, 'runs', `20261123-${id}`))) finishedRun(home, tag, dot, visits, steps);
  return { id, stages: visits.length + 2 };
}
mkdirSync(home, { recursive: true });
const loop = probeRun('LP', loopDot('Loop'), loopVisits(STAGES - 1));
const chain = probeRun('CH', chainDot('Chain', STAGES), Array.from({ length: STAGES }, (_, i) => ({ node: `n${i}`, visit: 1, status: 'success' })), STAGES);
const ws = mkdtempSync(join(tmpdir(), 'heddle-probe-ws-'));
const child = spawn(process.env.HEDDLE_BIN, ['serve', '--port', '0', '--workspace', ws, '--ui-dir', uiDist], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HEDDLE_HOME: home, NO_COLOR: '1' } });
let out = '';
const READY = /(http:\/\/127\.0\.0\.1:(\d+)\/)\?launch=([0-9a-f]+)[^]*Bearer ([0-9a-f]+)`/;
const m = await new Promise((res) => { const on = (c) => { out += c; const mm = READY.exec(out); if (mm) res(mm); }; child.stdout.on('data', on); child.stderr.on('data', on); });
child.stdout.resume(); child.stderr.resume();
const [, url, port, , token] = m;
async function raw(op, body) {
  const t = performance.now();
  const r = await fetch(new URL(`api/${op}`, url), { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  const text = await r.text();
  return { ms: Math.round(performance.now() - t), bytes: text.length, status: r.status, text };
}
for (const run of [loop, chain]) {
  for (let i = 0; i < 3000; i++) { const r = await raw('get_run', { run_id: run.id }); if (r.status === 200 && JSON.parse(r.text).stage_count >= run.stages && JSON.parse(r.text).status !== 'running') break; await new Promise((d) => setTimeout(d, 300)); }
}
const ops = (process.env.OPS ?? 'get_run,run_timeline,run_graph').split(',');
const report = {};
for (const run of [loop, chain]) for (const op of ops) {
  const rs = []; for (let i = 0; i < 3; i++) rs.push(await raw(op, { run_id: run.id }));
  console.log(run.id.slice(5, 7), op, rs.map((r) => r.ms).join('/'), 'ms', rs[0].bytes, 'bytes', rs[0].status);
}
for (const run of [loop, chain]) {
  const tl = JSON.parse((await raw('run_timeline', { run_id: run.id })).text);
  const stage = tl.stages[15000];
  const rs = []; for (let i = 0; i < 3; i++) rs.push(await raw('run_events', { run_id: run.id, after_seq: 0, since: stage.started_at, limit: 2000 }));
  const page = JSON.parse(rs[0].text);
  console.log(run.id.slice(5, 7), 'run_events(stage 15000)', rs.map((r) => r.ms).join('/'), 'ms', rs[0].bytes, 'bytes', rs[0].status, 'first', page.events?.[0]?.event, page.events?.[0]?.node_id, 'more', page.more);
  const t = performance.now();
  const r = await fetch(new URL(`api/events?run=${run.id}&after=${run.stages * 5 + 3}`, url), { headers: { Authorization: `Bearer ${token}` } });
  const text = await r.text();
  console.log(run.id.slice(5, 7), 'sse tail', Math.round(performance.now() - t), 'ms', text.length, 'bytes');
}
if (process.env.SSE) for (const run of [loop, chain]) {
  const t = performance.now();
  const r = await fetch(new URL(`api/events?run=${run.id}&after=0`, url), { headers: { Authorization: `Bearer ${token}` } });
  const text = await r.text();
  console.log(run.id.slice(5, 7), 'sse', Math.round(performance.now() - t), 'ms', text.length, 'bytes');
}
/**
 * With PAN=1: drags the canvas 30 frames under a Chromium trace and sums, over the trace, the
 * raster tasks (any thread), the renderer main thread's tasks, and how long the 30 frames took
 * (ms): what a pan costs with the graph and its overview drawn.
 */
async function tracedPan(browser, page) {
  await page.waitForTimeout(300);
  const pane = await page.locator('.react-flow__pane').boundingBox();
  const x = pane.x + pane.width / 2;
  const y = pane.y + pane.height / 2;
  await page.mouse.move(x, y);
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  const started = performance.now();
  await page.mouse.down();
  for (let i = 0; i < 30; i++) {
    await page.mouse.move(x - i * 8, y - i * 5);
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done())));
  }
  await page.mouse.up();
  const frames = Math.round(performance.now() - started);
  const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
  const threads = new Map(events.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}/${e.tid}`, e.args.name]));
  const sum = (keep) => Math.round(events.filter((e) => e.ph === 'X' && keep(e)).reduce((total, e) => total + (e.dur ?? 0), 0) / 1000);
  return {
    frames_ms: frames,
    raster_ms: sum((e) => e.name === 'RasterTask'),
    renderer_main_ms: sum((e) => e.name === 'RunTask' && threads.get(`${e.pid}/${e.tid}`) === 'CrRendererMain'),
  };
}

if (process.env.BROWSER) {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  for (const [run, node] of [[loop, 'fix'], [chain, 'n0']]) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addCookies([{ name: `heddle_token_${port}`, value: token, url, httpOnly: true, sameSite: 'Strict' }]);
    const page = await context.newPage();
    const u = new URL(url); u.searchParams.set('run', run.id);
    // Each API request of the measured navigation: when it was sent and answered (ms since navigation).
    const requests = [];
    let measuring = false;
    page.on('requestfinished', (req) => {
      if (!measuring || !req.url().includes('/api/')) return;
      const t = req.timing();
      const op = req.url().split('/api/')[1].split('?')[0];
      requests.push({ op, sent: t.startTime, waited: t.responseStart, done: t.responseEnd, bytes: req.postData()?.length ?? 0 });
    });
    // Warms the bundle up; with REOPEN, opens the run until all its events are read, so the
    // server has read it once (its graph is then answered from the cache).
    if (process.env.REOPEN) {
      await page.goto(u.toString());
      await page.locator('[data-testid="run-screen"][data-events="ended"]').waitFor({ timeout: 180000 });
    } else {
      await page.goto(url);
      await page.waitForTimeout(1500);
    }
    const cdp = await context.newCDPSession(page);
    const profiling = !process.env.NOPROF;
    /** Stops the profile being taken (null without profiles) and, unless it is the last, starts the next. */
    const profileUntilNow = async (next) => {
      if (!profiling) return null;
      const { profile } = await cdp.send('Profiler.stop');
      if (next) await cdp.send('Profiler.start');
      return profile;
    };
    if (profiling) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    measuring = true;
    await page.goto(u.toString());
    const origin = await page.evaluate(() => performance.timeOrigin);
    const f = {};
    const now = () => page.evaluate(() => Math.round(performance.now()));
    await page.waitForFunction(`document.querySelector('[data-testid="run-timeline"] [data-testid="timeline-bar"], [data-testid="run-timeline"] [data-testid="timeline-cluster"]') !== null`, undefined, { timeout: 120000, polling: 'raf' });
    f.timeline_shown = await now();
    await page.waitForFunction(`document.querySelector('[data-node-id="start"][data-run-status="succeeded"]') !== null`, undefined, { timeout: 120000, polling: 'raf' });
    f.graph_shown = await now();
    const profiles = { opening: await profileUntilNow(true) };
    // When the click reaches the page: the rest of graph_answered is the page's own work.
    await page.evaluate(() => window.addEventListener('pointerdown', () => { window.__pointerDown ??= Math.round(performance.now()); }, true));
    await page.locator(`.react-flow__node[data-id="${node}"]`).click();
    await page.locator(`[data-testid="stage-detail"][data-node="${node}"]`).waitFor({ timeout: 120000 });
    f.graph_answered = await now();
    f.click_arrived = await page.evaluate(() => window.__pointerDown);
    await page.locator('[data-testid="run-timeline"]').getByRole('button', { name: 'Zoom in', exact: true }).click();
    await page.locator('[data-testid="run-timeline"] .run-timeline__zoom button:enabled', { hasText: 'Fit' }).waitFor({ timeout: 120000 });
    f.interactive = await now();
    profiles.answering = await profileUntilNow(false);
    await page.locator('[data-testid="run-screen"][data-events="ended"]').waitFor({ timeout: 180000 });
    f.events_read = await now();
    if (process.env.PAN) f.pan = await tracedPan(browser, page);
    console.log(run.id.slice(5, 7), 'browser', JSON.stringify(f));
    measuring = false;
    for (const r of requests) {
      const sent = Math.round(r.sent - origin);
      console.log('    request', r.op.padEnd(16), 'sent', sent, 'first byte', Math.round(r.waited), 'done', Math.round(r.done), 'ms after sending');
    }
    mkdirSync(screenshotDir, { recursive: true });
    for (const [phase, profile] of Object.entries(profiles)) {
      if (profile === null) continue;
      writeFileSync(join(screenshotDir, `runs-long-probe-${process.env.TAG ?? 'run'}-${run.id.slice(5, 7)}-${phase}.cpuprofile`), JSON.stringify(profile));
      // Self time per function, the largest first.
      const self = new Map(); const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      const dt = profile.timeDeltas; const counts = new Map();
      profile.samples.forEach((s, i) => counts.set(s, (counts.get(s) ?? 0) + (dt[i] ?? 0)));
      for (const [id, us] of counts) { const n = byId.get(id); const cf = n.callFrame; const key = `${cf.functionName || '(anon)'} ${cf.url.split('/').pop()}:${cf.lineNumber}`; self.set(key, (self.get(key) ?? 0) + us); }
      console.log('  ', phase);
      for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log('   ', (us / 1000).toFixed(0).padStart(6), 'ms', k);
    }
    await context.close();
  }
  await browser.close();
}
child.kill('SIGTERM');
