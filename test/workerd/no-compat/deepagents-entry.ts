/**
 * A Worker that runs the agent tasks of test/deepagents/scenario.ts, a deep agent over
 * AgentvfsBackend and a LangChain agent over langchainTools (the built agentvfs/langchain), and
 * answers with what happened. Bundled by test/deepagents/bundle.ts.
 */
import { type Backend, createStateBackend, createTools } from 'agentvfs';
import { AgentvfsBackend, langchainTools } from 'agentvfs/langchain';
import { LANGCHAIN_CALLS, runDeepAgentTask, runLangchainAgentTask, START_FILES } from '../../deepagents/scenario.ts';

async function filesOf(store: Backend): Promise<Record<string, string>> {
  return Object.fromEntries(await Promise.all((await store.glob('**')).map(async (p) => [p, await store.readText(p)])));
}

/** What tools.call answers to the LangChain agent's calls, one after the other, from the start files. */
async function referenceTexts(): Promise<string[]> {
  const tools = createTools(createStateBackend({ files: START_FILES }));
  const texts: string[] = [];
  for (const c of LANGCHAIN_CALLS) texts.push(await tools.call(c.name, c.args));
  return texts;
}

export default {
  async fetch(): Promise<Response> {
    const g = globalThis as Record<string, unknown>;
    try {
      const store = createStateBackend({ files: START_FILES });
      const outcome = await runDeepAgentTask(new AgentvfsBackend(store));
      const tooled = createStateBackend({ files: START_FILES });
      const langchain = { outcome: await runLangchainAgentTask(langchainTools(tooled)), files: await filesOf(tooled), reference: await referenceTexts() };
      return Response.json({ outcome, files: await filesOf(store), langchain, process: typeof g.process });
    } catch (error) {
      return Response.json({ error: (error as Error).stack ?? String(error) });
    }
  },
};
