/**
 * What the rest of the package needs to know about each backend method and each tool, in one
 * place: persistence saves after what `mutates`, a worker re-indexes after what `writesFiles`,
 * moves the bytes of what `returnsBytes`, and the client forwards every method listed. Keyed by
 * `keyof Backend` and `ToolName` with `satisfies Record<…>`, so a method or tool added without an
 * entry does not compile (and calls.test.ts checks the table against the objects).
 */
import type { Backend } from './backend/types.ts';
import type { ToolName } from './tools/definitions.ts';

export interface BackendCallInfo {
  /** Changes the state a snapshot holds (files, directories, versions): persistence saves after it. */
  readonly mutates: boolean;
  /** May add or rewrite file bytes: some file may then lack a current search index. */
  readonly writesFiles: boolean;
  /** Its result holds Uint8Arrays made for the call, which a worker may move instead of copy. */
  readonly returnsBytes: boolean;
  /** Positions of the arguments that are paths. */
  readonly pathArgs: readonly number[];
}

const read = (...pathArgs: number[]): BackendCallInfo => ({ mutates: false, writesFiles: false, returnsBytes: false, pathArgs });
const readBytes = (...pathArgs: number[]): BackendCallInfo => ({ mutates: false, writesFiles: false, returnsBytes: true, pathArgs });
const write = (...pathArgs: number[]): BackendCallInfo => ({ mutates: true, writesFiles: true, returnsBytes: false, pathArgs });
// Mutations that add no file bytes (a directory, a removal): nothing new to index.
const structural = (...pathArgs: number[]): BackendCallInfo => ({ mutates: true, writesFiles: false, returnsBytes: false, pathArgs });

export const BACKEND_CALLS = {
  resolvePath: read(0),
  ls: read(0),
  stat: read(0),
  exists: read(0),
  readFile: readBytes(0),
  readText: read(0),
  read: readBytes(0),
  writeFile: write(0),
  edit: write(0),
  mkdir: structural(0),
  remove: structural(0),
  rename: write(0, 1),
  glob: read(),
  grep: read(),
  uploadFiles: write(),
  downloadFiles: readBytes(),
  prepareSearch: read(),
  snapshot: readBytes(),
  restore: write(),
  // Checkpoints live beside the state, not in a snapshot: recording or forgetting one saves nothing.
  checkpoint: read(),
  listCheckpoints: read(),
  rollback: write(),
  diff: read(),
  deleteCheckpoint: read(),
  // Not a request like the others: the listener stays on the caller's side (see RemoteBackend.watch).
  watch: read(),
  // The fork is a new backend; this one is unchanged.
  fork: read(),
  merge: write(),
} as const satisfies Record<keyof Backend, BackendCallInfo>;

export type BackendMethod = keyof typeof BACKEND_CALLS;

/** Every backend method, in table order. */
export const BACKEND_METHODS = Object.keys(BACKEND_CALLS) as BackendMethod[];

/** The table's entry for `name`, or undefined for a name that is no backend method. */
export function backendCall(name: unknown): BackendCallInfo | undefined {
  return typeof name === 'string' && Object.hasOwn(BACKEND_CALLS, name) ? BACKEND_CALLS[name as BackendMethod] : undefined;
}

export interface ToolCallInfo {
  /** Writes files (its result's `changed` may list them). */
  readonly mutates: boolean;
  /** The argument that names the file or directory the tool works on. */
  readonly pathArg: 'path';
}

export const TOOL_CALLS = {
  ls: { mutates: false, pathArg: 'path' },
  read_file: { mutates: false, pathArg: 'path' },
  write_file: { mutates: true, pathArg: 'path' },
  edit_file: { mutates: true, pathArg: 'path' },
  glob: { mutates: false, pathArg: 'path' },
  grep: { mutates: false, pathArg: 'path' },
} as const satisfies Record<ToolName, ToolCallInfo>;

/** The table's entry for tool `name`, or undefined for a name that is no tool. */
export function toolCall(name: unknown): ToolCallInfo | undefined {
  return typeof name === 'string' && Object.hasOwn(TOOL_CALLS, name) ? TOOL_CALLS[name as ToolName] : undefined;
}
