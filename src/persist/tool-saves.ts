/**
 * Tool calls on a persistent backend: the tools run over the backend's methods without their
 * saves, and a call that changed anything is saved once its result is known. So a save that
 * fails still answers with what the call changed (the session records the versions it wrote,
 * so the model's next edit of that file is not refused as stale), marked `Error: not saved: …`,
 * and never rejects: tools never throw (SPEC §3).
 */
import type { Backend } from '../backend/types.ts';
import { isNotSavedError, isWorkspaceClosedError } from '../errors.ts';
import { toolCall } from '../calls.ts';
import { isToolHost, type ToolsAround } from '../tool-host.ts';
import { lazyLocalTools } from '../tools/lazy-local-tools.ts';
import { notSavedText, toolError } from '../tools/tool-error.ts';
import { failedPreview, runWithin, toolSet } from '../tools/tool-set.ts';
import type { ToolResult, Tools, ToolsOptions } from '../tools/types.ts';

export interface SavedToolsParts {
  /** The backend the wrapper wraps (a tool host runs the tools itself). */
  backend: Backend;
  /** The wrapper's methods that do not wait for a save (mutations counted by `mutations`). */
  unsaved: Backend;
  /** How many mutating calls `unsaved` has made so far. */
  mutations(): number;
  /** Runs a call of a tool host's tool `name` that may change files; its result names the files it changed. */
  hostCall(name: string, run: () => Promise<ToolResult>): Promise<ToolResult>;
  /** Saves what changed as the wrapper's durability asks; throws NotSavedError when an immediate save fails. */
  save(): Promise<unknown>;
  /** Runs a host's call that may mutate as the wrapper's own mutations run (refused once closed; close() waits for it). */
  track<T>(run: () => Promise<T>): Promise<T>;
}

/**
 * `around`: what the caller of createToolSession wraps each call in (inside the audit, outside the
 * save). `here`: run the tools here over the wrapper's methods even when the backend could run them
 * where it lives (ToolHost.createToolSession).
 */
export function savedToolSession(parts: SavedToolsParts, toolOptions: ToolsOptions, around: ToolsAround = (tools) => tools, here = false): Tools<string> {
  const saved = async (result: ToolResult): Promise<ToolResult> => {
    try {
      await parts.save();
      return result;
    } catch (error) {
      if (!isNotSavedError(error)) throw error;
      return { ...result, isError: true, text: notSavedText(error) };
    }
  };
  if (here || !isToolHost(parts.backend)) {
    // Inside the audit: onEvent reports a call whose save failed as failed, like its result.
    return lazyLocalTools(parts.unsaved, toolOptions, (session) =>
      around(
        toolSet(
          session.definitions,
          async (name, args, call) => {
            const before = parts.mutations();
            const result = await runWithin(session, name, args, call);
            // Any mutation during the call (this one's, or one that ran beside it) is saved before it answers.
            return parts.mutations() === before ? result : saved(result);
          },
          session.preview,
        ),
      ),
    );
  }
  const saving = (inner: Tools<string>): Tools<string> =>
    around(
      toolSet(
        inner.definitions,
        async (name, args, call) => {
          // A tool the table knows as read-only runs as it is; any other (a dialect's included) as a mutation.
          if (toolCall(name, toolOptions.dialect)?.mutates === false) return runWithin(inner, name, args, call);
          let result: ToolResult;
          try {
            result = await parts.track(() => parts.hostCall(name, () => runWithin(inner, name, args, call)));
          } catch (error) {
            if (!isWorkspaceClosedError(error)) throw error;
            return { ...toolError(error), changed: [] };
          }
          return result.changed.length > 0 ? saved(result) : result;
        },
        // Refused once closed, as a call is (the host's backend may be gone with it).
        (name, args, options) =>
          parts
            .track(() => inner.preview(name, args, options))
            .catch((error: unknown) => {
              if (!isWorkspaceClosedError(error)) throw error;
              return failedPreview(toolError(error));
            }),
      ),
    );
  // The host's audit (a worker's onEvent runs on this side) sees the result after its save, too.
  let wrapped = false;
  const tools = parts.backend.createToolSession(toolOptions, (inner) => ((wrapped = true), saving(inner)));
  // A host that does not take the wrapper (one written before it existed) is saved around its audit, as then.
  return wrapped ? tools : saving(tools);
}
