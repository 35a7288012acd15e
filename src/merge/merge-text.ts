/**
 * Line-wise three-way merge of one text file (diff3, as git merge-file: diff3.ts): changes to
 * different regions combine; where both sides changed the same region differently, a conflict
 * hunk, or git-style markers around it.
 */
import { diff3 } from './diff3.ts';
import type { ConflictHunk } from '../backend/types.ts';
import { linesWithEnds } from '../text.ts';

export interface TextMerge {
  /** The merged text: with conflict markers where `hunks` is not empty. */
  text: string;
  hunks: ConflictHunk[];
}

const MARKER_OURS = '<<<<<<< ours';
const MARKER_SEPARATOR = '=======';
const MARKER_THEIRS = '>>>>>>> theirs';

/** A side of a conflict written between markers: it must end in a line ending before the next marker. */
function block(content: string[], eol: string): string {
  const text = content.join('');
  return text === '' || text.endsWith('\n') ? text : `${text}${eol}`;
}

/**
 * The markers' line ending, as git's (xmerge.c is_cr_needed): CRLF when ours' and theirs' lines
 * before the conflict (or their first lines) and the base's first line end in one, a side that
 * cannot tell (no lines, one line without an ending) deferring to the next; else LF.
 */
function markerEol(base: readonly string[], ours: readonly string[], theirs: readonly string[], oursAt: number, theirsAt: number): string {
  let crlf = eolCrlf(ours, oursAt > 0 ? oursAt - 1 : 0);
  if (crlf !== 0) crlf = eolCrlf(theirs, theirsAt > 0 ? theirsAt - 1 : 0);
  if (crlf !== 0) crlf = eolCrlf(base, 0);
  return crlf === 1 ? '\r\n' : '\n';
}

/** Whether line `i` of `file` (or, for a last line without an ending, the one before) ends in CRLF: 1, 0, or -1 when it cannot tell (git's is_eol_crlf). */
function eolCrlf(file: readonly string[], i: number): -1 | 0 | 1 {
  if (i < file.length - 1) return file[i]!.endsWith('\r\n') ? 1 : 0;
  if (file.length === 0) return -1;
  if (file[i]!.endsWith('\n')) return file[i]!.endsWith('\r\n') ? 1 : 0;
  if (i === 0) return -1;
  return file[i - 1]!.endsWith('\r\n') ? 1 : 0;
}

export function mergeText(base: string, ours: string, theirs: string): TextMerge {
  const [oursLines, baseLines, theirsLines] = [linesWithEnds(ours), linesWithEnds(base), linesWithEnds(theirs)];
  const regions = diff3(oursLines, baseLines, theirsLines);
  // Parts joined once at the end: appending to one string and asking its last character
  // (endsWith) flattens it every time, quadratic in a file with thousands of conflicts.
  const parts: string[] = [];
  let endsInLine = true; // the text so far is empty or ends in a line ending
  const add = (part: string) => {
    if (part === '') return;
    parts.push(part);
    endsInLine = part.endsWith('\n');
  };
  let line = 1;
  const hunks: ConflictHunk[] = [];
  for (const region of regions) {
    if ('ok' in region) {
      add(region.ok.join(''));
      line += region.ok.length;
      continue;
    }
    const { o, aIndex, bIndex } = region.conflict;
    let { a, b } = region.conflict;
    // As git's default (zealous) merge: lines both sides share at the ends of a conflict are not part of it.
    let head = 0;
    while (head < a.length && head < b.length && a[head] === b[head]) head++;
    let tail = 0;
    while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
    add(a.slice(0, head).join(''));
    line += head;
    const after = a.slice(a.length - tail);
    a = a.slice(head, a.length - tail);
    b = b.slice(head, b.length - tail);
    hunks.push({ line, base: o.join(''), ours: a.join(''), theirs: b.join('') });
    const eol = markerEol(baseLines, oursLines, theirsLines, aIndex + head, bIndex + head);
    // A conflict that follows a last line without a line ending starts on a line of its own.
    if (!endsInLine) add(eol);
    const marked = `${MARKER_OURS}${eol}${block(a, eol)}${MARKER_SEPARATOR}${eol}${block(b, eol)}${MARKER_THEIRS}${eol}`;
    add(marked);
    line += 3 + linesWithEnds(block(a, eol)).length + linesWithEnds(block(b, eol)).length;
    add(after.join(''));
    line += after.length;
  }
  return { text: parts.join(''), hunks };
}
