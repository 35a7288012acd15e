/**
 * Which model response an AI SDK tool call came in, as a CallTag turn, so that no call of a
 * response counts another's read (a read_file beside a write_file of one file): the model wrote
 * them all before any answered, even when the SDK runs them one after another
 * (`toolCallConcurrency: 1`) or runs one later, once a person approved it (`needsApproval`).
 *
 * - The SDK runs a response's calls with the messages that produced it: one array per step,
 *   made by the SDK. A turn is that array at that length (an app that hands the SDK one array
 *   it keeps pushing to still gets a turn per length).
 * - It runs an approved call at the start of a later generateText/streamText, with the caller's
 *   messages: their last message answers the approval, and the call has no result yet (the
 *   SDK's own test, collectToolApprovals). The call then joins the turn of the calls that came
 *   with it, named in the assistant message that asked for the approval.
 *
 * Turns are tokens (messages are never kept); the latest calls' turns are kept per tool set.
 */

type Part = { type?: unknown; toolCallId?: unknown; approvalId?: unknown; approved?: unknown };
type Message = { role?: unknown; content?: unknown };

const trackers = new WeakMap<object, (toolCallId: unknown, messages: unknown) => { turn: object } | undefined>();
const CALLS_KEPT = 1024;

/** The turn tracker of a tool set (shared by every aiSdkTools over it). */
export function responseTurns(tools: object): (toolCallId: unknown, messages: unknown) => { turn: object } | undefined {
  let tracker = trackers.get(tools);
  if (tracker === undefined) trackers.set(tools, (tracker = newTracker()));
  return tracker;
}

function newTracker(): (toolCallId: unknown, messages: unknown) => { turn: object } | undefined {
  const steps = new WeakMap<object, Map<number, object>>();
  const turnOfCall = new Map<string, object>();
  const stepTurn = (messages: readonly unknown[]): object => {
    let byLength = steps.get(messages);
    if (byLength === undefined) steps.set(messages, (byLength = new Map()));
    let turn = byLength.get(messages.length);
    if (turn === undefined) byLength.set(messages.length, (turn = {}));
    return turn;
  };
  return (toolCallId, messages) => {
    if (!Array.isArray(messages)) return undefined;
    const id = typeof toolCallId === 'string' ? toolCallId : undefined;
    const siblings = id === undefined ? [] : approvedCallSiblings(id, messages);
    const turn = siblings.map((sibling) => turnOfCall.get(sibling)).find((t) => t !== undefined) ?? stepTurn(messages);
    if (id !== undefined) {
      turnOfCall.delete(id);
      turnOfCall.set(id, turn);
      if (turnOfCall.size > CALLS_KEPT) turnOfCall.delete(turnOfCall.keys().next().value!);
    }
    return { turn };
  };
}

/**
 * When call `id` runs because a person approved it (the last message approves it and holds no
 * result for it), the other calls of the response that asked; else none.
 */
function approvedCallSiblings(id: string, messages: readonly unknown[]): string[] {
  const last = messages.at(-1) as Message | undefined;
  if (last?.role !== 'tool' || !Array.isArray(last.content)) return [];
  const answers = last.content as Part[];
  if (answers.some((p) => p?.type === 'tool-result' && p.toolCallId === id)) return [];
  const approved = new Set(answers.filter((p) => p?.type === 'tool-approval-response' && p.approved === true).map((p) => p.approvalId));
  if (approved.size === 0) return [];
  for (let i = messages.length - 2; i >= 0; i--) {
    const message = messages[i] as Message | null;
    if (message?.role !== 'assistant' || !Array.isArray(message.content)) continue;
    const parts = message.content as Part[];
    if (!parts.some((p) => p?.type === 'tool-approval-request' && p.toolCallId === id && approved.has(p.approvalId))) continue;
    return parts.flatMap((p) => (p?.type === 'tool-call' && typeof p.toolCallId === 'string' && p.toolCallId !== id ? [p.toolCallId] : []));
  }
  return [];
}
