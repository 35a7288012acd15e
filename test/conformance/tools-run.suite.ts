import { describe, expect, it } from 'vitest';
import { createTools, type ToolResult } from '../../src/index.ts';
import { utf8, type BackendFactory } from './harness.ts';

/** A failure: the text the model reads, the code, and no file written. */
function expectFailure(result: ToolResult, code: string): void {
  expect(result.isError, result.text).toBe(true);
  expect(result.code).toBe(code);
  expect(result.text.startsWith(`Error: ${code}: `), result.text).toBe(true);
  expect(result.changed).toEqual([]);
}

export function toolRunSuite(make: BackendFactory) {
  describe('tools.run (structured results)', () => {
    it('half a character (a lone UTF-16 surrogate) is refused by every tool that writes text, never stored as U+FFFD', async () => {
      const backend = await make({ files: { '/a.txt': 'one\n', '/memories/m.md': 'm\n' } });
      const before = await backend.snapshot();
      const calls: Array<[string, string, Record<string, unknown>]> = [
        ['anthropic', 'str_replace_based_edit_tool', { command: 'insert', path: '/a.txt', insert_line: 1, new_str: 'x\uD800' }],
        ['anthropic', 'memory', { command: 'insert', path: '/memories/m.md', insert_line: 1, insert_text: '\uDC00' }],
        ['mcp-filesystem', 'edit_file', { path: '/a.txt', edits: [{ oldText: 'one', newText: 'o\uD83Dne' }] }],
        ['openai', 'apply_patch', { operation: { type: 'create_file', path: '/n.txt', diff: '+a\uD800b' } }],
        ['openai', 'apply_patch', { input: '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+\uD800\n*** End Patch' }],
      ];
      for (const [dialect, tool, args] of calls) {
        const tools = createTools(backend, { dialect: dialect as 'openai' });
        if (dialect === 'mcp-filesystem') await tools.run('read_text_file', { path: '/a.txt' });
        const result = await tools.run(tool, args);
        expectFailure(result, 'EINVAL');
        expect(result.text, `${dialect} ${tool}`).toMatch(/holds a lone UTF-16 surrogate \(\\u(D800|DC00|D83D) at index \d+\), half of a character/);
      }
      expect(await backend.snapshot()).toEqual(before);
    });

    it('a read: the same text as call(), not an error, nothing changed, and plain data', async () => {
      const backend = await make({ files: { '/src/a.ts': 'one\ntwo\n' } });
      const tools = createTools(backend);
      const result = await tools.run('read_file', { path: 'src/a.ts' });
      expect(result).toEqual({ text: await tools.call('read_file', { path: 'src/a.ts' }), isError: false, changed: [] });
      expect(result.text).toBe('     1\tone\n     2\ttwo');
      expect('code' in result).toBe(false);
      expect(structuredClone(result)).toEqual(result);
      for (const [name, args] of [
        ['ls', {}],
        ['glob', { pattern: '**/*.ts' }],
        ['grep', { pattern: 'two' }],
      ] as const) {
        const other = await tools.run(name, args);
        expect(other, name).toEqual({ text: await tools.call(name, args), isError: false, changed: [] });
      }
    });

    it('write_file lists the file it wrote at its new version (created and updated)', async () => {
      const backend = await make({ files: { '/b.txt': 'old\n' } });
      const tools = createTools(backend);
      const created = await tools.run('write_file', { path: 'dir/./a.txt', content: 'hello\n' });
      expect(created.isError).toBe(false);
      expect(created.text).toMatch(/^Created \/dir\/a\.txt/);
      expect(created.changed).toEqual([{ path: '/dir/a.txt', version: (await backend.stat('/dir/a.txt')).version }]);
      await tools.run('read_file', { path: '/b.txt' });
      const updated = await tools.run('write_file', { path: '/b.txt', content: 'new\n' });
      expect(updated.text).toMatch(/^Updated \/b\.txt/);
      expect(updated.changed).toEqual([{ path: '/b.txt', version: (await backend.stat('/b.txt')).version }]);
    });

    it('edit_file lists the file it edited at its new version', async () => {
      const backend = await make({ files: { '/a.txt': 'alpha beta\n' } });
      const tools = createTools(backend);
      await tools.run('read_file', { path: '/a.txt' });
      const before = (await backend.stat('/a.txt')).version;
      const result = await tools.run('edit_file', { path: '/a.txt', old_string: 'alpha', new_string: 'A' });
      expect(result.isError).toBe(false);
      expect(result.text).toMatch(/^Edited \/a\.txt: 1 replacement/);
      const after = (await backend.stat('/a.txt')).version;
      expect(after).not.toBe(before);
      expect(result.changed).toEqual([{ path: '/a.txt', version: after }]);
    });

    it('a bad argument or an unknown tool is EINVAL', async () => {
      const tools = createTools(await make({ files: { '/a.txt': 'x' } }));
      expectFailure(await tools.run('read_file', { path: 42 }), 'EINVAL');
      expectFailure(await tools.run('read_file', {}), 'EINVAL');
      expectFailure(await tools.run('execute', { command: 'ls' }), 'EINVAL');
      const pastEnd = await tools.run('read_file', { path: '/a.txt', offset: 5 });
      expectFailure(pastEnd, 'EINVAL');
      expect(pastEnd.text).toBe(await tools.call('read_file', { path: '/a.txt', offset: 5 }));
    });

    it('arguments JSON cannot carry (a BigInt, a function, a symbol for a name) are EINVAL results too, never a rejection', async () => {
      const tools = createTools(await make({ files: { '/a.txt': 'x' } }));
      const big = await tools.run('read_file', { path: '/a.txt', offset: 1n });
      expectFailure(big, 'EINVAL');
      expect(big.text).toMatch(/offset/);
      expectFailure(await tools.run('read_file', { path: '/a.txt', extra: () => 1 }), 'EINVAL');
      expectFailure(await tools.run(Symbol('read_file') as unknown as string, {}), 'EINVAL');
    });

    it('ENOENT, EBINARY, ENOTREAD, ESTALE and ENOMATCH carry their code and change nothing', async () => {
      const backend = await make({ files: { '/a.txt': 'x = 1\n', '/bin': utf8('a\0b') } });
      const tools = createTools(backend);
      expectFailure(await tools.run('read_file', { path: '/missing.txt' }), 'ENOENT');
      expectFailure(await tools.run('read_file', { path: '/bin' }), 'EBINARY');
      expectFailure(await tools.run('write_file', { path: '/a.txt', content: 'y' }), 'ENOTREAD');
      await tools.run('read_file', { path: '/a.txt' });
      expectFailure(await tools.run('edit_file', { path: '/a.txt', old_string: 'nothing like it', new_string: 'y' }), 'ENOMATCH');
      await backend.writeFile('/a.txt', 'x = 2\n');
      expectFailure(await tools.run('edit_file', { path: '/a.txt', old_string: 'x', new_string: 'y' }), 'ESTALE');
      expectFailure(await tools.run('write_file', { path: '/a.txt', content: 'y' }), 'ESTALE');
      expect(await backend.readText('/a.txt')).toBe('x = 2\n');
    });
  });
}
