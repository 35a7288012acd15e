/** What a dialect is: its definitions and its handlers (one file per dialect in this folder). */
import type { Backend } from '../../backend/types.ts';
import type { ToolDefinition } from '../definitions.ts';
import type { CallReads } from '../read-versions.ts';
import type { ArgsValidator, ToolHandler } from '../run-tool.ts';

/** What a dialect's handlers work with: the backend, and the read tracking of the session. */
export interface DialectContext {
  readonly backend: Backend;
  /**
   * Versions this session read or wrote (shared by every tool set made with the same `session`).
   * A tool that needs no prior read still passes `await reads.expected(backend, path)` as the
   * write's expectedVersion: undefined (never seen) checks nothing; a change since is ESTALE.
   */
  readonly reads: CallReads;
}

export interface Dialect<N extends string> {
  /** The definitions, with any description the caller overrides. */
  definitions(descriptions: Partial<Record<string, string>>): ToolDefinition<N>[];
  handlers(context: DialectContext): Record<N, ToolHandler>;
  /** Tools whose arguments a flat JSON Schema cannot check (one of two forms): their own check, instead of the schema's. */
  validators?: Partial<Record<N, ArgsValidator>>;
  /** Older tool names models still emit, each run as the tool it became (not shown in the definitions). */
  aliases?: Readonly<Record<string, N>>;
}
