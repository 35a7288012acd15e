import { describe, expect, it } from 'vitest';
import { createSession, createTools } from '../../src/index.ts';
import type { BackendFactory } from './harness.ts';

/**
 * The 'anthropic' dialect over every transport: the tools run where the backend lives. Expected
 * texts: the text editor's from anthropic-quickstarts computer-use-demo/computer_use_demo/tools/edit.py
 * ("edit.py"), the memory tool's from anthropic-sdk-python
 * src/anthropic/lib/tools/_beta_builtin_memory_tool.py ("the SDK"); see src/tools/dialects/anthropic/*.test.ts.
 */
export function anthropicDialectSuite(make: BackendFactory) {
  describe("dialect 'anthropic'", () => {
    it('has the text editor and the memory tool, each carrying its built-in type', async () => {
      const tools = createTools(await make(), { dialect: 'anthropic' });
      expect(tools.definitions.map((d) => [d.name, d.type])).toEqual([
        ['str_replace_based_edit_tool', 'text_editor_20250728'],
        ['memory', 'memory_20250818'],
      ]);
    });

    it('views, replaces and inserts; the result says what changed', async () => {
      const backend = await make({ files: { '/src/app.py': 'def f():\n    return 1\n' } });
      const tools = createTools(backend, { dialect: 'anthropic' });
      const view = await tools.run('str_replace_based_edit_tool', { command: 'view', path: '/src/app.py', view_range: [2, -1] });
      // edit.py _make_output: "Here's the result of running `cat -n` on {path}:\n" + 6-wide numbered rows + "\n".
      expect(view.text).toBe("Here's the result of running `cat -n` on /src/app.py:\n     2\t    return 1\n");
      const replaced = await tools.run('str_replace_based_edit_tool', {
        command: 'str_replace',
        path: '/src/app.py',
        old_str: 'return 1',
        new_str: 'return 2',
      });
      expect(replaced.isError, replaced.text).toBe(false);
      expect(replaced.changed.map((c) => c.path)).toEqual(['/src/app.py']);
      const inserted = await tools.run('str_replace_based_edit_tool', { command: 'insert', path: '/src/app.py', insert_line: 0, new_str: '# app' });
      expect(inserted.isError, inserted.text).toBe(false);
      expect(await backend.readText('/src/app.py')).toBe('# app\ndef f():\n    return 2\n');
    });

    it('refuses create over an existing file and a bad view_range, changing nothing', async () => {
      const backend = await make({ files: { '/a.txt': 'a\n' } });
      const tools = createTools(backend, { dialect: 'anthropic' });
      const created = await tools.run('str_replace_based_edit_tool', { command: 'create', path: '/a.txt', file_text: 'b\n' });
      expect(created).toMatchObject({ isError: true, code: 'EEXIST', changed: [] });
      // agentvfs's argument check (the schema's integer items) answers before edit.py's own sentence would.
      const badRange = await tools.run('str_replace_based_edit_tool', { command: 'view', path: '/a.txt', view_range: ['1', 2] });
      expect(badRange.text).toBe('Error: EINVAL: argument "view_range" of str_replace_based_edit_tool must be an array of integers, got ["1",2].');
      expect(await backend.readText('/a.txt')).toBe('a\n');
    });

    it('keeps memory inside /memories', async () => {
      const backend = await make({ files: { '/notes.txt': 'n\n' } });
      const tools = createTools(backend, { dialect: 'anthropic' });
      const made = await tools.run('memory', { command: 'create', path: '/memories/progress.md', file_text: '- step 1 done\n' });
      // The SDK's create, and its _validate_path for a path that leaves /memories.
      expect(made.text).toBe('File created successfully at: /memories/progress.md');
      const outside = await tools.run('memory', { command: 'delete', path: '/memories/../notes.txt' });
      expect(outside).toMatchObject({ isError: true, text: 'Error: EINVAL: Path /memories/../notes.txt would escape /memories directory' });
      expect(await backend.readText('/notes.txt')).toBe('n\n');
      // The SDK's view of a directory: "Here're …", then {size}\t{path} rows.
      const listed = await tools.call('memory', { command: 'view', path: '/memories' });
      expect(listed).toBe(
        "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n14B\t/memories\n14B\t/memories/progress.md",
      );
    });

    it('shares read tracking with the default tools through a session: a change since a read is ESTALE', async () => {
      const backend = await make({ files: { '/a.txt': 'one\n' } });
      const session = createSession();
      const plain = createTools(backend, { session });
      const claude = createTools(backend, { dialect: 'anthropic', session });
      await plain.run('read_file', { path: '/a.txt' });
      await backend.writeFile('/a.txt', 'two\n');
      const stale = await claude.run('str_replace_based_edit_tool', { command: 'str_replace', path: '/a.txt', old_str: 'two', new_str: 'three' });
      expect(stale.code).toBe('ESTALE');
      expect(await backend.readText('/a.txt')).toBe('two\n');
      // The text editor's view is a read for the default tools too.
      await claude.run('str_replace_based_edit_tool', { command: 'view', path: '/a.txt' });
      const edited = await plain.run('edit_file', { path: '/a.txt', old_string: 'two', new_string: 'three' });
      expect(edited.isError, edited.text).toBe(false);
    });
  });
}
