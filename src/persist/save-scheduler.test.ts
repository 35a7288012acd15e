// The page events of debounced saves (real ones run in Chromium: e2e/persist-hidden.spec.ts):
// here, a fake page counts what is added and removed.
import { afterEach, describe, expect, it } from 'vitest';
import { createStateBackend } from '../backend/state-backend.ts';
import { createMemoryStore } from './memory-store.ts';
import { openPersistent } from './persistent.ts';
import type { WorkspaceStore } from './store.ts';

type Listener = () => void;
const listeners = new Map<string, Set<Listener>>();
const target = {
  addEventListener: (type: string, fn: Listener) => listeners.set(type, (listeners.get(type) ?? new Set()).add(fn)),
  removeEventListener: (type: string, fn: Listener) => listeners.get(type)?.delete(fn),
};
const page = globalThis as unknown as Record<string, unknown>;

function fakePage(): { hide(): void; count(): number } {
  const document = { ...target, visibilityState: 'visible' };
  Object.assign(page, { document, addEventListener: target.addEventListener, removeEventListener: target.removeEventListener });
  return {
    hide() {
      document.visibilityState = 'hidden';
      for (const fn of listeners.get('visibilitychange') ?? []) fn();
    },
    count: () => [...listeners.values()].reduce((n, set) => n + set.size, 0),
  };
}

afterEach(() => {
  for (const key of ['document', 'addEventListener', 'removeEventListener']) delete page[key];
  listeners.clear();
});

describe('debounced saves and the page', () => {
  it('a hidden page saves what waits; close() lets go of the events', async () => {
    const fake = fakePage();
    const store = createMemoryStore();
    const { backend } = await openPersistent(createStateBackend(), store, { debounceMs: 600_000, maxWaitMs: 600_000 });
    expect(fake.count()).toBe(2); // visibilitychange and pagehide
    await backend.writeFile('/late.txt', 'late');
    const saved = async () => [...(await store.readAll()).keys()].some((key) => key.includes('/late.txt'));
    expect(await saved()).toBe(false);
    fake.hide();
    await expect.poll(saved).toBe(true);
    await backend.close();
    expect(fake.count()).toBe(0);
  });

  it('an open that fails leaves no events behind', async () => {
    const fake = fakePage();
    const inner = createMemoryStore();
    const failing: WorkspaceStore = { ...inner, readAll: () => inner.readAll(), write: () => Promise.reject(new Error('disk full')) };
    await expect(openPersistent(createStateBackend({ files: { '/x': 'x' } }), failing)).rejects.toThrow('disk full');
    expect(fake.count()).toBe(0);
  });

  it('outside a page (no document) nothing is listened to', async () => {
    const { backend } = await openPersistent(createStateBackend(), createMemoryStore());
    expect(listeners.size).toBe(0);
    await backend.close();
  });
});
