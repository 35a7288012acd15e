/** A tool set from its definitions and its `run`: `call` is always `run`'s text, wherever the tools run. */
import type { ToolDefinition, ToolName } from './definitions.ts';
import type { CallTag } from './read-versions.ts';
import type { PreviewOptions, ToolPreview, ToolResult, Tools } from './types.ts';

/** A tool set's run, with which call of its session this is when the caller knows it (createTools numbers calls). */
export type RunCall<R = ToolResult> = (name: string, args?: unknown, call?: CallTag) => Promise<R>;

/** A tool set's preview (Tools.preview): what a call would write, found without writing. */
export type PreviewCall = (name: string, args?: unknown, options?: PreviewOptions) => Promise<ToolPreview>;

/** The preview of a call that would fail: nothing changes, and the failure `run` would answer. */
export function failedPreview({ text, code }: Pick<ToolResult, 'text' | 'code'>): ToolPreview {
  return { changes: [], error: code === undefined ? { text } : { text, code } };
}

export function toolSet<N extends string = ToolName>(definitions: ToolDefinition<N>[], run: RunCall, preview: PreviewCall): Tools<N> {
  return { definitions, call: (name, args, options) => run(name, args, options).then(textOf), run, preview };
}

/** `tools.run`, passing on which call of its session this is (a wrapper's inner tool set; see CallTag). */
export function runWithin(tools: Pick<Tools<string>, 'run'>, name: string, args: unknown, call: CallTag | undefined): Promise<ToolResult> {
  return (tools.run as RunCall)(name, args, call);
}

const textOf = (result: ToolResult): string => result.text;
