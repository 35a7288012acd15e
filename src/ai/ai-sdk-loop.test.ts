/**
 * The AI SDK's own mock model drives generateText and streamText through a multi-step tool loop
 * over agentvfs: the files land in the backend, and each step's prompt holds exactly the text
 * tools.call gives for each earlier call (failures as error-text).
 */
import { generateText, stepCountIs, streamText, ToolLoopAgent } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { END_FILES, expectedResults, FINAL_TEXT, generatingModel, NEVER_WRITTEN, START_FILES, streamingModel, toolResultsIn } from '../../test/ai/scenario.ts';
import { closeAll, inWorkerThread } from '../../test/worker/factories.ts';
import type { Backend } from '../backend/types.ts';
import { createStateBackend, createTools } from '../index.ts';
import { aiSdkTools } from './index.ts';
import { textResponse, toolCallsResponse } from '../../test/ai/mock-responses.ts';

afterEach(closeAll);

const targets: Record<string, () => Backend> = {
  'in process': () => createStateBackend({ files: START_FILES }),
  'in a worker_threads worker': () => inWorkerThread({ files: START_FILES }),
};

async function expectEndState(backend: Backend) {
  for (const [path, content] of Object.entries(END_FILES)) expect(await backend.readText(path)).toBe(content);
  for (const path of NEVER_WRITTEN) expect(await backend.exists(path)).toBe(false);
}

const reference = () => expectedResults(createTools(createStateBackend({ files: START_FILES })));

describe.each(Object.keys(targets))('aiSdkTools with the backend %s', (where) => {
  it('runs a generateText tool loop: files change, the model reads each call’s text', async () => {
    const backend = targets[where]!();
    const model = generatingModel();
    const result = await generateText({ model, tools: aiSdkTools(backend), stopWhen: stepCountIs(10), prompt: 'Make the greeting say hello, world.' });

    expect(result.text).toBe(FINAL_TEXT);
    await expectEndState(backend);
    const seen = model.doGenerateCalls.map((call) => toolResultsIn(call.prompt));
    expect(seen).toEqual([{}, ...(await reference())]);
    // The SDK's own results keep the structured ToolResult: what the edit wrote, at which version.
    const edit = result.steps[1]!.toolResults.find((r) => r.toolCallId === 'c5')!;
    expect(edit.output).toMatchObject({ isError: false, changed: [{ path: '/src/app.ts', version: expect.any(Number) }] });
    const failed = result.steps[0]!.toolResults.find((r) => r.toolCallId === 'c3')!;
    expect(failed.output).toMatchObject({ isError: true, code: 'ENOENT', changed: [] });
  });

  it('runs a streamText tool loop: files change, the model reads each call’s text', async () => {
    const backend = targets[where]!();
    const model = streamingModel();
    const result = streamText({ model, tools: aiSdkTools(backend), stopWhen: stepCountIs(10), prompt: 'Make the greeting say hello, world.' });

    expect(await result.text).toBe(FINAL_TEXT);
    await expectEndState(backend);
    const seen = model.doStreamCalls.map((call) => toolResultsIn(call.prompt));
    expect(seen).toEqual([{}, ...(await reference())]);
    // A failure is a tool result, never a tool error: the loop saw no thrown tool.
    const parts = (await result.steps).flatMap((s) => s.content.map((p) => p.type));
    expect(parts).not.toContain('tool-error');
    expect(parts.filter((t) => t === 'tool-result')).toHaveLength(7);
  });

  it('runs as the tools of a ToolLoopAgent', async () => {
    const backend = targets[where]!();
    const model = generatingModel();
    const agent = new ToolLoopAgent({ model, tools: aiSdkTools(backend), stopWhen: stepCountIs(10) });

    expect((await agent.generate({ prompt: 'Make the greeting say hello, world.' })).text).toBe(FINAL_TEXT);
    await expectEndState(backend);
    expect(model.doGenerateCalls.map((call) => toolResultsIn(call.prompt))).toEqual([{}, ...(await reference())]);
  });
});

describe('one model response’s calls, however the SDK runs them', () => {
  const readAndWrite = toolCallsResponse(['r', 'read_file', { path: '/a.txt' }], ['w', 'write_file', { path: '/a.txt', content: 'mine\n' }]);
  const done = textResponse('Done.');

  it.each([undefined, 1])(
    'a read_file beside a write_file does not let it over a change the model has not seen (toolCallConcurrency %s)',
    async (toolCallConcurrency) => {
      const { MockLanguageModelV4 } = await import('ai/test');
      for (const where of Object.keys(targets)) {
        const backend = createStateBackend({ files: { '/a.txt': 'one\n' } });
        const target = where === 'in process' ? backend : inWorkerThread({ files: { '/a.txt': 'one\n' } });
        const tools = createTools(target);
        await tools.run('read_file', { path: '/a.txt' });
        await target.writeFile('/a.txt', 'outside\n');
        const model = new MockLanguageModelV4({ doGenerate: [readAndWrite, done] });
        const result = await generateText({
          model,
          tools: aiSdkTools(tools),
          stopWhen: stepCountIs(3),
          prompt: 'x',
          ...(toolCallConcurrency ? { toolCallConcurrency } : {}),
        });
        const write = result.steps[0]!.toolResults.find((r) => r.toolCallId === 'w')!;
        expect(write.output, where).toMatchObject({ isError: true, code: 'ESTALE' });
        expect(await target.readText('/a.txt'), where).toBe('outside\n');
      }
    },
  );
});
