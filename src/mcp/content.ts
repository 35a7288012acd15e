/** A ToolResult as an MCP CallToolResult: the same text, isError, and parts as image or embedded resource content. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { normalizePath } from '../paths.ts';
import type { ToolPart, ToolResult } from '../tools/types.ts';

type Content = CallToolResult['content'][number];

export function toCallToolResult(result: ToolResult, args: unknown): CallToolResult {
  const parts = result.parts ?? [];
  const content: Content[] = [{ type: 'text', text: result.text }, ...parts.map((part) => partContent(part, args))];
  return { content, isError: result.isError };
}

/** A call that rejected instead of resolving (a worker gone): the same shape as any other tool failure. */
export function unexpectedFailure(error: unknown): CallToolResult {
  const message = error instanceof Error ? error.message : String(error);
  return {
    content: [{ type: 'text', text: `Error: unexpected failure: ${message}. Nothing may have been changed; retry once, and report it if it persists.` }],
    isError: true,
  };
}

function partContent(part: ToolPart, args: unknown): Content {
  if (part.type === 'image') return { type: 'image', data: part.data, mimeType: part.mediaType };
  // A document (a PDF) has no content type of its own in MCP: it travels as an embedded resource,
  // named by the file it was read from.
  return { type: 'resource', resource: { uri: resourceUri(args), mimeType: part.mediaType, blob: part.data } };
}

function resourceUri(args: unknown): string {
  const path = (args as { path?: unknown } | undefined)?.path;
  let normal = '/';
  try {
    normal = normalizePath(path);
  } catch {
    // A part only comes from a call whose path was valid; keep the root if it somehow was not.
  }
  return `agentvfs:${encodeURI(normal)}`;
}
