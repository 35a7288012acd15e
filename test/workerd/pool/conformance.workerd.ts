// The whole core conformance suite inside workerd with nodejs_compat, through
// @cloudflare/vitest-pool-workers (Vitest runs in the Workers runtime). Imports of
// src/index.ts (here and in the suite) resolve to the built dist/index.js (vitest.workerd.config.ts).
import { createStateBackend } from '../../../src/index.ts'; // → dist/index.js
import { describe, expect, it } from 'vitest';
import { conformanceSuite } from '../../conformance/suite.ts';

describe('built core in workerd with nodejs_compat', () => {
  it('runs in workerd with the Node.js compatibility layer on', () => {
    const g = globalThis as Record<string, unknown>;
    expect(typeof (g.navigator as { userAgent?: string } | undefined)?.userAgent).toBe('string');
    expect((g.navigator as { userAgent: string }).userAgent).toBe('Cloudflare-Workers');
    expect(typeof g.process).toBe('object');
    expect(typeof g.Buffer).toBe('function');
  });

  it('tests the built core, not the sources', async () => {
    // The same module instance as dist/index.js imported by path (a runtime specifier, so the
    // typecheck, which runs before the build, does not need dist/).
    const built = (await import(/* @vite-ignore */ ['../../..', 'dist', 'index.js'].join('/'))) as { createStateBackend: unknown };
    expect(built.createStateBackend).toBe(createStateBackend);
  });

  conformanceSuite((options) => createStateBackend(options));
});
