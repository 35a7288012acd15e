/// <reference lib="dom" />
/**
 * The page e2e/deepagents.spec.ts loads, bundled by test/deepagents/bundle.ts: the agents run in
 * the page, their files in agentvfs in Web Workers (createWorkerBackend): a deep agent through
 * AgentvfsBackend, a LangChain agent through langchainTools (whose calls run in the worker).
 */
import { type Backend, createStateBackend, createTools } from 'agentvfs';
import { createWorkerBackend } from 'agentvfs/client';
import { AgentvfsBackend, langchainTools } from 'agentvfs/langchain';
import { LANGCHAIN_CALLS, runDeepAgentTask, runLangchainAgentTask, START_FILES } from '../test/deepagents/scenario.ts';

async function filesOf(store: Backend): Promise<Record<string, string>> {
  return Object.fromEntries(await Promise.all((await store.glob('**')).map(async (p) => [p, await store.readText(p)])));
}

async function run() {
  const deep = createWorkerBackend({ files: START_FILES });
  const tooled = createWorkerBackend({ files: START_FILES });
  try {
    const outcome = await runDeepAgentTask(new AgentvfsBackend(deep));
    const langchainOutcome = await runLangchainAgentTask(langchainTools(tooled));
    const reference = createTools(createStateBackend({ files: START_FILES }));
    const texts: string[] = [];
    for (const c of LANGCHAIN_CALLS) texts.push(await reference.call(c.name, c.args));
    return { outcome, files: await filesOf(deep), langchain: { outcome: langchainOutcome, files: await filesOf(tooled), reference: texts } };
  } finally {
    deep.close();
    tooled.close();
  }
}

(window as unknown as { agentsResult: Promise<unknown> }).agentsResult = run().catch((error: Error) => ({ error: error.stack ?? String(error) }));
