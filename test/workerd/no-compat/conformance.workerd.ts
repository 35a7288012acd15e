// The whole core conformance suite inside workerd WITHOUT nodejs_compat (no compatibility
// flag at all), offline. @cloudflare/vitest-pool-workers cannot do this (it always turns
// nodejs_compat on for the isolate Vitest runs in), so the suite is bundled with the built
// core and a small stand-in for Vitest's test API (Vitest's own `expect`) into one Worker,
// run in Miniflare, and each conformance test becomes one Vitest test here.
import { Miniflare } from 'miniflare';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleConformanceWorker } from './bundle.ts';

interface Outcome {
  name: string;
  ok: boolean;
  error?: string;
}

const source = await bundleConformanceWorker();
const mf = new Miniflare({
  compatibilityDate: '2026-04-01',
  compatibilityFlags: [],
  modules: [{ type: 'ESModule', path: 'conformance.js', contents: source }],
});
afterAll(() => mf.dispose());

const names = (await (await mf.dispatchFetch('http://conformance/list')).json()) as string[];
let outcomes: Promise<Map<string, Outcome>> | undefined;
/** Runs the whole suite once, in the order it was declared (as Vitest would), on first use. */
function results(): Promise<Map<string, Outcome>> {
  outcomes ??= mf
    .dispatchFetch('http://conformance/run')
    .then((r) => r.json() as Promise<Outcome[]>)
    .then((list) => new Map(list.map((o) => [o.name, o])));
  return outcomes;
}

describe('the no-nodejs_compat isolate and harness', () => {
  it('has no Node.js globals (nodejs_compat is really off)', async () => {
    const env = (await (await mf.dispatchFetch('http://conformance/env')).json()) as Record<string, string>;
    expect(env).toMatchObject({ process: 'undefined', Buffer: 'undefined' });
  });

  it('bundles the built core, not the sources', () => {
    expect(source).toMatch(/^\/\/ dist\//m);
    expect(source).not.toMatch(/^\/\/ src\//m);
  });

  it('reports a failing assertion as a failure', async () => {
    const body = (await (await mf.dispatchFetch('http://conformance/selftest')).json()) as { caught: boolean; message: string };
    expect(body).toEqual({ caught: true, message: 'expected 1 to be 2 // Object.is equality' });
  });

  it('collected the whole conformance suite', () => {
    expect(names.length).toBeGreaterThan(80);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('built core in workerd without nodejs_compat', () => {
  for (const name of names) {
    it(name, async () => {
      const outcome = (await results()).get(name);
      expect(outcome, `no result for ${name}`).toBeDefined();
      if (!outcome!.ok) throw new Error(outcome!.error);
    });
  }
});
