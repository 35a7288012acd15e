/**
 * createMcpServer(target): an McpServer with the agentvfs tools registered through the SDK's own
 * registerTool, so a user can add tools, resources and prompts to it as to any McpServer.
 */
import type { McpServer as SdkMcpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { checkToolChoice } from '../adapters/include.ts';
import { checkOptionNames, optionNames } from '../option-names.ts';
import { guardOf, toTools, type AdaptedTools, type ToolTarget } from '../adapters/tool-target.ts';
import { toolCallOfAnyDialect } from '../calls.ts';
import type { GuardOptions } from '../guard/types.ts';
import type { ToolName, ToolParameters } from '../tools/definitions.ts';
import { toCallToolResult, unexpectedFailure } from './content.ts';
import { McpServer, zod } from './peer.ts';

/** The agentvfs release this file belongs to (create-server.test.ts checks it against package.json). */
export const AGENTVFS_VERSION = '0.1.0';

/**
 * `permissions`, `approve` and `onEvent` guard the tool session made over a backend target (see
 * docs/approval.md); with a tool set as target, give them to createTools instead.
 */
export interface McpServerOptions extends GuardOptions {
  /** Only these tools (for example a read-only server: `['ls', 'read_file', 'glob', 'grep']`). Default: all six. */
  include?: readonly (ToolName | (string & {}))[] | undefined;
  /** Replace some tool descriptions (the text the model reads). */
  descriptions?: { [K in ToolName | (string & {})]?: string | undefined } | undefined;
  /** The server's name in the client's initialize handshake. Default "agentvfs". */
  name?: string | undefined;
  /** The server's version in the handshake. Default agentvfs's own version. */
  version?: string | undefined;
  /** Instructions the client may give the model about this server. */
  instructions?: string | undefined;
}

export const MCP_SERVER_OPTIONS = optionNames<McpServerOptions>({
  include: true,
  descriptions: true,
  name: true,
  version: true,
  instructions: true,
  permissions: true,
  approve: true,
  onEvent: true,
});

/**
 * An McpServer with the tools registered; connect it to any transport. A backend target gets a
 * new tool session (its own read tracking); a tool set is shared with whoever made it.
 */
export function createMcpServer(target: ToolTarget, options: McpServerOptions = {}): SdkMcpServer {
  checkOptionNames(options, MCP_SERVER_OPTIONS, 'agentvfs/mcp: createMcpServer');
  return serverFor(toTools(target, 'mcp', guardOf(options)), options);
}

/** A new McpServer over an existing tool set (one per transport: an McpServer connects once). */
export function serverFor(tools: AdaptedTools, options: McpServerOptions): SdkMcpServer {
  const { name = 'agentvfs', version = AGENTVFS_VERSION, instructions, descriptions = {} } = options;
  const included = checkToolChoice(
    options,
    'mcp',
    tools.definitions.map((d) => d.name),
  );
  const server = new McpServer({ name, version }, instructions === undefined ? {} : { instructions });
  for (const definition of tools.definitions) {
    if (!included.has(definition.name)) continue;
    server.registerTool(
      definition.name,
      {
        description: descriptions[definition.name] ?? definition.description,
        inputSchema: listedAs(definition.parameters),
        annotations: annotationsOf(definition.name),
      },
      async (args, extra) => {
        try {
          // The client's notifications/cancelled aborts extra.signal: a question still open is withdrawn, nothing written.
          return toCallToolResult(await tools.run(definition.name, args, { signal: extra.signal }));
        } catch (error) {
          return unexpectedFailure(error);
        }
      },
    );
  }
  return server;
}

/**
 * MCP hints from the call table: a tool that does not write is read-only (and so idempotent, and
 * not destructive); one that writes may replace what a file held unless the table says it only
 * adds (create_directory), and is idempotent only where the table says so (write_file: the same
 * content again; an edit_file repeated may apply again when new_string contains old_string). Every
 * tool works on the in-memory filesystem only: a closed world. A tool the table does not know is
 * taken to write.
 */
function annotationsOf(name: string): ToolAnnotations {
  const info = toolCallOfAnyDialect(name);
  const writes = info?.mutates ?? true;
  return {
    readOnlyHint: !writes,
    destructiveHint: writes && info?.additive !== true,
    idempotentHint: !writes || info?.idempotent === true,
    openWorldHint: false,
  };
}

// A stateless mcpHandler makes a server per request over the same definitions: one schema each will do.
const listed = new WeakMap<ToolParameters, ReturnType<typeof zod.looseObject>>();

/**
 * The SDK (1.x) accepts only zod schemas for a tool's input, and lists a tool by converting its
 * schema with zod's toJSONSchema, which copies a schema's registered metadata over what it
 * generates. So: an object schema that lets any arguments through (the tools check them and answer
 * bad ones with the same `Error: EINVAL: …` text as tools.call), carrying our JSON Schema as its
 * metadata, is listed as exactly that JSON Schema (with the `$schema` line the SDK adds to every tool).
 */
function listedAs(parameters: ToolParameters) {
  let schema = listed.get(parameters);
  if (!schema) listed.set(parameters, (schema = zod.looseObject({}).register(zod.globalRegistry, { ...parameters })));
  return schema;
}
