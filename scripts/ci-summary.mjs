// Adds up the Vitest and Playwright JSON reports into one closing line CI can read, and names every test that
// passed only on a retry: a retry must not hide a race.
import { readFileSync } from 'node:fs';

/** Playwright's tests that failed at least once and then passed, with the first failure's message. */
function retriedTests(report) {
  const found = [];
  const visit = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        const results = test.results ?? [];
        const passedLast = results.at(-1)?.status === 'passed';
        const failedBefore = results.slice(0, -1).some((result) => result.status !== 'passed');
        if (test.status === 'flaky' || (passedLast && failedBefore)) {
          const first = results.find((result) => result.status !== 'passed');
          const message = (first?.error?.message ?? first?.status ?? '')
            .split('\n')[0]
            .replace(/\u001b\[[0-9;]*m/g, '');
          found.push({
            title: [...titles, spec.title].filter(Boolean).join(' › '),
            file: spec.file ?? suite.file,
            attempts: results.length,
            message,
          });
        }
      }
    }
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
  };
  for (const suite of report.suites ?? []) visit(suite, []);
  return found;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const retried = [];
  for (const file of process.argv.slice(2)) {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    if ('numPassedTests' in report) {
      passed += report.numPassedTests;
      failed += report.numFailedTests;
      skipped += report.numPendingTests + report.numTodoTests;
      console.log(`${file}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
    } else {
      const { expected, unexpected, flaky, skipped: e2eSkipped } = report.stats;
      passed += expected + flaky;
      failed += unexpected;
      skipped += e2eSkipped;
      console.log(`${file}: ${expected + flaky} passed, ${unexpected} failed${flaky ? ` (${flaky} flaky)` : ''}`);
      retried.push(...retriedTests(report));
    }
  }
  for (const test of retried) {
    console.log(
      `NEEDED A RETRY (${test.attempts} attempts): ${test.file} › ${test.title}: first failure: ${test.message}`,
    );
  }
  console.log(
    `total: ${passed} passed, ${failed} failed, ${skipped} skipped` +
      (retried.length ? `, ${retried.length} passed only on a retry (listed above)` : ''),
  );
  if (passed === 0 || failed > 0) process.exit(1);
}
