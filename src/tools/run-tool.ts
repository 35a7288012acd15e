/**
 * One tool call of any dialect: validate the arguments, run the handler, and turn what it returns
 * or throws into a ToolResult (an `Error:` text for a tool-level failure, never a rejection).
 */
import type { Backend } from '../backend/types.ts';
import { isVfsError, isWorkerGoneError, type VfsError } from '../errors.ts';
import type { DecidedResult } from '../guard/audit.ts';
import { runGuarded } from '../guard/run-guarded.ts';
import type { GuardSession } from '../guard/session.ts';
import type { ToolDefinition } from './definitions.ts';
import { capResult } from './limit-output.ts';
import type { FileChange, ToolPart, ToolResult } from './types.ts';
import { numberedCall, type CallReads, type CallTag, type ReadVersions } from './read-versions.ts';
import type { RunCall } from './tool-set.ts';
import { statOrNull } from '../backend/stat-or-null.ts';
import { callMayWrite, toolCall } from '../calls.ts';
import { shown, validateArgs, type ToolArgs } from './validate-args.ts';
import { toolError } from './tool-error.ts';

/** Runs one tool: returns the text the model sees (with any images or documents as parts); pushes every file it writes onto `changed`. */
export type ToolHandler = (args: ToolArgs, changed: FileChange[]) => Promise<string | { text: string; parts: ToolPart[] }>;

/** Checks a call's arguments where a schema cannot (a tool that takes one of two forms): clean args or an error sentence. */
export type ArgsValidator = (args: unknown) => ToolArgs | string;

/** Handlers over `backend` for one call, with the session's read tracking as that call sees it. */
export type HandlersFor<N extends string> = (backend: Backend, reads: CallReads) => Record<N, ToolHandler>;

/**
 * The tool set's calls, each on handlers made for it (`handlersFor`). With a guard (permissions
 * or approve, docs/approval.md) each runs over a guarded view of `backend` of its own, so every
 * file access of every dialect's tools is checked.
 */
export function toolRunner<N extends string>(
  definitions: readonly ToolDefinition<N>[],
  handlersFor: HandlersFor<N>,
  backend: Backend,
  reads: ReadVersions,
  validators: Partial<Record<N, ArgsValidator>> = {},
  guard?: GuardSession,
  dialect?: string,
): RunCall<RunResult> {
  const check = callChecker(definitions, validators);
  return async (name, args, call) => {
    const checkedCall = check(name, args);
    if ('isError' in checkedCall) return checkedCall;
    const { def, checked } = checkedCall;
    const changed: FileChange[] = [];
    const callReads = reads.forCall(call, { wholeContent: toolCall(def.name, dialect)?.wholeContent === true });
    const run = async (over: Backend): Promise<RunResult> => {
      try {
        const out = await handlersFor(over, callReads)[def.name](checked, changed);
        if (typeof out === 'string') return { text: capResult(out), isError: false, changed };
        return { text: capResult(out.text), isError: false, parts: out.parts, changed };
      } catch (error) {
        if (isWorkerGoneError(error)) throw error; // the transport, not the call: its outcome is unknown
        const failed = { ...toolError(error), changed };
        if (refusedUnread(error) && callReads.learnedBeside(error.path)) failed.text += BESIDE_NOTE;
        // Which file was stale, for retriedAfterOwnWrites (which takes it off the result).
        return isVfsError(error) && error.code === 'ESTALE' && typeof error.path === 'string' ? { ...failed, stalePath: error.path } : failed;
      }
    };
    // A question names the call (its number, its caller's signal): see askApproval.
    const result = await (guard === undefined ? run(backend) : runGuarded(guard, backend, def.name, checked, reads, run, numberedCall(call)));
    if (result.changed.length > 0) reads.recordWrites(result.changed, callReads);
    return result;
  };
}

/** A call's tool and its arguments, checked (defaults filled in); or the EINVAL result a bad call gets. */
export type CheckedCall<N extends string> = { def: ToolDefinition<N>; checked: ToolArgs } | ToolResult;

/** Checks a call of one of `definitions`: the tool is known, and its arguments are what its schema (or validator) takes. */
export function callChecker<N extends string>(
  definitions: readonly ToolDefinition<N>[],
  validators: Partial<Record<N, ArgsValidator>>,
): (name: string, args: unknown) => CheckedCall<N> {
  const byName = new Map<string, ToolDefinition<N>>(definitions.map((d) => [d.name, d]));
  const names = definitions.map((d) => d.name).join(', ');
  return (name, args) => {
    const def = byName.get(name);
    if (!def) return badArgument(`unknown tool ${typeof name === 'string' ? JSON.stringify(name) : shown(name, 60)}. Available tools: ${names}.`);
    const own = ownArguments(args);
    if (own instanceof Error) return badArgument(`the arguments of ${def.name} could not be read: ${own.message}`);
    const validate = validators[def.name];
    const checked = validate ? validate(own) : validateArgs(def, own);
    return typeof checked === 'string' ? badArgument(checked) : { def, checked };
  };
}

/** Said when what a call made beside this one (in the same turn) learned of the file would have let it through. */
const BESIDE_NOTE =
  ' This call was made beside another that read or wrote this file (in the same turn), before that one answered: what it saw does not count for this call.';

function refusedUnread(error: unknown): error is VfsError & { path: string } {
  return isVfsError(error) && (error.code === 'ESTALE' || error.code === 'ENOTREAD') && typeof error.path === 'string';
}

/**
 * An object's own enumerable properties, read once, as plain data: what a model's JSON holds. An
 * inherited property (a host that copied `{"__proto__": …}` with Object.assign) is no argument,
 * and a getter that throws is a bad argument, not a crash. Anything else is passed on as it is.
 */
function ownArguments(args: unknown): unknown {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return args;
  try {
    return Object.fromEntries(Object.entries(args));
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function badArgument(message: string): ToolResult {
  return { text: `Error: EINVAL: ${message}`, isError: true, code: 'EINVAL', changed: [] };
}

/** A call's result inside the tool set: what the model sees, and the file a refusal as stale was about. */
export type RunResult = DecidedResult & { stalePath?: string };

/**
 * `run`, where a call refused as stale runs again when the file is stale only because another call
 * of the same session, made before it and finished meanwhile, wrote it: a model's parallel calls
 * (two edit_file of one file in one turn, as the AI SDK runs them) then apply one after the other
 * in the order they were made, as through a worker, where each call finishes before the next
 * starts. So does a call refused only for what it learned while it ran (a tool that needs no read,
 * on a file the session knew nothing of: it reads and applies again, as it would have after the
 * other write). A file the session knew, changed by anyone else, is still ESTALE (SPEC §11); a call
 * a person was asked about is not asked again; nothing waits on anything else.
 */
export function retriedAfterOwnWrites(run: RunCall<RunResult>, reads: ReadVersions, backend: Backend, dialect?: string): RunCall<DecidedResult> {
  return async (name, args, call) => {
    const n = numberedCall(call)?.n;
    // Marked while it runs, if it may write: a write_file made before it is not run again meanwhile.
    if (n === undefined || !callMayWrite(toolCall(name, dialect), args)) return attempts(name, args, call, n);
    reads.writing(n, true);
    try {
      return await attempts(name, args, call, n);
    } finally {
      reads.writing(n, false);
    }
  };

  async function attempts(name: string, args: unknown, call: CallTag | undefined, n: number | undefined): Promise<DecidedResult> {
    // A change made on what the file holds (an edit, a patch) may land over a later call's; a whole content may not.
    const before = toolCall(name, dialect)?.wholeContent === true ? n : undefined;
    for (let attempt = 1; ; attempt++) {
      const since = reads.seq;
      const { stalePath, ...result } = await run(name, args, call);
      const asked = result.decision !== undefined && result.decision !== 'always';
      // (A cancelled call is not run again: its refusal, which changed nothing, is its answer.)
      if (stalePath === undefined || asked || attempt === MAX_ATTEMPTS || numberedCall(call)?.signal?.aborted) return result;
      // The call that wrote it may still be on its way back: let it arrive, then look.
      await new Promise<void>((resolve) => setTimeout(() => resolve(), 0));
      // (The refused call changed nothing: running it again is as if it had come after the other.)
      // A write_file is not run again over a write of a call made after it, which it would overwrite
      // (one that may write, still running, may have written without being recorded yet).
      if (before !== undefined && (reads.laterCallWroteSince(stalePath, since, before) || reads.laterWriterRunning(before))) return result;
      if (n !== undefined && reads.knewNothingBefore(stalePath, since)) {
        // Refused only for what it read itself as it ran: it reads again.
        reads.forgetAttempt(stalePath, since, n);
        continue;
      }
      const now = await statOrNull(backend, stalePath);
      // Not when the session read the file meanwhile (a read_file, a refusal that showed it): the
      // sibling's write may rest on that read, and running this call again would overwrite, unseen,
      // the change it was refused for.
      if (now === null || now.isDir || !reads.ownWritesOnlySince(stalePath, now.version, since)) return result;
    }
  }
}

/** Attempts of one call (a model makes a few parallel calls at once, not dozens). */
const MAX_ATTEMPTS = 8;
