/** Types of kill-content.mjs (plain JavaScript, so the kill tests' child processes can load it). */
export function contentOf(i: number): Uint8Array;
export function writeOf(content: Uint8Array): number;
