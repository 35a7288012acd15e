// Reads every JSON report in a folder (Vitest and Playwright formats) and prints "N passed, N failed".
// Each failure is named above that line (file, test, first line of its message), so a log's tail says what broke.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const dir = process.argv[2] ?? '.vitest-reports';
let passed = 0;
let failed = 0;
const failures = [];
const firstLine = (text) =>
  String(text ?? '')
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .find((l) => l.trim() !== '')
    ?.trim()
    .slice(0, 300) ?? '';

const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
if (files.length === 0) throw new Error(`no JSON reports in ${dir}`);
for (const file of files) {
  const report = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  if (typeof report.numPassedTests === 'number') {
    // Vitest (Jest-compatible) report; a suite that failed to load counts as a failure.
    passed += report.numPassedTests;
    failed += report.numFailedTests + (report.numFailedTestSuites > 0 && report.numFailedTests === 0 ? report.numFailedTestSuites : 0);
    for (const suite of report.testResults ?? []) {
      const where = relative(process.cwd(), suite.name);
      const bad = (suite.assertionResults ?? []).filter((t) => t.status === 'failed');
      for (const t of bad) failures.push(`${where} > ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
      if (bad.length === 0 && suite.status === 'failed') failures.push(`${where}: ${firstLine(suite.message)}`);
    }
  } else if (report.stats) {
    // Playwright report.
    passed += report.stats.expected + (report.stats.flaky ?? 0);
    failed += report.stats.unexpected;
    const walk = (suite) => {
      for (const spec of suite.specs ?? []) {
        for (const t of spec.tests ?? []) {
          if (t.status !== 'unexpected') continue;
          const error = t.results?.at(-1)?.errors?.[0]?.message;
          failures.push(`e2e/${spec.file} > ${spec.title}: ${firstLine(error)}`);
        }
      }
      for (const child of suite.suites ?? []) walk(child);
    };
    for (const suite of report.suites ?? []) walk(suite);
    for (const e of report.errors ?? []) failures.push(`playwright: ${firstLine(e.message)}`);
  } else {
    throw new Error(`${file}: unknown report format`);
  }
}
if (passed + failed === 0) failed = 1; // ran no test: not a pass
for (const f of failures) console.log(`FAILED ${f}`);
console.log(`${passed} passed, ${failed} failed`);
