/**
 * createDeepAgent({ model, backend: new AgentvfsBackend(b) }) with LangChain's fake chat model, in
 * Node: the multi-step task of scenario.ts (ls, write, read, edit, grep, glob, a failing read)
 * leaves its files in agentvfs, in process and in a worker_threads worker; none in LangGraph state.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AgentvfsBackend } from '../../src/langchain/index.ts';
import { END_FILES, EXPECTED_RESULTS, FINAL_ANSWER, runDeepAgentTask, START_FILES } from './scenario.ts';
import { closeAll, TARGETS } from './targets.ts';

afterEach(closeAll);

describe.each(Object.keys(TARGETS))('a deep agent over AgentvfsBackend, backend %s', (where) => {
  it('runs write, read, edit, grep, glob and ls end to end; the files land in agentvfs', async () => {
    const store = TARGETS[where]!({ files: START_FILES });

    const outcome = await runDeepAgentTask(new AgentvfsBackend(store));

    expect(outcome.results).toEqual(EXPECTED_RESULTS);
    expect(outcome.final).toBe(FINAL_ANSWER);
    expect(outcome.stateFiles).toEqual({});
    for (const [path, content] of Object.entries(END_FILES)) expect(await store.readText(path)).toBe(content);
    expect(await store.glob('**')).toEqual(expect.arrayContaining(Object.keys(END_FILES)));
    expect(await store.glob('**')).toHaveLength(2);
  });
});
