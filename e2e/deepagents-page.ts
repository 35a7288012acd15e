/// <reference lib="dom" />
/**
 * The page e2e/deepagents.spec.ts loads, bundled by test/deepagents/bundle.ts: a deep agent in the
 * page, its files in agentvfs in a Web Worker (createWorkerBackend), through AgentvfsBackend.
 */
import { createWorkerBackend } from 'agentvfs/client';
import { AgentvfsBackend } from 'agentvfs/langchain';
import { runDeepAgentTask, START_FILES } from '../test/deepagents/scenario.ts';

async function run() {
  const remote = createWorkerBackend({ files: START_FILES });
  try {
    const outcome = await runDeepAgentTask(new AgentvfsBackend(remote));
    const files = Object.fromEntries(await Promise.all((await remote.glob('**')).map(async (p) => [p, await remote.readText(p)])));
    return { outcome, files };
  } finally {
    remote.close();
  }
}

(window as unknown as { deepagentsResult: Promise<unknown> }).deepagentsResult = run().catch((error: Error) => ({ error: error.stack ?? String(error) }));
