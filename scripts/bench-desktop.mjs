// Desktop benchmark (run it through scripts/bench-desktop.sh, which starts Xvfb): starts the
// app RUNS times with a workflow on its command line, each time with a fresh data, config and
// cache folder, and measures
//
//  - cold start to a drawn workflow: from the app process's start (its start time in
//    /proc/PID/stat) to the first animation frame in which the canvas has a
//    `.react-flow__node` for every node of the workflow, each with a non-empty box and not
//    hidden (the smoke test's test of "drawn"). An observer installed in the page through
//    WebDriver as soon as the app's page exists checks on every DOM change, and takes the
//    start of the frame after the change that completes the graph; when the graph is already
//    drawn at its first look, that look is the (upper-bound) time, and the run says so.
//    The page's own navigation start and DOMContentLoaded split the time into the native
//    start (process to page load start), loading the page, and drawing.
//  - idle memory: after the draw and IDLE_MS of rest, the proportional set size (Pss in
//    /proc/PID/smaps_rollup) summed over the app and every process below it (WebKit's web
//    and network processes), each listed.
//
// Writes test-output/bench/desktop-<label>.json and prints a summary. Environment (set by
// the shell script): HEDDLE_DESKTOP_BIN, HEDDLE_BENCH_WORKFLOW, HEDDLE_BENCH_RUNS,
// HEDDLE_BENCH_IDLE_MS, HEDDLE_BENCH_LABEL, HEDDLE_BENCH_FILES (list each process's largest
// mappings).

import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readOutline } from '../tests/desktop/example.mjs';
import { pollUntil } from '../tests/desktop/poll.mjs';
import { TauriDriver } from '../tests/desktop/tauri-driver.mjs';
import { Session } from '../tests/desktop/webdriver.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const app = resolve(process.env.HEDDLE_DESKTOP_BIN ?? '');
const workflow = resolve(process.env.HEDDLE_BENCH_WORKFLOW ?? join(repo, 'examples', 'plan-implement-test.dot'));
const runs = Number(process.env.HEDDLE_BENCH_RUNS ?? 5);
const idleMs = Number(process.env.HEDDLE_BENCH_IDLE_MS ?? 5000);
const label = process.env.HEDDLE_BENCH_LABEL ?? 'app';
const listFiles = process.env.HEDDLE_BENCH_FILES === '1';
const TARGET_START_MS = 1500;
const TARGET_MEMORY_MB = 150;

/** Clock ticks per second of /proc/PID/stat's start time (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * In the page: resolves with the epoch time (ms) of the first animation frame in which
 * `count` canvas nodes are shown, and whether they already were at the first look.
 */
const WAIT_FOR_DRAWN = `
  const [count, done] = arguments;
  const drawn = () => {
    const nodes = document.querySelectorAll('.react-flow__node');
    if (nodes.length < count) return false;
    for (const node of nodes) {
      const box = node.getBoundingClientRect();
      if (box.width <= 0 || box.height <= 0 || getComputedStyle(node).visibility === 'hidden') return false;
    }
    return true;
  };
  const navigation = performance.getEntriesByType('navigation')[0];
  const page = {
    navigationStart: performance.timeOrigin,
    domContentLoaded: navigation ? performance.timeOrigin + navigation.domContentLoadedEventEnd : null,
  };
  if (drawn()) {
    done({ ...page, drawnAt: performance.timeOrigin + performance.now(), alreadyDrawn: true });
    return;
  }
  // Checked on each DOM change (not every frame: a frame loop would itself keep the renderer
  // busy); the time taken is the start of the next frame, the one that paints the nodes.
  // A slow timer too, for a change no mutation reports (a style sheet arriving).
  let finished = false;
  const check = () => {
    if (finished || !drawn()) return;
    finished = true;
    observer.disconnect();
    clearInterval(timer);
    requestAnimationFrame((time) => done({ ...page, drawnAt: performance.timeOrigin + time, alreadyDrawn: false }));
  };
  const observer = new MutationObserver(check);
  observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['style', 'class'] });
  const timer = setInterval(check, 100);`;

/** In the page: true once it is the app's page (not the blank one a session starts on). */
const APP_PAGE_LOADED = `return location.href !== 'about:blank' && document.getElementById('root') !== null;`;

/** Ids of the processes below `pid`, children first. */
function descendants(pid) {
  const found = [];
  for (const task of safeList(`/proc/${pid}/task`)) {
    const children = safeRead(`/proc/${pid}/task/${task}/children`).trim();
    for (const child of children ? children.split(/\s+/).map(Number) : []) found.push(child, ...descendants(child));
  }
  return found;
}

function safeList(dir) {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function safeRead(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

const commandName = (pid) => safeRead(`/proc/${pid}/comm`).trim();

/** The process's start as an epoch time in ms, through the boot-time clock of /proc/uptime. */
function processStartEpochMs(pid) {
  const stat = safeRead(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const startTicks = Number(fields[19]);
  const uptimeMs = Number(safeRead('/proc/uptime').split(' ')[0]) * 1000;
  const bootEpochMs = Date.now() - uptimeMs;
  return bootEpochMs + (startTicks / TICKS_PER_SECOND) * 1000;
}

/** Pss of `pid` in KiB from smaps_rollup, in all and split (anonymous, file, shmem); null when it is gone. */
function pss(pid) {
  const rollup = safeRead(`/proc/${pid}/smaps_rollup`);
  const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? NaN);
  const total = field('Pss');
  if (Number.isNaN(total)) return null;
  return { total, anon: field('Pss_Anon'), file: field('Pss_File'), shmem: field('Pss_Shmem') };
}

/** CPU time (user + system) `pid` has used, in ms. */
function cpuMs(pid) {
  const stat = safeRead(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1000;
}

const mb = (kib) => Math.round(kib / 1024);

/** The `count` mappings of `pid` with the most Pss (KiB), by file (`[anon]` for none). */
function largestMappings(pid, count = 8) {
  const byFile = new Map();
  let file = '[anon]';
  for (const line of safeRead(`/proc/${pid}/smaps`).split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) file = head[1] || '[anon]';
    const size = /^Pss:\s+(\d+) kB/.exec(line);
    if (size) byFile.set(file, (byFile.get(file) ?? 0) + Number(size[1]));
  }
  return [...byFile].sort((a, b) => b[1] - a[1]).slice(0, count);
}

/** The app's process: the one named after its binary below the driver. */
function findApp(driver) {
  const name = basename(app).slice(0, 15);
  return descendants(driver.child.pid).find((pid) => commandName(pid) === name);
}

async function oneRun(index, nodeCount) {
  const scratch = mkdtempSync(join(tmpdir(), 'heddle-bench-'));
  const env = {
    ...process.env,
    HEDDLE_HOME: join(scratch, 'heddle'),
    XDG_DATA_HOME: join(scratch, 'data'),
    XDG_CONFIG_HOME: join(scratch, 'config'),
    XDG_CACHE_HOME: join(scratch, 'cache'),
  };
  const driver = await TauriDriver.start(process.env.TAURI_DRIVER ?? 'tauri-driver', env);
  let session;
  try {
    const requested = Date.now();
    session = await Session.create(driver.base, { 'tauri:options': { application: app, args: [workflow] } });
    // The session starts on a blank page and the app's page replaces it: the observer goes
    // into the app's page (a script in the blank one would be lost with it).
    await pollUntil('the app page', () => session.execute(APP_PAGE_LOADED), { timeoutMs: 60_000, intervalMs: 10 });
    await session.command('POST', '/timeouts', { script: 120_000 });
    const page = await session.executeAsync(WAIT_FOR_DRAWN, [nodeCount]);
    const pid = await pollUntil('the app process', () => findApp(driver), { timeoutMs: 10_000, intervalMs: 50 });
    const started = processStartEpochMs(pid);
    // CPU the app and its WebKit processes spent until the draw (plus the few ms to get here):
    // on a loaded machine the wall time stretches, this does not.
    const cpuByProcess = [pid, ...descendants(pid)].map((p) => ({ name: commandName(p), cpuMs: Math.round(cpuMs(p)) }));
    const cpuToDrawnMs = cpuByProcess.reduce((sum, p) => sum + p.cpuMs, 0);
    await new Promise((done) => setTimeout(done, idleMs));
    const processes = [pid, ...descendants(pid)]
      .map((p) => ({ pid: p, name: commandName(p), pssKib: pss(p) }))
      .filter((p) => p.pssKib !== null);
    const totalKib = processes.reduce((sum, p) => sum + p.pssKib.total, 0);
    const mappings = listFiles ? processes.map((p) => ({ name: p.name, largest: largestMappings(p.pid) })) : [];
    const result = {
      run: index + 1,
      startToDrawnMs: Math.round(page.drawnAt - started),
      requestToDrawnMs: Math.round(page.drawnAt - requested),
      nativeStartMs: Math.round(page.navigationStart - started),
      pageLoadMs: page.domContentLoaded === null ? null : Math.round(page.domContentLoaded - page.navigationStart),
      drawMs: page.domContentLoaded === null ? null : Math.round(page.drawnAt - page.domContentLoaded),
      alreadyDrawnAtFirstLook: page.alreadyDrawn,
      cpuToDrawnMs,
      cpuByProcess,
      loadAverage: safeRead('/proc/loadavg').split(' ')[0],
      idlePssMb: mb(totalKib),
      processes,
    };
    console.log(
      `run ${result.run}: drawn ${result.startToDrawnMs} ms after the app started` +
        ` (native ${result.nativeStartMs}, page load ${result.pageLoadMs}, draw ${result.drawMs}` +
        `${page.alreadyDrawn ? ', already drawn at the first look: an upper bound' : ''});` +
        ` CPU ${cpuToDrawnMs} ms (${cpuByProcess.map((p) => `${p.name} ${p.cpuMs}`).join(', ')}); load ${result.loadAverage}; idle PSS ${result.idlePssMb} MB: ` +
        processes
          .map(({ name, pssKib: k }) => `${name} ${mb(k.total)} (anon ${mb(k.anon)}, file ${mb(k.file)}, shmem ${mb(k.shmem)})`)
          .join(', '),
    );
    for (const { name, largest } of mappings) {
      for (const [file, kib] of largest) console.log(`  ${name}: ${(kib / 1024).toFixed(1).padStart(6)} MB ${file}`);
    }
    return result;
  } finally {
    await session?.delete().catch(() => {});
    await driver.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : Math.round((sorted[mid - 1] + sorted[mid]) / 2);
};

const stats = (values) => ({ median: median(values), min: Math.min(...values), max: Math.max(...values) });

const { ids } = readOutline(workflow);
console.log(`benchmark: ${app} opening ${workflow} (${ids.size} nodes), ${runs} runs, ${idleMs} ms idle before memory`);
const results = [];
for (let i = 0; i < runs; i += 1) results.push(await oneRun(i, ids.size));

const summary = {
  app,
  workflow,
  runs,
  idleMs,
  startToDrawnMs: stats(results.map((r) => r.startToDrawnMs)),
  cpuToDrawnMs: stats(results.map((r) => r.cpuToDrawnMs)),
  idlePssMb: stats(results.map((r) => r.idlePssMb)),
  targets: { startToDrawnMs: TARGET_START_MS, idlePssMb: TARGET_MEMORY_MB },
  results,
};
const out = join(repo, 'test-output', 'bench');
mkdirSync(out, { recursive: true });
const file = join(out, `desktop-${label}.json`);
writeFileSync(file, `${JSON.stringify(summary, null, 2)}\n`);
const verdict = (value, target) => (value <= target ? 'within' : 'OVER');
console.log(
  `\ncold start to drawn: median ${summary.startToDrawnMs.median} ms (min ${summary.startToDrawnMs.min}, max ${summary.startToDrawnMs.max}),` +
    ` ${verdict(summary.startToDrawnMs.median, TARGET_START_MS)} the ${TARGET_START_MS} ms target`,
);
console.log(`CPU time of the app and its WebKit processes until drawn: median ${summary.cpuToDrawnMs.median} ms`);
console.log(
  `idle memory (PSS, app + WebKit processes): median ${summary.idlePssMb.median} MB (min ${summary.idlePssMb.min}, max ${summary.idlePssMb.max}),` +
    ` ${verdict(summary.idlePssMb.median, TARGET_MEMORY_MB)} the ${TARGET_MEMORY_MB} MB target`,
);
console.log(`written to ${file}`);
