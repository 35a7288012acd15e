import { describe, expect, it } from 'vitest';
import { createTools } from '../../src/index.ts';
import type { BackendFactory } from './harness.ts';

/** The 'mcp-filesystem' dialect over every transport. */
export function mcpFilesystemDialectSuite(make: BackendFactory) {
  describe("dialect 'mcp-filesystem'", () => {
    it('edit_file with several edits writes once, returning the diff; a failing edit changes nothing', async () => {
      const backend = await make({ files: { '/a.txt': 'one\ntwo\n' } });
      const tools = createTools(backend, { dialect: 'mcp-filesystem' });
      const failed = await tools.run('edit_file', {
        path: '/a.txt',
        edits: [
          { oldText: 'one', newText: '1' },
          { oldText: 'nine', newText: '9' },
        ],
      });
      expect(failed).toMatchObject({ isError: true, code: 'ENOMATCH', changed: [] });
      expect(await backend.readText('/a.txt')).toBe('one\ntwo\n');
      const done = await tools.run('edit_file', {
        path: '/a.txt',
        edits: [
          { oldText: 'one', newText: '1' },
          { oldText: 'two', newText: '2' },
        ],
      });
      expect(done.text).toContain('@@ -1,2 +1,2 @@\n-one\n-two\n+1\n+2\n');
      expect(await backend.readText('/a.txt')).toBe('1\n2\n');
    });

    it('moves and lists', async () => {
      const backend = await make({ files: { '/a.txt': 'a' } });
      const tools = createTools(backend, { dialect: 'mcp-filesystem' });
      expect(await tools.call('move_file', { source: '/a.txt', destination: '/d/b.txt' })).toBe('Successfully moved /a.txt to /d/b.txt');
      expect(await tools.call('list_directory', { path: '/d' })).toBe('[FILE] b.txt');
    });
  });
}
