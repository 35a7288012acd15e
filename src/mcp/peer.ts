/**
 * The MCP SDK, loaded once for the subpath. zod comes with it: the SDK depends on zod and, in
 * 1.x, registerTool accepts only zod schemas (see create-server.ts for how ours stay JSON Schema).
 */
import { loadPeer } from '../adapters/load-peer.ts';

export const { McpServer } = await loadPeer('mcp', '@modelcontextprotocol/sdk', () => import('@modelcontextprotocol/sdk/server/mcp.js'));
export const { WebStandardStreamableHTTPServerTransport } = await loadPeer(
  'mcp',
  '@modelcontextprotocol/sdk',
  () => import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
);
export const zod: typeof import('zod/v4-mini') = await loadPeer('mcp', 'zod', () => import('zod/v4-mini'));
