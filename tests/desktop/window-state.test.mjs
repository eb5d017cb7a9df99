// The window opens at the size and place it had when the app last quit (the window-state
// plugin keeps them in the app's config folder, `.window-state.json`). The test leaves such a
// file, as a previous session would, and checks where the window opens.

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pageText, savePng, withDesktopApp } from './app-session.mjs';
import { pollUntil } from './poll.mjs';

/** tauri.conf.json's identifier: the app's config folder is named after it. */
const IDENTIFIER = 'dev.heddle.studio';

test('the window opens where and as large as it was left', { timeout: 240_000 }, async (t) => {
  const config = mkdtempSync(join(tmpdir(), 'heddle-window-state-'));
  // Not the configured 1280x800, centred: a size and place only a saved state gives.
  const saved = { width: 1010, height: 660, x: 70, y: 50 };
  mkdirSync(join(config, IDENTIFIER), { recursive: true });
  writeFileSync(
    join(config, IDENTIFIER, '.window-state.json'),
    JSON.stringify({
      main: { ...saved, prev_x: saved.x, prev_y: saved.y, maximized: false, visible: true, decorated: true, fullscreen: false },
    }),
  );
  try {
    await withDesktopApp(
      'window-state',
      [],
      async (session) => {
        await pollUntil('the open panel', async () => (await pageText(session)).includes('Open a workflow'), {
          timeoutMs: 120_000,
        });
        const shown = await pollUntil(
          'the saved window size',
          async () => {
            const size = await session.execute('return [window.innerWidth, window.innerHeight, window.screenX, window.screenY];');
            return size[0] === saved.width && size[1] === saved.height ? size : false;
          },
          { timeoutMs: 30_000, intervalMs: 300 },
        );
        t.diagnostic(`window inner size and place: ${JSON.stringify(shown)}`);
        assert.deepEqual(shown.slice(2), [saved.x, saved.y]);
        t.diagnostic(`screenshot ${savePng('window-state', await session.screenshot())}`);
      },
      { env: { XDG_CONFIG_HOME: config } },
    );
  } finally {
    rmSync(config, { recursive: true, force: true });
  }
});
