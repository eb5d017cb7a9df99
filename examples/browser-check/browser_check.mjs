// Browser check of the fixture page in a real Chromium (Debian's /usr/bin/chromium, or
// $CHROMIUM_PATH) driven by playwright-core: a PNG screenshot, a Playwright trace, an HTML
// report and JUnit XML, written where Heddle captures test artifacts from.
import { createRequire } from 'node:module';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const workflowDir = process.env.HEDDLE_WORKFLOW_DIR ?? resolve('.');
// playwright-core comes with the UI's dev dependencies (npm ci in ui/).
const requireFromUi = createRequire(join(workflowDir, '..', 'ui', 'package.json'));
const { chromium } = requireFromUi('playwright-core');

const results = [];
async function check(name, body) {
  const started = Date.now();
  try {
    await body();
    results.push({ name, seconds: (Date.now() - started) / 1000 });
  } catch (error) {
    results.push({ name, seconds: (Date.now() - started) / 1000, error: String(error.message ?? error) });
  }
}

function escapeXml(text) {
  return text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]);
}

mkdirSync('test-results/browser', { recursive: true });
mkdirSync('playwright-report/data', { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
try {
  const context = await browser.newContext({ viewport: { width: 800, height: 500 } });
  await context.tracing.start({ screenshots: true, snapshots: true });
  const page = await context.newPage();
  await page.goto(pathToFileURL(resolve('site/index.html')).href);
  await check('page shows the greeting', async () => {
    const text = await page.textContent('#greeting');
    if (text !== 'Hello, Heddle') throw new Error(`expected 'Hello, Heddle', found '${text}'`);
  });
  await check('page has its title', async () => {
    const title = await page.title();
    if (title !== 'Heddle fixture app') throw new Error(`expected the fixture title, found '${title}'`);
  });
  await page.screenshot({ path: 'test-results/browser/home.png' });
  await context.tracing.stop({ path: 'test-results/browser/home.trace.zip' });
  await context.close();
} finally {
  await browser.close();
}

const failures = results.filter((r) => r.error).length;
const cases = results.map((r) => {
  const failure = r.error ? `<failure message="${escapeXml(r.error)}">${escapeXml(r.error)}</failure>` : '';
  return `    <testcase classname="browser.home" name="${escapeXml(r.name)}" time="${r.seconds.toFixed(3)}">${failure}</testcase>`;
});
writeFileSync('test-results/junit-browser.xml', [
  '<?xml version="1.0" encoding="UTF-8"?>',
  `<testsuites name="browser" tests="${results.length}" failures="${failures}">`,
  `  <testsuite name="browser.home" tests="${results.length}" failures="${failures}">`,
  ...cases,
  '  </testsuite>',
  '</testsuites>',
  '',
].join('\n'));
copyFileSync('test-results/browser/home.png', 'playwright-report/data/home.png');
const rows = results.map((r) => `<tr><td>${escapeXml(r.name)}</td><td>${r.error ? 'failed: ' + escapeXml(r.error) : 'passed'}</td></tr>`);
writeFileSync('playwright-report/index.html', `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Browser check report</title></head>
<body><h1>Browser check</h1><table>${rows.join('')}</table>
<img src="data/home.png" alt="the fixture page" width="400"></body></html>
`);
for (const r of results) console.log(`${r.error ? 'FAIL' : 'ok  '} ${r.name}${r.error ? ': ' + r.error : ''}`);
process.exit(failures ? 1 : 0);
