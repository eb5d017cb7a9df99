"""Unit checks of the fixture page, reported as JUnit XML (test-results/junit-unit.xml).

The greeting check fails until the `fix` stage of browser-check.dot has run.
"""
import os
import sys
import time
from xml.sax.saxutils import escape, quoteattr

PAGE = os.path.join("site", "index.html")


def check_title(html):
    assert "<title>Heddle fixture app</title>" in html, "the page has no title"


def check_greeting(html):
    assert "Hello, Heddle" in html, "expected the greeting 'Hello, Heddle', found 'Hello, world'"


def main():
    html = open(PAGE, encoding="utf-8").read()
    results = []
    for check in (check_title, check_greeting):
        started = time.monotonic()
        try:
            check(html)
            results.append((check.__name__, None, time.monotonic() - started))
        except AssertionError as error:
            results.append((check.__name__, str(error), time.monotonic() - started))
    failures = sum(1 for _, error, _ in results if error)
    cases = []
    for name, error, seconds in results:
        body = ""
        if error:
            body = f"<failure message={quoteattr(error)}>{escape(error)}</failure>"
        cases.append(
            f'    <testcase classname="fixture.page" name="{name}" time="{seconds:.4f}">{body}</testcase>'
        )
    os.makedirs("test-results", exist_ok=True)
    with open(os.path.join("test-results", "junit-unit.xml"), "w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        out.write(f'<testsuites name="unit" tests="{len(results)}" failures="{failures}">\n')
        out.write(f'  <testsuite name="fixture.page" tests="{len(results)}" failures="{failures}">\n')
        out.write("\n".join(cases) + "\n")
        out.write("  </testsuite>\n</testsuites>\n")
    for name, error, _ in results:
        print(f"{'FAIL' if error else 'ok  '} {name}{': ' + error if error else ''}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
