import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../../../backend/state-backend.ts';
import type { Backend } from '../../../backend/types.ts';
import { createTools } from '../../create-tools.ts';

/**
 * A move carries what the session has read of each file to where it lands. Another call's write
 * that lands just before the move (or just after it, before the tool looks at the result) is
 * not something the session has read: its next edit there is ESTALE, not a write over it.
 * The other write is made at a set point of the move (a hook on the backend's rename), not by timing.
 */
function hooked(files: Record<string, string>, when: 'before' | 'after', other: (b: Backend) => Promise<unknown>) {
  const inner = createStateBackend({ files });
  let armed = false;
  const backend = new Proxy(inner, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (key !== 'rename' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: unknown[]) => {
        const fire = armed;
        armed = false;
        if (fire && when === 'before') await other(inner);
        const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (fire && when === 'after') await other(inner);
        return result;
      };
    },
  });
  return { inner, backend, arm: () => (armed = true) };
}

describe('a move and a write of another call', () => {
  for (const when of ['before', 'after'] as const) {
    it(`memory rename: a write landing ${when} the move is not taken as read`, async () => {
      const dest = when === 'before' ? '/memories/a.md' : '/memories/b.md';
      const { inner, backend, arm } = hooked({ '/memories/a.md': 'one\ntwo\n' }, when, (b) => b.writeFile(dest, 'OTHER\ntwo\n'));
      const tools = createTools(backend, { dialect: 'anthropic' });
      await tools.call('memory', { command: 'view', path: '/memories/a.md' });
      arm();
      expect(await tools.call('memory', { command: 'rename', old_path: '/memories/a.md', new_path: '/memories/b.md' })).toContain('Successfully renamed');
      const edit = await tools.run('memory', { command: 'str_replace', path: '/memories/b.md', old_str: 'two', new_str: 'TWO' });
      expect(edit.code).toBe('ESTALE');
      expect(await inner.readText('/memories/b.md')).toBe('OTHER\ntwo\n');
    });

    it(`mcp-filesystem move_file: a write landing ${when} the move is not taken as read`, async () => {
      const dest = when === 'before' ? '/a.md' : '/b.md';
      const { inner, backend, arm } = hooked({ '/a.md': 'one\ntwo\n' }, when, (b) => b.writeFile(dest, 'OTHER\ntwo\n'));
      const tools = createTools(backend, { dialect: 'mcp-filesystem' });
      await tools.call('read_text_file', { path: '/a.md' });
      arm();
      expect(await tools.call('move_file', { source: '/a.md', destination: '/b.md' })).toContain('Successfully moved');
      const edit = await tools.run('edit_file', { path: '/b.md', edits: [{ oldText: 'two', newText: 'TWO' }] });
      expect(edit.code).toBe('ESTALE');
      expect(await inner.readText('/b.md')).toBe('OTHER\ntwo\n');
    });
  }

  it('a directory move: a file another call rewrites just after it is stale, the others stay current', async () => {
    const files = { '/memories/d/a.md': 'one\n', '/memories/d/b.md': 'two\n' };
    const { inner, backend, arm } = hooked(files, 'after', (b) => b.writeFile('/memories/e/b.md', 'OTHER\n'));
    const tools = createTools(backend, { dialect: 'anthropic' });
    await tools.call('memory', { command: 'view', path: '/memories/d/a.md' });
    await tools.call('memory', { command: 'view', path: '/memories/d/b.md' });
    arm();
    expect(await tools.call('memory', { command: 'rename', old_path: '/memories/d', new_path: '/memories/e' })).toContain('Successfully renamed');
    expect((await tools.run('memory', { command: 'str_replace', path: '/memories/e/b.md', old_str: 'OTHER', new_str: 'MINE' })).code).toBe('ESTALE');
    expect((await tools.run('memory', { command: 'str_replace', path: '/memories/e/a.md', old_str: 'one', new_str: 'ONE' })).isError).toBe(false);
    expect(await inner.readText('/memories/e/b.md')).toBe('OTHER\n');
    expect(await inner.readText('/memories/e/a.md')).toBe('ONE\n');
  });

  it('a move with no other write keeps the session current where the files land', async () => {
    const { inner, backend } = hooked({ '/memories/d/a.md': 'one\n', '/memories/d/b.md': 'two\n' }, 'before', async () => {});
    const tools = createTools(backend, { dialect: 'anthropic' });
    await tools.call('memory', { command: 'view', path: '/memories/d/a.md' });
    expect(await tools.call('memory', { command: 'rename', old_path: '/memories/d', new_path: '/memories/e' })).toContain('Successfully renamed');
    const edit = await tools.run('memory', { command: 'str_replace', path: '/memories/e/a.md', old_str: 'one', new_str: 'ONE' });
    expect(edit.isError).toBe(false);
    expect(await inner.readText('/memories/e/a.md')).toBe('ONE\n');
  });
});
