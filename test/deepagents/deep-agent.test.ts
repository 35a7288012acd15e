/**
 * createDeepAgent({ model, backend: new AgentvfsBackend(b) }) with LangChain's fake chat model, in
 * Node: the multi-step task of scenario.ts (ls, write, read, edit, grep, glob, a failing read)
 * leaves its files in agentvfs, in process and in a worker_threads worker; none in LangGraph state.
 * And AgentvfsBackend as one route of deepagents' CompositeBackend.
 */
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { CompositeBackend, createDeepAgent, StateBackend } from 'deepagents';
import { afterEach, describe, expect, it } from 'vitest';
import { createStateBackend } from '../../src/index.ts';
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

describe('the same task over deepagents’ own StateBackend', () => {
  it('gives the model the same results: AgentvfsBackend behaves as StateBackend does', async () => {
    const fileData = (content: string) => ({
      content,
      mimeType: 'text/plain',
      created_at: '2026-01-01T00:00:00.000Z',
      modified_at: '2026-01-01T00:00:00.000Z',
    });
    const files = Object.fromEntries(Object.entries(START_FILES).map(([path, content]) => [path, fileData(content)]));

    const outcome = await runDeepAgentTask(new StateBackend(), files);

    expect(outcome.results).toEqual(EXPECTED_RESULTS);
    expect(Object.fromEntries(Object.entries(outcome.stateFiles).map(([path, data]) => [path, (data as { content: string }).content]))).toEqual(END_FILES);
  });
});

describe('AgentvfsBackend as a route of deepagents’ CompositeBackend', () => {
  it('keeps the files under its route in agentvfs and the rest in the agent’s state', async () => {
    const store = createStateBackend();
    const model = fakeModel()
      .respondWithTools([
        { name: 'write_file', args: { file_path: '/memories/user.md', content: 'prefers tabs\n' }, id: 'm1' },
        { name: 'write_file', args: { file_path: '/scratch.txt', content: 'draft\n' }, id: 'm2' },
      ])
      .respondWithTools([{ name: 'grep', args: { pattern: 'tabs', path: '/memories/' }, id: 'm3' }])
      .respond(new AIMessage('Noted.'));
    const backend = new CompositeBackend(new StateBackend(), { '/memories/': new AgentvfsBackend(store) });

    const state = await createDeepAgent({ model, backend }).invoke({ messages: [new HumanMessage('Remember that I prefer tabs.')] });

    expect(await store.readText('/user.md')).toBe('prefers tabs\n');
    expect(await store.exists('/scratch.txt')).toBe(false);
    expect(Object.keys((state as { files?: object }).files ?? {})).toEqual(['/scratch.txt']);
    const grep = state.messages.find((m) => ToolMessage.isInstance(m) && m.tool_call_id === 'm3')!;
    expect(grep.content).toBe('/memories/user.md:\n  1: prefers tabs');
  });
});
