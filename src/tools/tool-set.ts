/** A tool set from its definitions and its `run`: `call` is always `run`'s text, wherever the tools run. */
import type { ToolDefinition, ToolName } from './definitions.ts';
import type { ToolResult, Tools } from './types.ts';

export function toolSet<N extends string = ToolName>(definitions: ToolDefinition<N>[], run: (name: string, args?: unknown) => Promise<ToolResult>): Tools<N> {
  return { definitions, call: (name, args) => run(name, args).then(textOf), run };
}

const textOf = (result: ToolResult): string => result.text;
