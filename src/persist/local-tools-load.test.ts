// A failed load of the in-process tools (a chunk that did not arrive) rejects that call; the next loads again.
import { expect, it, vi } from 'vitest';

const load = vi.hoisted(() => ({ fail: true }));
vi.mock('../tools/create-tools.ts', async (original) => {
  if (load.fail) throw new Error('Failed to fetch dynamically imported module');
  return original();
});

import { createStateBackend } from '../backend/state-backend.ts';
import { createTools } from '../client/create-tools.ts';
import { createMemoryAdapter } from './adapter.ts';
import { persist } from './persistent.ts';

it('a failed load rejects its call, and the next call loads again', async () => {
  const tools = createTools(persist(createStateBackend({ files: { '/a': 'x\n' } }), createMemoryAdapter()));
  await expect(tools.call('read_file', { path: '/a' })).rejects.toBeInstanceOf(Error); // (vitest wraps the module's own error)
  load.fail = false;
  expect(await tools.call('read_file', { path: '/a' })).toBe('     1\tx');
});
