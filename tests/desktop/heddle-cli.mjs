// The `heddle` CLI next to the desktop binary, used to leave finished runs in the app's data
// folder before the window opens.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { repo } from './app-session.mjs';

/** The CLI binary: `HEDDLE_BIN`, else `debug/heddle` in the cargo target dir. */
export function heddleCli() {
  if (process.env.HEDDLE_BIN) return resolve(process.env.HEDDLE_BIN);
  const target = process.env.CARGO_TARGET_DIR ? resolve(repo, process.env.CARGO_TARGET_DIR) : join(repo, 'target');
  return join(target, 'debug', 'heddle');
}

/** Runs `heddle run --trust WORKFLOW` (the bundled examples, trusted) in `cwd` with `home` as HEDDLE_HOME; fails the test when it fails. */
export function runToTheEnd(home, workflow, cwd) {
  const cli = heddleCli();
  assert.ok(existsSync(cli), `${cli} not found: build it with \`cargo build -p heddle-cli\` or set HEDDLE_BIN`);
  const run = spawnSync(cli, ['run', '--trust', workflow], {
    cwd,
    env: { ...process.env, HEDDLE_HOME: home, NO_COLOR: '1' },
    encoding: 'utf8',
    timeout: 180_000,
  });
  assert.equal(run.status, 0, `heddle run ${workflow} failed:\n${run.stdout}\n${run.stderr}`);
}
