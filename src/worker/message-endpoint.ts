/**
 * The structural endpoint Comlink talks through: postMessage plus message listeners (a Web
 * Worker, a worker's `self`, a MessagePort). Declared here rather than imported from comlink,
 * which is bundled into dist/ and not installed with the package: a shipped type that named
 * it would not compile for a consumer.
 */
export interface MessageEndpoint {
  postMessage(message: unknown, transfer?: unknown[]): void;
  addEventListener(type: string, listener: (event: { data: unknown }) => void, options?: object): void;
  removeEventListener(type: string, listener: (event: { data: unknown }) => void, options?: object): void;
  start?: () => void;
}
