/// <reference lib="dom" />
// Bundled by e2e/ai-sdk.spec.ts with the built package and `ai`: the AI SDK's mock model drives a
// tool loop in the page while the backend lives in a Web Worker (createWorkerBackend).
// The spec's bundler swaps these entries' sources for the built files (dist/index.js, dist/ai.js, dist/client.js).
import { aiSdkTools } from '../src/ai/index.ts';
import { createWorkerBackend } from '../src/client/index.ts';
import { createStateBackend, createTools } from '../src/index.ts';
import { generateText, stepCountIs, streamText } from 'ai';
import { END_FILES, expectedResults, generatingModel, NEVER_WRITTEN, START_FILES, streamingModel, toolResultsIn } from '../test/ai/scenario.ts';

async function runLoop(mode: 'generate' | 'stream') {
  const backend = createWorkerBackend({ files: START_FILES });
  try {
    const prompt = 'Make the greeting say hello, world.';
    let text: string;
    let prompts: ReturnType<typeof generatingModel>['doGenerateCalls'][number]['prompt'][];
    if (mode === 'generate') {
      const model = generatingModel();
      text = (await generateText({ model, tools: aiSdkTools(backend), stopWhen: stepCountIs(10), prompt })).text;
      prompts = model.doGenerateCalls.map((c) => c.prompt);
    } else {
      const model = streamingModel();
      text = await streamText({ model, tools: aiSdkTools(backend), stopWhen: stepCountIs(10), prompt }).text;
      prompts = model.doStreamCalls.map((c) => c.prompt);
    }
    const files: Record<string, string> = {};
    for (const path of Object.keys(END_FILES)) files[path] = await backend.readText(path);
    const written = await Promise.all(NEVER_WRITTEN.map((path) => backend.exists(path)));
    return {
      text,
      files,
      written,
      seen: prompts.map(toolResultsIn),
      expected: await expectedResults(createTools(createStateBackend({ files: START_FILES }))),
    };
  } finally {
    backend.close();
  }
}

(globalThis as unknown as { runLoop: typeof runLoop }).runLoop = runLoop;
