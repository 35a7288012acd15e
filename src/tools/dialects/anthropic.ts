/** The 'anthropic' dialect's tools: each call runs the text editor or the memory tool over the backend. */
import type { Backend } from '../../backend/types.ts';
import type { CallReads } from '../read-versions.ts';
import type { ToolHandler } from '../run-tool.ts';
import type { ToolArgs } from '../validate-args.ts';
import { runMemory, type MemoryArgs } from './anthropic/memory.ts';
import type { AnthropicToolName } from './anthropic/names.ts';
import { runTextEditor, type TextEditorArgs } from './anthropic/text-editor.ts';

export function anthropicHandlers({ backend, reads }: { backend: Backend; reads: CallReads }): Record<AnthropicToolName, ToolHandler> {
  return {
    str_replace_based_edit_tool: (args: ToolArgs, changed) => runTextEditor({ backend, reads, changed }, args as unknown as TextEditorArgs),
    memory: (args: ToolArgs, changed) => runMemory({ backend, reads, changed }, args as unknown as MemoryArgs),
  };
}
