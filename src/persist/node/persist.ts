/**
 * agentvfs/persist as Node loads it (the "node" export condition): everything the portable build
 * has, with the real `createFileStore` and `readWorkspaceFile` in place of the ones that say they
 * need Node (an explicit export wins over `export *`).
 */
export * from '../index.ts';
export { createFileStore, readWorkspaceFile } from './file-store.ts';
