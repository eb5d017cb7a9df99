import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { JUnitCase } from '../../generated/JUnitCase';
import type { JUnitReport } from '../../generated/JUnitReport';
import type { JUnitSuite } from '../../generated/JUnitSuite';
import type { ApiRead } from '../../api/useApiRead';
import { countsSummary, formatSeconds, hasProblems, reportCounts } from './junit';
import { JunitResult } from './JunitTable';

const render = (result: ApiRead<JUnitReport>) => renderToStaticMarkup(createElement(JunitResult, { result }));

function testCase(name: string, fields: Partial<JUnitCase> = {}): JUnitCase {
  return {
    classname: 'fixture.page',
    name,
    time: null,
    status: 'passed',
    message: null,
    failure_type: null,
    text: null,
    system_out: null,
    system_err: null,
    attachments: [],
    ...fields,
  };
}

function suite(name: string, cases: JUnitCase[], fields: Partial<JUnitSuite> = {}): JUnitSuite {
  const count = (status: JUnitCase['status']) => cases.filter((c) => c.status === status).length;
  return {
    name,
    tests: cases.length,
    failures: count('failed'),
    errors: count('errored'),
    skipped: count('skipped'),
    time: null,
    timestamp: null,
    counts_from_attributes: false,
    cases,
    ...fields,
  };
}

// What heddle-artifacts reports for examples/browser-check/unit_check.py's failing pass.
const UNIT_FAILING: JUnitReport = {
  name: 'unit',
  time: 0.0003,
  suites: [
    suite('fixture.page', [
      testCase('check_title', { time: 0.0001 }),
      testCase('check_greeting', {
        time: 0.0002,
        status: 'failed',
        message: "expected the greeting 'Hello, Heddle', found 'Hello, world'",
        text: "expected the greeting 'Hello, Heddle', found 'Hello, world'",
      }),
    ]),
  ],
};

describe('JunitResult', () => {
  it('renders the suites, cases and an open failure of a parsed report', () => {
    const html = render({ state: 'ready', value: UNIT_FAILING });
    expect(html).toContain('data-outcome="failed"');
    expect(html).toContain('2 tests: 1 passed, 1 failed · &lt;1 ms');
    expect(html).toContain('fixture.page');
    expect(html).toContain('data-status="passed"');
    expect(html).toContain('data-status="failed"');
    // A failure starts expanded; its text equals its message, so it is shown once.
    expect(html).toContain('aria-expanded="true"');
    expect(html.match(/found &#x27;Hello, world&#x27;/g)).toHaveLength(1);
  });

  it('shows the type, the trace and the output of an errored case', () => {
    const errored = testCase('errs', {
      classname: null,
      status: 'errored',
      message: 'boom',
      failure_type: 'TypeError',
      text: 'TypeError: boom\n    at x (a.js:1:2)',
      system_out: 'log line',
      system_err: 'warned',
    });
    const html = render({
      state: 'ready',
      value: { name: null, time: 1234.5, suites: [suite('s', [errored, testCase('skips', { status: 'skipped' })])] },
    });
    expect(html).toContain('data-status="error"');
    expect(html).toContain('<code>TypeError</code> boom');
    expect(html).toContain('at x (a.js:1:2)');
    expect(html).toContain('Standard output');
    expect(html).toContain('Standard error');
    expect(html).toContain('2 tests: 1 error, 1 skipped · 20 min 35 s');
  });

  it('keeps the attribute counts of a suite without cases', () => {
    const html = render({
      state: 'ready',
      value: {
        name: null,
        time: 2,
        suites: [suite('inner-b', [], { tests: 4, failures: 1, errors: 1, skipped: 1, time: 2, counts_from_attributes: true })],
      },
    });
    expect(html).toContain('4 tests: 1 passed, 1 failed, 1 error, 1 skipped · 2.00 s');
    expect(html).toContain('No test cases are listed in this suite.');
  });

  it("shows the API's message for a malformed file as an alert", () => {
    const html = render({
      state: 'failed',
      error: { code: 'wrong_kind', message: 'b/retry_0/junit.xml: not well-formed XML at line 3, column 5: unexpected end' },
    });
    expect(html).toContain('role="alert"');
    expect(html).toContain('not well-formed XML at line 3, column 5');
    expect(html).toContain('data-state="failed"');
  });
});

describe('reportCounts', () => {
  it("sums the suites' counts and keeps the report's own time", () => {
    const counts = reportCounts(UNIT_FAILING);
    expect(counts).toEqual({ tests: 2, failures: 1, errors: 0, skipped: 0, time: 0.0003 });
    expect(hasProblems(counts)).toBe(true);
    expect(countsSummary({ tests: 1, failures: 0, errors: 0, skipped: 0, time: null })).toBe('1 test: 1 passed');
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
