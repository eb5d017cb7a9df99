// Runs the built heddle-desktop under tauri-driver for one test: finds the binaries, starts
// the driver and a WebDriver session (which starts the app), and always cleans up. When the
// test body fails, the error is extended with the page's text, a screenshot of the failure
// and everything the driver (and the app) printed.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TauriDriver } from './tauri-driver.mjs';
import { Session } from './webdriver.mjs';

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outputDir = join(repo, 'test-output', 'desktop');

/** Text as a person reads it: runs of white space made one space. */
export const squash = (text) => String(text).replace(/\s+/g, ' ').trim();

const PAGE_TEXT = 'return document.body ? document.body.innerText : "";';

/** The page's visible text, squashed. */
export async function pageText(session) {
  return squash(await session.execute(PAGE_TEXT));
}

/** Writes a PNG to test-output/desktop/<name>.png and returns its path. */
export function savePng(name, png) {
  mkdirSync(outputDir, { recursive: true });
  const path = join(outputDir, `${name}.png`);
  writeFileSync(path, png);
  return path;
}

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

/**
 * Starts the app with `args` (its command line) and runs `body(session)`. `name` names the
 * failure screenshot. `prepareHome(home)`, when given, runs first with the app's data folder
 * (to leave runs there for the app to show). `env` adds variables to the app's environment.
 */
export async function withDesktopApp(name, args, body, { prepareHome, env = {} } = {}) {
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

  // The app keeps runs and its run index in a data folder of the test's own.
  const home = mkdtempSync(join(tmpdir(), 'heddle-desktop-home-'));
  if (prepareHome) await prepareHome(home);
  // Its config folder too (the remembered window size and place), unless `env` names one.
  const config = { XDG_CONFIG_HOME: join(home, 'config') };
  const driver = await TauriDriver.start(tauriDriverBinary(), { ...process.env, ...config, ...env, HEDDLE_HOME: home });
  let session;
  try {
    session = await Session.create(driver.base, { 'tauri:options': { application, args } }).catch(
      (error) => {
        throw new Error(`could not start ${application}: ${error.message}\n${driver.describe()}`);
      },
    );
    try {
      return await body(session);
    } catch (error) {
      const shot = await session.screenshot().then((png) => savePng(`${name}-failure`, png), () => null);
      const text = await pageText(session).catch(() => '(page text unavailable)');
      error.message += `\npage text: ${text.slice(0, 2000)}`;
      if (shot) error.message += `\nscreenshot of the failure: ${shot}`;
      error.message += `\n${driver.describe()}`;
      throw error;
    }
  } finally {
    await session?.delete().catch(() => {});
    await driver.stop();
    rmSync(home, { recursive: true, force: true });
  }
}
