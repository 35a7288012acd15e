import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../../../backend/state-backend.ts';
import { isVfsError } from '../../../errors.ts';
import { ReadVersions } from '../../read-versions.ts';
import type { DialectCall } from './context.ts';
import { formatSize, runMemory, type MemoryArgs } from './memory.ts';

/**
 * The memory tool against Anthropic's documentation ("Memory tool", memory_20250818): each
 * command's example call from the docs, with results worded as Anthropic's SDK implementation
 * (anthropic-sdk-python lib/tools/_beta_builtin_memory_tool.py) words them.
 */

function session(files: Record<string, string> = {}) {
  const backend = createStateBackend({ files });
  const reads = new ReadVersions();
  const run = async (args: MemoryArgs) => {
    const call: DialectCall = { backend, reads, changed: [] };
    try {
      return await runMemory(call, args);
    } catch (e) {
      if (isVfsError(e)) return `Error: ${e.code}: ${e.message}`;
      throw e;
    }
  };
  return { backend, run };
}

describe('memory (the documentation examples)', () => {
  it('view of /memories lists sizes two levels deep, directories with a slash, no hidden entries', async () => {
    const { run } = session({
      '/memories/customer_service_guidelines.xml': 'x'.repeat(1536),
      '/memories/refund_policies.xml': 'y'.repeat(2048),
      '/memories/projects/a.md': 'z'.repeat(100),
      '/memories/.secret': 's',
    });
    expect(await run({ command: 'view', path: '/memories' })).toBe(
      "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items:\n" +
        '3.6K\t/memories\n100B\t/memories/projects/\n100B\t/memories/projects/a.md\n1.5K\t/memories/customer_service_guidelines.xml\n2K\t/memories/refund_policies.xml',
    );
  });

  it('view of an empty (absent) /memories writes nothing', async () => {
    const { backend, run } = session();
    expect(await run({ command: 'view', path: '/memories' })).toBe(
      "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items:\n0B\t/memories",
    );
    expect(await backend.exists('/memories')).toBe(false);
  });

  it('create: {"path": "/memories/notes.txt", "file_text": "Meeting notes:\\n- Discussed project timeline\\n- Next steps defined\\n"}', async () => {
    const { backend, run } = session();
    const file_text = 'Meeting notes:\n- Discussed project timeline\n- Next steps defined\n';
    expect(await run({ command: 'create', path: '/memories/notes.txt', file_text })).toBe('File created successfully at: /memories/notes.txt');
    expect(await backend.readText('/memories/notes.txt')).toBe(file_text);
    expect(await run({ command: 'create', path: '/memories/notes.txt', file_text: '' })).toBe('Error: EEXIST: File /memories/notes.txt already exists');
    expect(await run({ command: 'view', path: '/memories/notes.txt', view_range: [2, -1] })).toBe(
      "Here's the content of /memories/notes.txt with line numbers:\n     2\t- Discussed project timeline\n     3\t- Next steps defined",
    );
  });

  it('str_replace: {"path": "/memories/preferences.txt", "old_str": "Favorite color: blue", "new_str": "Favorite color: green"}', async () => {
    const { backend, run } = session({ '/memories/preferences.txt': 'Name: Ada\nFavorite color: blue\nFood: pasta\n' });
    expect(await run({ command: 'str_replace', path: '/memories/preferences.txt', old_str: 'Favorite color: blue', new_str: 'Favorite color: green' })).toBe(
      'The memory file has been edited. Here is the snippet showing the change (with line numbers):\n     1\tName: Ada\n     2\tFavorite color: green\n     3\tFood: pasta',
    );
    expect(await backend.readText('/memories/preferences.txt')).toBe('Name: Ada\nFavorite color: green\nFood: pasta\n');
    expect(await run({ command: 'str_replace', path: '/memories/preferences.txt', old_str: 'Favorite color: red', new_str: 'x' })).toBe(
      'Error: ENOMATCH: No replacement was performed, old_str `Favorite color: red` did not appear verbatim in /memories/preferences.txt.',
    );
  });

  it('str_replace with several matches names their lines', async () => {
    const { run } = session({ '/memories/t.txt': 'a\nb\na\n' });
    expect(await run({ command: 'str_replace', path: '/memories/t.txt', old_str: 'a', new_str: 'c' })).toBe(
      'Error: EAMBIGUOUS: No replacement was performed. Multiple occurrences of old_str `a` in lines: 1, 3. Please ensure it is unique',
    );
  });

  it('insert: {"path": "/memories/todo.txt", "insert_line": 2, "insert_text": "- Review memory tool documentation\\n"}', async () => {
    const { backend, run } = session({ '/memories/todo.txt': 'TODO:\n- Write tests\n- Ship\n' });
    expect(await run({ command: 'insert', path: '/memories/todo.txt', insert_line: 2, insert_text: '- Review memory tool documentation\n' })).toBe(
      'The file /memories/todo.txt has been edited.',
    );
    expect(await backend.readText('/memories/todo.txt')).toBe('TODO:\n- Write tests\n- Review memory tool documentation\n- Ship\n');
    expect(await run({ command: 'insert', path: '/memories/todo.txt', insert_line: 7, insert_text: 'x' })).toBe(
      'Error: EINVAL: Invalid `insert_line` parameter: 7. It should be within the range [0, 4].',
    );
  });

  it('delete: {"path": "/memories/old_file.txt"}; never /memories itself', async () => {
    const { backend, run } = session({ '/memories/old_file.txt': 'x', '/memories/dir/a': 'a' });
    expect(await run({ command: 'delete', path: '/memories/old_file.txt' })).toBe('Successfully deleted /memories/old_file.txt');
    expect(await run({ command: 'delete', path: '/memories/dir' })).toBe('Successfully deleted /memories/dir');
    expect(await backend.exists('/memories/dir/a')).toBe(false);
    expect(await run({ command: 'delete', path: '/memories/old_file.txt' })).toBe('Error: ENOENT: The path /memories/old_file.txt does not exist');
    expect(await run({ command: 'delete', path: '/memories' })).toBe('Error: EINVAL: Cannot delete the /memories directory itself');
  });

  it('rename: {"old_path": "/memories/draft.txt", "new_path": "/memories/final.txt"}', async () => {
    const { backend, run } = session({ '/memories/draft.txt': 'd', '/memories/taken.txt': 't' });
    expect(await run({ command: 'rename', old_path: '/memories/draft.txt', new_path: '/memories/taken.txt' })).toBe(
      'Error: EEXIST: The destination /memories/taken.txt already exists',
    );
    expect(await run({ command: 'rename', old_path: '/memories/draft.txt', new_path: '/memories/archive/final.txt' })).toBe(
      'Successfully renamed /memories/draft.txt to /memories/archive/final.txt',
    );
    expect(await backend.readText('/memories/archive/final.txt')).toBe('d');
  });
});

describe('confinement to /memories', () => {
  it('refuses paths outside it, traversal and look-alike prefixes, and changes nothing', async () => {
    const { backend, run } = session({ '/secret.txt': 's', '/memories/a.txt': 'a' });
    expect(await run({ command: 'view', path: '/secret.txt' })).toBe('Error: EINVAL: Path must start with /memories, got: /secret.txt');
    expect(await run({ command: 'view', path: '/memories/../secret.txt' })).toBe(
      'Error: EINVAL: Path /memories/../secret.txt would escape /memories directory',
    );
    expect(await run({ command: 'create', path: '/memoriesX/a', file_text: 'x' })).toBe('Error: EINVAL: Path /memoriesX/a would escape /memories directory');
    expect(await run({ command: 'rename', old_path: '/memories/a.txt', new_path: '/memories/../../b.txt' })).toContain('would escape /memories directory');
    expect(await run({ command: 'delete', path: '/memories/../secret.txt' })).toContain('would escape');
    expect(await backend.readText('/secret.txt')).toBe('s');
    expect(await backend.readText('/memories/a.txt')).toBe('a');
    expect(await backend.exists('/memoriesX')).toBe(false);
  });
});

describe('formatSize', () => {
  it('matches the SDK: whole numbers without a decimal, others with one', () => {
    expect([0, 5, 1024, 1536, 4096, 1_572_864, 3 * 1024 ** 3].map(formatSize)).toEqual(['0B', '5B', '1K', '1.5K', '4K', '1.5M', '3G']);
  });
});
