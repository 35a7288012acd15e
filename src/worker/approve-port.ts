/**
 * approve() across a worker boundary: the caller's callback is served on one end of a
 * MessageChannel, and the worker calls it through the other, so the question runs on the
 * caller's side (where the person is) while the tools run in the worker.
 */
import type { AbortSignalLike } from '../abort-signal.ts';
import { expose as comlinkExpose, releaseProxy, wrap, type Endpoint } from 'comlink';
import type { ApprovalRequest, Approve } from '../guard/types.ts';
import { answerUnlessCancelled, approveForCall, type ApproveForCall } from '../guard/ask.ts';
import { toEndpoint } from './endpoint.ts';

/** A port a worker can call `approve` through; close it when the session ends. */
export interface ApprovePort {
  /** Goes to the worker (transfer it). */
  readonly remote: unknown;
  close(): void;
}

declare const MessageChannel: new () => { port1: ClosablePort; port2: unknown };
interface ClosablePort {
  close(): void;
  unref?: () => void;
}

/**
 * Caller's side: serves `approve` on a new channel. `signalOf` finds the signal of the call a
 * question is asked for, by its number, where the call was made: a cancelled call's question
 * answers CANCELLED (see answerUnlessCancelled).
 */
export function serveApprove(approve: Approve, signalOf: (call: number) => AbortSignalLike | undefined): ApprovePort {
  const { port1, port2 } = new MessageChannel();
  const answer = (request: ApprovalRequest, call: number | undefined) =>
    answerUnlessCancelled(approve, request, call === undefined ? undefined : signalOf(call));
  comlinkExpose(answer, toEndpoint(port1) as unknown as Endpoint);
  // Node: an open session must not keep the process alive; the pending tool call does while a question is open.
  port1.unref?.();
  return { remote: port2, close: () => port1.close() };
}

/** Worker's side: an approve that asks through `port` (told the call's number), and how to let the port go. */
export function approveThrough(port: unknown): { approve: Approve; release(): void } {
  const remote = wrap<ApproveForCall>(toEndpoint(port) as unknown as Endpoint);
  return {
    approve: approveForCall((request, call) => remote(request, call)),
    release() {
      remote[releaseProxy]();
      (port as { close?: () => void }).close?.();
    },
  };
}
