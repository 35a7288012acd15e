import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../../backend/state-backend.ts';
import { createTools } from '../create-tools.ts';

describe("apply_patch's operation form", () => {
  it('refuses an update_file with an empty diff, as the input form refuses an empty Update File section; the file is not rewritten', async () => {
    const backend = createStateBackend({ files: { '/c.txt': 'c1\nc2' } });
    const tools = createTools(backend, { dialect: 'openai' });
    const version = (await backend.stat('/c.txt')).version;
    for (const diff of ['', '\n', '   ']) {
      const result = await tools.run('apply_patch', { operation: { type: 'update_file', path: 'c.txt', diff } });
      expect(result).toMatchObject({ isError: true, code: 'EINVAL', changed: [] });
      expect(result.text).toBe(
        "Error: EINVAL: Invalid update_file diff for c.txt: Update file hunk for path 'c.txt' is empty. No file was changed; fix it and send the whole patch again.",
      );
    }
    expect(await backend.readText('/c.txt')).toBe('c1\nc2');
    expect((await backend.stat('/c.txt')).version).toBe(version);
  });
});
