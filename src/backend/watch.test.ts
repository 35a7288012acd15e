import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStateBackend } from './state-backend.ts';
import type { WatchEvent } from './types.ts';
import { onePerPath } from './watch.ts';

const file = (e: Omit<WatchEvent, 'isDir'>): WatchEvent => ({ ...e, isDir: false });

describe('onePerPath: a call that touches a path twice is reported as its net change', () => {
  it.each([
    [
      'rename then modify',
      [file({ type: 'rename', oldPath: '/a', path: '/b', version: 5 }), file({ type: 'modify', path: '/b', version: 6 })],
      [file({ type: 'rename', oldPath: '/a', path: '/b', version: 6 })],
    ],
    [
      'create then modify',
      [file({ type: 'create', path: '/a', version: 1 }), file({ type: 'modify', path: '/a', version: 2 })],
      [file({ type: 'create', path: '/a', version: 2 })],
    ],
    [
      'modify then modify',
      [file({ type: 'modify', path: '/a', version: 1 }), file({ type: 'modify', path: '/a', version: 2 })],
      [file({ type: 'modify', path: '/a', version: 2 })],
    ],
    ['create then remove', [file({ type: 'create', path: '/a', version: 1 }), file({ type: 'remove', path: '/a' })], []],
    ['modify then remove', [file({ type: 'modify', path: '/a', version: 1 }), file({ type: 'remove', path: '/a' })], [file({ type: 'remove', path: '/a' })]],
    [
      'rename then remove: the old path goes',
      [file({ type: 'rename', oldPath: '/a', path: '/b', version: 1 }), file({ type: 'remove', path: '/b' })],
      [file({ type: 'remove', path: '/a' })],
    ],
    [
      'remove then create',
      [file({ type: 'remove', path: '/a' }), file({ type: 'create', path: '/a', version: 3 })],
      [file({ type: 'modify', path: '/a', version: 3 })],
    ],
    [
      'create then rename',
      [file({ type: 'create', path: '/a', version: 1 }), file({ type: 'rename', oldPath: '/a', path: '/b', version: 1 })],
      [file({ type: 'create', path: '/b', version: 1 })],
    ],
    [
      'rename then rename',
      [file({ type: 'rename', oldPath: '/a', path: '/b', version: 1 }), file({ type: 'rename', oldPath: '/b', path: '/c', version: 1 })],
      [file({ type: 'rename', oldPath: '/a', path: '/c', version: 1 })],
    ],
    [
      'renamed and back',
      [file({ type: 'rename', oldPath: '/a', path: '/b', version: 1 }), file({ type: 'rename', oldPath: '/b', path: '/a', version: 2 })],
      [file({ type: 'modify', path: '/a', version: 2 })],
    ],
  ])('%s', (_, events, expected) => {
    expect(onePerPath(events)).toEqual(expected);
  });

  it('keeps commit order (the first event of a path holds its place) and leaves other paths alone', () => {
    const events = [
      file({ type: 'rename', oldPath: '/a', path: '/b', version: 1 }),
      file({ type: 'create', path: '/c', version: 2 }),
      file({ type: 'modify', path: '/b', version: 3 }),
    ];
    expect(onePerPath(events)).toEqual([file({ type: 'rename', oldPath: '/a', path: '/b', version: 3 }), file({ type: 'create', path: '/c', version: 2 })]);
  });

  it('a file replaced by a directory of the same name stays two events', () => {
    const events: WatchEvent[] = [file({ type: 'remove', path: '/a' }), { type: 'create', path: '/a', version: 4, isDir: true }];
    expect(onePerPath(events)).toEqual(events);
  });
});

describe('onePerPath: the review cases (overwriting renames, recreated origins)', () => {
  const remove = (path: string): WatchEvent => ({ type: 'remove', path, isDir: false });
  it.each([
    [
      'create a, rename a over b',
      [file({ type: 'create', path: '/a', version: 1 }), remove('/b'), file({ type: 'rename', oldPath: '/a', path: '/b', version: 2 })],
      [file({ type: 'modify', path: '/b', version: 2 })],
    ],
    [
      'rename a→b, create a, remove b, remove a',
      [file({ type: 'rename', oldPath: '/a', path: '/b', version: 2 }), file({ type: 'create', path: '/a', version: 3 }), remove('/b'), remove('/a')],
      [remove('/a')],
    ],
    [
      'a rename over an existing file is the rename alone',
      [remove('/b'), file({ type: 'rename', oldPath: '/a', path: '/b', version: 5 })],
      [file({ type: 'rename', oldPath: '/a', path: '/b', version: 5 })],
    ],
  ])('%s', (_, events, expected) => {
    expect(onePerPath(events)).toEqual(expected);
  });

  it('a swap (a→t, b→a, t→b) cannot be told as renames: the events come as they happened', () => {
    const swap = [
      file({ type: 'rename', oldPath: '/a', path: '/t', version: 2 }),
      file({ type: 'rename', oldPath: '/b', path: '/a', version: 3 }),
      file({ type: 'rename', oldPath: '/t', path: '/b', version: 4 }),
    ];
    expect(onePerPath(swap)).toEqual(swap);
  });

  // A listener that applies events in order (as persistence and the playground's tree do) ends
  // with the same files at the same versions from the folded events as from the raw ones.
  it('applied in order, the folded events give what the raw ones give (property)', () => {
    const names = ['/a', '/b', '/c', '/d'];
    const op = fc.oneof(
      fc.record({ kind: fc.constant('write' as const), path: fc.constantFrom(...names) }),
      fc.record({ kind: fc.constant('remove' as const), path: fc.constantFrom(...names) }),
      fc.record({ kind: fc.constant('rename' as const), path: fc.constantFrom(...names), to: fc.constantFrom(...names) }),
    );
    fc.assert(
      fc.property(fc.subarray(names), fc.array(op, { maxLength: 12 }), (initial, ops) => {
        let version = 10;
        const files = new Map(initial.map((path) => [path, 0]));
        const start = new Map(files);
        const events: WatchEvent[] = [];
        for (const o of ops) {
          if (o.kind === 'write') {
            events.push(file({ type: files.has(o.path) ? 'modify' : 'create', path: o.path, version: ++version }));
            files.set(o.path, version);
          } else if (o.kind === 'remove' && files.has(o.path)) {
            events.push(remove(o.path));
            files.delete(o.path);
          } else if (o.kind === 'rename' && files.has(o.path) && o.to !== o.path) {
            if (files.has(o.to)) events.push(remove(o.to)); // as the tree reports a rename over a file
            files.delete(o.path);
            files.set(o.to, ++version);
            events.push(file({ type: 'rename', oldPath: o.path, path: o.to, version }));
          }
        }
        const apply = (list: readonly WatchEvent[]) => {
          const state = new Map(start);
          for (const e of list) {
            if (e.oldPath !== undefined) state.delete(e.oldPath);
            if (e.type === 'remove') state.delete(e.path);
            else state.set(e.path, e.version!);
          }
          return state;
        };
        const folded = onePerPath(events);
        expect(apply(folded)).toEqual(apply(events));
        expect(apply(events)).toEqual(files);
        // One event per path whenever it folded at all.
        if (folded !== events && folded.length < events.length) {
          const paths = folded.flatMap((e) => (e.oldPath === undefined ? [e.path] : [e.oldPath, e.path]));
          expect(new Set(paths).size).toBe(paths.length);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('a restore of 150,000 files with a watcher reports them all (no spread of the whole list)', async () => {
    const limits = { maxFiles: 1e6, maxTotalBytes: 1e9 };
    const source = createStateBackend({ limits });
    await source.uploadFiles(Array.from({ length: 150_000 }, (_, i) => [`/d${i % 100}/f${i}`, new Uint8Array([1])] as const));
    const target = createStateBackend({ limits });
    let heard = 0;
    target.watch((events) => {
      heard += events.length;
    });
    await target.restore(await source.snapshot());
    expect(heard).toBe(150_000);
  });
});

describe('listeners that change the backend or subscribe while a batch is handed out (in process, where a listener commits at once)', () => {
  it('one subscribed after a commit never hears of it, though it was still waiting to be handed out', async () => {
    const b = createStateBackend();
    const heard: string[] = [];
    let once = false;
    const stop = b.watch(() => {
      if (once) return;
      once = true;
      void b.writeFile('/y', 'y'); // committed now, handed out after this batch
      b.watch((events) => heard.push(...events.map((e) => `${e.type} ${e.path}`)));
    });
    await b.writeFile('/x', 'x');
    await b.writeFile('/z', 'z');
    expect(heard).toEqual(['create /z']);
    stop();
  });
});

describe('the glob option', () => {
  it('matches what glob() matches, a pattern starting with / too (whole paths, as glob() and grep take it)', async () => {
    const b = createStateBackend();
    const paths = ['/a.ts', '/src/b.ts', '/src/x/c.ts', '/src/.d.ts', '/srcx/e.ts', '/src/f.js'];
    for (const [glob, path] of [
      ['/src/*.ts', '/'],
      ['/src/**', '/src'],
      ['*.ts', '/src'],
      ['**/*.ts', '/'],
    ] as const) {
      const seen: string[] = [];
      const stop = b.watch((events) => seen.push(...events.map((e) => e.path)), { glob, path });
      for (const p of paths) await b.writeFile(p, String(Math.random()));
      stop();
      expect(seen.sort(), `${glob} under ${path}`).toEqual((await b.glob(glob, { path })).sort());
      expect(seen.length).toBeGreaterThan(0);
    }
  });
});
