// Steps on the runs screens of the window, shared by the desktop run tests.

import { pollUntil } from './poll.mjs';

/** In the page: clicks the first element matching the selector; false when there is none. */
const CLICK = `
  const el = document.querySelector(arguments[0]);
  if (!el) return false;
  el.click();
  return true;`;

const COUNT = `return document.querySelectorAll(arguments[0]).length;`;

/** Clicks the first element matching `css`; false when there is none. */
export const click = (session, css) => session.execute(CLICK, [css]);

/** How many elements match `css`. */
export const count = (session, css) => session.execute(COUNT, [css]);

/** From the app's first screen: the Runs screen, then the newest run in its list. */
export async function openNewestRun(session) {
  await pollUntil('the Runs button', async () => (await click(session, '.screen-nav button:nth-child(2)')) === true, {
    timeoutMs: 120_000,
    intervalMs: 500,
  });
  await pollUntil('the finished run in the list', async () => (await click(session, '[data-testid="run-row"] .runs-table__open')) === true, {
    timeoutMs: 60_000,
    intervalMs: 500,
  });
}
