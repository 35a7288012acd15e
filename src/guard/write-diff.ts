/**
 * The diff an approval question shows: a unified diff of exactly what would be written. Lines
 * as `diff -u` shows them, and, as git does, "\ No newline at end of file" after a last line
 * without one (so a change of the final newline shows too); a BOM stays in the first line, as
 * git shows it, and a line above the diff says when one is added or removed (U+FEFF is invisible);
 * content no text diff can show exactly (binary, not UTF-8) is named, not shown; a diff larger
 * than MAX_DIFF_CHARS is not sent (a person's screen cannot show it): a line says so.
 */
import { MAX_DIFF_BYTES, notText, unifiedDiff } from '../checkpoints/unified-diff.ts';
import { counted } from '../counted.ts';
import { decodeRawText, encodeText } from '../text.ts';

const BOM = '\uFEFF';

/** `from`: where the file was, for a file moved to `path` (git's rename form). */
export function writeDiff(path: string, before: Uint8Array | null, after: string | Uint8Array | null, from = path): string {
  // As bytes, so that what decides how the backend keeps it (a NUL: binary) decides here too.
  const afterBytes = typeof after === 'string' ? encodeText(after) : after;
  const sizes = `(before: ${size(before)}, after: ${size(afterBytes)})`;
  const whyBefore = before && notText(before);
  const why = whyBefore ?? (afterBytes && notText(afterBytes));
  if (why === 'binary') return `Binary file ${path} differs ${sizes}`;
  if (why === 'not UTF-8') {
    return `File ${path} differs ${sizes}: it is not UTF-8 text ${whyBefore ? 'before the write' : 'as written'}, so its lines cannot be shown exactly.`;
  }
  const a = before === null ? null : decodeRawText(before);
  const b = after === null ? null : typeof after === 'string' ? after : decodeRawText(after);
  if (a === b && from === path) return '';
  const diff = unifiedDiff(path, a, b, MAX_DIFF_CHARS, from);
  if (diff === null || diff.length > MAX_DIFF_CHARS) return `File ${path} differs ${sizes}: the diff is too large to show.`;
  const bomBefore = a?.startsWith(BOM) === true;
  const bomAfter = b?.startsWith(BOM) === true;
  if (a === null || b === null || bomBefore === bomAfter) return diff;
  return `${bomAfter ? 'Adds' : 'Removes'} the byte order mark (BOM, U+FEFF) at the start of ${path}.\n${diff}`;
}

/** The longest diff a question carries (its characters), as a checkpoint's file patch. */
const MAX_DIFF_CHARS = MAX_DIFF_BYTES;

const size = (bytes: Uint8Array | null) => (bytes === null ? 'none' : counted(bytes.length, 'byte'));
