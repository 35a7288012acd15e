/** Cancellation details of the in-process tools (the rest is in test/conformance/guard.suite.ts, everywhere the tools run). */
import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../backend/state-backend.ts';
import { createTools } from './create-tools.ts';

describe('a cancelled call', () => {
  it('is not run again after a refusal as stale (parallel edits of one session): the refusal is its answer', async () => {
    const backend = createStateBackend({ files: { '/a.txt': 'one two\n' } });
    const stopB = new AbortController();
    const edit = backend.edit.bind(backend);
    let edits = 0;
    // The first edit to land is A's (it started first); B is cancelled right after it, before B runs again.
    (backend as { edit: unknown }).edit = async (...args: unknown[]) => {
      const result = await (edit as (...a: unknown[]) => ReturnType<typeof edit>)(...args);
      if (++edits === 1) stopB.abort();
      return result;
    };
    const tools = createTools(backend);
    await tools.run('read_file', { path: '/a.txt' });
    const [a, b] = await Promise.all([
      tools.run('edit_file', { path: '/a.txt', old_string: 'one', new_string: 'ONE' }),
      tools.run('edit_file', { path: '/a.txt', old_string: 'two', new_string: 'TWO' }, { signal: stopB.signal }),
    ]);
    expect(a.isError, a.text).toBe(false);
    expect(b.code).toBe('ESTALE');
    expect(b.changed).toEqual([]);
    expect(await backend.readText('/a.txt')).toBe('ONE two\n');
  });

  it('without a signal, the same parallel edits both land (the retry the signal stops)', async () => {
    const backend = createStateBackend({ files: { '/a.txt': 'one two\n' } });
    const tools = createTools(backend);
    await tools.run('read_file', { path: '/a.txt' });
    const results = await Promise.all([
      tools.run('edit_file', { path: '/a.txt', old_string: 'one', new_string: 'ONE' }),
      tools.run('edit_file', { path: '/a.txt', old_string: 'two', new_string: 'TWO' }, { signal: new AbortController().signal }),
    ]);
    expect(results.map((r) => r.isError)).toEqual([false, false]);
    expect(await backend.readText('/a.txt')).toBe('ONE TWO\n');
  });
});
