// A fork closed, or dropped without close(), leaves nothing behind on either side of a worker
// connection (measured in a separate process with --expose-gc; not a timing).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const probe = (mode: 'close' | 'drop') =>
  JSON.parse(execFileSync(process.execPath, ['--expose-gc', join(import.meta.dirname, 'fork-retention-probe.mjs'), mode, '1500'], { encoding: 'utf8' })) as {
    forks: number;
    growth: number;
  };

it.each(['close', 'drop'] as const)(
  '1,500 forks (a 20 KB file each), %s: under 3 MB stays',
  (mode) => {
    const out = probe(mode);
    console.log(`after ${out.forks} forks (${mode}): ${(out.growth / 2 ** 20).toFixed(2)} MB retained`);
    expect(out.forks).toBe(1500);
    expect(out.growth).toBeLessThan(3 * 2 ** 20);
  },
  120_000,
);

it('a fork dropped while of use is not ended: its own fork goes on, and so does a call still running on it', () => {
  const out = JSON.parse(execFileSync(process.execPath, ['--expose-gc', join(import.meta.dirname, 'fork-drop-probe.mjs')], { encoding: 'utf8' })) as {
    middleCollected: boolean;
    childRead: string;
    childTool: string;
    pendingAnswers: unknown[];
  };
  expect(out.middleCollected).toBe(true); // (else the first half tests nothing)
  expect(out.childRead).toBe('a\n');
  expect(out.childTool).toBe('     1\ta');
  expect(out.pendingAnswers).toEqual(Array(20).fill(1));
}, 60_000);
