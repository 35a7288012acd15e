// agentvfs/ai inside workerd: the AI SDK's mock model drives generateText and streamText through
// the scripted tool loop over an in-process backend. The imports of src/index.ts and
// src/ai/index.ts resolve to the built dist/index.js and dist/ai.js (vitest.workerd.config.ts).
import { generateText, stepCountIs, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import { aiSdkTools } from '../../../src/ai/index.ts'; // → dist/ai.js
import { createStateBackend, createTools } from '../../../src/index.ts'; // → dist/index.js
import { END_FILES, expectedResults, FINAL_TEXT, generatingModel, NEVER_WRITTEN, START_FILES, streamingModel, toolResultsIn } from '../../ai/scenario.ts';

async function files(backend: ReturnType<typeof createStateBackend>) {
  const out: Record<string, string | false> = {};
  for (const path of Object.keys(END_FILES)) out[path] = await backend.readText(path);
  for (const path of NEVER_WRITTEN) if (!(await backend.exists(path))) out[path] = false;
  return out;
}
const endState = { ...END_FILES, ...Object.fromEntries(NEVER_WRITTEN.map((p) => [p, false])) };
const prompt = 'Make the greeting say hello, world.';

describe('agentvfs/ai in workerd', () => {
  it('tests the built adapter, not the sources', async () => {
    const built = (await import(/* @vite-ignore */ ['../../..', 'dist', 'ai.js'].join('/'))) as { aiSdkTools: unknown };
    expect(built.aiSdkTools).toBe(aiSdkTools);
  });

  it('runs a generateText tool loop', async () => {
    const backend = createStateBackend({ files: START_FILES });
    const model = generatingModel();
    const result = await generateText({ model, tools: aiSdkTools(backend), stopWhen: stepCountIs(10), prompt });
    expect(result.text).toBe(FINAL_TEXT);
    expect(await files(backend)).toEqual(endState);
    const expected = await expectedResults(createTools(createStateBackend({ files: START_FILES })));
    expect(model.doGenerateCalls.map((c) => toolResultsIn(c.prompt))).toEqual([{}, ...expected]);
  });

  it('runs a streamText tool loop', async () => {
    const backend = createStateBackend({ files: START_FILES });
    const model = streamingModel();
    expect(await streamText({ model, tools: aiSdkTools(backend), stopWhen: stepCountIs(10), prompt }).text).toBe(FINAL_TEXT);
    expect(await files(backend)).toEqual(endState);
    const expected = await expectedResults(createTools(createStateBackend({ files: START_FILES })));
    expect(model.doStreamCalls.map((c) => toolResultsIn(c.prompt))).toEqual([{}, ...expected]);
  });
});
