import { describe, expect, it } from 'vitest';
import { createSession, createTools } from '../../src/index.ts';
import type { BackendFactory } from './harness.ts';

/** The 'gemini' dialect over every transport. */
export function geminiDialectSuite(make: BackendFactory) {
  describe("dialect 'gemini'", () => {
    it('reads, replaces and searches; the legacy tool name runs as grep_search', async () => {
      const backend = await make({ files: { '/src/app.ts': 'export const a = 1;\n' } });
      const tools = createTools(backend, { dialect: 'gemini' });
      expect(await tools.call('read_file', { file_path: '/src/app.ts' })).toBe('export const a = 1;');
      const replaced = await tools.run('replace', { file_path: '/src/app.ts', instruction: 'a = 2', old_string: 'a = 1', new_string: 'a = 2' });
      expect(replaced).toMatchObject({ isError: false, text: 'Successfully modified file: /src/app.ts (1 replacements).' });
      expect(replaced.changed.map((c) => c.path)).toEqual(['/src/app.ts']);
      expect(await tools.call('search_file_content', { pattern: 'a = 2', path: '/src' })).toBe(
        'Found 1 match for pattern "a = 2" in path "/src":\n---\nFile: /src/app.ts\nL1: export const a = 2;\n---',
      );
    });

    it('a bad argument names itself and changes nothing', async () => {
      const backend = await make({ files: { '/a.txt': 'a\n' } });
      const tools = createTools(backend, { dialect: 'gemini' });
      const bad = await tools.run('read_many_files', { include: 'a.txt' });
      expect(bad.text).toBe('Error: EINVAL: argument "include" of read_many_files must be an array of strings, got "a.txt".');
      const stale = createTools(backend, { dialect: 'gemini', session: createSession() });
      expect((await stale.run('write_file', { file_path: '/a.txt', content: 'b\n' })).isError).toBe(false);
      expect(await backend.readText('/a.txt')).toBe('b\n');
    });
  });
}
