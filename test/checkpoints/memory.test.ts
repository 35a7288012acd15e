// A checkpoint costs memory in proportion to what changed, not to the size of the tree:
// 1,000 checkpoints of a 50 MB tree with one small edit each stay under 20 MB of growth.
// (A memory budget, measured in a separate process with --expose-gc; not a timing.)
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

type Probe = { treeBytes: number; checkpoints: number; left: number; heapGrowth: number; rssGrowth: number; oldestIntact: boolean };
const probe = (...args: string[]) =>
  JSON.parse(execFileSync(process.execPath, ['--expose-gc', join(import.meta.dirname, 'memory-probe.mjs'), ...args], { encoding: 'utf8' })) as Probe;
const mb = (n: number) => `${(n / 2 ** 20).toFixed(1)} MB`;

it('1,000 checkpoints of a 50 MB tree retain under 20 MB', () => {
  const result = probe();
  // The same edits without checkpoints: what the allocator does to RSS anyway.
  const control = probe('--control');
  const rssCost = result.rssGrowth - control.rssGrowth;
  console.log(`checkpoint memory: retained ${mb(result.heapGrowth)}, resident ${mb(rssCost)} over the control run (${mb(result.rssGrowth)} vs ${mb(control.rssGrowth)})`);
  expect(result.treeBytes).toBe(50_000_000);
  expect(result.checkpoints).toBe(1000);
  expect(control.checkpoints).toBe(0);
  expect(result.heapGrowth).toBeLessThan(20 * 2 ** 20);
  expect(rssCost).toBeLessThan(20 * 2 ** 20);
  expect(result.oldestIntact).toBe(true);
}, 120_000);

it('deleting those 1,000 checkpoints frees what they held', () => {
  const kept = probe();
  const deleted = probe('--delete');
  console.log(`after deleting every checkpoint: ${mb(deleted.heapGrowth)} retained (${mb(kept.heapGrowth)} while kept)`);
  expect(deleted.checkpoints).toBe(1000);
  expect(deleted.left).toBe(0);
  expect(kept.heapGrowth).toBeGreaterThan(5 * 2 ** 20); // the old versions really were held
  expect(deleted.heapGrowth).toBeLessThan(2 * 2 ** 20);
}, 120_000);
