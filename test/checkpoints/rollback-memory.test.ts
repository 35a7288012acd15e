// A rollback shares the bytes of every version the live tree still has instead of copying them
// (stored bytes are never changed in place), and keeps aside only versions the rolled-back state
// lacks. Before, a rollback right after a checkpoint copied the whole tree twice and kept one copy
// for as long as the checkpoints lived. (A memory budget, measured in a separate process with
// --expose-gc against the built package; not a timing.)
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

it('rolling a 50 MB tree back to a checkpoint retains under 5 MB more than before the rollback', () => {
  const out = execFileSync(process.execPath, ['--expose-gc', join(import.meta.dirname, 'rollback-probe.mjs')], { encoding: 'utf8' });
  const result = JSON.parse(out) as { growth: number; files: number; f0: string; newGone: boolean };
  console.log(`rollback of a 50 MB tree: ${(result.growth / 2 ** 20).toFixed(1)} MB retained`);
  expect(result.files).toBe(5000);
  expect(result.f0).toBe('file 00000000\n');
  expect(result.newGone).toBe(true);
  expect(result.growth).toBeLessThan(5 * 2 ** 20);
}, 120_000);
