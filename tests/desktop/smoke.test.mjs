// Desktop smoke test: starts the real Heddle window (the built `heddle-desktop` binary)
// through tauri-driver and WebKitWebDriver, opens an example workflow from the command
// line, waits for its nodes on the canvas, and saves a screenshot to test-output/desktop/.
//
// Needs an X display (run it through scripts/desktop-smoke.sh, which uses Xvfb), tauri-driver
// and WebKitWebDriver on PATH, and a built binary. Environment:
//   HEDDLE_DESKTOP_BIN   the app binary (default: $CARGO_TARGET_DIR or target/, debug/heddle-desktop)
//   TAURI_DRIVER         the tauri-driver binary (default: tauri-driver on PATH, then ~/.cargo/bin)
//   HEDDLE_SMOKE_EXAMPLE a workflow to open instead of the first preferred example

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { pickExample, readOutline } from './example.mjs';
import { pollUntil } from './poll.mjs';
import { TauriDriver } from './tauri-driver.mjs';
import { Session } from './webdriver.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outputDir = join(repo, 'test-output', 'desktop');

function appBinary() {
  if (process.env.HEDDLE_DESKTOP_BIN) return resolve(process.env.HEDDLE_DESKTOP_BIN);
  const targetDir = resolve(repo, process.env.CARGO_TARGET_DIR ?? 'target');
  return join(targetDir, 'debug', 'heddle-desktop');
}

function onPath(name) {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, name))
    .find((path) => existsSync(path));
}

function tauriDriverBinary() {
  if (process.env.TAURI_DRIVER) return process.env.TAURI_DRIVER;
  return onPath('tauri-driver') ?? join(homedir(), '.cargo', 'bin', 'tauri-driver');
}

/** Text as a person reads it: runs of white space made one space. */
const squash = (text) => text.replace(/\s+/g, ' ').trim();

/** In the page: each canvas node's box and whether it is shown. */
const NODE_BOXES = `
  return Array.from(document.querySelectorAll('.react-flow__node'), (node) => {
    const box = node.getBoundingClientRect();
    const shown = getComputedStyle(node).visibility !== 'hidden' && box.width > 0 && box.height > 0;
    return [Math.round(box.x), Math.round(box.y), Math.round(box.width), Math.round(box.height), shown];
  });`;

const CANVAS_TEXT = `
  const canvas = document.querySelector('.react-flow');
  return canvas ? canvas.innerText : null;`;

const PAGE_TEXT = 'return document.body ? document.body.innerText : "";';

function savePng(name, png) {
  mkdirSync(outputDir, { recursive: true });
  const path = join(outputDir, `${name}.png`);
  writeFileSync(path, png);
  return path;
}

test('the desktop window opens an example and draws its nodes', { timeout: 240_000 }, async (t) => {
  assert.ok(
    process.env.DISPLAY || process.env.WAYLAND_DISPLAY,
    'no display: run this through scripts/desktop-smoke.sh (it starts Xvfb)',
  );
  const application = appBinary();
  assert.ok(
    existsSync(application),
    `${application} not found: build it with \`cargo build -p heddle-desktop\` (after building ui/dist), or set HEDDLE_DESKTOP_BIN`,
  );
  assert.ok(onPath('WebKitWebDriver'), 'WebKitWebDriver not on PATH (Debian: apt-get install webkit2gtk-driver)');

  const example = process.env.HEDDLE_SMOKE_EXAMPLE
    ? resolve(process.env.HEDDLE_SMOKE_EXAMPLE)
    : pickExample(join(repo, 'examples'));
  const name = basename(example, '.dot');
  const { ids, labels } = readOutline(example);
  t.diagnostic(`app ${application}; example ${example}: ${ids.size} nodes`);

  const driver = await TauriDriver.start(tauriDriverBinary(), process.env);
  let session;
  try {
    session = await Session.create(driver.base, {
      'tauri:options': { application, args: [example] },
    }).catch((error) => {
      throw new Error(`could not start the app: ${error.message}\n${driver.describe()}`);
    });

    try {
      const boxes = await pollUntil(
        `${ids.size} laid-out nodes on the canvas`,
        async () => {
          const first = await session.execute(NODE_BOXES);
          if (first.length < ids.size || !first.every((box) => box[4])) return false;
          // Laid out and no longer moving: the same boxes a moment later.
          await new Promise((done) => setTimeout(done, 300));
          const second = await session.execute(NODE_BOXES);
          return JSON.stringify(first) === JSON.stringify(second) ? second : false;
        },
        { timeoutMs: 120_000, intervalMs: 500 },
      );
      assert.ok(boxes.length >= ids.size, `expected at least ${ids.size} nodes, got ${boxes.length}`);

      const canvasText = squash((await session.execute(CANVAS_TEXT)) ?? '');
      for (const [id, label] of labels) {
        assert.ok(canvasText.includes(squash(label)), `label of ${id} ("${label}") not on the canvas: ${canvasText}`);
      }

      const png = await session.screenshot();
      assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG', 'the screenshot is not a PNG');
      // A blank window compresses to almost nothing; a drawn graph does not.
      assert.ok(png.length > 8_000, `the screenshot looks blank (${png.length} bytes)`);
      t.diagnostic(`screenshot ${savePng(name, png)}`);
    } catch (error) {
      const shot = await session.screenshot().then((png) => savePng(`${name}-failure`, png), () => null);
      const text = await session.execute(PAGE_TEXT).catch(() => '(page text unavailable)');
      error.message += `\npage text: ${squash(String(text)).slice(0, 2000)}`;
      if (shot) error.message += `\nscreenshot of the failure: ${shot}`;
      error.message += `\n${driver.describe()}`;
      throw error;
    }
  } finally {
    await session?.delete().catch(() => {});
    await driver.stop();
  }
});
