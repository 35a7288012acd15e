// The format lets a writer store entries in any order (docs/snapshot-format.md, "Tree rules");
// agentvfs writes path order, so restoring another order is only reached with bytes made here.
// (Not in the conformance suite: that runs on the built core, which does not export the encoder.)
import { expect, it } from 'vitest';
import { createStateBackend } from '../../src/index.ts';
import { encodeSnapshot } from '../../src/snapshot/format.ts';

const utf8 = (s: string) => new TextEncoder().encode(s);

it('restores entries stored in any order (parents after children, implied directories)', async () => {
  const file = (path: string, content: string) => ({ path, kind: 'file' as const, mtimeMs: 5, content: utf8(content) });
  const bytes = encodeSnapshot([
    file('/z/y/x.txt', 'x'),
    { path: '/z', kind: 'dir', mtimeMs: 7 },
    file('/a.txt', 'a'),
    { path: '/z/y', kind: 'dir', mtimeMs: 6 },
    file('/q/r.txt', 'r'),
  ]);
  const b = createStateBackend({ files: { '/old': 'old' } });
  await b.restore(bytes);
  expect(await b.readText('/z/y/x.txt')).toBe('x');
  expect((await b.stat('/z')).mtimeMs).toBe(7);
  expect((await b.stat('/z/y')).mtimeMs).toBe(6);
  expect((await b.stat('/q')).isDir).toBe(true);
  expect((await b.ls('/')).map((e) => e.path)).toEqual(['/q', '/z', '/a.txt']);
  expect(await b.exists('/old')).toBe(false);
  // And it snapshots back in path order: the same tree, canonical bytes.
  const again = createStateBackend();
  await again.restore(await b.snapshot());
  expect(await again.snapshot()).toEqual(await b.snapshot());
});
