/**
 * Correction (a): old_string's line breaks differ from the file's (an LF
 * old_string in a CRLF file, or the reverse). old_string is converted to each
 * ending and searched literally; new_string needs no work here because the
 * caller gives each replacement line the ending of the line it lands on
 * (text-utils fitEols), the same rule every other correction gets.
 */
import { eolName, findAll, toCRLF, toLF, type Eol } from './text-utils.ts';
import type { CorrectionResult, Region } from './types.ts';

/** Matches of `needle` with its line breaks converted to CRLF and to LF (whichever differ from it). */
export function findWithEolVariants(text: string, needle: string, replacement: string): { regions: Region[]; eol: Eol | null } {
  const regions: Region[] = [];
  let eol: Eol | null = null;
  if (!needle.includes('\n')) return { regions, eol };
  for (const [variant, variantEol] of [
    [toCRLF(needle), '\r\n'],
    [toLF(needle), '\n'],
  ] as const) {
    if (variant === needle) continue;
    const starts = findAll(text, variant);
    if (starts.length > 0 && eol === null) eol = variantEol;
    for (const start of starts) regions.push({ start, end: start + variant.length, replacement });
  }
  regions.sort((a, b) => a.start - b.start);
  // In a mixed-ending file the two variants could overlap; keep the earlier match.
  const kept: Region[] = [];
  for (const r of regions) {
    const last = kept[kept.length - 1];
    if (last === undefined || r.start >= last.end) kept.push(r);
  }
  return { regions: kept, eol };
}

/** 'CRLF' when every line break of `s` is \r\n, 'LF' when none is, null when it has none or both. */
function eolsOf(s: string): Eol | null {
  const breaks = s.split('\n').length - 1;
  if (breaks === 0) return null;
  const crlf = s.split('\r\n').length - 1;
  return crlf === 0 ? '\n' : crlf === breaks ? '\r\n' : null;
}

/**
 * The sentence another correction's note needs when its match also converted line endings
 * (whole-line matching ignores them): `searched` is old_string as that correction looked for
 * it, `matched` the file text it matched. Null when the endings agree or are mixed.
 */
export function alsoConvertedEols(searched: string, matched: string): string | null {
  const from = eolsOf(searched);
  const to = eolsOf(matched);
  if (from === null || to === null || from === to) return null;
  return `Line endings were converted too: old_string's ${eolName(from)} to the file's ${eolName(to)}, and new_string's the same way.`;
}

export function fixLineEndings(text: string, oldString: string, newString: string): CorrectionResult | null {
  const { regions, eol } = findWithEolVariants(text, oldString, newString);
  if (regions.length === 0 || eol === null) return null;
  const from = eol === '\r\n' ? '\n' : '\r\n';
  // A file that mixes endings has no "file's" ending: name the matched lines' instead.
  const whose = eolsOf(text) === null ? `${eolName(eol)}, as the matched lines end` : `the file's ${eolName(eol)}`;
  return {
    correction: 'line-endings',
    note: `Matched after converting old_string's ${eolName(from)} line endings to ${whose}; new_string was converted the same way.`,
    how: `after converting its line endings to ${whose}`,
    regions,
    lossless: true,
  };
}
