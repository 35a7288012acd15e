/**
 * A Worker that runs the deep agent task of test/deepagents/scenario.ts over AgentvfsBackend (the
 * built agentvfs/langchain) and answers with what happened. Bundled by test/deepagents/bundle.ts.
 */
import { createStateBackend } from 'agentvfs';
import { AgentvfsBackend } from 'agentvfs/langchain';
import { runDeepAgentTask, START_FILES } from '../../deepagents/scenario.ts';

export default {
  async fetch(): Promise<Response> {
    const g = globalThis as Record<string, unknown>;
    const store = createStateBackend({ files: START_FILES });
    try {
      const outcome = await runDeepAgentTask(new AgentvfsBackend(store));
      const files = Object.fromEntries(await Promise.all((await store.glob('**')).map(async (p) => [p, await store.readText(p)])));
      return Response.json({ outcome, files, process: typeof g.process, Buffer: typeof g.Buffer });
    } catch (error) {
      return Response.json({ error: (error as Error).stack ?? String(error) });
    }
  },
};
