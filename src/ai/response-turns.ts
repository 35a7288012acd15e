/**
 * Which model response an AI SDK tool call came in, as a CallTag turn, so that no call of a
 * response counts another's read (a read_file beside a write_file of one file): the model wrote
 * them all before any answered, even when the SDK runs them one after another
 * (`toolCallConcurrency: 1`).
 *
 * The SDK runs a step's calls with the messages that produced its response: one array per step,
 * made by the SDK. A turn is that array at that length (an app that hands the SDK one array it
 * keeps pushing to still gets a turn per length). Nothing is looked up by tool call id: providers
 * reuse ids (call_0 in every response). A call a person approved (`needsApproval`) runs in a later
 * generateText, with the caller's messages: it is a turn of its own with the calls approved with
 * it, and counts the reads its response made beside it (docs/workspaces.md).
 *
 * Turns are tokens: messages are never kept.
 */

const steps = new WeakMap<object, Map<number, object>>();

export function responseTurn(messages: unknown): { turn: object } | undefined {
  if (!Array.isArray(messages)) return undefined;
  let byLength = steps.get(messages);
  if (byLength === undefined) steps.set(messages, (byLength = new Map()));
  let turn = byLength.get(messages.length);
  if (turn === undefined) byLength.set(messages.length, (turn = {}));
  return { turn };
}
