/** A tool set from its definitions and its `run`: `call` is always `run`'s text, wherever the tools run. */
import type { ToolDefinition } from './definitions.ts';
import type { ToolResult, Tools } from './types.ts';

export function toolSet(definitions: ToolDefinition[], run: (name: string, args?: unknown) => Promise<ToolResult>): Tools {
  return { definitions, call: (name, args) => run(name, args).then(textOf), run };
}

const textOf = (result: ToolResult): string => result.text;
