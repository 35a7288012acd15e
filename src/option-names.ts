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

/** The known name of the same letters otherwise cased or punctuated (`on_event`), or one letter or more longer (`permission`). */
function closestName(key: string, known: readonly string[]): string | undefined {
  const bare = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
  const longer = known.filter((name) => bare(key).length >= 4 && bare(name).startsWith(bare(key)));
  return known.find((name) => bare(name) === bare(key)) ?? longer.sort((a, b) => a.length - b.length)[0];
}
