/**
 * What the model reads from one tool result, in the AI SDK's terms: exactly the text tools.call
 * returns, flagged as an error when the call failed (providers that have an error flag, such as
 * Anthropic's is_error, set it), with any images or documents (SPEC §9) as file parts after it.
 */
import type { Tool } from 'ai';
import type { ToolResult } from '../tools/types.ts';

// `ai` does not export ToolResultOutput itself: take it from the hook it is the result of.
export type ModelOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;

export function toModelOutput(result: ToolResult): ModelOutput {
  if (result.isError) return { type: 'error-text', value: result.text };
  if (!result.parts?.length) return { type: 'text', value: result.text };
  return {
    type: 'content',
    value: [
      { type: 'text', text: result.text },
      // `data` is base64, which the SDK's tagged file data takes as it is; images and PDFs alike
      // are `file` parts told apart by their media type (the SDK's image-specific parts are deprecated).
      ...result.parts.map((part) => ({ type: 'file' as const, mediaType: part.mediaType, data: { type: 'data' as const, data: part.data } })),
    ],
  };
}
