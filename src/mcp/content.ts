/** A ToolResult as an MCP CallToolResult: the same text, isError, and parts as image or embedded resource content. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { unexpectedFailureText } from '../tools/tool-error.ts';
import type { ToolPart, ToolResult } from '../tools/types.ts';

type Content = CallToolResult['content'][number];

export function toCallToolResult(result: ToolResult): CallToolResult {
  const parts = result.parts ?? [];
  const content: Content[] = [{ type: 'text', text: result.text }, ...parts.map((part) => partContent(part, result.text))];
  return { content, isError: result.isError };
}

/** A call that rejected instead of resolving (a worker gone): the same shape as any other tool failure. */
export function unexpectedFailure(error: unknown): CallToolResult {
  return { content: [{ type: 'text', text: unexpectedFailureText(error) }], isError: true };
}

function partContent(part: ToolPart, text: string): Content {
  if (part.type === 'image') return { type: 'image', data: part.data, mimeType: part.mediaType };
  // A document (a PDF) has no content type of its own in MCP: it travels as an embedded resource,
  // named by the file it was read from.
  return { type: 'resource', resource: { uri: resourceUri(text), mimeType: part.mediaType, blob: part.data } };
}

/**
 * The file a media result was read from, as a URI. Every tool that attaches a file starts its text
 * with the file's absolute path and ": " then a description (src/tools/read-media.ts, mcp-filesystem's
 * read_media_file), resolved as the call resolved it (against the backend's cwd, whatever the
 * dialect calls the argument). Each segment is percent-encoded, so "#" and "?" stay in the path.
 */
function resourceUri(text: string): string {
  // The description after the path holds no ": " (a file's name may): cut at the first line's last.
  const firstLine = text.split('\n', 1)[0]!;
  const end = firstLine.lastIndexOf(': ');
  const path = firstLine.startsWith('/') && end > 0 ? firstLine.slice(0, end) : '/';
  return `agentvfs:${path.split('/').map(encodeURIComponent).join('/')}`;
}
