/**
 * The one place a tool call meets the guard, whatever the dialect: the call's handler runs over
 * a guarded view of the backend made for this call (so a question names the call), then the
 * model is told what a person changed, the session forgets the files it must read again, and
 * the result carries the call's decision for the audit (withAudit takes it off).
 */
import type { Backend } from '../backend/types.ts';
import { capResult } from '../tools/limit-output.ts';
import type { ToolResult } from '../tools/types.ts';
import type { DecidedResult } from './audit.ts';
import { guardCall } from './guarded-backend.ts';
import type { GuardSession } from './session.ts';
import type { AskingCall } from './ask.ts';

export async function runGuarded(
  guard: GuardSession | undefined,
  backend: Backend,
  tool: string,
  args: Record<string, unknown>,
  reads: { forget(path: string): void },
  run: (backend: Backend) => Promise<ToolResult>,
  asking?: AskingCall,
): Promise<DecidedResult> {
  if (guard === undefined) return run(backend);
  const call = guardCall(backend, guard, tool, args, asking);
  const result = await run(call.backend);
  for (const path of call.unread) reads.forget(path);
  // Even after a failure: a file a person changed was written, and the model must know.
  const told = call.notes.length === 0 ? result : { ...result, text: capResult(`${result.text}\n${call.notes.join('\n')}`) };
  // A cancelled call was not decided, though a person may have allowed some of its files.
  const decision = result.code === 'ECANCELED' ? undefined : call.decision();
  return decision === undefined ? told : { ...told, decision };
}
