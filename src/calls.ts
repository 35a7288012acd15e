/**
 * What the rest of the package needs to know about each backend method and each tool, in one
 * place: persistence saves after what `mutates`, a worker re-indexes after what `writesFiles`,
 * moves the bytes of what `returnsBytes`, and the client forwards every method listed. Keyed by
 * `keyof Backend` and `ToolName` with `satisfies Record<…>`, so a method or tool added without an
 * entry does not compile (and calls.test.ts checks the table against the objects).
 */
import type { Backend } from './backend/types.ts';
import type { ToolName } from './tools/definitions.ts';
import type { DialectName, DialectToolName } from './tools/dialects/names.ts';

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
  applyBatch: write(),
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
  /** The argument that names the file or directory the tool works on (null: the paths are inside the arguments, as in a patch). */
  readonly pathArg: 'path' | 'file_path' | 'dir_path' | 'include' | 'paths' | 'source' | null;
  /** For a tool of several commands (`command` argument): the ones that only read. */
  readonly readCommands?: readonly string[];
  /** An argument that, when true, makes the call show what it would write and write nothing. */
  readonly previewArg?: 'dryRun';
  /** A writer that, repeated with the same arguments, changes nothing more (MCP's idempotentHint). */
  readonly idempotent?: true;
  /** A writer that never replaces or removes what exists (MCP's destructiveHint: false). */
  readonly additive?: true;
  /**
   * A writer whose call carries the file's whole new content (not a change to what is there): run
   * again after another write of the file, it would overwrite that write's change.
   */
  readonly wholeContent?: true;
}

export const TOOL_CALLS = {
  ls: { mutates: false, pathArg: 'path' },
  read_file: { mutates: false, pathArg: 'path' },
  write_file: { mutates: true, pathArg: 'path', idempotent: true, wholeContent: true },
  edit_file: { mutates: true, pathArg: 'path' },
  glob: { mutates: false, pathArg: 'path' },
  grep: { mutates: false, pathArg: 'path' },
} as const satisfies Record<ToolName, ToolCallInfo>;

/** The same for every dialect's tools (TOOL_CALLS is the default dialect's). */
export const DIALECT_TOOL_CALLS = {
  agentvfs: TOOL_CALLS,
  // The files it changes are named inside the patch, not by one argument.
  openai: { apply_patch: { mutates: true, pathArg: null } },
  anthropic: {
    str_replace_based_edit_tool: { mutates: true, pathArg: 'path', readCommands: ['view'] },
    memory: { mutates: true, pathArg: 'path', readCommands: ['view'] },
  },
  gemini: {
    read_file: { mutates: false, pathArg: 'file_path' },
    write_file: { mutates: true, pathArg: 'file_path', idempotent: true, wholeContent: true },
    replace: { mutates: true, pathArg: 'file_path' },
    glob: { mutates: false, pathArg: 'dir_path' },
    grep_search: { mutates: false, pathArg: 'dir_path' },
    list_directory: { mutates: false, pathArg: 'dir_path' },
    read_many_files: { mutates: false, pathArg: 'include' },
  },
  'mcp-filesystem': {
    read_text_file: { mutates: false, pathArg: 'path' },
    read_multiple_files: { mutates: false, pathArg: 'paths' },
    // Hints as the reference server gives them (src/filesystem/index.ts).
    write_file: { mutates: true, pathArg: 'path', idempotent: true, wholeContent: true },
    edit_file: { mutates: true, pathArg: 'path', previewArg: 'dryRun' },
    create_directory: { mutates: true, pathArg: 'path', idempotent: true, additive: true },
    list_directory: { mutates: false, pathArg: 'path' },
    list_directory_with_sizes: { mutates: false, pathArg: 'path' },
    read_media_file: { mutates: false, pathArg: 'path' },
    directory_tree: { mutates: false, pathArg: 'path' },
    move_file: { mutates: true, pathArg: 'source' },
    search_files: { mutates: false, pathArg: 'path' },
    get_file_info: { mutates: false, pathArg: 'path' },
  },
} as const satisfies { readonly [D in DialectName]: Record<DialectToolName<D>, ToolCallInfo> };

/** The table's entry for tool `name` of `dialect` (default 'agentvfs'), or undefined for a name that is no such tool. */
export function toolCall(name: unknown, dialect: unknown = 'agentvfs'): ToolCallInfo | undefined {
  if (typeof dialect !== 'string' || !Object.hasOwn(DIALECT_TOOL_CALLS, dialect)) return undefined;
  const table: Readonly<Record<string, ToolCallInfo>> = DIALECT_TOOL_CALLS[dialect as DialectName];
  return typeof name === 'string' && Object.hasOwn(table, name) ? table[name] : undefined;
}

/**
 * The entry for tool `name` in whichever dialect has it (the default's first): for a tool set whose
 * dialect is not known, as an adapter gets it. A name several dialects share means the same there,
 * but for a preview argument one of them takes (mcp-filesystem's edit_file dryRun): it counts, as
 * the others refuse an argument they do not take.
 */
export function toolCallOfAnyDialect(name: unknown): ToolCallInfo | undefined {
  let found: ToolCallInfo | undefined;
  for (const dialect of Object.keys(DIALECT_TOOL_CALLS)) {
    const info = toolCall(name, dialect);
    if (info === undefined) continue;
    found ??= info;
    if (info.previewArg !== undefined && found.previewArg === undefined) found = { ...found, previewArg: info.previewArg };
  }
  return found;
}

/** Whether this call of a tool may write: false for a read-only tool, a read-only command of one with several, or a preview (dryRun). */
export function callMayWrite(info: ToolCallInfo | undefined, args: unknown): boolean {
  if (info === undefined) return true;
  if (!info.mutates) return false;
  const given = (args ?? {}) as Record<string, unknown>;
  if (info.previewArg !== undefined && given[info.previewArg] === true) return false;
  const command = given.command;
  return !(typeof command === 'string' && info.readCommands?.includes(command));
}
