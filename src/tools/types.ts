/** Public types of a tool set: what createTools returns and what one call resolves to. */
import type { AbortSignalLike } from '../abort-signal.ts';
import type { VfsErrorCode } from '../errors.ts';
import type { ApprovalRequest, GuardOptions } from '../guard/types.ts';
import type { ToolDefinition, ToolName } from './definitions.ts';
import type { DialectName, DialectToolName } from './dialects/names.ts';
import type { ToolSession } from './session.ts';

/** `permissions`, `approve` and `onEvent` (SPEC §10, docs/approval.md) come from GuardOptions. */
export interface ToolsOptions<D extends DialectName = DialectName> extends GuardOptions {
  /** Which model family's tools to build (docs/dialects.md). Default 'agentvfs' (the six tools). */
  dialect?: D | undefined;
  /** Share read tracking with every other tool set made with this session (from createSession()). Default: a session of its own. */
  session?: ToolSession | undefined;
  /** Replace some tool descriptions (the text the model reads). */
  descriptions?: { [K in DialectToolName<D>]?: string | undefined } | undefined;
}

/** A file a tool call wrote, at the version it left (-1: the call removed it, as apply_patch may). */
export interface FileChange {
  path: string;
  version: number;
}

/** Content of a tool result that is not text (an image or a document), base64 in `data`. */
export interface ToolPart {
  type: 'image' | 'file';
  mediaType: string;
  data: string;
}

/** One tool call, structured: plain data, so it crosses a worker boundary as it is. */
export interface ToolResult {
  /** Exactly what `call()` resolves to: the text the model should see. */
  text: string;
  /** The call failed (`text` starts with `Error:` and says why); nothing was written. */
  isError: boolean;
  /** The failure's VfsError code (`EINVAL` for an unknown tool or a bad argument); absent on success and on an unexpected failure. */
  code?: VfsErrorCode;
  /** Content that is not text, when the tool returns any. */
  parts?: ToolPart[];
  /** Every file the call wrote, with its new version; `[]` when none. */
  changed: FileChange[];
}

/** Options of one tool call. */
export interface RunOptions {
  /**
   * Cancels the call (a user pressed Stop, an MCP client sent notifications/cancelled): a call
   * cancelled before it starts, or while approve() is asked about its write, writes nothing and
   * resolves to an `ECANCELED` error; the question's `signal` aborts too, so the dialog can
   * close. A call past that point finishes (its write is one step) and its result stands.
   */
  signal?: AbortSignalLike | undefined;
}

/** One file or directory a call would write or remove, as approve() would be asked about it (without the question's signal). */
export type PreviewedChange = Omit<ApprovalRequest, 'signal'>;

/** What a tool call would change, found without changing anything (`Tools.preview`). */
export interface ToolPreview {
  /**
   * Each file or directory the call would write or remove, in the order approve() would be asked
   * about them (one per file of a patch), with the unified diff of exactly what would be written.
   * Empty when the call would change nothing: a call that only reads, or one that would fail.
   */
  changes: PreviewedChange[];
  /** The call would fail before writing anything: the `Error:` text (and code) `run` would answer now. */
  error?: { text: string; code?: VfsErrorCode };
}

/** Options of a preview. */
export interface PreviewOptions {
  /**
   * Calls that run before this one (earlier calls of the same model response, as the person
   * approved them): the preview is of the files as they leave them. Their own failures are theirs.
   */
  after?: ReadonlyArray<{ name: string; args?: unknown }> | undefined;
}

export interface Tools<N extends string = ToolName> {
  readonly definitions: ToolDefinition<N>[];
  /** Runs a tool; resolves to the exact text the model should see. Never rejects for tool-level failures. */
  call(name: string, args?: unknown, options?: RunOptions): Promise<string>;
  /** Runs a tool; resolves to its text plus whether it failed (and why) and which files it wrote. Never rejects for tool-level failures. */
  run(name: string, args?: unknown, options?: RunOptions): Promise<ToolResult>;
  /**
   * What `run(name, args)` would write if it ran now, without writing, asking or recording
   * anything: the diffs to show a person before the call runs, when the approval step is the
   * framework's own (the AI SDK's `toolApproval`, LangChain's human-in-the-loop interrupts).
   * The call runs on a copy-on-write fork, with this tool set's permissions and read tracking, so a
   * call that would fail says why instead. Never rejects for tool-level failures.
   */
  preview(name: string, args?: unknown, options?: PreviewOptions): Promise<ToolPreview>;
}
