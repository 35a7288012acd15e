// An edit's result shows the lines it left, never another writer's that landed right after it.
import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../backend/state-backend.ts';
import type { Backend } from '../backend/types.ts';
import { createTools } from './create-tools.ts';

/** The backend, where an app's save lands right after every edit, before the tool reads the file again. */
function savedOverAfterEdits(backend: Backend): Backend {
  return new Proxy(backend, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (key !== 'edit') return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: unknown[]) => {
        const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        await target.writeFile(String(args[0]), 'OTHER WRITER\n');
        return result;
      };
    },
  });
}

describe('an edit raced by another writer', () => {
  const calls = [
    ['agentvfs', 'edit_file', { path: '/memories/f', old_string: 'b', new_string: 'B' }, 'read_file', { path: '/memories/f' }],
    [
      'anthropic',
      'str_replace_based_edit_tool',
      { command: 'str_replace', path: '/memories/f', old_str: 'b', new_str: 'B' },
      'str_replace_based_edit_tool',
      { command: 'view', path: '/memories/f' },
    ],
    ['anthropic', 'memory', { command: 'str_replace', path: '/memories/f', old_str: 'b', new_str: 'B' }, 'memory', { command: 'view', path: '/memories/f' }],
    ['gemini', 'replace', { file_path: '/memories/f', old_string: 'b', new_string: 'B' }, 'read_file', { file_path: '/memories/f' }],
  ] as const;

  it.each(calls)(
    '%s %s: succeeds, and says the file changed after it instead of showing the other lines as its own',
    async (dialect, tool, args, readTool, readArgs) => {
      const backend = createStateBackend({ files: { '/memories/f': 'a\nb\nc\n' } });
      const tools = createTools(savedOverAfterEdits(backend), { dialect });
      await tools.run(readTool, readArgs);
      const result = await tools.run(tool, args);
      expect(result.isError, result.text).toBe(false);
      expect(result.changed).toHaveLength(1);
      expect(result.text).not.toContain('OTHER WRITER');
      expect(result.text).toContain('/memories/f was changed again right after this edit, by another writer, so its lines are not shown here;');
    },
  );

  it.each(calls)('%s %s: shows its lines when nobody else wrote', async (dialect, tool, args, readTool, readArgs) => {
    const backend = createStateBackend({ files: { '/memories/f': 'a\nb\nc\n' } });
    const tools = createTools(backend, { dialect });
    await tools.run(readTool, readArgs);
    const result = await tools.run(tool, args);
    expect(result.text).toContain('B');
    expect(result.text).not.toContain('changed again');
  });
});
