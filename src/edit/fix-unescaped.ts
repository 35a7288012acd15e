/**
 * Correction (b): over-escaped strings. A model that escapes its arguments one
 * time too many sends the two characters `\` `n` where the file has a line
 * break (likewise `\t`, `\r`, `\"`, `\'`, `` \` `` and `\\`). old_string is
 * unescaped once and searched literally (and with the file's line endings).
 */
import { findWithEolVariants } from './fix-line-endings.ts';
import { findAll } from './text-utils.ts';
import type { CorrectionResult, Region } from './types.ts';

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '"': '"', "'": "'", '`': '`', '\\': '\\' };
const ESCAPE_RE = /\\([ntr"'`\\])/g;

/** Undoes one level of escaping; unknown escapes (`\d`, `\u`) keep their backslash. */
function unescapeOnce(s: string): string {
  if (!s.includes('\\')) return s;
  return s.replace(ESCAPE_RE, (_m, c: string) => ESCAPES[c] ?? c);
}

export function fixUnescaped(text: string, oldString: string, newString: string): CorrectionResult | null {
  const oldU = unescapeOnce(oldString);
  if (oldU === oldString) return null;
  // new_string is unescaped the same way, unless old_string's escapes stood for
  // line breaks while new_string already contains real ones: then new_string was
  // evidently not over-escaped, and its backslashes (e.g. "\n" inside a string
  // literal) are meant.
  const keepNew = oldString.includes('\\n') && newString.includes('\n');
  const newU = keepNew ? newString : unescapeOnce(newString);
  let regions: Region[] = findAll(text, oldU).map((start) => ({ start, end: start + oldU.length, replacement: newU }));
  if (regions.length === 0) regions = findWithEolVariants(text, oldU, newU).regions;
  if (regions.length === 0) return null;
  return {
    correction: 'unescaped',
    note: keepNew
      ? 'Matched after unescaping old_string (\\n, \\t, \\" and similar were literal backslash sequences); new_string was kept as typed.'
      : 'Matched after unescaping old_string (\\n, \\t, \\" and similar were literal backslash sequences); new_string was unescaped the same way.',
    how: 'after unescaping \\n, \\t, \\" and similar sequences',
    regions,
    searched: oldU,
    lossless: false,
  };
}
