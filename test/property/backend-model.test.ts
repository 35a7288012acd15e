// Random sequences of mutations against a trivial reference model
// (files: path → bytes, plus a set of directories): zero divergence allowed,
// both in each call's outcome (ok or error code) and in the whole state after it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStateBackend, type Backend } from '../../src/index.ts';

type Op =
  | { kind: 'write'; path: string; data: string }
  | { kind: 'mkdir'; path: string }
  | { kind: 'remove'; path: string; recursive: boolean }
  | { kind: 'rename'; from: string; to: string; overwrite: boolean }
  | { kind: 'edit'; path: string; old: string; new: string; all: boolean };

class Model {
  files = new Map<string, string>();
  dirs = new Set<string>(['/']);

  has(p: string) {
    return this.files.has(p) || this.dirs.has(p);
  }
  ancestorFile(p: string) {
    const parts = p.split('/').filter(Boolean);
    for (let i = 1; i < parts.length; i++) if (this.files.has(`/${parts.slice(0, i).join('/')}`)) return true;
    return false;
  }
  mkdirs(p: string) {
    const parts = p.split('/').filter(Boolean);
    for (let i = 1; i <= parts.length; i++) this.dirs.add(`/${parts.slice(0, i).join('/')}`);
  }
  parent(p: string) {
    return p.slice(0, p.lastIndexOf('/')) || '/';
  }
  under(p: string) {
    return [...this.files.keys(), ...this.dirs].filter((q) => q.startsWith(`${p}/`));
  }

  apply(op: Op): string {
    switch (op.kind) {
      case 'write':
        if (this.dirs.has(op.path)) return 'EISDIR';
        if (this.ancestorFile(op.path)) return 'ENOTDIR';
        this.mkdirs(this.parent(op.path));
        this.files.set(op.path, op.data);
        return 'ok';
      case 'mkdir':
        if (this.files.has(op.path)) return 'EEXIST';
        if (this.ancestorFile(op.path)) return 'ENOTDIR';
        this.mkdirs(op.path);
        return 'ok';
      case 'remove': {
        if (!this.has(op.path)) return this.ancestorFile(op.path) ? 'ENOTDIR' : 'ENOENT';
        const inside = this.under(op.path);
        if (this.dirs.has(op.path) && inside.length > 0 && !op.recursive) return 'EISDIR';
        for (const q of [op.path, ...inside]) {
          this.files.delete(q);
          this.dirs.delete(q);
        }
        return 'ok';
      }
      case 'rename': {
        const { from, to } = op;
        if (!this.has(from)) return this.ancestorFile(from) ? 'ENOTDIR' : 'ENOENT';
        if (from === to) return 'ok';
        if (to === '/' || to.startsWith(`${from}/`)) return 'EINVAL';
        const isDir = this.dirs.has(from);
        if (this.has(to) && (this.dirs.has(to) || isDir || !op.overwrite)) return 'EEXIST';
        if (this.ancestorFile(to)) return 'ENOTDIR';
        const moved = [from, ...this.under(from)];
        const files = moved.filter((q) => this.files.has(q)).map((q) => [q, this.files.get(q)!] as const);
        const dirs = moved.filter((q) => this.dirs.has(q));
        this.files.delete(to);
        for (const q of moved) {
          this.files.delete(q);
          this.dirs.delete(q);
        }
        this.mkdirs(this.parent(to));
        for (const d of dirs) this.dirs.add(to + d.slice(from.length));
        for (const [q, data] of files) this.files.set(to + q.slice(from.length), data);
        return 'ok';
      }
      case 'edit': {
        if (this.dirs.has(op.path)) return 'EISDIR';
        if (!this.files.has(op.path)) return this.ancestorFile(op.path) ? 'ENOTDIR' : 'ENOENT';
        if (op.old === '') return 'EINVAL';
        if (op.old === op.new) return 'ENOCHANGE';
        const content = this.files.get(op.path)!;
        const count = content.split(op.old).length - 1;
        if (count === 0) return 'ENOMATCH';
        if (count > 1 && !op.all) return 'EAMBIGUOUS';
        this.files.set(op.path, content.split(op.old).join(op.new));
        return 'ok';
      }
    }
  }
}

async function run(backend: Backend, op: Op): Promise<string> {
  try {
    switch (op.kind) {
      case 'write':
        await backend.writeFile(op.path, op.data);
        break;
      case 'mkdir':
        await backend.mkdir(op.path);
        break;
      case 'remove':
        await backend.remove(op.path, { recursive: op.recursive });
        break;
      case 'rename':
        await backend.rename(op.from, op.to, { overwrite: op.overwrite });
        break;
      case 'edit':
        await backend.edit(op.path, op.old, op.new, { replaceAll: op.all });
        break;
    }
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? `throw ${String(error)}`;
  }
}

async function dump(backend: Backend, dir = '/', out = { files: {} as Record<string, string>, dirs: [] as string[] }) {
  for (const e of await backend.ls(dir)) {
    if (e.isDir) {
      out.dirs.push(e.path);
      await dump(backend, e.path, out);
    } else out.files[e.path] = await backend.readText(e.path);
  }
  return out;
}

// A tiny namespace so operations collide often; contents avoid whitespace and backslashes so
// edit's whitespace/escape corrections never apply and exact counting is the whole truth.
const segment = fc.constantFrom('a', 'b', 'c');
const path = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => `/${s.join('/')}`);
const data = fc.string({ unit: fc.constantFrom('x', 'y', 'z'), maxLength: 8 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('write' as const), path, data }),
  fc.record({ kind: fc.constant('mkdir' as const), path }),
  fc.record({ kind: fc.constant('remove' as const), path, recursive: fc.boolean() }),
  fc.record({ kind: fc.constant('rename' as const), from: path, to: path, overwrite: fc.boolean() }),
  fc.record({ kind: fc.constant('edit' as const), path, old: data, new: data, all: fc.boolean() }),
);

describe('backend vs reference model', () => {
  it('agrees on every outcome and on the whole state after random operation sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 30 }), async (ops) => {
        const backend = createStateBackend();
        const model = new Model();
        for (const o of ops) {
          expect(await run(backend, o), JSON.stringify(o)).toBe(model.apply(o));
          const state = await dump(backend);
          expect(state.files).toEqual(Object.fromEntries(model.files));
          expect(state.dirs.sort()).toEqual([...model.dirs].filter((d) => d !== '/').sort());
        }
      }),
      { numRuns: 300, seed: 42 },
    );
  });
});
