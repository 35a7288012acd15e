/**
 * The text an edit left, for the lines its result shows. The file is read again after the edit:
 * another writer (the app, another session, a merge) may have changed it in between, and its
 * lines must not be shown as this edit's.
 */
import { statOrNull } from '../backend/stat-or-null.ts';
import type { Backend } from '../backend/types.ts';

/** The text of `path` at `version` (the edit's), or null when the file is no longer at that version. */
export async function editedText(backend: Backend, path: string, version: number): Promise<string | null> {
  const text = await backend.readText(path).catch(() => null);
  // (Read, then looked at: the edit's version after the read was the read's too, as a write only
  // moves a version on; only a rollback to a checkpoint made after this edit could bring it back.)
  return text !== null && (await statOrNull(backend, path))?.version === version ? text : null;
}

/** Said instead of the edited lines when another writer changed the file right after the edit. */
export function changedAfterEdit(path: string, read: string): string {
  return `${path} was changed again right after this edit, by another writer, so its lines are not shown here; ${read} to see what it holds now.`;
}
