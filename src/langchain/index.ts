/**
 * agentvfs/langchain — agentvfs in LangChain and deepagents.
 *
 * @example
 * import { createStateBackend } from 'agentvfs';
 * import { AgentvfsBackend, langchainTools } from 'agentvfs/langchain';
 * const backend = createStateBackend();
 * const tools = langchainTools(backend); // for createAgent({ model, tools }) or model.bindTools(tools)
 * const deepagentsBackend = new AgentvfsBackend(backend); // for createDeepAgent({ model, backend: deepagentsBackend })
 */
export { langchainTools, type LangchainTool, type LangchainToolsOptions } from './langchain-tools.ts';
export { AgentvfsBackend } from './agentvfs-backend.ts';
export type * from './deepagents-protocol.ts';
export type { ToolTarget } from '../adapters/tool-target.ts';
