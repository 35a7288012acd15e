/**
 * What createTools does wherever its tools run: checks the options, numbers the session's calls
 * where the model's calls arrive (so a worker's session knows them too), and adds the audit.
 * Apart from create-tools.ts so the worker client's createTools can leave the in-process tools out.
 */
import type { Backend } from '../backend/types.ts';
import { withAudit } from '../guard/audit.ts';
import { DIALECT_TOOL_CALLS } from '../calls.ts';
import { isToolHost } from '../tool-host.ts';
import { checkOptionNames, optionNames } from '../option-names.ts';
import { checkDescriptions } from './check-descriptions.ts';
import { describeTarget, isBackend } from './check-backend.ts';
import { checkDialect, type DialectName, type DialectToolName } from './dialects/names.ts';
import { readScopeOf } from '../backend/wrapped-backends.ts';
import { checkSession, type ToolSession } from './session.ts';
import { sessionCallNumbers } from './session-state.ts';
import { runWithin, toolSet } from './tool-set.ts';
import { callOptions, cancelledResult } from './cancel.ts';
import { previewOptions } from './preview-options.ts';
import { isNumberedCall } from './read-versions.ts';
import type { Tools, ToolsOptions } from './types.ts';

const TOOLS_OPTIONS = optionNames<ToolsOptions>({ dialect: true, session: true, descriptions: true, permissions: true, approve: true, onEvent: true });

// The backends (version families) whose reads each session tracks.
const sessionScopes = new WeakMap<ToolSession, object>();

/**
 * A session tracks reads by path and version, and two unrelated backends can both hold a /x at
 * version 2: used with a second one, a read of one would let a write overwrite the other's unread
 * file. A backend and its forks share versions, so they may share a session.
 */
function bindSession(session: ToolSession | undefined, backend: Backend): void {
  if (session === undefined) return;
  const scope = readScopeOf(backend);
  const bound = sessionScopes.get(session);
  if (bound === undefined) sessionScopes.set(session, scope);
  else if (bound !== scope) {
    throw new TypeError(
      'agentvfs: createTools: this session already tracks the reads of another backend, and a file read there is not read here. Make one session per backend with createSession() (a backend and its forks may share one).',
    );
  }
}

/** The tools of a backend that does not run them itself (see ToolHost), made in this realm. */
export type ToolsHere = (backend: Backend, options: ToolsOptions) => Tools<string>;

export function numberedTools<D extends DialectName>(backend: Backend, options: ToolsOptions<D>, here: ToolsHere): Tools<DialectToolName<D>> {
  // Bad options fail here, the same way wherever the tools run.
  if (!isBackend(backend)) {
    throw new TypeError(
      `agentvfs: createTools expects a backend (createStateBackend(), or connect(worker) from agentvfs/client); got ${describeTarget(backend)}.`,
    );
  }
  checkOptionNames(options, TOOLS_OPTIONS, 'agentvfs: createTools');
  checkDescriptions(options.descriptions, 'agentvfs', Object.keys(DIALECT_TOOL_CALLS[checkDialect(options.dialect)]));
  bindSession(checkSession(options.session), backend);
  // A remote backend runs the tools where it lives (one round trip per call, session kept there).
  const made = isToolHost(backend) ? backend.createToolSession(options) : here(backend, options);
  const numbers = sessionCallNumbers(options.session);
  const session = toolSet(
    made.definitions,
    async (name, args, tag) => {
      if (isNumberedCall(tag)) return runWithin(made, name, args, tag);
      const { turn, signal } = callOptions(tag);
      if (signal?.aborted) return cancelledResult();
      return numbers.run((context) => runWithin(made, name, args, context), turn, signal);
    },
    async (name, args, options) => {
      // A tool host written before previews existed has none to give.
      if (typeof made.preview !== 'function') throw new TypeError('this backend runs its own tool sessions (ToolHost), and they have no preview().');
      return made.preview(name, args, previewOptions(options));
    },
  );
  // The one audit of a tool set, wherever its calls run: a host's session leaves each call's decision on its result.
  return (options.permissions || options.approve || options.onEvent ? withAudit(session, options.onEvent) : session) as Tools<DialectToolName<D>>;
}
