// The Debian package once installed (`dpkg -i`, as CI does in scripts/test.sh): the `heddle`
// command runs from /usr/bin, bash loads its completions, man finds its pages, and dpkg's
// triggers registered the .fabro type and the desktop entry for both workflow types. The
// desktop app itself is driven by tests/desktop/ (scripts/desktop-smoke.sh with
// HEDDLE_DESKTOP_BIN=/usr/bin/heddle-desktop).
//
//   HEDDLE_DEB=... node --test tests/package/deb-installed.test.mjs   (after dpkg -i "$HEDDLE_DEB")

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { controlFields, debPath, run } from './deb.mjs';

const fields = controlFields(debPath());

test('the package under test is the one installed', () => {
  const installed = run('dpkg-query', ['-W', '-f=${Status} ${Version}', fields.Package]);
  assert.equal(installed, `install ok installed ${fields.Version}`);
});

test('heddle from the package runs and says its version', () => {
  assert.equal(run('/usr/bin/heddle', ['--version']).trim(), `heddle ${fields.Version}`);
  // Found on the PATH a user has, not only by its full path.
  assert.equal(run('sh', ['-c', 'command -v heddle'], { env: { PATH: '/usr/local/bin:/usr/bin:/bin' } }).trim(), '/usr/bin/heddle');
});

test('bash completes heddle from the installed completion file', () => {
  const shown = run('bash', ['-c', 'source /usr/share/bash-completion/completions/heddle && complete -p heddle']);
  assert.match(shown, /complete .* heddle$/m);
  for (const file of ['/usr/share/zsh/vendor-completions/_heddle', '/usr/share/fish/vendor_completions.d/heddle.fish']) {
    assert.ok(existsSync(file), `${file} is not installed`);
  }
});

test('man finds the manual pages of heddle and its commands', () => {
  assert.equal(run('man', ['-w', 'heddle']).trim(), '/usr/share/man/man1/heddle.1.gz');
  assert.equal(run('man', ['-w', 'heddle-run']).trim(), '/usr/share/man/man1/heddle-run.1.gz');
  const page = run('man', ['-P', 'cat', 'heddle'], { env: { MANWIDTH: '80', LANG: 'C.UTF-8' } });
  assert.match(page, /^NAME\n\s+heddle\s+-\s/m);
});

test("dpkg's triggers registered the .fabro type and Heddle for both workflow types", () => {
  // update-mime-database (shared-mime-info) read /usr/share/mime/packages/heddle.xml.
  assert.match(readFileSync('/usr/share/mime/globs2', 'utf8'), /^\d+:text\/x-fabro-workflow:\*\.fabro$/m);
  // update-desktop-database (desktop-file-utils) read the desktop entry's MimeType.
  const cache = readFileSync('/usr/share/applications/mimeinfo.cache', 'utf8');
  for (const type of ['text/vnd.graphviz', 'text/x-fabro-workflow']) {
    assert.match(cache, new RegExp(`^${type.replace(/[./]/g, '\\$&')}=(.*;)?Heddle\\.desktop;`, 'm'), `${type} is not handled by Heddle.desktop`);
  }
});
