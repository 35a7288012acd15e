/**
 * Puts one question to approve() and turns the answer into a decision, or EDENIED. A callback
 * that throws, or answers something that is not a decision, denies: nothing is written
 * without a clear yes.
 */
import type { AbortSignalLike } from '../abort-signal.ts';
import { VfsError } from '../errors.ts';
import { cancelledError } from '../tools/cancel.ts';
import type { ApprovalRequest, Approve, Decision } from './types.ts';

export interface Asked {
  decision: Exclude<Decision, 'deny'>;
  /** The content a person put in place of the proposed one. */
  replacement?: string;
  /** With a replacement: later writes of the tool set are not asked either. */
  always?: boolean;
}

/**
 * The call a question is asked for: its caller's signal where the call was made (in process), or
 * its number where it runs in a worker, for the caller's side to find the signal (approveThrough).
 */
export interface AskingCall {
  readonly n?: number;
  readonly signal?: AbortSignalLike;
}

/** What a question answers when its call was cancelled while it was open: nothing is written. */
const CANCELLED = Object.freeze({ allow: false, cancelled: true });

/** An approve() that asks on the caller's side of a worker, told the call's number (approve-port.ts). */
export type ApproveForCall = (request: ApprovalRequest, call: number | undefined) => Promise<unknown>;

const forCall = new WeakSet<object>();

/** `approve`, marked as one that takes the call's number (and answers CANCELLED itself): passed where an Approve goes. */
export function approveForCall(approve: ApproveForCall): Approve {
  forCall.add(approve);
  return approve as unknown as Approve;
}

function isForCall(approve: Approve | ApproveForCall): approve is ApproveForCall {
  return forCall.has(approve);
}

/** `approve` as the ApproveForCall it is, or undefined for a caller's own approve (a wrapper must keep the kind). */
export function approveTakingCall(approve: Approve): ApproveForCall | undefined {
  return isForCall(approve) ? approve : undefined;
}

/**
 * approve(request) with the call's signal on the request: CANCELLED if the signal aborts before
 * the answer comes (the answer is then ignored), or had aborted before the question.
 */
export async function answerUnlessCancelled(approve: Approve, request: ApprovalRequest, signal: AbortSignalLike | undefined): Promise<unknown> {
  if (signal === undefined) return approve(request);
  if (signal.aborted) return CANCELLED;
  let cancel = () => {};
  const cancelled = new Promise<unknown>((resolve) => (cancel = () => resolve(CANCELLED)));
  signal.addEventListener('abort', cancel, { once: true });
  try {
    const answer = await Promise.race([Promise.resolve().then(() => approve({ ...request, signal })), cancelled]);
    return signal.aborted ? CANCELLED : answer;
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}

/** `unchanged`: what a refusal says was left as it was, when not the request's own (a batch of several files: none was changed). */
export async function askApproval(approve: Approve, request: ApprovalRequest, call: AskingCall = {}, unchanged?: string): Promise<Asked> {
  let answer: unknown;
  try {
    if (isForCall(approve)) {
      answer = await approve(request, call.n);
      // (A copy of CANCELLED, from the caller's side of the worker.)
      if ((answer as { cancelled?: unknown } | null)?.cancelled === true) answer = CANCELLED;
    } else {
      answer = await answerUnlessCancelled(approve, request, call.signal);
    }
  } catch (error) {
    if (call.signal?.aborted) answer = CANCELLED;
    else throw approvalFailed(request, error, unchanged);
  }
  const { subject, unchanged: itself } = wording(request);
  unchanged ??= itself;
  if (answer === CANCELLED) throw cancelledError(request.path, subject, unchanged);
  let a: { allow?: unknown; always?: unknown; content?: unknown; reason?: unknown } | null;
  try {
    // Read once, here: an answer whose fields throw when read (a getter, a revoked proxy) is a failed step too.
    const { allow, always, content, reason } = (answer ?? {}) as { allow?: unknown; always?: unknown; content?: unknown; reason?: unknown };
    a = answer === null || answer === undefined ? null : { allow, always, content, reason };
  } catch (error) {
    throw approvalFailed(request, error, unchanged);
  }
  if (a?.allow === true) {
    if (a.always !== undefined && typeof a.always !== 'boolean') return invalid(request, answer, unchanged);
    if (typeof a.content === 'string') return { decision: 'edit', replacement: a.content, ...(a.always === true ? { always: true } : {}) };
    if (a.content !== undefined) return invalid(request, answer, unchanged);
    return { decision: a.always === true ? 'always' : 'allow' };
  }
  if (a?.allow !== false) return invalid(request, answer, unchanged);
  const reason = typeof a.reason === 'string' && a.reason.trim() !== '' ? a.reason.trim() : null;
  throw new VfsError(
    'EDENIED',
    reason === null
      ? `The user denied the ${subject}. ${unchanged} Do not retry the same change; ask the user what they want instead.`
      : `The user denied the ${subject}: "${reason}". ${unchanged} Take the reason into account before trying again.`,
    { path: request.path },
  );
}

/** How a refusal names what was asked: a file's write or removal, a directory's creation or removal, a move. */
function wording(request: ApprovalRequest): { subject: string; unchanged: string } {
  if (request.from !== undefined) return { subject: `move of ${request.from} to ${request.path}`, unchanged: 'Nothing was moved.' };
  const of = `of ${request.path}`;
  if (request.directory === true) return { subject: `${request.action === 'remove' ? 'removal' : 'creation'} ${of}`, unchanged: 'Nothing was changed.' };
  return { subject: `${request.action === 'remove' ? 'removal' : 'write'} ${of}`, unchanged: 'The file is unchanged.' };
}

function approvalFailed(request: ApprovalRequest, error: unknown, instead?: string): VfsError {
  const message = error instanceof Error ? error.message : String(error);
  const { subject, unchanged: itself } = wording(request);
  const unchanged = instead ?? itself;
  return new VfsError('EDENIED', `The ${subject} could not be approved (the approval step failed: ${message}). ${unchanged}`, {
    path: request.path,
  });
}

function invalid(request: ApprovalRequest, answer: unknown, unchanged: string): never {
  const { subject } = wording(request);
  throw new VfsError(
    'EDENIED',
    `The ${subject} was not approved: approve() answered ${shown(answer)}, which is none of { allow: true }, { allow: true, always: true }, { allow: true, content }, { allow: false, reason }. ${unchanged}`,
    { path: request.path },
  );
}

/** The answer as JSON, or as a string when it has no JSON form (a cycle, a getter that throws). */
function shown(answer: unknown): string {
  try {
    return JSON.stringify(answer) ?? String(answer);
  } catch {
    try {
      return Object.prototype.toString.call(answer);
    } catch {
      return 'a value that cannot be shown';
    }
  }
}
