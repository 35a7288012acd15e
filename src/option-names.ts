/**
 * Options are checked by name: a misspelt one (`permission` for `permissions`, `limits.maxFile`)
 * would otherwise be dropped without a word, and a session meant to be guarded would not be.
 */

/** `names` as a runtime list, written so the compiler checks it holds every key of T and no other. */
export function optionNames<T>(names: { [K in keyof Required<T>]: true }): readonly string[] {
  return Object.keys(names);
}

/** Throws a TypeError unless `options` is an object whose keys are all `known`, naming the one likely meant. */
export function checkOptionNames(options: unknown, known: readonly string[], where: string): void {
  if (typeof options !== 'object' || options === null) throw new TypeError(`${where} takes an options object (${known.join(', ')}).`);
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const meant = closestName(key, known);
    throw new TypeError(`${where} has no option "${key}"${meant ? ` (did you mean "${meant}"?)` : ''}; its options are ${known.join(', ')}.`);
  }
}

/** The known name within two typing slips of `key` (a letter missing, extra or wrong, or two swapped; case and `_` ignored), or of which it is the start. */
export function closestName(key: string, known: readonly string[]): string | undefined {
  const bare = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
  const slips = (name: string) => distance(bare(key), bare(name));
  const near = known.filter((name) => slips(name) <= Math.min(2, Math.max(1, bare(key).length >> 2))).sort((a, b) => slips(a) - slips(b));
  return near[0] ?? known.find((name) => bare(key).length >= 4 && bare(name).startsWith(bare(key)));
}

/** Edit distance: the letters to add, drop or change, or neighbours to swap, to turn a into b (optimal string alignment). */
function distance(a: string, b: string): number {
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = (d[i] = [i]);
    for (let j = 1; j <= b.length; j++) {
      const up = d[i - 1] ?? [];
      row[j] = i === 0 ? j : Math.min((up[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (up[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j] ?? 0, (d[i - 2]?.[j - 2] ?? 0) + 1);
    }
  }
  return d[a.length]?.[b.length] ?? 0;
}
