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
  | { kind: 'line'; line: number; text: string }
  // Content unchanged, versions new: a file written again with its own bytes, every file restored.
  | { kind: 'touch'; name: string }
  | { kind: 'restore' };

const names = ['a.txt', 'b.txt', 'c/d.txt', 'c/e.txt', 'f'];
const op = (lines: [number, number]) =>
  fc.oneof(
    fc.record({ kind: fc.constant('write' as const), name: fc.constantFrom(...names), data: fc.string({ maxLength: 12 }) }),
    fc.record({ kind: fc.constant('remove' as const), name: fc.constantFrom(...names, 'c') }),
    fc.record({ kind: fc.constant('rename' as const), from: fc.constantFrom(...names), to: fc.constantFrom(...names, 'moved/x.txt') }),
    fc.record({ kind: fc.constant('mkdir' as const), name: fc.constantFrom('g', 'c/h') }),
    fc.record({ kind: fc.constant('line' as const), line: fc.integer({ min: lines[0], max: lines[1] }), text: fc.stringMatching(/^[a-z ]{0,10}$/) }),
    fc.record({ kind: fc.constant('touch' as const), name: fc.constantFrom(...names) }),
    fc.constant({ kind: 'restore' as const }),
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
      else if (o.kind === 'touch') await b.writeFile(`${dir}/${o.name}`, await b.readFile(`${dir}/${o.name}`));
      else if (o.kind === 'restore') await b.restore(await b.snapshot());
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

// Both sides over the same few paths, so that files become directories and back, moves land on
// new files, and removals meet edits. Every write is one line no other write has, so no text
// merge makes new content: whatever content a side made must be in the result of a clean merge.
type SharedOp =
  | { kind: 'write'; name: string }
  | { kind: 'remove'; name: string }
  | { kind: 'rename'; from: string; to: string }
  | { kind: 'mkdir'; name: string }
  | { kind: 'touch'; name: string }
  | { kind: 'restore' };

const crowded = ['a', 'b', 'd', 'd/x', 'd/y', 'e/z', 'e/d', 'e/d/x', 'd/s/w'];
const sharedOp = fc.oneof(
  fc.record({ kind: fc.constant('write' as const), name: fc.constantFrom(...crowded) }),
  fc.record({ kind: fc.constant('remove' as const), name: fc.constantFrom(...crowded, 'e') }),
  fc.record({ kind: fc.constant('rename' as const), from: fc.constantFrom(...crowded), to: fc.constantFrom(...crowded) }),
  fc.record({ kind: fc.constant('mkdir' as const), name: fc.constantFrom(...crowded) }),
  fc.record({ kind: fc.constant('touch' as const), name: fc.constantFrom(...crowded) }),
  fc.constant({ kind: 'restore' as const }),
);

async function runShared(b: Backend, side: string, ops: readonly SharedOp[]): Promise<void> {
  let n = 0;
  for (const o of ops) {
    try {
      if (o.kind === 'write') await b.writeFile(`/${o.name}`, `${side} ${n++}\n`);
      else if (o.kind === 'remove') await b.remove(`/${o.name}`, { recursive: true });
      else if (o.kind === 'rename') await b.rename(`/${o.from}`, `/${o.to}`);
      else if (o.kind === 'touch') await b.writeFile(`/${o.name}`, await b.readFile(`/${o.name}`));
      else if (o.kind === 'restore') await b.restore(await b.snapshot());
      else await b.mkdir(`/${o.name}`);
    } catch (error) {
      if (!(error as { code?: string }).code) throw error;
    }
  }
}

const contents = async (b: Backend) => new Set(Object.values(await state(b)).filter((v): v is string => v !== null));

describe('fork and parent change the same paths, then merge', () => {
  it("'report' applies all or nothing, and a clean merge loses no content either side made; 'markers' never loses this side's", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(sharedOp, { maxLength: 8 }), fc.array(sharedOp, { maxLength: 8 }), async (ours, theirs) => {
        // Created in an order other than the paths' (the plan must not depend on it).
        const files = { '/e/z': 'base z\n', '/b': 'base b\n', '/a': 'base a\n', '/d/x': 'base x\n' };
        const parent = createStateBackend({ files });
        const fork = await parent.fork();
        await runShared(parent, 'ours', ours);
        await runShared(fork, 'theirs', theirs);
        const base = new Set(Object.values(files));
        const made = [...(await contents(parent)), ...(await contents(fork))].filter((c) => !base.has(c));
        const oursMade = [...(await contents(parent))].filter((c) => !base.has(c));

        const before = await parent.snapshot();
        const result = await parent.merge(fork);
        if (result.conflicts.length > 0) expect(await parent.snapshot()).toEqual(before);
        else {
          const after = await contents(parent);
          for (const c of made) expect(after.has(c), `${JSON.stringify(c)} lost`).toBe(true);
        }

        const marked = createStateBackend({ files }); // the same two sides again, merged with markers
        const fork2 = await marked.fork();
        await runShared(marked, 'ours', ours);
        await runShared(fork2, 'theirs', theirs);
        await marked.merge(fork2, { conflicts: 'markers' });
        const kept = Object.values(await state(marked)).filter((v): v is string => v !== null);
        for (const c of oursMade)
          expect(
            kept.some((k) => k.includes(c)),
            `${JSON.stringify(c)} lost with markers`,
          ).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
