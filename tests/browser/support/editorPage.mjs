// Opening an example in the editor for a browser test, and waiting for the canvas to settle.
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openPage } from './chromium.mjs';
import { examplesDir } from './paths.mjs';

export const LONG = 60_000;

/** An element's box once it has stopped moving (the canvas re-lays out after each edit). */
export async function settledBox(locator) {
  let last = null;
  for (let i = 0; i < 60; i++) {
    const box = await locator.boundingBox();
    if (box !== null && last !== null && JSON.stringify(box) === JSON.stringify(last)) return box;
    last = box;
    await new Promise((done) => setTimeout(done, 150));
  }
  return last;
}

/** Opens workflow `file` in the editor on `page` and waits until node `nodeId` is drawn. */
export async function openWorkflow(env, page, file, nodeId) {
  const url = new URL(env.server.url);
  url.searchParams.set('file', file);
  await page.goto(url.toString());
  await page.locator(`[data-node-id="${nodeId}"]`).waitFor({ state: 'visible', timeout: LONG });
}

/** Copies examples/hello.dot to `name` in the temp folder and opens it in a new page. */
export async function openCopyOfHello(env, name) {
  const file = join(env.tempDir, name);
  copyFileSync(join(examplesDir, 'hello.dot'), file);
  const original = readFileSync(file, 'utf8');
  const opened = await openPage(env.browser);
  await openWorkflow(env, opened.page, file, 'greet');
  return { file, original, ...opened };
}

