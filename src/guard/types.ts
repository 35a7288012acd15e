/**
 * Public types of the guard: which paths a tool set may read and write, the question asked
 * before each write, the person's answer, and the audit event after each call (SPEC §10).
 * Types only, and no imports from the tools, so both sides can use them without a cycle.
 */
import type { AbortSignalLike } from '../abort-signal.ts';
import type { VfsErrorCode } from '../errors.ts';

/** Globs of absolute paths (picomatch, dotfiles included). An absent list allows every path. */
export interface Permissions {
  /** Paths the tools may read, list and find; anything else is EACCES and never shows in a result. */
  read?: readonly string[] | undefined;
  /** Paths the tools may create, write, edit, remove or rename; anything else is EACCES. */
  write?: readonly string[] | undefined;
}

/** What approve() is asked before one file is written (or removed). */
export interface ApprovalRequest {
  /** The tool call that wants to write. */
  tool: string;
  args: Record<string, unknown>;
  /** The file that would be written, absolute. */
  path: string;
  /** Unified diff of exactly what would be written (for a new file, its whole content as + lines). */
  diff: string;
  /** The file does not exist yet. */
  created: boolean;
  /** What happens to the file: its content is written, or it is removed (then `diff` is all - lines). */
  action: 'write' | 'remove';
  /** Present when a directory is created or removed: it has no content, and `diff` names it on a line (`new directory P`). */
  directory?: true;
  /** Present for a move (a rename): the path moved from; `path` is where it goes. */
  from?: string;
  /** The proposed content (absent for a removal and for binary content), e.g. to prefill an editor. */
  content?: string;
  /**
   * Present when the call was made with a signal (RunOptions; the adapters pass the framework's):
   * it aborts when the call is cancelled, and the answer no longer counts (nothing is written):
   * close the question then.
   */
  signal?: AbortSignalLike;
}

/**
 * The answer: allow once; allow and stop asking this tool set; allow with the content a
 * person changed (written instead, the model is told and must read it before editing it);
 * or deny (EDENIED, the file is unchanged, `reason` is shown to the model).
 */
export type ApprovalDecision = { allow: true; always?: boolean | undefined; content?: string | undefined } | { allow: false; reason?: string | undefined };

export type Approve = (request: ApprovalRequest) => ApprovalDecision | Promise<ApprovalDecision>;

/**
 * How a call's writes were decided, in one word: `deny` if any write was refused, else `edit`
 * if a person changed a content, else `always` if a write went ahead without asking (after an
 * earlier "always") or was answered with `always`, else `allow`. Absent when the call asked nothing.
 */
export type Decision = 'allow' | 'always' | 'edit' | 'deny';

/** One finished tool call, for an audit trail. */
export interface ToolEvent {
  /** 1, 2, 3, … in the order the calls finished (the order events are delivered). */
  seq: number;
  tool: string;
  /** The arguments as the caller passed them. */
  args: unknown;
  ok: boolean;
  /** The failure's VfsError code, when there is one. */
  code?: VfsErrorCode;
  /** Every file the call wrote, with its new version. */
  changed: Array<{ path: string; version: number }>;
  decision?: Decision;
  /** Wall-clock duration of the call, questions included, in milliseconds. */
  ms: number;
}

export type OnEvent = (event: ToolEvent) => void;

/** The guard's options, as createTools takes them. */
export interface GuardOptions {
  permissions?: Permissions | undefined;
  approve?: Approve | undefined;
  onEvent?: OnEvent | undefined;
}
