import { childElements, parseXml, textContent, type XmlElement } from './xmlElements';

/** How one test case ended. */
export type JunitStatus = 'passed' | 'failed' | 'error' | 'skipped';

/** One `<testcase>`. */
export interface JunitCase {
  classname: string;
  name: string;
  /** Seconds, or null when not given. */
  time: number | null;
  status: JunitStatus;
  /** The failure, error or skip message (its `message` attribute); empty when none. */
  message: string;
  /** The failure, error or skip type (its `type` attribute); empty when none. */
  type: string;
  /** The text inside the failure, error or skip element (a stack trace, usually). */
  details: string;
  systemOut: string;
  systemErr: string;
}

/** Counts of a suite or a whole report. */
export interface JunitCounts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  /** Seconds, or null when not known. */
  time: number | null;
}

/** One `<testsuite>` with its own test cases (nested suites are listed separately). */
export interface JunitSuite extends JunitCounts {
  name: string;
  cases: JunitCase[];
  systemOut: string;
  systemErr: string;
}

/** A whole JUnit XML file: its suites in document order and their totals. */
export interface JunitReport extends JunitCounts {
  name: string;
  suites: JunitSuite[];
}

/** The file is not a JUnit report (bad XML, or another root element). */
export class JunitFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JunitFormatError';
  }
}

function numberAttribute(element: XmlElement, name: string): number | null {
  const raw = element.attributes[name];
  if (raw === undefined || raw.trim() === '') return null;
  // Some tools write thousands separators (`1,234.5`).
  const value = Number(raw.replace(/,/g, '').trim());
  return Number.isFinite(value) ? value : null;
}

function countAttribute(element: XmlElement, name: string): number {
  const value = numberAttribute(element, name);
  return value !== null && value >= 0 ? Math.floor(value) : 0;
}

/** Text with its surrounding blank lines removed (indentation of the first line kept). */
function trimBlankLines(text: string): string {
  return text.replace(/^\s*\n/, '').trimEnd();
}

function childText(element: XmlElement, name: string): string {
  return childElements(element, name).map((child) => trimBlankLines(textContent(child))).join('\n');
}

const OUTCOMES: ReadonlyMap<string, JunitStatus> = new Map([
  ['failure', 'failed'],
  ['error', 'error'],
  ['skipped', 'skipped'],
]);

function readCase(element: XmlElement): JunitCase {
  const outcomes = childElements(element).filter((child) => OUTCOMES.has(child.name));
  // A failure or error outranks a skip; between the two, the first one written wins.
  const outcome = outcomes.find((child) => child.name !== 'skipped') ?? outcomes[0];
  return {
    classname: element.attributes.classname ?? element.attributes.class ?? '',
    name: element.attributes.name ?? '',
    time: numberAttribute(element, 'time'),
    status: outcome === undefined ? 'passed' : (OUTCOMES.get(outcome.name) ?? 'passed'),
    message: outcome?.attributes.message ?? '',
    type: outcome?.attributes.type ?? '',
    details: outcome === undefined ? '' : trimBlankLines(textContent(outcome)),
    systemOut: childText(element, 'system-out'),
    systemErr: childText(element, 'system-err'),
  };
}

function countCases(cases: readonly JunitCase[]): Omit<JunitCounts, 'time'> {
  const count = (status: JunitStatus) => cases.filter((c) => c.status === status).length;
  return { tests: cases.length, failures: count('failed'), errors: count('error'), skipped: count('skipped') };
}

function sumTimes(times: readonly (number | null)[]): number | null {
  const known = times.filter((t): t is number => t !== null);
  return known.length === 0 ? null : known.reduce((a, b) => a + b, 0);
}

/**
 * The suite itself, unless it only groups other suites; then its nested suites. Counts come
 * from the cases when there are any (the attributes are often stale), else the attributes.
 */
function readSuites(root: XmlElement): JunitSuite[] {
  const suites: JunitSuite[] = [];
  const pending: XmlElement[] = [root];
  for (let element = pending.shift(); element !== undefined; element = pending.shift()) {
    const nested = childElements(element, 'testsuite');
    const cases = childElements(element, 'testcase').map(readCase);
    if (cases.length > 0 || nested.length === 0) {
      const counts =
        cases.length > 0
          ? countCases(cases)
          : {
              tests: countAttribute(element, 'tests'),
              failures: countAttribute(element, 'failures'),
              errors: countAttribute(element, 'errors'),
              skipped: countAttribute(element, 'skipped') + countAttribute(element, 'disabled'),
            };
      suites.push({
        name: element.attributes.name ?? '',
        ...counts,
        time: numberAttribute(element, 'time') ?? sumTimes(cases.map((c) => c.time)),
        cases,
        systemOut: childText(element, 'system-out'),
        systemErr: childText(element, 'system-err'),
      });
    }
    pending.unshift(...nested);
  }
  return suites;
}

/** Reads a JUnit XML file (`<testsuites>` or a single `<testsuite>` at the root). */
export function parseJunit(xml: string): JunitReport {
  let root: XmlElement;
  try {
    root = parseXml(xml);
  } catch (error) {
    throw new JunitFormatError(`Not readable as XML: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (root.name !== 'testsuites' && root.name !== 'testsuite') {
    throw new JunitFormatError(`Not a JUnit report: the root element is <${root.name}>, not <testsuites>.`);
  }
  const suites = root.name === 'testsuite' ? readSuites(root) : childElements(root, 'testsuite').flatMap(readSuites);
  const total = (key: 'tests' | 'failures' | 'errors' | 'skipped') => suites.reduce((sum, s) => sum + s[key], 0);
  return {
    name: root.attributes.name ?? '',
    suites,
    tests: total('tests'),
    failures: total('failures'),
    errors: total('errors'),
    skipped: total('skipped'),
    time: numberAttribute(root, 'time') ?? sumTimes(suites.map((s) => s.time)),
  };
}

/** Whether any case failed or errored. */
export function hasProblems(counts: JunitCounts): boolean {
  return counts.failures > 0 || counts.errors > 0;
}

/** "0.42 s", "12 ms", "<1 ms", "2 min 5 s": a duration for people ("" when unknown). */
export function formatSeconds(seconds: number | null): string {
  if (seconds === null) return '';
  if (seconds > 0 && seconds < 0.0005) return '<1 ms';
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 2 : 1)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}
