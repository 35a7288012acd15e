// createDeepAgent over AgentvfsBackend inside workerd, offline, with and without nodejs_compat:
// the scenario of test/deepagents/scenario.ts bundled with deepagents, LangGraph's browser entry,
// @langchain/core and the built agentvfs into one Worker (test/deepagents/bundle.ts says what
// the bundle replaces), run in Miniflare; the files land in agentvfs inside the isolate.
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleForBrowser } from '../../deepagents/bundle.ts';
import { END_FILES, EXPECTED_RESULTS, FINAL_ANSWER } from '../../deepagents/scenario.ts';

const source = await bundleForBrowser(fileURLToPath(new URL('./deepagents-entry.ts', import.meta.url)));
const instances: Miniflare[] = [];
afterAll(async () => {
  for (const mf of instances) await mf.dispose();
});

describe.each([
  ['without nodejs_compat', [], 'undefined'],
  ['with nodejs_compat', ['nodejs_compat'], 'object'],
] as const)('a deep agent over AgentvfsBackend in workerd %s', (_name, flags, processType) => {
  it('runs write, read, edit, grep, glob and ls end to end; the files land in agentvfs', async () => {
    const modules = [{ type: 'ESModule' as const, path: 'deepagents.js', contents: source }];
    const mf = new Miniflare({ compatibilityDate: '2026-04-01', compatibilityFlags: [...flags], modules });
    instances.push(mf);
    const body = (await (await mf.dispatchFetch('http://deepagents/')).json()) as Record<string, unknown>;
    expect(body.error).toBeUndefined();
    expect(body.process).toBe(processType);
    expect(body.outcome).toEqual({ results: EXPECTED_RESULTS, final: FINAL_ANSWER, stateFiles: {} });
    expect(body.files).toEqual(END_FILES);
  });
});
