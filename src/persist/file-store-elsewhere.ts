/**
 * `createFileStore` and `readWorkspaceFile` where there is no Node file system (a browser,
 * workerd): `agentvfs/persist` exports them everywhere, as SPEC §12 lists them, and Node's build
 * of it (the "node" export condition, node/persist.ts) has the real ones (node/file-store.ts).
 * Here they say so, and what to use instead.
 */
import type { FileStore } from './store.ts';

function needsNode(call: string): Error {
  return new Error(
    `agentvfs/persist: ${call} needs Node's file system, and this build of agentvfs/persist was loaded without ` +
      'the "node" export condition (a browser or a worker build). In a browser use createIndexedDBStore(), on ' +
      "Cloudflare createDurableObjectStore(ctx.storage); in Node import from 'agentvfs/persist' or 'agentvfs/persist/node'.",
  );
}

/** The workspace store in one append-only file at `path` (Node only; see docs/persistence.md). */
export function createFileStore(path: string): FileStore {
  throw needsNode(`createFileStore(${JSON.stringify(path)})`);
}

/** The workspace the store file at `path` holds, as a snapshot, or null when there is no file (Node only). */
export function readWorkspaceFile(path: string): Uint8Array | null {
  throw needsNode(`readWorkspaceFile(${JSON.stringify(path)})`);
}
