// A checkpoint costs memory in proportion to what changed, not to the size of the tree:
// 1,000 checkpoints of a 50 MB tree with one small edit each stay under 20 MB of growth.
// (A memory budget, measured in a separate process with --expose-gc; not a timing.) Growth is
// counted over a control run of the same edits without checkpoints: what the edits hold anyway
// (the backend keeps the decoded text of recently edited files, up to 16 MiB) is not theirs.
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
  const heapCost = result.heapGrowth - control.heapGrowth;
  console.log(
    `checkpoint memory over the control run: retained ${mb(heapCost)} (${mb(result.heapGrowth)} vs ${mb(control.heapGrowth)}), resident ${mb(rssCost)} (${mb(result.rssGrowth)} vs ${mb(control.rssGrowth)})`,
  );
  expect(result.treeBytes).toBe(50_000_000);
  expect(result.checkpoints).toBe(1000);
  expect(control.checkpoints).toBe(0);
  expect(heapCost).toBeLessThan(20 * 2 ** 20);
  expect(rssCost).toBeLessThan(20 * 2 ** 20);
  expect(result.oldestIntact).toBe(true);
}, 120_000);

it('deleting those 1,000 checkpoints frees what they held', () => {
  const kept = probe();
  const deleted = probe('--delete');
  const control = probe('--control');
  const cost = (p: Probe) => p.heapGrowth - control.heapGrowth;
  console.log(`after deleting every checkpoint: ${mb(cost(deleted))} retained over the control run (${mb(cost(kept))} while kept)`);
  expect(deleted.checkpoints).toBe(1000);
  expect(deleted.left).toBe(0);
  expect(cost(kept)).toBeGreaterThan(5 * 2 ** 20); // the old versions really were held
  expect(cost(deleted)).toBeLessThan(2 * 2 ** 20);
}, 120_000);
