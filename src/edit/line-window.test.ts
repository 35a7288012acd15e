// findLineWindows against the direct search it replaced (each line where old_string's first
// content line stands, checked line by line): the same windows, on random files of few distinct
// lines, where windows overlap and almost-matches are everywhere.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findLineWindows, type ParsedLines, parseLines, type SplitLine } from './line-window.ts';
import { isBlankRange, splitIndent } from './text-utils.ts';

const line = fc.constantFrom('a', '  a', 'b', '\tb', '', '  ', 'a\r', 'a  ', 'c');
const lines = (max: number) => fc.array(line, { maxLength: max });
const text = fc.tuple(lines(14), fc.boolean()).map(([ls, eol]) => ls.join('\n') + (eol && ls.length > 0 ? '\n' : ''));

describe('findLineWindows', () => {
  it('finds the windows the direct search finds, in order', () => {
    fc.assert(
      fc.property(text, fc.tuple(lines(4), fc.boolean()), (f, [ol, eol]) => {
        const oldString = ol.join('\n') + (eol ? '\n' : '');
        const old = parseLines(oldString);
        // Indentation as the info: a verifier that refuses some windows (a tab in the first line).
        const verify = (fl: readonly SplitLine[]) => (fl[0]!.indent.includes('\t') ? null : fl.map((l) => l.indent).join('|'));
        expect(findLineWindows(f, old, verify), JSON.stringify([f, oldString])).toEqual(direct(f, old, verify));
      }),
      { numRuns: 3000 },
    );
  });
});

function prevLineStart(text: string, lineStart: number): number {
  return lineStart <= 1 ? 0 : text.lastIndexOf('\n', lineStart - 2) + 1;
}
function direct<T>(text: string, old: ParsedLines, verify: (fileLines: readonly SplitLine[]) => T | null): unknown[] {
  const out: unknown[] = [];
  const firstOld = old.lines[old.first];
  if (firstOld === undefined) return out;
  const key = firstOld.content;
  const count = old.lines.length;
  let from = 0;
  for (;;) {
    const pos = text.indexOf(key, from);
    if (pos === -1) break;
    const lineStart = text.lastIndexOf('\n', pos - 1) + 1;
    let lineEnd = text.indexOf('\n', pos);
    if (lineEnd === -1) lineEnd = text.length;
    from = lineEnd + 1;
    if (!isBlankRange(text, lineStart, pos) || !isBlankRange(text, pos + key.length, lineEnd)) continue;

    let start = lineStart;
    let ok = true;
    for (let i = 0; i < old.first && ok; i++) {
      if (start === 0) ok = false;
      else start = prevLineStart(text, start);
    }
    if (!ok) continue;

    const fileLines: SplitLine[] = [];
    let s = start;
    let lastEnd = 0;
    let lastHasEol = false;
    for (let i = 0; i < count; i++) {
      if (s >= text.length) {
        ok = false; // ran out of lines
        break;
      }
      const nl = text.indexOf('\n', s);
      lastHasEol = nl !== -1;
      lastEnd = lastHasEol ? nl : text.length;
      const line = splitIndent(text.slice(s, lastEnd));
      if (line.content !== old.lines[i]!.content) {
        ok = false; // contents must match in every mode; stop early
        break;
      }
      fileLines.push(line);
      s = lastEnd + 1;
    }
    if (!ok) continue;
    const info = verify(fileLines);
    if (info === null) continue;

    let end: number;
    let eofNewline = false;
    if (old.trailingNewline) {
      end = lastHasEol ? lastEnd + 1 : text.length;
      eofNewline = !lastHasEol;
    } else {
      end = lastHasEol && text[lastEnd - 1] === '\r' ? lastEnd - 1 : lastEnd;
    }
    out.push({ start: old.anchored ? pos : start, end, eofNewline, info });
  }
  return out;
}
