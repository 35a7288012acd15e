// grep's index (a filter per file's bytes) lives beside the tree, keyed by those bytes:
// what keeps the bytes keeps the index, and what changes them gets a new one.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createStateBackend } from './state-backend.ts';

const paths = async (b: ReturnType<typeof createStateBackend>, pattern: string) => (await b.grep(pattern)).map((m) => m.path);

describe('search index', () => {
  it('is kept through a rename and a rollback, rebuilt for a write, and never answers for old bytes', async () => {
    const b = createStateBackend({ files: { '/d/a.ts': 'alpha\n', '/d/b.ts': 'beta\n', '/c.ts': 'gamma\n' } });
    expect(await b.prepareSearch()).toEqual({ done: true, indexedFiles: 3 });
    const cp = await b.checkpoint();

    await b.rename('/d', '/e');
    expect(await b.prepareSearch()).toEqual({ done: true, indexedFiles: 0 });
    expect(await paths(b, 'alpha')).toEqual(['/e/a.ts']);

    await b.writeFile('/c.ts', 'delta\n');
    expect(await paths(b, 'gamma')).toEqual([]);
    expect(await paths(b, 'delta')).toEqual(['/c.ts']);
    expect(await b.prepareSearch()).toEqual({ done: true, indexedFiles: 0 }); // the search above built it

    await b.rollback(cp);
    expect(await b.prepareSearch()).toEqual({ done: true, indexedFiles: 0 });
    expect(await paths(b, 'gamma')).toEqual(['/c.ts']);
    expect(await paths(b, 'delta')).toEqual([]);
    expect(await paths(b, 'alpha')).toEqual(['/d/a.ts']);
  });

  it('is built anew for the files a restore brings', async () => {
    const b = createStateBackend({ files: { '/a.ts': 'alpha\n', '/b.ts': 'beta\n' } });
    const snapshot = await b.snapshot();
    expect(await b.prepareSearch()).toEqual({ done: true, indexedFiles: 2 });
    await b.restore(snapshot);
    expect(await b.prepareSearch({ maxBytes: 1 })).toEqual({ done: false, indexedFiles: 1 });
    expect(await b.prepareSearch()).toEqual({ done: true, indexedFiles: 1 });
    expect(await paths(b, 'beta')).toEqual(['/b.ts']);
  });

  it('the first search of a new state (a fresh backend, a restore) builds no index, and finds the same; the next one builds it', async () => {
    const files = Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`/f${i}.ts`, `const f${i} = ${i};\n`]));
    const b = createStateBackend({ files });
    const snapshot = await b.snapshot();
    for (const wake of [async () => {}, () => b.restore(snapshot)]) {
      await wake();
      expect(await paths(b, 'f2 =')).toEqual(['/f2.ts']);
      expect(await b.prepareSearch({ maxBytes: 0 })).toEqual({ done: false, indexedFiles: 1 }); // nothing was built
      expect(await paths(b, 'f3 =')).toEqual(['/f3.ts']);
      expect(await b.prepareSearch()).toEqual({ done: true, indexedFiles: 0 }); // the second search built the rest
    }
  });

  it('keeps no replaced tree alive: what a restore replaced is freed before the event loop turns again', async () => {
    setFlagsFromString('--expose-gc');
    // Without it, gc() leaves freeing the buffers to a background thread, which under load had not
    // run yet when the count below was read (19 failures in 25 runs on two busy cores).
    setFlagsFromString('--no-concurrent-array-buffer-sweeping');
    const gc = runInNewContext('gc') as () => void;
    const MB = 1024 * 1024;
    const b = createStateBackend({ limits: { maxFileBytes: 64 * MB } });
    const empty = await b.snapshot();
    gc();
    const start = process.memoryUsage().arrayBuffers;
    await b.writeFile('/big.txt', new Uint8Array(48 * MB).fill(0x61));
    expect(await b.grep('needle')).toEqual([]); // the search remembers the tree it searched
    await b.restore(empty);
    gc(); // no await in between: a WeakRef to the searched tree would still hold it here
    expect(process.memoryUsage().arrayBuffers - start).toBeLessThan(16 * MB);
  });
});
