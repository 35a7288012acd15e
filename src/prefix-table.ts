/**
 * Knuth–Morris–Pratt's table for a sequence of lines: for each prefix of `pattern`, the length of
 * its longest proper prefix that is also its suffix. A search with it compares each line of the
 * searched text a bounded number of times, however long the pattern and however alike the lines.
 */
export function prefixTable(pattern: readonly string[]): Int32Array {
  const table = new Int32Array(pattern.length);
  for (let i = 1, k = 0; i < pattern.length; i++) {
    while (k > 0 && pattern[i] !== pattern[k]) k = table[k - 1]!;
    if (pattern[i] === pattern[k]) k++;
    table[i] = k;
  }
  return table;
}
