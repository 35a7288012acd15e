/**
 * agentvfs/mcp — the six file tools as an MCP server (@modelcontextprotocol/sdk 1.x).
 *
 * @example
 * import { createStateBackend } from 'agentvfs';
 * import { mcpHandler } from 'agentvfs/mcp';
 * const handle = mcpHandler(createStateBackend({ files: { '/notes.md': '# notes\n' } }));
 * export default { fetch: handle }; // Streamable HTTP in a Worker, Deno or Bun
 */
export { createMcpServer, type McpServerOptions } from './create-server.ts';
export { mcpHandler, type McpHandlerOptions } from './handler.ts';
export type { ToolTarget } from '../adapters/tool-target.ts';
