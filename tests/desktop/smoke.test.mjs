// Desktop smoke test: starts the real Heddle window (the built `heddle-desktop` binary)
// through tauri-driver and WebKitWebDriver with a workflow on its command line, waits for
// the workflow's nodes on the canvas, and saves a screenshot to test-output/desktop/.
//
// Needs an X display (run it through scripts/desktop-smoke.sh, which uses Xvfb), tauri-driver
// and WebKitWebDriver on PATH, and a built binary. Environment:
//   HEDDLE_DESKTOP_BIN   the app binary (default: $CARGO_TARGET_DIR or target/, then debug/heddle-desktop)
//   TAURI_DRIVER         the tauri-driver binary (default: tauri-driver on PATH, then ~/.cargo/bin)
//   HEDDLE_SMOKE_EXAMPLE a workflow to open instead of the first preferred example

import assert from 'node:assert/strict';
import { basename, join, resolve } from 'node:path';
import { test } from 'node:test';
import { pageText, repo, savePng, squash, withDesktopApp } from './app-session.mjs';
import { pickExample, readOutline } from './example.mjs';
import { pollUntil } from './poll.mjs';

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

test('the window opens the workflow given on the command line and draws it', { timeout: 240_000 }, async (t) => {
  const example = process.env.HEDDLE_SMOKE_EXAMPLE
    ? resolve(process.env.HEDDLE_SMOKE_EXAMPLE)
    : pickExample(join(repo, 'examples'));
  const name = basename(example, '.dot');
  const { ids, labels } = readOutline(example);
  t.diagnostic(`example ${example}: ${ids.size} nodes`);

  await withDesktopApp(name, [example], async (session) => {
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
  });
});

test('a missing file on the command line is reported in the window', { timeout: 240_000 }, async (t) => {
  const missing = join(repo, 'test-output', 'desktop', 'no-such-workflow.dot');
  await withDesktopApp('missing-file', [missing], async (session) => {
    const text = await pollUntil(
      'the window to say the file is missing',
      async () => {
        const shown = await pageText(session);
        return shown.includes('no-such-workflow.dot') && /no such file|not found/i.test(shown) ? shown : false;
      },
      { timeoutMs: 120_000, intervalMs: 500 },
    );
    t.diagnostic(`the window says: ${text.slice(0, 300)}`);
    t.diagnostic(`screenshot ${savePng('missing-file', await session.screenshot())}`);
  });
});

/** In the page: clicks the canvas node `id`, the way a person would (pointer events, then click). */
const CLICK_NODE = `
  const node = document.querySelector('.react-flow__node[data-id="' + arguments[0] + '"]');
  if (!node) return false;
  for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']) {
    node.dispatchEvent(new MouseEvent(type, { bubbles: true, cancelable: true, view: window }));
  }
  return true;`;

/** In the page: opens the inspector's editor for `label`, types a value and presses Enter. */
const EDIT_LABEL = `
  const button = document.querySelector('[data-testid="node-details"] [data-testid="edit-attr-label"]');
  if (!button) return 'no label button';
  button.click();
  return null;`;

const TYPE_AND_ENTER = `
  const input = document.querySelector('[data-testid="node-details"] input[aria-label="label"]');
  if (!input) return false;
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  setter.call(input, arguments[0]);
  input.dispatchEvent(new Event('input', { bubbles: true }));
  input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
  return true;`;

test('a selected node shows its inspector, and an edit there marks the file unsaved', { timeout: 240_000 }, async (t) => {
  const example = process.env.HEDDLE_SMOKE_EXAMPLE
    ? resolve(process.env.HEDDLE_SMOKE_EXAMPLE)
    : pickExample(join(repo, 'examples'));
  const { ids } = readOutline(example);
  // A node other than start: the first id the outline lists that is not `start`.
  const target = [...ids].find((id) => id !== 'start') ?? [...ids][0];
  await withDesktopApp('inspector', [example], async (session) => {
    await pollUntil(
      `node ${target} on the canvas`,
      async () => (await session.execute(CLICK_NODE, [target])) === true,
      { timeoutMs: 120_000, intervalMs: 500 },
    );
    const shownId = await pollUntil(
      'the inspector of the clicked node',
      async () => {
        await session.execute(CLICK_NODE, [target]);
        const text = await session.execute(
          `const el = document.querySelector('[data-testid="details-node-id"]'); return el ? el.textContent : null;`,
        );
        return text ?? false;
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    assert.equal(shownId, target);
    assert.equal(await session.execute(EDIT_LABEL), null, 'the label can be edited');
    await pollUntil(
      'the label editor to accept a new value',
      async () => (await session.execute(TYPE_AND_ENTER, ['Edited in the desktop app'])) === true,
      { timeoutMs: 30_000, intervalMs: 300 },
    );
    // The edit went through the Tauri door (edit_workflow): unsaved marker, new label drawn.
    await pollUntil(
      'the unsaved marker and the new label',
      async () => {
        const text = await pageText(session);
        const dirty = await session.execute(`return document.querySelector('[data-testid="dirty-marker"]') !== null;`);
        return dirty && text.includes('Edited in the desktop app');
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
    t.diagnostic(`screenshot ${savePng('inspector', await session.screenshot())}`);
  });
});
