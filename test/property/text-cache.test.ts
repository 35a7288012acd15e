// The decoded-text cache must be invisible: a backend with it (a tiny budget, so entries are
// evicted all the time, and the default) gives exactly what a backend without it gives, for
// every call and every file's text, through writes of text that does not survive encoding
// unchanged (lone surrogates, a leading U+FEFF, NUL), BOMs, broken UTF-8, edits, renames,
// removals, rollbacks and restores.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStateBackend, type Backend } from '../../src/index.ts';

type Op =
  | { kind: 'writeText'; path: string; data: string }
  | { kind: 'writeBytes'; path: string; bytes: number[] }
  | { kind: 'edit'; path: string; old: string; new: string; all: boolean }
  | { kind: 'read'; path: string }
  | { kind: 'rename'; from: string; to: string }
  | { kind: 'remove'; path: string }
  | { kind: 'checkpoint' }
  | { kind: 'rollback'; back: number }
  | { kind: 'snapshot' }
  | { kind: 'restore'; back: number };

const path = fc.constantFrom('/a', '/b', '/d/c');
const unit = fc.constantFrom('x', 'y', 'é', '\u{1F600}', '\uD800', '\uDC00', '\uFEFF', '\0', '\uFFFD', '\n', '\r\n');
const data = fc.string({ unit, maxLength: 12 });
const small = fc.string({ unit, minLength: 1, maxLength: 2 });
const piece = fc.constantFrom([0x78], [0xc3, 0xa9], [0xef, 0xbb, 0xbf], [0xe2, 0x82], [0xff], [0x00], [0x0a], [0xed, 0xa0, 0x80]);
// Half of them start with a BOM, which readText drops and an edit keeps.
const bytes = fc.tuple(fc.boolean(), fc.array(piece, { maxLength: 10 })).map(([bom, p]) => [...(bom ? [0xef, 0xbb, 0xbf] : []), ...p.flat()]);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('writeText' as const), path, data }),
  fc.record({ kind: fc.constant('writeBytes' as const), path, bytes }),
  fc.record({ kind: fc.constant('edit' as const), path, old: small, new: data, all: fc.boolean() }),
  fc.record({ kind: fc.constant('read' as const), path }),
  fc.record({ kind: fc.constant('rename' as const), from: path, to: path }),
  fc.record({ kind: fc.constant('remove' as const), path }),
  fc.record({ kind: fc.constant('checkpoint' as const) }),
  fc.record({ kind: fc.constant('rollback' as const), back: fc.nat(3) }),
  fc.record({ kind: fc.constant('snapshot' as const) }),
  fc.record({ kind: fc.constant('restore' as const), back: fc.nat(3) }),
);

class Runner {
  checkpoints: string[] = [];
  snapshots: Uint8Array[] = [];
  constructor(readonly backend: Backend) {}

  async run(o: Op): Promise<unknown> {
    const b = this.backend;
    try {
      switch (o.kind) {
        case 'writeText':
          return (await b.writeFile(o.path, o.data)).size;
        case 'writeBytes':
          return (await b.writeFile(o.path, new Uint8Array(o.bytes))).size;
        case 'edit': {
          const r = await b.edit(o.path, o.old, o.new, { replaceAll: o.all });
          return [r.size, r.count, r.firstLine, r.lastLine, r.correction];
        }
        case 'read':
          return await b.readText(o.path);
        case 'rename':
          return (await b.rename(o.from, o.to, { overwrite: true })).size;
        case 'remove':
          return await b.remove(o.path, { recursive: true });
        case 'checkpoint':
          this.checkpoints.push(await b.checkpoint());
          return this.checkpoints.length;
        case 'rollback': {
          const id = this.checkpoints[this.checkpoints.length - 1 - o.back];
          return id === undefined ? 'none' : await b.rollback(id);
        }
        case 'snapshot':
          this.snapshots.push(await b.snapshot());
          return this.snapshots.length;
        case 'restore': {
          const snap = this.snapshots[this.snapshots.length - 1 - o.back];
          return snap === undefined ? 'none' : await b.restore(snap);
        }
      }
    } catch (error) {
      return (error as { code?: string }).code ?? `throw ${String(error)}`;
    }
  }
}

const decoder = new TextDecoder('utf-8', { ignoreBOM: false }); // drops one leading BOM, as readText does

async function texts(backend: Backend) {
  const out: Record<string, string> = {}; // text | bytes
  for (const p of ['/a', '/b', '/d/c']) {
    if (!(await backend.exists(p)) || (await backend.stat(p)).isDir) continue;
    const text = await backend.readText(p);
    const stored = await backend.readFile(p);
    expect(text, `${p} as its bytes decode`).toBe(decoder.decode(stored));
    out[p] = `${text} | ${[...stored]}`;
  }
  return out;
}

describe('decoded-text cache', () => {
  for (const budget of [300, undefined]) {
    it(`changes no result (budget ${budget ?? 'default'})`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(op, { maxLength: 25 }), async (ops) => {
          const cached = new Runner(createStateBackend({ textCacheBytes: budget }));
          const plain = new Runner(createStateBackend({ textCacheBytes: 0 }));
          for (const o of ops) {
            expect(await cached.run(o), JSON.stringify(o)).toEqual(await plain.run(o));
            expect(await texts(cached.backend), JSON.stringify(o)).toEqual(await texts(plain.backend));
          }
        }),
        { numRuns: 400 },
      );
    });
  }

  it('keeps a BOM through edits of text it holds, and no text that would not read back the same', async () => {
    const backend = createStateBackend();
    await backend.writeFile('/bom.txt', new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x0a]));
    expect(await backend.readText('/bom.txt')).toBe('a\n'); // now held
    await backend.edit('/bom.txt', 'a', 'b');
    await backend.edit('/bom.txt', 'b', 'c'); // edits the text the first edit left
    expect([...(await backend.readFile('/bom.txt'))]).toEqual([0xef, 0xbb, 0xbf, 0x63, 0x0a]);
    await expect(backend.writeFile('/lone.txt', 'x\uD800y')).rejects.toMatchObject({ code: 'EINVAL' }); // no UTF-8 form: refused, never held
    await backend.writeFile('/lone.txt', 'x\uFFFDy');
    await backend.edit('/lone.txt', 'x', '\uFEFFz'); // leading U+FEFF: stored, then dropped as a BOM on reading
    expect(await backend.readText('/lone.txt')).toBe('z\uFFFDy');
  });

  it('rejects a budget that is not a number of bytes, 0 or more', () => {
    for (const bad of [-1, Number.NaN, '16', null]) {
      expect(() => createStateBackend({ textCacheBytes: bad as number }), String(bad)).toThrow(/textCacheBytes must be a number of bytes/);
    }
  });
});
