import { afterEach, describe, expect, it, vi } from 'vitest';

// A Node before 20.6 (the package takes Node 20): node:module has no register, and importing a
// name a built-in module does not export fails before any code runs.
vi.mock('node:module', () => ({ default: {} }));

afterEach(() => {
  vi.resetModules();
});

describe('findPeersFromWorkingDirectory', () => {
  it('does nothing where node:module has no register (Node 20.0 to 20.5): agentvfs mcp still starts', async () => {
    const { findPeersFromWorkingDirectory } = await import('./peers-from-cwd.ts');
    expect(() => findPeersFromWorkingDirectory()).not.toThrow();
  });

  it('registers the resolve hook with the working directory where it can', async () => {
    const register = vi.fn();
    vi.doMock('node:module', () => ({ default: { register } }));
    const { findPeersFromWorkingDirectory } = await import('./peers-from-cwd.ts');
    findPeersFromWorkingDirectory();
    expect(register).toHaveBeenCalledOnce();
    expect(register.mock.calls[0]![1]).toEqual({ data: { parentURL: new URL(`file://${process.cwd()}/package.json`).href } });
  });
});
