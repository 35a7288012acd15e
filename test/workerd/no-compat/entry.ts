/**
 * A Worker that runs the whole core conformance suite inside itself, against the
 * built core (imports of src/index.ts are bundled as dist/index.js), and answers with one result per test.
 * Bundled by ./bundle.ts and loaded into Miniflare with the flags under test.
 */
import { createStateBackend } from '../../../src/index.ts'; // bundled as dist/index.js
import { conformanceSuite } from '../../conformance/suite.ts';
import { collected, expect } from './mini-vitest.ts';

conformanceSuite((options) => createStateBackend(options));

export interface TestOutcome {
  name: string;
  ok: boolean;
  error?: string;
  ms: number;
}

export default {
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const all = collected();
    if (url.pathname === '/list') return Response.json(all.map((t) => t.name));
    if (url.pathname === '/env') {
      const g = globalThis as Record<string, unknown>;
      return Response.json({ process: typeof g.process, Buffer: typeof g.Buffer, SharedArrayBuffer: typeof g.SharedArrayBuffer });
    }
    if (url.pathname === '/selftest') {
      // The harness must report a failing assertion as a failure.
      try {
        expect(1).toBe(2);
        return Response.json({ caught: false });
      } catch (error) {
        return Response.json({ caught: true, message: (error as Error).message });
      }
    }
    const results: TestOutcome[] = [];
    for (const t of all) {
      const start = Date.now();
      try {
        await t.fn();
        results.push({ name: t.name, ok: true, ms: Date.now() - start });
      } catch (error) {
        const e = error as Error;
        results.push({ name: t.name, ok: false, error: `${e?.name}: ${e?.message}\n${e?.stack ?? ''}`, ms: Date.now() - start });
      }
    }
    return Response.json(results);
  },
};
