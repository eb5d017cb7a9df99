import { describe, expect, it } from 'vitest';
import { formatSeconds, hasProblems, JunitFormatError, parseJunit } from './junit';

// What examples/browser-check/unit_check.py writes on the first, failing pass.
const UNIT_FAILING = `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="unit" tests="2" failures="1">
  <testsuite name="fixture.page" tests="2" failures="1">
    <testcase classname="fixture.page" name="check_title" time="0.0001"></testcase>
    <testcase classname="fixture.page" name="check_greeting" time="0.0002"><failure message="expected the greeting 'Hello, Heddle', found 'Hello, world'">expected the greeting 'Hello, Heddle', found 'Hello, world'</failure></testcase>
  </testsuite>
</testsuites>
`;

describe('parseJunit', () => {
  it('reads the example unit report', () => {
    const report = parseJunit(UNIT_FAILING);
    expect(report.name).toBe('unit');
    expect(report).toMatchObject({ tests: 2, failures: 1, errors: 0, skipped: 0 });
    expect(report.time).toBeCloseTo(0.0003);
    expect(hasProblems(report)).toBe(true);
    const [suite] = report.suites;
    expect(suite?.name).toBe('fixture.page');
    expect(suite?.cases.map((c) => [c.name, c.status])).toEqual([
      ['check_title', 'passed'],
      ['check_greeting', 'failed'],
    ]);
    expect(suite?.cases[1]).toMatchObject({
      classname: 'fixture.page',
      time: 0.0002,
      message: "expected the greeting 'Hello, Heddle', found 'Hello, world'",
      details: "expected the greeting 'Hello, Heddle', found 'Hello, world'",
    });
  });

  it('reads errors, skips, CDATA details and output', () => {
    const report = parseJunit(`<testsuite name="s" time="1,234.5">
      <testcase classname="c" name="errs" time="0.5"><error message="boom" type="TypeError"><![CDATA[
TypeError: boom
    at x (a.js:1:2)
]]></error><system-out>log line</system-out><system-err>warned</system-err></testcase>
      <testcase classname="c" name="skips"><skipped message="not on CI"/></testcase>
      <testcase class="k" name="passes" time="oops"/>
    </testsuite>`);
    expect(report).toMatchObject({ tests: 3, failures: 0, errors: 1, skipped: 1, time: 1234.5 });
    const cases = report.suites[0]?.cases ?? [];
    expect(cases[0]).toMatchObject({
      status: 'error',
      message: 'boom',
      type: 'TypeError',
      details: 'TypeError: boom\n    at x (a.js:1:2)',
      systemOut: 'log line',
      systemErr: 'warned',
    });
    expect(cases[1]).toMatchObject({ status: 'skipped', message: 'not on CI', details: '', time: null });
    expect(cases[2]).toMatchObject({ status: 'passed', classname: 'k', time: null });
  });

  it('lists nested suites on their own and uses attribute counts for a suite without cases', () => {
    const report = parseJunit(`<testsuites>
      <testsuite name="outer">
        <testsuite name="inner-a"><testcase name="a"/></testsuite>
        <testsuite name="inner-b" tests="4" failures="1" errors="1" skipped="1" disabled="1" time="2"/>
      </testsuite>
      <testsuite name="flat"><testcase name="f"><failure/></testcase></testsuite>
    </testsuites>`);
    expect(report.suites.map((s) => s.name)).toEqual(['inner-a', 'inner-b', 'flat']);
    expect(report.suites[1]).toMatchObject({ tests: 4, failures: 1, errors: 1, skipped: 2, time: 2, cases: [] });
    expect(report).toMatchObject({ tests: 6, failures: 2, errors: 1, skipped: 2 });
  });

  it('lets a failure outrank a skip', () => {
    const report = parseJunit('<testsuite><testcase name="x"><skipped/><failure message="m"/></testcase></testsuite>');
    expect(report.suites[0]?.cases[0]).toMatchObject({ status: 'failed', message: 'm' });
  });

  it('refuses files that are not JUnit', () => {
    expect(() => parseJunit('<html><body/></html>')).toThrow(JunitFormatError);
    expect(() => parseJunit('<html><body/></html>')).toThrow('root element is <html>');
    expect(() => parseJunit('<testsuite>')).toThrow('Not readable as XML');
  });

  it('reads an empty report', () => {
    expect(parseJunit('<testsuites/>')).toMatchObject({ suites: [], tests: 0, time: null });
  });
});

describe('formatSeconds', () => {
  it('reads as people would write it', () => {
    expect(formatSeconds(null)).toBe('');
    expect(formatSeconds(0.0123)).toBe('12 ms');
    expect(formatSeconds(0.0001)).toBe('<1 ms');
    expect(formatSeconds(0)).toBe('0 ms');
    expect(formatSeconds(4.256)).toBe('4.26 s');
    expect(formatSeconds(42.25)).toBe('42.3 s');
    expect(formatSeconds(125)).toBe('2 min 5 s');
    expect(formatSeconds(119.7)).toBe('2 min 0 s');
  });
});
