/** Types of kill-content.mjs (plain JavaScript, so the kill tests' child processes can load it). */
export function contentOf(i: number): Uint8Array;
export function writeOf(content: Uint8Array): number;
export function removes(i: number): boolean;
export function stateAfter(
  held: (slot: number) => number | undefined,
  round: { initial: (slot: number) => number | undefined; start: number; from: number; to: number; slots: number },
): number | null;
