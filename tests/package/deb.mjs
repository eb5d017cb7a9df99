// Reading a Debian package and the system it is installed on, for the package tests:
// control fields, the file list, its files unpacked, and commands run to the end.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The package under test: `HEDDLE_DEB` (made by scripts/package-deb.sh). */
export function debPath() {
  const path = process.env.HEDDLE_DEB;
  assert.ok(path, 'HEDDLE_DEB is not set: make the package with scripts/package-deb.sh and pass its path');
  assert.ok(existsSync(path), `${path} not found`);
  return resolve(path);
}

/** Runs `command args`; fails the test unless it exits 0. Returns its standard output. */
export function run(command, args, { input, env } = {}) {
  const result = spawnSync(command, args, {
    input,
    env: env ? { ...process.env, ...env } : process.env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw new Error(`${command} could not run: ${result.error.message}`);
  assert.equal(result.status, 0, `${command} ${args.join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** The control file's fields, e.g. `{ Package: 'heddle', Depends: '...' }`. */
export function controlFields(deb) {
  const fields = {};
  let last = null;
  for (const line of run('dpkg-deb', ['--field', deb]).split('\n')) {
    const field = /^([A-Za-z-]+):\s?(.*)$/.exec(line);
    if (field) {
      last = field[1];
      fields[last] = field[2];
    } else if (last && line.startsWith(' ')) {
      fields[last] += `\n${line.trim()}`;
    }
  }
  return fields;
}

/** Package names in a Depends-style list (alternatives and versions dropped). */
export function packageNames(list) {
  return (list ?? '')
    .split(',')
    .flatMap((item) => item.split('|'))
    .map((item) => item.trim().split(/[\s(]/)[0])
    .filter(Boolean);
}

/** Paths in the package's data, absolute (`/usr/bin/heddle`), with their tar mode string. */
export function contents(deb) {
  return run('dpkg-deb', ['--contents', deb])
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const parts = line.trim().split(/\s+/);
      const path = parts.slice(5).join(' ').replace(/^\.?\/?/, '/').replace(/(.)\/$/, '$1');
      return { mode: parts[0], path };
    });
}

/** Unpacks the package's files into a new temporary folder (`dpkg-deb --extract`); returns it. */
export function unpack(deb) {
  const dir = mkdtempSync(join(tmpdir(), 'heddle-deb-'));
  run('dpkg-deb', ['--extract', deb, dir]);
  return dir;
}

/** The workspace's version (`[workspace.package] version` in Cargo.toml). */
export function workspaceVersion(cargoToml) {
  const section = /\[workspace\.package\]([\s\S]*?)(?:\n\[|$)/.exec(cargoToml);
  const version = section && /^version\s*=\s*"([^"]+)"/m.exec(section[1]);
  assert.ok(version, 'no [workspace.package] version in Cargo.toml');
  return version[1];
}
