/**
 * approve() across a worker boundary: the caller's callback is served on one end of a
 * MessageChannel, and the worker calls it through the other, so the question runs on the
 * caller's side (where the person is) while the tools run in the worker.
 */
import { expose as comlinkExpose, releaseProxy, wrap, type Endpoint } from 'comlink';
import type { Approve } from '../guard/types.ts';
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

/** Caller's side: serves `approve` on a new channel. */
export function serveApprove(approve: Approve): ApprovePort {
  const { port1, port2 } = new MessageChannel();
  comlinkExpose((request: Parameters<Approve>[0]) => approve(request), toEndpoint(port1) as unknown as Endpoint);
  // Node: an open session must not keep the process alive; the pending tool call does while a question is open.
  port1.unref?.();
  return { remote: port2, close: () => port1.close() };
}

/** Worker's side: an Approve that asks through `port`, and how to let the port go. */
export function approveThrough(port: unknown): { approve: Approve; release(): void } {
  const remote = wrap<Approve>(toEndpoint(port) as unknown as Endpoint);
  return {
    approve: (request) => remote(request),
    release() {
      remote[releaseProxy]();
      (port as { close?: () => void }).close?.();
    },
  };
}
