// A follower tab's first tool call waits for the in-process tools to load (src/tools/lazy-local-tools.ts): when
// the writer closes meanwhile, the call runs as the new writer's, which saves what it changes.
import { expect, it, vi } from 'vitest';

const load = vi.hoisted(() => {
  let open!: () => void;
  return { gate: new Promise<void>((resolve) => (open = resolve)), open: () => open() };
});
vi.mock('../tools/create-tools.ts', async (original) => {
  await load.gate;
  return original();
});

import { hub } from '../../test/persist/store-hub.ts';
import { createStateBackend } from '../backend/state-backend.ts';
import { createTools } from '../client/create-tools.ts';
import { openPersistent } from './persistent.ts';

it('a call made while following, whose tools load after a takeover, runs and is saved as the writer’s', async () => {
  const open = hub();
  const a = await openPersistent(createStateBackend({ files: { '/a.txt': 'a' } }), open());
  const store = open();
  const b = await openPersistent(createStateBackend(), store, { ifHeld: 'follow', durability: 'immediate' });
  const tools = createTools(b.backend);
  const first = tools.run('write_file', { path: '/n.txt', content: 'n' });
  await a.backend.close();
  expect(await b.backend.whenWritable).toBe(true);
  store.write = async () => {
    throw new Error('disk full');
  };
  load.open();
  const result = await first;
  // The write is in memory, not saved, and the session knows its version: the next write of it lands.
  expect(result).toMatchObject({ isError: true, changed: [{ path: '/n.txt' }] });
  expect(result.text).toMatch(/^Error: not saved: .*disk full/);
  expect(await b.backend.readText('/n.txt')).toBe('n');
  const again = await tools.run('write_file', { path: '/n.txt', content: 'n2' });
  expect(again.text).not.toMatch(/ENOTREAD/);
});
