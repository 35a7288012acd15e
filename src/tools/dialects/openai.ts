/**
 * The 'openai' dialect: `apply_patch`, the tool GPT-5 and Codex were trained on. It takes the
 * Responses API's `apply_patch_call.operation` ({ type, path, diff }) or a whole Codex patch
 * ({ input: '*** Begin Patch …' }). The definition carries `type: 'apply_patch'` for the
 * Responses API's built-in tool, and a JSON Schema of the Codex form for other models.
 */
import { isVfsError, VfsError } from '../../errors.ts';
import { applyHunks } from '../../patch/apply-patch.ts';
import { type Hunk, PatchParseError, parseCreateDiff, parsePatch, parseUpdateDiff } from '../../patch/parse.ts';
import { shown, type ToolArgs } from '../validate-args.ts';
import type { DialectToolName } from './names.ts';
import type { Dialect, DialectContext } from './types.ts';
import { openaiDefinitions } from './openai-definitions.ts';

type OpenaiToolName = DialectToolName<'openai'>;

const OPERATION_TYPES = ['create_file', 'update_file', 'delete_file'] as const;

/**
 * `{ input }` or `{ operation: { type, path, diff } }` (a JSON string of either works too), or the
 * patch itself: Codex offers apply_patch to GPT-5 as a freeform tool, whose input is the bare text.
 */
function validateApplyPatch(args: unknown): ToolArgs | string {
  if (typeof args === 'string') {
    if (/^\s*(\*\*\* Begin Patch|(apply_?patch\s+)?<<['"]?EOF)/.test(args)) return { input: args };
    try {
      args = JSON.parse(args);
    } catch {
      return 'arguments for apply_patch must be a JSON object or the patch text ("*** Begin Patch" … "*** End Patch"); got a string that is neither.';
    }
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return `arguments for apply_patch must be { input } or { operation: { type, path, diff } }, got ${Array.isArray(args) ? 'an array' : args === null ? 'null' : typeof args}.`;
  }
  const given = args as Record<string, unknown>;
  if (given.operation !== undefined && given.operation !== null) {
    // A whole Responses API apply_patch_call item (id, call_id, status, caller, …) may be passed as it is.
    const extra = given.type === 'apply_patch_call' ? [] : Object.keys(given).filter((k) => k !== 'operation');
    if (extra.length > 0)
      return `unknown argument "${extra[0]}" for apply_patch with an operation. Pass { operation: { type, path, diff } } alone, or the whole apply_patch_call item.`;
    return checkOperation(given.operation);
  }
  const extra = Object.keys(given).filter((k) => k !== 'input');
  if (extra.length > 0) return `unknown argument "${extra[0]}" for apply_patch. Valid arguments: input (the whole patch), or operation ({ type, path, diff }).`;
  if (typeof given.input !== 'string') {
    return given.input === undefined || given.input === null
      ? 'missing required argument "input" for apply_patch (the whole patch, from "*** Begin Patch" to "*** End Patch").'
      : `argument "input" of apply_patch must be a string, got ${shown(given.input, 100)}.`;
  }
  return { input: given.input };
}

function checkOperation(operation: unknown): ToolArgs | string {
  if (typeof operation !== 'object' || Array.isArray(operation)) return 'argument "operation" of apply_patch must be an object { type, path, diff }.';
  const op = operation as Record<string, unknown>;
  if (!(OPERATION_TYPES as readonly unknown[]).includes(op.type)) {
    return `argument "operation.type" of apply_patch must be one of ${OPERATION_TYPES.map((t) => `"${t}"`).join(', ')}, got ${shown(op.type, 60)}.`;
  }
  if (typeof op.path !== 'string') return `argument "operation.path" of apply_patch must be a string (the file's path), got ${shown(op.path, 60)}.`;
  if (op.type !== 'delete_file' && typeof op.diff !== 'string') {
    return `argument "operation.diff" of apply_patch must be a string for ${String(op.type)} (${op.type === 'create_file' ? 'the file\'s lines, each starting with "+"' : 'the @@ chunks of the change'}).`;
  }
  return { operation: { type: op.type, path: op.path, diff: typeof op.diff === 'string' ? op.diff : '' } };
}

interface Operation {
  type: (typeof OPERATION_TYPES)[number];
  path: string;
  diff: string;
}

/** The hunks of either form; a parse failure is an EINVAL that says where and what to fix. */
function hunksOf(args: ToolArgs): { hunks: Hunk[]; text: string } {
  const operation = args.operation as Operation | undefined;
  try {
    if (operation === undefined) {
      const input = args.input as string;
      return { hunks: parsePatch(input), text: input };
    }
    const { type, path, diff } = operation;
    if (type === 'delete_file') return { hunks: [{ type: 'delete', path }], text: diff };
    if (type === 'create_file') return { hunks: [{ type: 'add', path, contents: parseCreateDiff(diff) }], text: diff };
    return { hunks: [{ type: 'update', path, movePath: null, chunks: parseUpdateDiff(diff, path) }], text: diff };
  } catch (error) {
    if (!(error instanceof PatchParseError)) throw error;
    const where = error.lineNumber === undefined ? '' : ` on line ${error.lineNumber}`;
    const what =
      operation === undefined
        ? `Invalid patch${error.lineNumber === undefined ? '' : ' hunk'}${where}`
        : `Invalid ${operation.type} diff for ${operation.path}${where}`;
    const unified = /^(diff --git |--- |\+\+\+ )/m.test(operation === undefined ? (args.input as string) : operation.diff)
      ? " This looks like a unified diff: apply_patch takes its own format ('*** Update File: path', then @@ chunks of ' ', '-' and '+' lines, no line numbers)."
      : '';
    throw new VfsError('EINVAL', `${what}: ${error.message}.${unified} No file was changed; fix it and send the whole patch again.`);
  }
}

export const openai: Dialect<OpenaiToolName> = {
  definitions: openaiDefinitions,
  validators: { apply_patch: validateApplyPatch },
  handlers: ({ backend, reads }: DialectContext) => ({
    async apply_patch(args, changed) {
      const { hunks, text } = hunksOf(args);
      try {
        const source = { unit: args.operation === undefined ? 'patch' : 'diff', eol: text.includes('\r\n') ? '\r\n' : '\n' } as const;
        const { summary } = await applyHunks(backend, reads, hunks, source, changed);
        return summary;
      } catch (error) {
        // Whatever failed, the batch was never written: say so when the message does not.
        if (isVfsError(error) && !/No file was changed|Nothing was written|unchanged/.test(error.message)) {
          throw new VfsError(error.code, `${error.message} No file was changed.`, { path: error.path });
        }
        throw error;
      }
    },
  }),
};
