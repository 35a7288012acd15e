/**
 * Correction (e): typographic punctuation and Unicode spaces. Models often type
 * ASCII quotes where the file has curly ones (or the reverse), a hyphen for an
 * en or em dash, or a plain space for a non-breaking one. Both sides are folded
 * character for character (each folded character is one UTF-16 unit, so offsets
 * stay aligned) and old_string is searched in the folded file.
 *
 * Only the part of old_string that new_string actually changes is replaced:
 * their common (folded) prefix and suffix keep the file's own characters, so a
 * curly quote the model retyped as ASCII but did not mean to change survives.
 */
import { findAll } from './text-utils.ts';
import type { CorrectionResult, Region } from './types.ts';

// One ASCII stand-in for each character a model may confuse with it.
const FOLD: Readonly<Record<string, string>> = {
  '\u2018': "'", // ‘
  '\u2019': "'", // ’
  '\u201A': "'", // ‚
  '\u201B': "'", // ‛
  '\u2032': "'", // ′
  '\u201C': '"', // “
  '\u201D': '"', // ”
  '\u201E': '"', // „
  '\u201F': '"', // ‟
  '\u2033': '"', // ″
  '\u00AB': '"', // «
  '\u00BB': '"', // »
  '\u2010': '-', // ‐ hyphen
  '\u2011': '-', // ‑ non-breaking hyphen
  '\u2012': '-', // ‒ figure dash
  '\u2013': '-', // – en dash
  '\u2014': '-', // — em dash
  '\u2015': '-', // ― horizontal bar
  '\u2212': '-', // − minus sign
  '\u00A0': ' ', // no-break space
  '\u1680': ' ',
  '\u2000': ' ',
  '\u2001': ' ',
  '\u2002': ' ',
  '\u2003': ' ',
  '\u2004': ' ',
  '\u2005': ' ',
  '\u2006': ' ',
  '\u2007': ' ',
  '\u2008': ' ',
  '\u2009': ' ',
  '\u200A': ' ',
  '\u202F': ' ', // narrow no-break space
  '\u205F': ' ',
  '\u3000': ' ', // ideographic space
};
const FOLDABLE = new RegExp(`[${Object.keys(FOLD).join('')}]`, 'gu');

/** `s` with every foldable character replaced by its ASCII stand-in; same length as `s`. */
export function foldPunctuation(s: string): string {
  return s.replace(FOLDABLE, (c) => FOLD[c]!);
}

function hasFoldable(s: string): boolean {
  FOLDABLE.lastIndex = 0;
  return FOLDABLE.test(s);
}

/** Lengths of the common prefix and (non-overlapping) common suffix of `a` and `b`. */
function commonEnds(a: string, b: string): { prefix: number; suffix: number } {
  const max = Math.min(a.length, b.length);
  let prefix = 0;
  while (prefix < max && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < max - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  return { prefix, suffix };
}

export function fixUnicodePunctuation(text: string, oldString: string, newString: string): CorrectionResult | null {
  // Nothing to fold on either side: the folded search would equal the exact one that failed.
  if (!hasFoldable(oldString) && !hasFoldable(text)) return null;
  const foldedOld = foldPunctuation(oldString);
  const foldedText = foldPunctuation(text);
  const starts = findAll(foldedText, foldedOld);
  if (starts.length === 0) return null;
  const { prefix, suffix } = commonEnds(foldedOld, foldPunctuation(newString));
  const middle = newString.slice(prefix, newString.length - suffix);
  const regions: Region[] = starts.map((start) => {
    const end = start + foldedOld.length;
    // The file's own characters where old and new agree; new_string's where they differ.
    return { start, end, replacement: text.slice(start, start + prefix) + middle + text.slice(end - suffix, end) };
  });
  return {
    correction: 'unicode-punctuation',
    note: "Matched after treating typographic quotes, dashes and Unicode spaces as their ASCII forms; the file's own characters were kept where new_string does not change them.",
    how: 'treating typographic quotes, dashes and Unicode spaces as ASCII',
    regions,
    lossless: false,
  };
}
