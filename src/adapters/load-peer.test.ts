import { describe, expect, it } from 'vitest';
import { loadPeer } from './load-peer.ts';

describe('loadPeer', () => {
  it('names the package to install when the peer itself is missing', async () => {
    const missing = loadPeer('ai', 'agentvfs-no-such-peer', () => import('agentvfs-no-such-peer' as string));
    await expect(missing).rejects.toThrow('agentvfs/ai needs the package "agentvfs-no-such-peer", which is not installed: npm install agentvfs-no-such-peer');
  });

  it('keeps any other failure as it is, including a missing dependency of the peer', async () => {
    const inner = Object.assign(new Error("Cannot find package 'zod' imported from /x/node_modules/ai/index.js"), { code: 'ERR_MODULE_NOT_FOUND' });
    await expect(loadPeer('ai', 'ai', () => Promise.reject(inner))).rejects.toBe(inner);
    const broken = new TypeError('ai is broken');
    await expect(loadPeer('ai', 'ai', () => Promise.reject(broken))).rejects.toBe(broken);
  });

  it('returns the module when it loads', async () => {
    await expect(loadPeer('x', 'vitest', () => import('vitest'))).resolves.toHaveProperty('describe');
  });
});
