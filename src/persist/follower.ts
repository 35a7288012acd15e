/**
 * A tab that opens a workspace another tab or worker holds (`ifHeld: 'follow'`): it loads the
 * stored state, applies each commit of the holder as the store announces it, refuses writes with
 * an error that says who holds the workspace, and becomes the writer once the holder closes.
 */
import type { Backend } from '../backend/types.ts';
import { backendCall } from '../calls.ts';
import { isVfsError, WorkspaceClosedError, WorkspaceHeldError } from '../errors.ts';
import { lazyLocalTools, loadLocalTools } from '../tools/lazy-local-tools.ts';
import { createSession } from '../tools/session.ts';
import { runWithin, toolSet } from '../tools/tool-set.ts';
import type { ToolsAround } from '../tool-host.ts';
import type { ApprovalDecision, ApprovalRequest, Approve } from '../guard/types.ts';
import { approveForCall, approveTakingCall } from '../guard/ask.ts';
import type { Tools, ToolsOptions } from '../tools/types.ts';
import { applyEntries } from './apply-entries.ts';
import { registerWrapper } from '../backend/wrapped-backends.ts';
import { notFitting } from './not-fitting.ts';
import { methodNames } from './backend-methods.ts';
import type { PersistentBackend, PersistOptions, RestoreStatus } from './persist-options.ts';
import { decodeRecord, decodeRecords, isEntryKey, snapshotOf } from './records.ts';
import type { WorkspaceStore } from './store.ts';

type OpenAsWriter = (
  backend: Backend,
  store: WorkspaceStore,
  options: PersistOptions,
  how: { inPlace: boolean },
) => Promise<{ backend: PersistentBackend; restored: RestoreStatus }>;

export async function openFollower(
  backend: Backend,
  store: WorkspaceStore,
  options: PersistOptions,
  held: string,
  openAsWriter: OpenAsWriter,
): Promise<{ backend: PersistentBackend; restored: RestoreStatus }> {
  let writer: PersistentBackend | null = null;
  let closed = false;
  let applying: Promise<void> = Promise.resolve();
  const report = (error: unknown) => options.onError?.(error instanceof Error ? error : new Error(String(error)));

  // Subscribed before reading, so no commit falls between the read and the first message.
  const unfollow = store.follow?.((keys) => {
    applying = applying.then(() => apply(keys)).catch(report);
  });

  async function apply(keys: string[]): Promise<void> {
    if (writer || closed) return;
    const entryKeys = keys.filter(isEntryKey);
    // Latest values, whatever commits came between.
    const values = (await store.readKeys?.(entryKeys)) ?? new Map<string, Uint8Array>();
    const entries = [...values].map(([k, v]) => decodeRecord(k, v));
    const bad = entries.find((e) => typeof e === 'string');
    if (bad !== undefined) throw new Error(`agentvfs/persist: a change from the tab that holds the workspace was not applied: ${bad}`);
    const removals = entryKeys.filter((k) => !values.has(k)).map((k) => ({ path: k.slice(2), dir: k.startsWith('d:') }));
    await applyEntries(backend, entries as Exclude<(typeof entries)[number], string>[], removals);
  }

  let restored: RestoreStatus = { status: 'empty' };
  const all = await store.readAll();
  if ([...all.keys()].some(isEntryKey) || all.has('meta')) {
    const decoded = decodeRecords(all);
    if ('problem' in decoded) restored = { status: 'corrupt', reason: `agentvfs/persist: the stored workspace was not opened: ${decoded.problem}` };
    else {
      try {
        await backend.restore(snapshotOf(decoded.entries), { copy: false }); // bytes made here: adopted, not copied again
        restored = { status: 'restored', bytes: decoded.entries.reduce((n, e) => n + (e.content?.length ?? 0), 0) };
      } catch (error) {
        // As a writer opening it: a sound workspace over this backend's limits is refused, not reported corrupt.
        const refused = notFitting(decoded.entries.length, error);
        if (refused || !isVfsError(error)) {
          unfollow?.();
          throw refused ?? error;
        }
        restored = { status: 'corrupt', reason: `agentvfs/persist: the stored workspace was not opened: ${error.message}` };
      }
    }
  }

  // The holder closes: take over, from what the store holds then. `opening` is the takeover once
  // the claim is granted, which close() lets finish (and then closes what it opened).
  let opening: Promise<void> | null = null;
  let tookOver: (writable: boolean) => void = () => {};
  const whenWritable = new Promise<boolean>((resolve) => {
    tookOver = resolve;
  });
  void Promise.resolve(store.claim?.({ wait: true }))
    .then((claimed) => {
      if (!claimed || closed) return;
      opening = (async () => {
        unfollow?.();
        await applying;
        // In place: what did not change keeps its version, so reads made while following stay current.
        writer = (await openAsWriter(backend, store, options, { inPlace: true })).backend;
      })();
      return opening;
    })
    .catch(async (error: unknown) => {
      report(error);
      await store.close?.(); // gives the claim back: another tab may write
    })
    .finally(() => tookOver(writer !== null && !closed));

  const refuse = () =>
    Promise.reject(
      closed
        ? new WorkspaceClosedError()
        : new WorkspaceHeldError(
            `agentvfs/persist: ${held}; this tab follows its changes and cannot write. Write there, or close it: this tab then takes over.`,
          ),
    );
  const wrapped = Object.create(null) as PersistentBackend;
  for (const name of methodNames(backend)) {
    if (name === 'createToolSession') continue;
    const call = (...args: unknown[]) => ((writer ?? backend) as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!(...args);
    (wrapped as unknown as Record<string, unknown>)[name] = backendCall(name)?.mutates
      ? (...args: unknown[]) => (writer && !closed ? call(...args) : refuse())
      : call;
  }
  registerWrapper(wrapped, backend); // the writer it becomes wraps this same backend
  Object.defineProperties(wrapped, {
    writable: { get: () => writer !== null && !closed },
    whenWritable: { value: whenWritable },
    lastError: { get: () => writer?.lastError ?? null },
    flush: { value: () => writer?.flush() ?? Promise.resolve() },
    close: {
      value: async () => {
        closed = true;
        unfollow?.();
        tookOver(false); // (no change if it took over before)
        await (opening as Promise<void> | null)?.catch(() => {}); // a takeover under way: close what it opens
        if (writer) return writer.close();
        (backend as { close?: () => unknown }).close?.();
        await store.close?.();
      },
    },
    ready: { get: () => (backend as { ready?: Promise<void> }).ready ?? Promise.resolve() },
    createToolSession: {
      value(toolOptions: ToolsOptions, around?: ToolsAround): Tools<string> {
        // While following, over this wrapper (a write is refused as a method's is); once writing, the
        // writer's own tools (saved per call, tool-saves.ts). One session: the reads made while following
        // count (the writer's tools run here too, `here`: a worker would not know them); one "always";
        // and createTools audits both as one tool set.
        const approve = toolOptions.approve && rememberingAlways(toolOptions.approve);
        const options = { ...toolOptions, session: toolOptions.session ?? createSession(), ...(approve ? { approve } : {}) };
        const following = lazyLocalTools(wrapped, options, around);
        let writing: Tools<string> | null = null;
        // Which tools run a call is decided once they are loaded: a takeover while they load (a
        // page's first call) gives the call to the writer's tools, which save what it changes.
        const current = () => (writer && !closed ? (writing ??= writer.createToolSession(options, around, true)) : following);
        return toolSet(
          following.definitions,
          (name, args, call) => loadLocalTools().then(() => runWithin(current(), name, args, call)),
          (name, args, options) => loadLocalTools().then(() => current().preview(name, args, options)),
        );
      },
    },
  });
  return { backend: wrapped, restored };
}

/**
 * `approve`, answering "always" itself once the person has: the writer's tool set after a
 * takeover has a guard of its own (in a worker, for a worker's backend), which must not ask again.
 */
function rememberingAlways(approve: Approve): Approve {
  let always = false;
  // As askApproval reads it: a changed content is an edit, whatever `always` says; and an answer
  // that came after the call was cancelled counts for nothing.
  const remember = (answer: unknown, request: ApprovalRequest) => {
    const a = answer as { allow?: unknown; always?: unknown; content?: unknown; cancelled?: unknown } | null;
    if (a?.allow === true && a.always === true && a.content === undefined && !request.signal?.aborted) always = true;
    return answer;
  };
  const ALWAYS = { allow: true, always: true } as const;
  // In a worker, approve asks the caller's side, told the call (where its signal is): so must this.
  const forCall = approveTakingCall(approve);
  if (forCall) return approveForCall(async (request, call) => (always ? ALWAYS : remember(await forCall(request, call), request)));
  return async (request) => (always ? ALWAYS : (remember(await approve(request), request) as ApprovalDecision));
}
