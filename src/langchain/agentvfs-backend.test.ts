/**
 * AgentvfsBackend against deepagents' own StateBackend (the real one, at its pinned version): the
 * same calls on the same files give the same results, timestamps aside; then the cases where
 * AgentvfsBackend adds to or departs from it on purpose (docs/langchain.md lists them).
 */
import { StateBackend, isSandboxBackend, type FileData } from 'deepagents';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeAll, inWorkerThread } from '../../test/worker/factories.ts';
import { createStateBackend, createTools } from '../index.ts';
import { AgentvfsBackend } from './index.ts';

afterEach(closeAll);

// Written in path order: StateBackend searches files in the order they were written, agentvfs in path order.
const FILES: Record<string, string> = {
  '/README.md': '# Demo\n\nSay hello.\nSay hello twice: hello.\n',
  '/data/config.json': '{ "hello": true }\n',
  '/notes.txt': 'one\ntwo\nthree\nfour\nfive',
  '/src/app.ts': 'export const greeting = "hello";\nexport const target = "world";\n',
  '/src/util/strings.ts': 'export const upper = (s: string) => s.toUpperCase();\n// hello again\n',
};

/** deepagents' StateBackend over a state it updates as its middleware would (merging filesUpdate). */
function deepagentsStateBackend() {
  const state = { files: {} as Record<string, FileData | null> };
  const backend = new StateBackend({ state, store: undefined } as never);
  const apply = (update: Record<string, FileData | null> | null | undefined) => {
    for (const [path, data] of Object.entries(update ?? {})) {
      if (data === null) delete state.files[path];
      else state.files[path] = data;
    }
  };
  return { backend, apply };
}

type Step = (b: DeepagentsLike) => Promise<unknown>;
type DeepagentsLike = Pick<AgentvfsBackend, 'ls' | 'read' | 'write' | 'edit' | 'grep' | 'glob' | 'delete' | 'downloadFiles'>;

/** Results without the fields that only say when (timestamps) or how state is threaded (filesUpdate). */
function comparable(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (key, v) =>
      key === 'modified_at' || key === 'created_at' || key === 'filesUpdate' ? undefined : v instanceof Uint8Array ? [...v] : v,
    ),
  );
}

const STEPS: Record<string, Step> = {
  'ls /': (b) => b.ls('/'),
  'ls /src/': (b) => b.ls('/src/'),
  'ls of a missing directory': (b) => b.ls('/nope'),
  'read whole': (b) => b.read('/src/app.ts'),
  'read a window': (b) => b.read('/notes.txt', 1, 2),
  'read the last line': (b) => b.read('/notes.txt', 4, 10),
  'read past the end': (b) => b.read('/notes.txt', 10, 5),
  'read with limit 0': (b) => b.read('/notes.txt', 0, 0),
  'read with a negative, fractional offset': (b) => b.read('/notes.txt', -2.5, 2.7),
  'read a missing file': (b) => b.read('/missing.ts'),
  'grep literal': (b) => b.grep('hello', '/'),
  'grep a regex metacharacter literally': (b) => b.grep('.toUpperCase()', '/'),
  'grep in one file': (b) => b.grep('hello', '/README.md'),
  'grep with a glob': (b) => b.grep('hello', '/', '*.ts'),
  'grep with maxCount': (b) => b.grep('hello', '/', null, 2),
  'grep with maxCount not reached': (b) => b.grep('hello', '/', null, 50),
  'grep under a missing path': (b) => b.grep('hello', '/nope'),
  'grep with no match': (b) => b.grep('absent', '/'),
  'glob **/*.ts': (b) => b.glob('**/*.ts', '/'),
  'glob *.json under /data': (b) => b.glob('*.json', '/data'),
  'glob naming a file': (b) => b.glob('*.md', '/README.md'),
  'glob with no match': (b) => b.glob('*.py', '/'),
  'edit once': async (b) => [await b.edit('/src/app.ts', '"hello"', '"hi"'), await b.read('/src/app.ts')],
  'edit ambiguous': (b) => b.edit('/README.md', 'hello', 'hi'),
  'edit replace all': async (b) => [await b.edit('/README.md', 'hello', 'hi', true), await b.read('/README.md')],
  // Its first line; AgentvfsBackend adds the closest lines after it (tested below).
  'edit with no match': async (b) => (await b.edit('/README.md', 'goodbye', 'hi')).error?.split('\n')[0],
  'edit a missing file': (b) => b.edit('/missing.ts', 'a', 'b'),
  'edit with an empty old string': (b) => b.edit('/README.md', '', 'x'),
  'edit an empty file with an empty old string': async (b) => [
    await b.write('/empty.txt', ''),
    await b.edit('/empty.txt', '', 'filled'),
    await b.read('/empty.txt'),
  ],
  'edit with old == new': async (b) => [await b.edit('/src/app.ts', '"world"', '"world"'), await b.read('/src/app.ts')],
  'write over an existing file, unread': async (b) => [await b.write('/src/app.ts', 'replaced\n'), await b.read('/src/app.ts')],
  'write a new file in a new directory': async (b) => [await b.write('/new/deep/file.txt', 'x'), await b.ls('/new/deep')],
  'delete a file': async (b) => [await b.delete('/notes.txt'), await b.read('/notes.txt')],
  'delete a directory': async (b) => [await b.delete('/src/'), await b.ls('/'), await b.glob('**/*.ts')],
  'delete a missing file': (b) => b.delete('/missing.ts'),
  download: (b) => b.downloadFiles(['/notes.txt', '/missing.ts']),
};

describe('AgentvfsBackend gives what deepagents’ StateBackend gives', () => {
  // One fixed time on both sides: each lists glob results newest first, StateBackend ties in the
  // order written, agentvfs by path (FILES is written in path order). With a running clock, writes a
  // millisecond apart would put the reference's results in another order now and then.
  const NOW = 1_700_000_000_000;
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date'], now: NOW }));
  afterEach(() => vi.useRealTimers());

  it.each(Object.keys(STEPS))('%s', async (name) => {
    const reference = deepagentsStateBackend();
    const theirs = new Proxy(reference.backend, {
      // Every write-like result's filesUpdate is merged before the next call, as the middleware does.
      get(target, key) {
        const value = Reflect.get(target, key);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const result = value.apply(target, args);
          if (result && typeof result === 'object' && 'filesUpdate' in result) reference.apply(result.filesUpdate);
          return result;
        };
      },
    }) as unknown as DeepagentsLike;
    for (const [path, content] of Object.entries(FILES)) await theirs.write(path, content);
    const ours = new AgentvfsBackend(createStateBackend({ files: FILES, now: () => NOW }));

    expect(comparable(await STEPS[name]!(ours))).toEqual(comparable(await STEPS[name]!(theirs)));
  });
});

describe('AgentvfsBackend beyond StateBackend', () => {
  it('has no execute, so deepagents offers no shell', () => {
    const backend = new AgentvfsBackend(createStateBackend());
    expect('execute' in backend).toBe(false);
    expect(isSandboxBackend(backend)).toBe(false);
  });

  it('a time no Date can hold (a snapshot may carry one) lists as no time, not as an error hiding the directory', async () => {
    const store = createStateBackend({ now: () => 1e20, files: { '/far.txt': 'far' } });
    const listed = await new AgentvfsBackend(store).ls('/');
    expect(listed.error).toBeUndefined();
    expect(listed.files?.map((f) => [f.path, f.modified_at])).toEqual([['/far.txt', '']]);
  });

  it('reads raw text: CRLF stays, nothing numbered; an edit keeps the file’s line endings', async () => {
    const store = createStateBackend({ files: { '/w.txt': 'a\r\nb\r\nc\r\n' } });
    const backend = new AgentvfsBackend(store);
    expect((await backend.read('/w.txt')).content).toBe('a\r\nb\r\nc\r\n');
    // An LF old string in a CRLF file: no exact match, agentvfs's line-ending correction finds one.
    expect(await backend.edit('/w.txt', 'a\nb', 'A\nB')).toEqual({ path: '/w.txt', filesUpdate: null, occurrences: 1 });
    expect(await store.readText('/w.txt')).toBe('A\r\nB\r\nc\r\n');
  });

  it('says where the closest lines are when an edit finds nothing, and writes nothing', async () => {
    const store = createStateBackend({ files: { '/a.ts': 'function greet() {\n  return "hello";\n}\n' } });
    const result = await new AgentvfsBackend(store).edit('/a.ts', 'return "helo";', 'return "hi";');
    expect(result.error).toMatch(/^Error: String not found in file: 'return "helo";'\n/);
    expect(result.error).toContain('return "hello";');
    expect(await store.readText('/a.ts')).toBe('function greet() {\n  return "hello";\n}\n');
  });

  it('reads raw text, a BOM included, so a read and a write back keep the bytes; ls of "" lists the root', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('x\n')]);
    const store = createStateBackend({ files: { '/bom.txt': bytes } });
    const backend = new AgentvfsBackend(store);
    const raw = await backend.readRaw('/bom.txt');
    expect(raw.data?.content).toBe('\uFEFFx\n');
    expect((await backend.read('/bom.txt')).content).toBe('\uFEFFx\n');
    await backend.write('/bom.txt', raw.data!.content as string);
    expect([...(await store.readFile('/bom.txt'))]).toEqual([...bytes]);
    expect((await backend.ls('')).files?.map((f) => f.path)).toEqual(['/bom.txt']);
  });

  it('returns { error } and never throws: bad paths, directories, files in the way, a full store', async () => {
    const store = createStateBackend({ files: { '/file.txt': 'x' }, limits: { maxFileBytes: 10 } });
    const backend = new AgentvfsBackend(store);
    expect((await backend.read('/')).error).toMatch(/directory/);
    expect((await backend.write('/file.txt/inner.txt', 'y')).error).toMatch(/file\.txt is a file/);
    expect((await backend.write('/big.txt', 'more than ten bytes')).error).toMatch(/^Error: /);
    expect((await backend.write('/a/../../escape.txt', 'y')).error).toMatch(/^Error: /);
    expect((await backend.ls('/file.txt')).files).toEqual([]);
    expect(await store.exists('/big.txt')).toBe(false);
  });

  it('writes a non-text file from base64 and refuses content that is not base64, writing nothing', async () => {
    const store = createStateBackend();
    const backend = new AgentvfsBackend(store);
    expect(await backend.write('/pic.png', 'data:image/png;base64,iVBORw0KGgo=')).toEqual({ path: '/pic.png', filesUpdate: null });
    expect([...(await store.readFile('/pic.png'))]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect((await backend.write('/other.png', 'not base64!')).error).toContain('must be base64');
    expect(await store.exists('/other.png')).toBe(false);
  });

  it('reports a text-named file holding binary bytes instead of returning mangled text', async () => {
    const backend = new AgentvfsBackend(createStateBackend({ files: { '/blob.txt': new Uint8Array([104, 0, 105]) } }));
    expect(await backend.read('/blob.txt')).toEqual({ error: "File '/blob.txt' has binary content but text MIME type" });
    expect((await backend.edit('/blob.txt', 'h', 'H')).error).toContain('binary');
  });

  it('caps grep after skipping non-text files, whichever came first', async () => {
    const files: Record<string, string> = { '/a.png': 'hit\nhit\nhit', '/b.txt': 'hit', '/c.txt': 'hit\nhit' };
    const backend = new AgentvfsBackend(createStateBackend({ files }));
    expect(await backend.grep('hit', '/', null, 2)).toEqual({
      matches: [
        { path: '/b.txt', line: 1, text: 'hit' },
        { path: '/c.txt', line: 1, text: 'hit' },
      ],
      truncated: true,
    });
  });

  it('searches once when the cap is not reached, or nothing was skipped', async () => {
    const store = createStateBackend({ files: { '/a.png': 'hit', '/b.txt': 'hit\nhit\nhit' } });
    let searches = 0;
    const counting = new Proxy(store, {
      get: (target, key) => (key === 'grep' ? (...args: Parameters<typeof store.grep>) => (searches++, target.grep(...args)) : Reflect.get(target, key)),
    });
    const backend = new AgentvfsBackend(counting);
    expect((await backend.grep('hit', '/', null, 1000)).matches).toHaveLength(3);
    expect((await backend.grep('hit', '/b.txt', null, 2)).truncated).toBe(true);
    expect(searches).toBe(2);
  });

  it('deletes everything under "/" but the root itself', async () => {
    const store = createStateBackend({ files: { '/a/b.txt': 'x', '/c.txt': 'y' } });
    const backend = new AgentvfsBackend(store);
    expect(await backend.delete('/')).toEqual({ path: '/', filesUpdate: null });
    expect(await store.ls('/')).toEqual([]);
    expect((await backend.delete('/')).error).toContain('not found');
  });

  it('works the same over a RemoteBackend whose worker is gone: every call is an { error }', async () => {
    const remote = inWorkerThread({ files: { '/a.txt': 'x' } });
    const backend = new AgentvfsBackend(remote);
    expect((await backend.read('/a.txt')).content).toBe('x');
    await closeAll();
    const results = await Promise.all([
      backend.read('/a.txt'),
      backend.write('/b.txt', 'y'),
      backend.ls('/'),
      backend.grep('x'),
      backend.glob('*'),
      backend.edit('/a.txt', 'x', 'y'),
    ]);
    for (const result of results) expect(result.error).toMatch(/^Error: /);
  });

  it('applies a step’s parallel edits of one file one after another, as deepagents’ StateBackend does', async () => {
    const backend = new AgentvfsBackend(createStateBackend({ files: { '/p.txt': 'one\ntwo\nthree\nfour\n' } }));
    const results = await Promise.all([
      backend.edit('/p.txt', 'one', 'ONE'),
      backend.edit('/p.txt', 'two', 'TWO'),
      backend.edit('/p.txt', 'three', 'THREE'),
      backend.edit('/p.txt', 'four', 'FOUR'),
    ]);
    for (const r of results) expect(r).toEqual({ path: '/p.txt', filesUpdate: null, occurrences: 1 });
    expect((await backend.read('/p.txt')).content).toBe('ONE\nTWO\nTHREE\nFOUR\n');
    // One that no longer matches after the others ran says so, as deepagents would.
    const [first, gone] = await Promise.all([backend.edit('/p.txt', 'ONE', 'uno'), backend.edit('/p.txt', 'ONE\nTWO', 'x')]);
    expect(first.error).toBeUndefined();
    expect(gone.error).toMatch(/^Error: String not found in file/);
  });

  it('refuses what is not a backend, naming what it needs', () => {
    expect(() => new AgentvfsBackend({} as never)).toThrow(/needs a backend \(createStateBackend\(\).*; got an object without ls, stat, read/);
    // A tool set from createTools is not a backend: deepagents calls backend methods.
    expect(() => new AgentvfsBackend(createTools(createStateBackend()) as never)).toThrow(/got an object without ls, stat, read, writeFile/);
    expect(() => new AgentvfsBackend(null as never)).toThrow(/got null\.$/);
  });
});
