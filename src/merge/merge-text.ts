/**
 * Line-wise three-way merge of one text file (diff3 semantics, from node-diff3): changes to
 * different regions combine; where both sides changed the same region differently, a conflict
 * hunk, or git-style markers around it.
 */
import { diff3Merge } from 'node-diff3';
import type { ConflictHunk } from '../backend/types.ts';

export interface TextMerge {
  /** The merged text: with conflict markers where `hunks` is not empty. */
  text: string;
  hunks: ConflictHunk[];
}

const MARKER_OURS = '<<<<<<< ours';
const MARKER_SEPARATOR = '=======';
const MARKER_THEIRS = '>>>>>>> theirs';

/** Lines with their line ending kept, so joining them gives the text back byte for byte. */
function lines(text: string): string[] {
  if (text === '') return [];
  return text.split(/(?<=\n)/);
}

/** A side of a conflict written between markers: it must end in a line ending before the next marker. */
function block(content: string[], eol: string): string {
  const text = content.join('');
  return text === '' || text.endsWith('\n') ? text : `${text}${eol}`;
}

/** The markers' line ending, as git's: CRLF where the line before the conflict (or the file's first line) ends in one. */
function markerEol(before: string, ours: string): string {
  const reference = before === '' ? ours.slice(0, ours.indexOf('\n') + 1) : before;
  return reference.endsWith('\r\n') ? '\r\n' : '\n';
}

export function mergeText(base: string, ours: string, theirs: string): TextMerge {
  const regions = diff3Merge(lines(ours), lines(base), lines(theirs), { excludeFalseConflicts: true });
  let text = '';
  let line = 1;
  const hunks: ConflictHunk[] = [];
  for (const region of regions) {
    if (region.ok) {
      const ok = region.ok.join('');
      text += ok;
      line += region.ok.length;
      continue;
    }
    const { o } = region.conflict!;
    let { a, b } = region.conflict!;
    // As git's default (zealous) merge: lines both sides share at the ends of a conflict are not part of it.
    let head = 0;
    while (head < a.length && head < b.length && a[head] === b[head]) head++;
    let tail = 0;
    while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
    text += a.slice(0, head).join('');
    line += head;
    const after = a.slice(a.length - tail);
    a = a.slice(head, a.length - tail);
    b = b.slice(head, b.length - tail);
    hunks.push({ line, base: o.join(''), ours: a.join(''), theirs: b.join('') });
    const eol = markerEol(text, ours);
    // A conflict that follows a last line without a line ending starts on a line of its own.
    if (text !== '' && !text.endsWith('\n')) text += eol;
    const marked = `${MARKER_OURS}${eol}${block(a, eol)}${MARKER_SEPARATOR}${eol}${block(b, eol)}${MARKER_THEIRS}${eol}`;
    text += marked;
    line += 3 + lines(block(a, eol)).length + lines(block(b, eol)).length;
    text += after.join('');
    line += after.length;
  }
  return { text, hunks };
}
