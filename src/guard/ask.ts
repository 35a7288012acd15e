/**
 * Puts one question to approve() and turns the answer into a decision, or EDENIED. A callback
 * that throws, or answers something that is not a decision, denies: nothing is written
 * without a clear yes.
 */
import { VfsError } from '../errors.ts';
import type { ApprovalRequest, Approve, Decision } from './types.ts';

export interface Asked {
  decision: Exclude<Decision, 'deny'>;
  /** The content a person put in place of the proposed one. */
  replacement?: string;
}

export async function askApproval(approve: Approve, request: ApprovalRequest): Promise<Asked> {
  let answer: unknown;
  try {
    answer = await approve(request);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new VfsError('EDENIED', `The write of ${request.path} could not be approved (the approval step failed: ${message}). The file is unchanged.`, {
      path: request.path,
    });
  }
  const a = answer as { allow?: unknown; always?: unknown; content?: unknown; reason?: unknown } | null;
  if (a?.allow === true) {
    if (typeof a.content === 'string') return { decision: 'edit', replacement: a.content };
    if (a.content !== undefined) return invalid(request.path, answer);
    return { decision: a.always === true ? 'always' : 'allow' };
  }
  if (a?.allow !== false) return invalid(request.path, answer);
  const reason = typeof a.reason === 'string' && a.reason.trim() !== '' ? a.reason.trim() : null;
  const what = request.action === 'remove' ? 'removal' : 'write';
  throw new VfsError(
    'EDENIED',
    reason === null
      ? `The user denied the ${what} of ${request.path}. The file is unchanged. Do not retry the same change; ask the user what they want instead.`
      : `The user denied the ${what} of ${request.path}: "${reason}". The file is unchanged. Take the reason into account before trying again.`,
    { path: request.path },
  );
}

function invalid(path: string, answer: unknown): never {
  throw new VfsError(
    'EDENIED',
    `The write of ${path} was not approved: approve() answered ${JSON.stringify(answer) ?? String(answer)}, which is none of { allow: true }, { allow: true, always: true }, { allow: true, content }, { allow: false, reason }. The file is unchanged.`,
    { path },
  );
}
