// The few web-standard globals the core relies on. Node >= 20, browsers and
// workerd all provide them; declared here so the core never pulls in DOM types.
declare class TextEncoder {
  encode(input?: string): Uint8Array;
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}
declare class URL {
  constructor(url: string, base?: string | URL);
  readonly href: string;
  readonly pathname: string;
}
declare function setTimeout(callback: () => void, ms?: number): unknown;
declare function clearTimeout(handle: unknown): void;
/** The client asks it whether a value can be sent to its worker (agentvfs/client). */
declare function structuredClone<T>(value: T): T;
interface ImportMeta {
  readonly url: string;
}
/** A fork served by a worker talks over its own channel (agentvfs/client). */
interface MessagePort {
  postMessage(message: unknown, transfer?: unknown[]): void;
  close(): void;
}
declare class MessageChannel {
  readonly port1: MessagePort;
  readonly port2: MessagePort;
}
/** What a call's cancellation needs of the web-standard AbortSignal (tools.run's `signal`). */
interface AbortSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}
declare class AbortController {
  readonly signal: AbortSignal;
  abort(): void;
}
