/**
 * One tool call of any dialect: validate the arguments, run the handler, and turn what it returns
 * or throws into a ToolResult (an `Error:` text for a tool-level failure, never a rejection).
 */
import { isVfsError } from '../errors.ts';
import type { ToolDefinition } from './definitions.ts';
import { capResult } from './limit-output.ts';
import type { FileChange, ToolResult } from './types.ts';
import { validateArgs, type ToolArgs } from './validate-args.ts';

/** Runs one tool: returns the text the model sees; pushes every file it writes onto `changed`. */
export type ToolHandler = (args: ToolArgs, changed: FileChange[]) => Promise<string>;

/** Checks a call's arguments where a schema cannot (a tool that takes one of two forms): clean args or an error sentence. */
export type ArgsValidator = (args: unknown) => ToolArgs | string;

export function toolRunner<N extends string>(
  definitions: readonly ToolDefinition<N>[],
  handlers: Record<N, ToolHandler>,
  validators: Partial<Record<N, ArgsValidator>> = {},
): (name: string, args?: unknown) => Promise<ToolResult> {
  const byName = new Map<string, ToolDefinition<N>>(definitions.map((d) => [d.name, d]));
  const names = definitions.map((d) => d.name).join(', ');
  return async (name, args) => {
    const def = byName.get(name);
    if (!def) return badArgument(`unknown tool ${JSON.stringify(name)}. Available tools: ${names}.`);
    const validate = validators[def.name];
    const checked = validate ? validate(args) : validateArgs(def, args);
    if (typeof checked === 'string') return badArgument(checked);
    const changed: FileChange[] = [];
    try {
      return { text: capResult(await handlers[def.name](checked, changed)), isError: false, changed };
    } catch (error) {
      return { ...toolError(error), changed };
    }
  };
}

function badArgument(message: string): ToolResult {
  return { text: `Error: EINVAL: ${message}`, isError: true, code: 'EINVAL', changed: [] };
}

function toolError(error: unknown): Omit<ToolResult, 'changed'> {
  if (isVfsError(error)) return { text: capResult(`Error: ${error.code}: ${error.message}`), isError: true, code: error.code };
  const message = error instanceof Error ? error.message : String(error);
  return { text: capResult(`Error: unexpected failure: ${message}. Nothing may have been changed; retry once, and report it if it persists.`), isError: true };
}
