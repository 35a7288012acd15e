// A model's parallel calls in one turn, where one reaches the backend later than another made
// after it: a call that carries a file's whole content never lands over the later call's change.
// Gates (promises the test opens) set the order, so nothing here depends on timing.
import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../backend/state-backend.ts';
import type { Backend } from '../backend/types.ts';
import { createTools } from './create-tools.ts';
import { createSession } from './session.ts';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** `backend`, where the first call of `method` waits for `first` before it goes through. */
function firstWaits(backend: Backend, method: string, first: Promise<void>): Backend {
  let calls = 0;
  return new Proxy(backend, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      if (key !== method) return value.bind(target);
      return async (...args: unknown[]) => {
        if (calls++ === 0) await first;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

describe('parallel calls reaching the backend out of order', () => {
  it.each([
    [
      'agentvfs',
      ['read_file', { path: '/f' }],
      ['write_file', { path: '/f', content: 'a\nb\nc\nnew line\n' }],
      ['edit_file', { path: '/f', old_string: 'b', new_string: 'B' }],
    ],
    [
      'gemini',
      ['read_file', { file_path: '/f' }],
      ['write_file', { file_path: '/f', content: 'a\nb\nc\nnew line\n' }],
      ['replace', { file_path: '/f', old_string: 'b', new_string: 'B' }],
    ],
    [
      'mcp-filesystem',
      ['read_text_file', { path: '/f' }],
      ['write_file', { path: '/f', content: 'a\nb\nc\nnew line\n' }],
      ['edit_file', { path: '/f', edits: [{ oldText: 'b', newText: 'B' }] }],
    ],
  ] as const)('%s: a write_file made before an edit but arriving after it is refused, and the edit stays', async (dialect, read, write, edit) => {
    const backend = createStateBackend({ files: { '/f': 'a\nb\nc\n' } });
    const session = createSession();
    await createTools(backend, { dialect, session }).run(read[0], read[1]);
    const late = gate();
    const tools = createTools(firstWaits(backend, 'resolvePath', late.opened), { dialect, session });
    const writing = tools.run(write[0], write[1]);
    const edited = await tools.run(edit[0], edit[1]);
    expect(edited.isError, edited.text).toBe(false);
    late.open();
    const written = await writing;
    expect(written.code, written.text).toBe('ESTALE');
    expect(await backend.readText('/f')).toBe('a\nB\nc\n');
  });

  it('a write_file refused beside an earlier edit is run again though a read of another file is still running', async () => {
    const backend = createStateBackend({ files: { '/f': 'a\nb\n', '/g': 'g\n' } });
    const readOfG = gate();
    // Every backend call about /g waits until the test opens the gate.
    const gated = new Proxy(backend, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          if (args[0] === '/g') await readOfG.opened;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const tools = createTools(gated);
    await tools.run('read_file', { path: '/f' });
    const edit = tools.run('edit_file', { path: '/f', old_string: 'a', new_string: 'A' });
    const write = tools.run('write_file', { path: '/f', content: 'FINAL\n' });
    const read = tools.run('read_file', { path: '/g' });
    const [edited, written] = await Promise.all([edit, write]);
    readOfG.open();
    expect((await read).isError).toBe(false);
    expect(edited.isError, edited.text).toBe(false);
    expect(written.isError, written.text).toBe(false);
    expect(await backend.readText('/f')).toBe('FINAL\n');
  });

  it('two write_files of a file never read: the first, refused while the second is still answering, is not run again over it', async () => {
    const backend = createStateBackend({ files: { '/f': 'orig\n' } });
    const [firstApplies, secondAnswers, secondCommitted] = [gate(), gate(), gate()];
    let writes = 0;
    const slow = new Proxy(backend, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        if (key !== 'writeFile') return value.bind(target);
        return async (...args: unknown[]) => {
          const which = writes++;
          if (which === 0) await firstApplies.opened;
          const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          if (which === 1) {
            secondCommitted.open();
            await secondAnswers.opened; // committed, answered later (a save awaited, a remote store)
          }
          return result;
        };
      },
    });
    const tools = createTools(slow, { dialect: 'gemini' });
    const first = tools.run('write_file', { file_path: '/f', content: 'FIRST\n' });
    const second = tools.run('write_file', { file_path: '/f', content: 'SECOND\n' });
    await secondCommitted.opened;
    firstApplies.open();
    const one = await first;
    secondAnswers.open();
    const two = await second;
    expect(two.isError, two.text).toBe(false);
    expect(one.code, one.text).toBe('ESTALE');
    expect(await backend.readText('/f')).toBe('SECOND\n');
  });
});
