/**
 * agentvfs — an in-memory filesystem and the six agent file tools, runtime-neutral.
 *
 * @example
 * import { createStateBackend, createTools } from 'agentvfs';
 * const backend = createStateBackend({ files: { '/src/app.ts': 'export const x = 1;\n' } });
 * const tools = createTools(backend);
 * console.log(await tools.call('read_file', { path: '/src/app.ts' }));
 */
export { createStateBackend, type StateBackend } from './backend/state-backend.ts';
export type * from './backend/types.ts';
export { VfsError, isVfsError, VFS_ERROR_CODES, type VfsErrorCode, type VfsErrorJSON } from './errors.ts';
export { DEFAULT_LIMITS, type Limits } from './limits.ts';
export { normalizePath } from './paths.ts';
export { createTools } from './tools/create-tools.ts';
export type { FileChange, PreviewedChange, PreviewOptions, RunOptions, ToolPart, ToolPreview, ToolResult, Tools, ToolsOptions } from './tools/types.ts';
export { createSession, type ToolSession } from './tools/session.ts';
export {
  DIALECT_NAMES,
  type AnthropicToolName,
  type DialectName,
  type DialectToolName,
  type DialectToolNames,
  type GeminiToolName,
  type McpFilesystemToolName,
} from './tools/dialects/names.ts';
export type { AbortSignalLike } from './abort-signal.ts';
export type { ToolHost } from './tool-host.ts';
export type { ApprovalDecision, ApprovalRequest, Approve, Decision, GuardOptions, OnEvent, Permissions, ToolEvent } from './guard/types.ts';
export {
  formatDefinitions,
  FORMAT_PROVIDERS,
  type FormatProvider,
  type FormatOptions,
  type FormattedDefinitions,
  type DefinitionLike,
  type OpenAIChatTool,
  type OpenAIResponsesTool,
  type OpenAIApplyPatchTool,
  type AnthropicTool,
  type AnthropicBuiltinTool,
  type GeminiTool,
  type GeminiParameters,
  type GeminiProperty,
  type StrictParameters,
  type StrictProperty,
} from './tools/format-definitions.ts';
export {
  TOOL_DESCRIPTIONS,
  TOOL_NAMES,
  MAX_RESULT_CHARS,
  type ToolDefinition,
  type ToolName,
  type ToolParameters,
  type JsonSchemaProperty,
} from './tools/definitions.ts';
