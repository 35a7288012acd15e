import { describe, expect, it } from 'vitest';
import { cpuClock } from '../../test/cpu-time.ts';
import { createStateBackend } from '../index.ts';

describe('planMerge: moved and edited files found by their lines', () => {
  it('a fork that removed thousands of small files and created thousands of larger ones merges in linear time, not one visit per pair', async () => {
    // No pair is of comparable size (each new file is over twice as large as every removed one), so
    // none is compared; visiting every pair anyway was 144 million steps, seconds, outside the bound.
    const n = 12_000;
    const files: Record<string, string> = {};
    for (let i = 0; i < n; i++) files[`/old/d${i % 50}/f${i}.txt`] = `u${i}\n`;
    const parent = createStateBackend({ files, limits: { maxFiles: 4 * n } });
    const fork = await parent.fork();
    await fork.remove('/old', { recursive: true });
    await fork.applyBatch(Array.from({ length: n }, (_, i) => ({ path: `/new/d${i % 50}/g${i}.txt`, content: `generated output number ${i}\n` })));
    const cpu = cpuClock(); // not the wall clock: other processes of a loaded machine stretch that
    const result = await parent.merge(fork);
    expect(cpu()).toBeLessThan(3000);
    expect(result.conflicts).toEqual([]);
    expect(result.merged.filter((p) => p.endsWith('.txt'))).toHaveLength(2 * n);
  });

  it('with markers, a file the fork moved and changed to a path this side filled with a file that is not text stays where it was (it cannot get markers)', async () => {
    const text = (third: string) => Array.from({ length: 10 }, (_, i) => `${i === 2 ? third : `line ${i + 1}`}\n`).join('');
    const parent = createStateBackend({ files: { '/a.ts': text('line 3') } });
    const fork = await parent.fork();
    await parent.writeFile('/b.ts', new Uint8Array([0, 1, 2, 3]));
    await fork.rename('/a.ts', '/b.ts');
    await fork.writeFile('/b.ts', text('fork three'));
    const result = await parent.merge(fork, { conflicts: 'markers' });
    expect(result.conflicts.map((c) => [c.path, c.kind])).toEqual([['/b.ts', 'add-add']]);
    // It was removed here, and the fork's file dropped with it: nothing of /a.ts was left.
    expect(await parent.readText('/a.ts')).toBe(text('line 3'));
    expect(await parent.readFile('/b.ts')).toEqual(new Uint8Array([0, 1, 2, 3]));
  });
});
