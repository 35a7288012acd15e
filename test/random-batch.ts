/**
 * One seeded random save for the store and layout tests: `n` operations on the keys f:/0 to
 * f:/<keys - 1>, each a removal with probability `removeRate` (of a key the save does not also
 * write), else a put of `size()` bytes whose first four hold the number `next()` gives it.
 */
export function randomBatch(
  random: () => number,
  { n, keys, removeRate, size, next }: { n: number; keys: number; removeRate: number; size: () => number; next: () => number },
): { puts: Map<string, Uint8Array>; deletes: Set<string> } {
  const puts = new Map<string, Uint8Array>();
  const deletes = new Set<string>();
  for (let i = 0; i < n; i++) {
    const key = `f:/${Math.floor(random() * keys)}`;
    if (random() < removeRate && !puts.has(key)) deletes.add(key);
    else if (!deletes.has(key)) {
      const value = new Uint8Array(size());
      new DataView(value.buffer).setUint32(0, next());
      puts.set(key, value);
    }
  }
  return { puts, deletes };
}
