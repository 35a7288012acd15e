// Reads every JSON report in a folder (Vitest and Playwright formats) and prints "N passed, N failed".
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2] ?? '.vitest-reports';
let passed = 0;
let failed = 0;
const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
if (files.length === 0) throw new Error(`no JSON reports in ${dir}`);
for (const file of files) {
  const report = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  if (typeof report.numPassedTests === 'number') {
    // Vitest (Jest-compatible) report; a suite that failed to load counts as a failure.
    passed += report.numPassedTests;
    failed += report.numFailedTests + (report.numFailedTestSuites > 0 && report.numFailedTests === 0 ? report.numFailedTestSuites : 0);
  } else if (report.stats) {
    // Playwright report.
    passed += report.stats.expected + (report.stats.flaky ?? 0);
    failed += report.stats.unexpected;
  } else {
    throw new Error(`${file}: unknown report format`);
  }
}
if (passed + failed === 0) failed = 1; // ran no test: not a pass
console.log(`${passed} passed, ${failed} failed`);
