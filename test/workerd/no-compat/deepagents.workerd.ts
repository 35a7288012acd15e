// agentvfs/langchain inside workerd, offline, with and without nodejs_compat: the agent tasks of
// test/deepagents/scenario.ts (createDeepAgent over AgentvfsBackend, createAgent over
// langchainTools) bundled with deepagents, langchain, LangGraph's browser entry, @langchain/core
// and the built agentvfs into one Worker (test/deepagents/bundle.ts says what the bundle
// replaces), run in Miniflare; the files land in agentvfs inside the isolate.
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForBrowser } from '../../deepagents/bundle.ts';
import { END_FILES, EXPECTED_RESULTS, FINAL_ANSWER, LANGCHAIN_CALLS, LANGCHAIN_STATUSES, type ScenarioOutcome } from '../../deepagents/scenario.ts';

interface WorkerAnswer {
  error?: string;
  process: string;
  outcome: ScenarioOutcome;
  files: Record<string, string>;
  langchain: { outcome: Omit<ScenarioOutcome, 'stateFiles'>; files: Record<string, string>; reference: string[] };
}

const source = await bundleForBrowser(fileURLToPath(new URL('./deepagents-entry.ts', import.meta.url)));

describe.each([
  ['without nodejs_compat', [], 'undefined'],
  ['with nodejs_compat', ['nodejs_compat'], 'object'],
] as const)('agentvfs/langchain in workerd %s', (_name, flags, processType) => {
  let mf: Miniflare;
  let answer: WorkerAnswer;
  beforeAll(async () => {
    mf = new Miniflare({
      compatibilityDate: '2026-04-01',
      compatibilityFlags: [...flags],
      modules: [{ type: 'ESModule', path: 'deepagents.js', contents: source }],
    });
    answer = (await (await mf.dispatchFetch('http://deepagents/')).json()) as WorkerAnswer;
  });
  afterAll(() => mf.dispose());

  it('runs in the isolate it says', () => {
    expect(answer.error).toBeUndefined();
    expect(answer.process).toBe(processType);
  });

  it('runs a deep agent’s write, read, edit, grep, glob and ls end to end; the files land in agentvfs', () => {
    expect(answer.outcome).toEqual({ results: EXPECTED_RESULTS, final: FINAL_ANSWER, stateFiles: {} });
    expect(answer.files).toEqual(END_FILES);
  });

  it('runs a LangChain agent over langchainTools: tools.call’s texts, the failure flagged, the files in agentvfs', () => {
    const { outcome, files, reference } = answer.langchain;
    expect(outcome.final).toBe(FINAL_ANSWER);
    expect(outcome.results).toEqual(LANGCHAIN_CALLS.map((c, i) => [c.id, LANGCHAIN_STATUSES[i], reference[i]]));
    expect(reference[4]).toMatch(/^Error: /);
    expect(files).toEqual(END_FILES);
  });
});
