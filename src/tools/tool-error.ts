/**
 * What a tool answers for an error its call threw, wherever the call ran (toolRunner, a
 * persisted backend's saves): apart from run-tool.ts, so a page's persistence does not bundle
 * the tools to say it.
 */
import { isNotSavedError, isVfsError, isWorkspaceClosedError, isWorkspaceHeldError } from '../errors.ts';
import { QUOTA_NEXT_STEP } from '../limits.ts';
import { TOOL_DIRECTORY_COUNT_NEXT_STEP, TOOL_FILE_COUNT_NEXT_STEP, TOOL_QUOTA_NEXT_STEP } from './dialects/next-actions.ts';
import { capResult } from './limit-output.ts';
import type { ToolResult } from './types.ts';

/** What a tool answers for an error its call threw. */
export function toolError(error: unknown): Omit<ToolResult, 'changed'> {
  if (isVfsError(error)) return { text: capResult(`Error: ${error.code}: ${inToolWords(error.message)}`), isError: true, code: error.code };
  if (isWorkspaceHeldError(error)) {
    return { text: capResult(`Error: read-only: ${error.message} Nothing was changed; writing again fails until then.`), isError: true };
  }
  if (isWorkspaceClosedError(error)) {
    return { text: capResult(`Error: read-only: ${error.message} Nothing was changed; writing again fails too.`), isError: true };
  }
  if (isNotSavedError(error)) return { text: notSavedText(error), isError: true };
  return { text: unexpectedFailureText(error), isError: true };
}

/** What a call answers when it failed in a way no tool error names (a worker gone, a bug): whether it changed anything is not known. */
export function unexpectedFailureText(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).replace(/\.+$/, '');
  return capResult(`Error: unexpected failure: ${message}. Whether the call changed anything is not known: look before trying it again.`);
}

/** What a tool answers when its change was made but could not be saved (agentvfs/persist's NotSavedError). */
export function notSavedText(error: Error): string {
  return capResult(`Error: not saved: ${error.message}. The change is in the workspace: do not make it again; the next save writes it too.`);
}

function inToolWords(message: string): string {
  if (!message.includes(QUOTA_NEXT_STEP)) return message;
  // The backend's count errors say "exceed the limit of N files" (or directories); its size errors name bytes.
  const count = /exceed the limit of \d+ (files|directories)\b/.exec(message)?.[1];
  const step = count === 'files' ? TOOL_FILE_COUNT_NEXT_STEP : count === 'directories' ? TOOL_DIRECTORY_COUNT_NEXT_STEP : TOOL_QUOTA_NEXT_STEP;
  return message.replace(QUOTA_NEXT_STEP, step);
}
