// Minimal declarations of the workerd-only modules the tests under test/workerd/pool use,
// so they typecheck with the repository's Node-typed test config (tsconfig.test.json).
declare module 'cloudflare:workers' {
  export const env: {
    SESSIONS: {
      idFromName(name: string): unknown;
      get(id: unknown): import('./pool/example-api.ts').SessionStub;
    };
  };
  export const exports: { default: { fetch(input: string | Request, init?: RequestInit): Promise<Response> } };
}

declare module 'cloudflare:test' {
  export function runInDurableObject<R>(
    stub: unknown,
    callback: (instance: unknown, state: { storage: import('./pool/example-api.ts').Storage }) => R | Promise<R>,
  ): Promise<R>;
  export function abortAllDurableObjects(): Promise<void>;
  export function listDurableObjectIds(namespace: unknown): Promise<unknown[]>;
}
