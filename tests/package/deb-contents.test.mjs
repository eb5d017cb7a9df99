// The Debian package scripts/package-deb.sh makes, read without installing it: its control
// fields, that every shared library its two programs load comes with a package it depends
// on, the files at the standard Debian places, and the desktop entry with the file types.
//
//   HEDDLE_DEB=target/debug/bundle/deb/Heddle_0.1.0_amd64.deb node --test tests/package/deb-contents.test.mjs

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { contents, controlFields, debPath, packageNames, run, unpack, workspaceVersion } from './deb.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const deb = debPath();
const fields = controlFields(deb);
const files = contents(deb);
const paths = new Set(files.map((file) => file.path));
const unpacked = unpack(deb);
after(() => rmSync(unpacked, { recursive: true, force: true }));

/** The text of the packaged file that installs at `path`. */
const fileText = (path) => readFileSync(join(unpacked, path), 'utf8');

/** Where Debian's tools look for each file the package must ship. */
const STANDARD_PLACES = [
  '/usr/bin/heddle-desktop',
  '/usr/bin/heddle',
  '/usr/share/applications/Heddle.desktop',
  '/usr/share/bash-completion/completions/heddle',
  '/usr/share/zsh/vendor-completions/_heddle',
  '/usr/share/fish/vendor_completions.d/heddle.fish',
  '/usr/share/man/man1/heddle.1.gz',
  '/usr/share/man/man1/heddle-run.1.gz',
  '/usr/share/mime/packages/heddle.xml',
  '/usr/share/icons/hicolor/32x32/apps/heddle-desktop.png',
  '/usr/share/icons/hicolor/128x128/apps/heddle-desktop.png',
];

test('the control file names the package, its version and what it needs', () => {
  assert.equal(fields.Package, 'heddle');
  assert.equal(fields.Version, workspaceVersion(readFileSync(join(repo, 'Cargo.toml'), 'utf8')));
  assert.equal(fields.Architecture, run('dpkg', ['--print-architecture']).trim());
  assert.equal(fields.Section, 'devel');
  const depends = packageNames(fields.Depends);
  for (const needed of ['libwebkit2gtk-4.1-0', 'libgtk-3-0', 'git', 'shared-mime-info', 'libssl3']) {
    assert.ok(depends.includes(needed), `Depends lacks ${needed}: ${fields.Depends}`);
  }
  assert.match(fields.Description, /desktop studio/);
});

/** Packages installed here that `names` bring in through Depends and Pre-Depends. */
function dependencyClosure(names) {
  const dependsOf = new Map();
  const listing = run('dpkg-query', ['-W', '-f=${Package}\t${Depends}, ${Pre-Depends}\n']);
  for (const line of listing.split('\n').filter(Boolean)) {
    const [name, depends] = line.split('\t');
    dependsOf.set(name, packageNames(depends).map((dep) => dep.replace(/:any$/, '')));
  }
  const seen = new Set();
  const queue = [...names];
  while (queue.length > 0) {
    const name = queue.pop();
    if (seen.has(name)) continue;
    seen.add(name);
    queue.push(...(dependsOf.get(name) ?? []));
  }
  return seen;
}

/** The shared libraries `binary` names (ELF NEEDED entries). */
function neededLibraries(binary) {
  return [...run('objdump', ['-p', binary]).matchAll(/^\s*NEEDED\s+(\S+)$/gm)].map((m) => m[1]);
}

/** For each library `soname`, the installed package that holds it (found through ld.so's cache). */
function packagesOfLibraries(sonames) {
  const cache = run('ldconfig', ['-p']).split('\n');
  const pathsOf = new Map();
  for (const soname of sonames) {
    const entries = cache.filter((entry) => entry.trim().startsWith(`${soname} (`));
    const entry = entries.find((line) => line.includes('x86-64')) ?? entries[0];
    assert.ok(entry, `${soname} is not in ld.so's cache`);
    // dpkg knows a file by the path its package installed: /lib or /usr/lib (merged /usr).
    const real = run('realpath', [entry.split('=>')[1].trim()]).trim().replace(/^\/usr\/lib\//, '/lib/');
    pathsOf.set(soname, [real, `/usr${real}`]);
  }
  // Exits 1 when some path has no package (the other form of each); it still lists the rest.
  const query = spawnSync('dpkg-query', ['-S', ...[...pathsOf.values()].flat()], { encoding: 'utf8' });
  const owners = new Map();
  for (const line of query.stdout.split('\n').filter(Boolean)) {
    const [packages, path] = line.split(': ');
    owners.set(path.trim(), packages.split(',')[0].split(':')[0].trim());
  }
  return new Map([...pathsOf].map(([soname, paths]) => [soname, paths.map((path) => owners.get(path)).find(Boolean)]));
}

test('every shared library the two programs load comes with a package the .deb depends on', () => {
  const closure = dependencyClosure(packageNames(fields.Depends));
  for (const program of ['heddle-desktop', 'heddle']) {
    const libraries = neededLibraries(join(unpacked, 'usr', 'bin', program));
    assert.ok(libraries.length > 0, `${program} names no shared library`);
    for (const [soname, owner] of packagesOfLibraries(libraries)) {
      assert.ok(owner, `no installed package holds ${soname}`);
      assert.ok(closure.has(owner), `${program} loads ${soname} from ${owner}, which Depends does not bring in (${fields.Depends})`);
    }
  }
});

test('the programs, desktop entry, icons, completions, man pages and MIME type sit at the standard places', () => {
  for (const path of STANDARD_PLACES) assert.ok(paths.has(path), `${path} is not in the package`);
  for (const program of ['/usr/bin/heddle', '/usr/bin/heddle-desktop']) {
    const mode = files.find((file) => file.path === program).mode;
    assert.match(mode, /^-rwxr-xr-x$/, `${program} is not executable: ${mode}`);
  }
  assert.match(fileText('/usr/share/bash-completion/completions/heddle'), /complete .*heddle/);
  assert.match(fileText('/usr/share/zsh/vendor-completions/_heddle'), /^#compdef heddle/);
  assert.match(fileText('/usr/share/fish/vendor_completions.d/heddle.fish'), /complete -c heddle/);
  const mime = fileText('/usr/share/mime/packages/heddle.xml');
  assert.match(mime, /<mime-type type="text\/x-fabro-workflow">[\s\S]*<glob pattern="\*\.fabro"\/>/);
});

test('the desktop entry starts heddle-desktop with the opened file and claims .dot and .fabro', () => {
  const entry = fileText('/usr/share/applications/Heddle.desktop');
  const keys = Object.fromEntries(
    entry.split('\n').filter((line) => line.includes('=')).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  assert.equal(keys.Exec, 'heddle-desktop %f');
  assert.equal(keys.Icon, 'heddle-desktop');
  assert.equal(keys.Name, 'Heddle');
  const types = keys.MimeType.split(';').filter(Boolean);
  assert.deepEqual(types.sort(), ['text/vnd.graphviz', 'text/x-fabro-workflow']);
  run('desktop-file-validate', [join(unpacked, 'usr/share/applications/Heddle.desktop')]);
});
