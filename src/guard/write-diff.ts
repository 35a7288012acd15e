/**
 * The diff an approval question shows: a unified diff of exactly what would be written. Lines
 * as `diff -u` shows them, and, as git does, "\ No newline at end of file" after a last line
 * without one (so a change of the final newline shows too); a BOM stays in the first line, as
 * git shows it, and a line above the diff says when one is added or removed (U+FEFF is invisible);
 * binary content is named, not shown; past what the line differ does cheaply, every old line is
 * removed and every new one added.
 */
import { unifiedDiff, wholeFileDiff } from '../checkpoints/unified-diff.ts';
import { counted } from '../counted.ts';
import { decodeRawText, isBinary } from '../text.ts';

const BOM = '\uFEFF';

export function writeDiff(path: string, before: Uint8Array | null, after: string | Uint8Array | null): string {
  const afterBytes = typeof after === 'string' ? null : after;
  if ((before !== null && isBinary(before)) || (afterBytes !== null && isBinary(afterBytes))) {
    const size = (b: Uint8Array | string | null) => (b === null ? 'none' : typeof b === 'string' ? 'text' : counted(b.length, 'byte'));
    return `Binary file ${path} differs (before: ${size(before)}, after: ${size(after)})`;
  }
  const a = before === null ? null : decodeRawText(before);
  const b = after === null ? null : typeof after === 'string' ? after : decodeRawText(after);
  if (a === b) return '';
  const diff = unifiedDiff(path, a, b) ?? wholeFileDiff(path, a, b);
  if (diff === '') return [`--- ${a === null ? '/dev/null' : `a${path}`}`, `+++ ${b === null ? '/dev/null' : `b${path}`}`, '@@ -0,0 +0,0 @@'].join('\n'); // a new empty file
  const bomBefore = a?.startsWith(BOM) === true;
  const bomAfter = b?.startsWith(BOM) === true;
  if (a === null || b === null || bomBefore === bomAfter) return diff;
  return `${bomAfter ? 'Adds' : 'Removes'} the byte order mark (BOM, U+FEFF) at the start of ${path}.\n${diff}`;
}
