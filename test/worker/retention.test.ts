// A finished call must leave nothing behind on the client: neither its result nor a
// bookkeeping entry per call (measured in a separate process with --expose-gc; not a timing).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

it('2,000 finished calls of 100 KB each retain under 5 MB on the client', () => {
  const out = JSON.parse(execFileSync(process.execPath, ['--expose-gc', join(import.meta.dirname, 'retention-probe.mjs'), '2000'], { encoding: 'utf8' })) as {
    calls: number;
    resultBytes: number;
    checksum: number;
    growth: number;
  };
  console.log(`client retention after ${out.calls} calls (${(out.resultBytes / 1e6).toFixed(0)} MB of results): ${(out.growth / 2 ** 20).toFixed(2)} MB`);
  expect(out.checksum).toBe(2050 * 100_000); // every call returned the whole file
  expect(out.growth).toBeLessThan(5 * 2 ** 20);
}, 60_000);
