// Browser test of what the editor keeps beside and on disk, against the real `heddle serve`:
// dragging a node pins it in the layout sidecar (the `.dot` untouched) and it is still there
// after a reload; a change made to the file by someone else reloads a clean document and
// asks before touching unsaved edits.
// Run: `node --test tests/browser/` (needs the heddle binary and `ui/dist`; see support/paths.mjs).
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { serverAndBrowser } from './support/suite.mjs';
import { screenshotDir } from './support/paths.mjs';
import { LONG, openCopyOfHello, settledBox } from './support/editorPage.mjs';

/** Waits until `read()` returns something `accept` takes; that value. */
async function eventually(read, accept, what) {
  for (let i = 0; i < 100; i++) {
    const value = read();
    if (accept(value)) return value;
    await new Promise((done) => setTimeout(done, 100));
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe('editor and the disk', () => {
  const env = serverAndBrowser('editor-disk');

  test('a dragged node is pinned in the sidecar, kept across a reload, and reset', { timeout: 180_000 }, async () => {
    const { file, original, page, context, pageErrors } = await openCopyOfHello(env, 'drag.dot');
    const sidecar = `${file}.heddle-layout.json`;
    try {
      const node = page.locator('[data-node-id="greet"]');
      const before = await settledBox(node);
      const x = before.x + before.width / 2;
      const y = before.y + before.height / 2;
      await page.mouse.move(x, y);
      await page.mouse.down();
      // The first move past React Flow's drag threshold starts the drag; the node follows
      // the pointer from there.
      await page.mouse.move(x + 2, y + 2);
      for (let i = 1; i <= 10; i++) await page.mouse.move(x + 2 + 12 * i, y + 2 + 14 * i);
      await page.mouse.up();

      const text = await eventually(() => (existsSync(sidecar) ? readFileSync(sidecar, 'utf8') : ''), (t) => t.includes('"greet"'), 'the sidecar');
      const saved = JSON.parse(text);
      assert.equal(saved.version, 1);
      assert.deepEqual(Object.keys(saved.positions), ['greet']);
      assert.equal(readFileSync(file, 'utf8'), original, 'the .dot is never written by a drag');
      assert.equal(await page.getByTestId('dirty-marker').count(), 0, 'a drag is not an unsaved edit');
      const moved = await settledBox(node);
      assert.ok(Math.abs(moved.x - before.x - 120) < 6 && Math.abs(moved.y - before.y - 140) < 6, `moved to ${JSON.stringify(moved)} from ${JSON.stringify(before)}`);
      await page.screenshot({ path: join(screenshotDir, 'editor-dragged.png') });

      // A reload lays the graph out again and puts the pinned node where it was dropped
      // (relative to a node that was not moved, since the view is fitted afresh).
      const anchor = page.locator('[data-node-id="start"]');
      const offset = (a, b) => ({ dx: Math.round(a.x - b.x), dy: Math.round(a.y - b.y) });
      const pinnedOffset = offset(moved, await settledBox(anchor));
      await page.reload();
      await node.waitFor({ state: 'visible', timeout: LONG });
      const reloaded = offset(await settledBox(node), await settledBox(anchor));
      const scale = Math.max(Math.abs(pinnedOffset.dx), Math.abs(pinnedOffset.dy), 1);
      assert.ok(
        Math.abs(reloaded.dx / scale - pinnedOffset.dx / scale) < 0.2 && Math.abs(reloaded.dy / scale - pinnedOffset.dy / scale) < 0.2,
        `after reload ${JSON.stringify(reloaded)}, before ${JSON.stringify(pinnedOffset)}`,
      );

      await page.getByTestId('layout-reset').click();
      await eventually(() => JSON.parse(readFileSync(sidecar, 'utf8')), (s) => Object.keys(s.positions).length === 0, 'the reset sidecar');
      await page.getByTestId('layout-reset').waitFor({ state: 'detached' });
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
  });

  test('a change on disk reloads a clean document and asks before dropping unsaved edits', { timeout: 180_000 }, async () => {
    const { file, original, page, context, pageErrors } = await openCopyOfHello(env, 'watched.dot');
    try {
      // Left alone, an open file is not read again and again (reads are not changes).
      let reads = 0;
      page.on('request', (request) => {
        if (request.url().endsWith('/api/open_workflow')) reads += 1;
      });
      await new Promise((done) => setTimeout(done, 1500));
      assert.ok(reads <= 1, `the idle editor read the file ${reads} times in 1.5 s`);

      // Clean: someone else's change simply shows up.
      const theirs = original.replace('label="Greet (shell)"', 'label="Greet from elsewhere"');
      assert.notEqual(theirs, original);
      writeFileSync(file, theirs);
      await page.locator('[data-node-id="greet"]', { hasText: 'Greet from elsewhere' }).waitFor({ timeout: LONG });
      assert.equal(await page.getByTestId('dirty-marker').count(), 0);
      assert.equal(await page.getByTestId('disk-conflict').count(), 0);

      // Our own save is not reported as a change on disk.
      await page.locator('[data-node-id="greet"]').click();
      const details = page.getByTestId('node-details');
      await details.getByTestId('edit-attr-label').click();
      await details.getByLabel('label', { exact: true }).fill('Mine');
      await page.keyboard.press('Enter');
      await page.getByTestId('dirty-marker').waitFor({ state: 'visible' });
      await page.getByTestId('save-button').click();
      await page.getByTestId('dirty-marker').waitFor({ state: 'detached' });
      await new Promise((done) => setTimeout(done, 800));
      assert.equal(await page.getByTestId('disk-conflict').count(), 0, 'own save raised a conflict');

      // Dirty: a change on disk asks; "keep mine" then saves over it.
      await details.getByTestId('edit-attr-label').click();
      await details.getByLabel('label', { exact: true }).fill('Mine again');
      await page.keyboard.press('Enter');
      await page.getByTestId('dirty-marker').waitFor({ state: 'visible' });
      const onDisk = readFileSync(file, 'utf8').replace('// hello.dot', '// hello.dot (touched elsewhere)');
      writeFileSync(file, onDisk);
      await page.getByTestId('disk-conflict').waitFor({ timeout: LONG });
      await page.screenshot({ path: join(screenshotDir, 'editor-disk-conflict.png') });
      await page.getByTestId('disk-keep').click();
      await page.getByTestId('save-button').click();
      await page.getByTestId('dirty-marker').waitFor({ state: 'detached' });
      const kept = readFileSync(file, 'utf8');
      assert.ok(kept.includes('label="Mine again"'), kept);
      assert.ok(!kept.includes('(touched elsewhere)'), 'keep mine overwrote the change on disk');

      // Dirty again: "reload from disk" drops the unsaved edit and shows the file.
      await details.getByTestId('edit-attr-label').click();
      await details.getByLabel('label', { exact: true }).fill('Doomed');
      await page.keyboard.press('Enter');
      await page.getByTestId('dirty-marker').waitFor({ state: 'visible' });
      writeFileSync(file, kept.replace('label="Mine again"', 'label="From disk"'));
      await page.getByTestId('disk-conflict').waitFor({ timeout: LONG });
      await page.getByTestId('disk-reload').click();
      await page.locator('[data-node-id="greet"]', { hasText: 'From disk' }).waitFor({ timeout: LONG });
      assert.equal(await page.getByTestId('dirty-marker').count(), 0);
      assert.ok(readFileSync(file, 'utf8').includes('label="From disk"'));

      // Text typed in the source view a moment ago (not yet checked) counts as unsaved too.
      await page.getByTestId('source-toggle').click();
      const source = page.getByTestId('source-view');
      await source.locator('.cm-line', { hasText: 'label="Done"' }).click();
      await page.keyboard.press('End');
      await page.keyboard.type(' // typed just now');
      writeFileSync(file, readFileSync(file, 'utf8').replace('label="From disk"', 'label="Disk again"'));
      await page.getByTestId('disk-conflict').waitFor({ timeout: LONG });
      await page.getByTestId('disk-keep').click();
      await source.locator('.cm-line', { hasText: '// typed just now' }).waitFor();
      assert.deepEqual(pageErrors, []);
    } finally {
      await context.close();
    }
  });
});
