/** The `include` option every adapter takes: which of the tool set's tools to offer (default: all). */
import { checkDescriptions } from '../tools/check-descriptions.ts';
import { TOOL_NAMES } from '../tools/definitions.ts';

/**
 * The tool names to offer, of the tool set's own `available` names (the six by default; a dialect's
 * tool set has its own); throws a TypeError naming the tools for anything but an array of them.
 */
function checkInclude(include: readonly string[] | undefined, subpath: string, available: readonly string[] = TOOL_NAMES): Set<string> {
  if (include === undefined) return new Set(available);
  const known = (name: unknown) => (available as readonly unknown[]).includes(name);
  if (!Array.isArray(include)) throw new TypeError(`agentvfs/${subpath}: include must be an array of tool names (${available.join(', ')}).`);
  const unknown = include.filter((name) => !known(name));
  if (unknown.length > 0) {
    throw new TypeError(
      `agentvfs/${subpath}: include names unknown tools (${unknown.map((n) => JSON.stringify(n)).join(', ')}); the tools are ${available.join(', ')}.`,
    );
  }
  return new Set(include);
}

/** The `include` and `descriptions` every adapter takes, checked against the tool set's names: the tools to offer. */
export function checkToolChoice(options: { include?: readonly string[]; descriptions?: unknown }, subpath: string, available: readonly string[]): Set<string> {
  checkDescriptions(options.descriptions, `agentvfs/${subpath}`, available);
  return checkInclude(options.include, subpath, available);
}
