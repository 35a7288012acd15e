// createTools' own checks: a target that is no backend, or an option it does not know, is a
// TypeError at once, never a tool set that fails every call or quietly lacks a guard.
import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../backend/state-backend.ts';
import { createTools } from './create-tools.ts';
import { createSession } from './session.ts';

describe('createTools checks its target and options', () => {
  it('a target that is no backend is a TypeError saying what was given', () => {
    for (const [target, what] of [
      [undefined, 'undefined'],
      [null, 'null'],
      [{}, 'an object without the backend methods'],
      ['x', 'the string "x"'],
      [42, 'the number 42'],
    ] as const) {
      expect(() => createTools(target as never)).toThrow(
        `agentvfs: createTools expects a backend (createStateBackend(), or connect(worker) from agentvfs/client); got ${what}`,
      );
    }
  });

  it('a misspelt option (a guard left off) is a TypeError naming the one meant; the right one guards', async () => {
    const backend = createStateBackend({ files: { '/secret.txt': 'no', '/public/a.txt': 'yes' } });
    expect(() => createTools(backend, { permission: { read: ['/public/**'] } } as never)).toThrow(
      'agentvfs: createTools has no option "permission" (did you mean "permissions"?); its options are dialect, session, descriptions, permissions, approve, onEvent.',
    );
    expect(() => createTools(backend, { on_event: () => {} } as never)).toThrow(/"on_event" \(did you mean "onEvent"\?\)/);
    expect(() => createTools(backend, 'anthropic' as never)).toThrow(/createTools takes an options object/);
    const guarded = createTools(backend, { permissions: { read: ['/public/**'] } });
    expect(await guarded.call('read_file', { path: '/secret.txt' })).toMatch(/^Error: EACCES/);
    expect(await guarded.call('read_file', { path: '/public/a.txt' })).toBe('     1\tyes');
  });

  it('a session is for one backend (and its forks): another backend with the same versions would take its reads as its own', async () => {
    const a = createStateBackend({ files: { '/x': 'a\n' } });
    const b = createStateBackend({ files: { '/x': 'b, never read\n' } });
    expect((await a.stat('/x')).version).toBe((await b.stat('/x')).version);
    const session = createSession();
    const onA = createTools(a, { session });
    expect(() => createTools(b, { session, dialect: 'anthropic' })).toThrow(
      /^agentvfs: createTools: this session already tracks the reads of another backend, and a file read there is not read here\. Make one session per backend/,
    );
    // A fork shares its parent's versions: what the session read there holds in the fork.
    await onA.call('read_file', { path: '/x' });
    const fork = await a.fork();
    const onFork = createTools(fork, { session });
    expect(await onFork.call('write_file', { path: '/x', content: 'fork\n' })).toMatch(/^Updated \/x/);
    expect(await b.readText('/x')).toBe('b, never read\n');
  });
});
