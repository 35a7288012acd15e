/**
 * agentvfs/persist/node — the workspace store for Node: one append-only file.
 *
 * @example
 * import { createStateBackend } from 'agentvfs';
 * import { openPersistent } from 'agentvfs/persist';
 * import { createFileStore } from 'agentvfs/persist/node';
 * const { backend } = await openPersistent(createStateBackend(), createFileStore('.agentvfs/workspace.log'), { durability: 'immediate' });
 */
export type { FileStore } from '../store.ts';
export { createFileStore, readWorkspaceFile } from './file-store.ts';
