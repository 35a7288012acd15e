/**
 * The AbortSignal in agentvfs's types. The shipped declarations may not name the global
 * `AbortSignal`: a project compiled without DOM or Node types (lib es2022 alone) has none.
 */

/** What agentvfs needs of a signal (and all it promises of one it hands back): any web-standard AbortSignal fits. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}
