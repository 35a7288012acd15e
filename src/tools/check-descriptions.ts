/** The `descriptions` option (createTools and every adapter): replacement texts keyed by tool name. */

/** Throws a TypeError naming the problem unless `descriptions` maps some of `tools` to strings; a typo would replace nothing. */
export function checkDescriptions(descriptions: unknown, where: string, tools: readonly string[]): void {
  if (descriptions === undefined) return;
  if (typeof descriptions !== 'object' || descriptions === null || Array.isArray(descriptions)) {
    throw new TypeError(`${where}: descriptions must be an object of tool name → description (${tools.join(', ')}).`);
  }
  const unknown = Object.keys(descriptions).filter((name) => !tools.includes(name));
  if (unknown.length > 0) {
    throw new TypeError(`${where}: descriptions names unknown tools (${unknown.map((n) => JSON.stringify(n)).join(', ')}); the tools are ${tools.join(', ')}.`);
  }
  for (const [name, text] of Object.entries(descriptions)) {
    if (text !== undefined && typeof text !== 'string') throw new TypeError(`${where}: the description of ${name} must be a string; got ${typeof text}.`);
  }
}
