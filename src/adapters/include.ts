/** The `include` option every adapter takes: which of the six tools to offer (default: all). */
import { TOOL_NAMES } from '../tools/definitions.ts';

/** The tool names to offer; throws a TypeError naming the tools for anything but an array of them. */
export function checkInclude(include: readonly string[] | undefined, subpath: string): Set<string> {
  if (include === undefined) return new Set(TOOL_NAMES);
  const known = (name: unknown) => (TOOL_NAMES as readonly unknown[]).includes(name);
  if (!Array.isArray(include)) throw new TypeError(`agentvfs/${subpath}: include must be an array of tool names (${TOOL_NAMES.join(', ')}).`);
  const unknown = include.filter((name) => !known(name));
  if (unknown.length > 0) {
    throw new TypeError(
      `agentvfs/${subpath}: include names unknown tools (${unknown.map((n) => JSON.stringify(n)).join(', ')}); the tools are ${TOOL_NAMES.join(', ')}.`,
    );
  }
  return new Set(include);
}
