// Where things are: the repository, the heddle binary, the built UI, test output.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const examplesDir = join(repoRoot, 'examples');
/** The built UI the server hands out: `$HEDDLE_UI_DIR`, else the repository's `ui/dist`. */
export const uiDist = process.env.HEDDLE_UI_DIR ? resolve(process.env.HEDDLE_UI_DIR) : join(repoRoot, 'ui', 'dist');
export const screenshotDir = join(repoRoot, 'test-output', 'browser');

/** `$HEDDLE_BIN`, else `<CARGO_TARGET_DIR or <repo>/target>/debug/heddle`. */
export function heddleBinary() {
  if (process.env.HEDDLE_BIN) return process.env.HEDDLE_BIN;
  const targetDir = process.env.CARGO_TARGET_DIR
    ? resolve(repoRoot, process.env.CARGO_TARGET_DIR)
    : join(repoRoot, 'target');
  return join(targetDir, 'debug', process.platform === 'win32' ? 'heddle.exe' : 'heddle');
}

/** Fails early, with what to do, when the binary or the built UI is missing. */
export function requireBuilt() {
  const bin = heddleBinary();
  if (!existsSync(bin)) {
    throw new Error(`heddle binary not found at ${bin}: run \`cargo build -p heddle-cli\` or set HEDDLE_BIN`);
  }
  if (!existsSync(join(uiDist, 'index.html'))) {
    throw new Error(`built UI not found in ${uiDist}: run \`npm ci && npm run build\` in ui/`);
  }
  return bin;
}
