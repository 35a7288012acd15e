// apply_patch through a persisted backend, in process and over a worker: a patch that only deletes
// (its ToolResult.changed lists the file at version -1) is saved; a failed one saves nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { type Backend, createStateBackend, createTools } from '../../src/index.ts';
import { createMemoryAdapter, persist } from '../../src/persist/index.ts';
import { closeAll, overMessageChannel } from '../worker/factories.ts';

afterEach(closeAll);

const FILES = { '/a.txt': 'one\n', '/gone.txt': 'x\n' };

describe.each([
  ['in process', () => createStateBackend({ files: FILES })],
  ['over a worker', () => overMessageChannel({ files: FILES })],
] as [string, () => Backend][])('apply_patch with persist(), %s', (_where, make) => {
  it('saves a patch that only deletes, and nothing for a patch that fails', async () => {
    const adapter = createMemoryAdapter();
    let saves = 0;
    const save = adapter.save.bind(adapter);
    adapter.save = async (bytes, options) => (saves++, save(bytes, options));
    const backend = persist(make(), adapter, { durability: 'immediate' });
    const tools = createTools(backend, { dialect: 'openai' });
    const failed = await tools.run('apply_patch', {
      input: '*** Begin Patch\n*** Delete File: gone.txt\n*** Update File: a.txt\n@@\n-absent\n+x\n*** End Patch',
    });
    expect(failed).toMatchObject({ isError: true, code: 'ENOMATCH', changed: [] });
    expect(saves).toBe(0);
    const deleted = await tools.run('apply_patch', { operation: { type: 'delete_file', path: '/gone.txt' } });
    expect(deleted.changed).toEqual([{ path: '/gone.txt', version: -1 }]);
    expect(saves).toBe(1);
    const copy = createStateBackend();
    await copy.restore(adapter.current!);
    expect(await copy.exists('/gone.txt')).toBe(false);
    expect(await copy.readText('/a.txt')).toBe('one\n');
  });
});
