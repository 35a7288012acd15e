// Random operation sequences on a fork and on its parent that cannot conflict (each side works
// in its own directory, and on its own half of one shared file), then merged: the result must
// be what applying both sequences to one backend gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStateBackend, type Backend } from '../../src/index.ts';

type Op =
  | { kind: 'write'; name: string; data: string }
  | { kind: 'remove'; name: string }
  | { kind: 'rename'; from: string; to: string }
  | { kind: 'mkdir'; name: string }
  | { kind: 'line'; line: number; text: string };

const names = ['a.txt', 'b.txt', 'c/d.txt', 'c/e.txt', 'f'];
const op = (lines: [number, number]) =>
  fc.oneof(
    fc.record({ kind: fc.constant('write' as const), name: fc.constantFrom(...names), data: fc.string({ maxLength: 12 }) }),
    fc.record({ kind: fc.constant('remove' as const), name: fc.constantFrom(...names, 'c') }),
    fc.record({ kind: fc.constant('rename' as const), from: fc.constantFrom(...names), to: fc.constantFrom(...names, 'moved/x.txt') }),
    fc.record({ kind: fc.constant('mkdir' as const), name: fc.constantFrom('g', 'c/h') }),
    fc.record({ kind: fc.constant('line' as const), line: fc.integer({ min: lines[0], max: lines[1] }), text: fc.stringMatching(/^[a-z ]{0,10}$/) }),
  );

const SHARED = '/shared.txt';
const shared = Array.from({ length: 20 }, (_, i) => `line ${i}\n`).join('');

async function run(b: Backend, dir: string, ops: readonly Op[]): Promise<void> {
  for (const o of ops) {
    // A refused op (missing file, rename onto a directory, ...) is refused alike everywhere: its area is the same state.
    try {
      if (o.kind === 'write') await b.writeFile(`${dir}/${o.name}`, o.data);
      else if (o.kind === 'remove') await b.remove(`${dir}/${o.name}`, { recursive: true });
      else if (o.kind === 'rename') await b.rename(`${dir}/${o.from}`, `${dir}/${o.to}`);
      else if (o.kind === 'mkdir') await b.mkdir(`${dir}/${o.name}`);
      else {
        const lines = (await b.readText(SHARED)).split('\n');
        lines[o.line] = o.text;
        await b.writeFile(SHARED, lines.join('\n'));
      }
    } catch (error) {
      if (!(error as { code?: string }).code) throw error;
    }
  }
}

async function state(b: Backend): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  const walk = async (dir: string) => {
    for (const e of await b.ls(dir)) {
      out[e.path] = e.isDir ? null : await b.readText(e.path);
      if (e.isDir) await walk(e.path);
    }
  };
  await walk('/');
  return out;
}

describe('fork, change both sides, merge: the same as one backend doing both', () => {
  it('holds for random non-conflicting operation sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op([0, 8]), { maxLength: 12 }), fc.array(op([11, 19]), { maxLength: 12 }), async (ours, theirs) => {
        const files = { [SHARED]: shared, '/p/a.txt': 'pa', '/p/c/d.txt': 'pd', '/q/b.txt': 'qb', '/q/c/e.txt': 'qe' };
        const parent = createStateBackend({ files });
        const fork = await parent.fork();
        await run(parent, '/p', ours);
        await run(fork, '/q', theirs);
        const one = createStateBackend({ files });
        await run(one, '/p', ours);
        await run(one, '/q', theirs);
        const result = await parent.merge(fork);
        expect(result.conflicts).toEqual([]);
        expect(await state(parent)).toEqual(await state(one));
      }),
      { numRuns: 300 },
    );
  });
});
