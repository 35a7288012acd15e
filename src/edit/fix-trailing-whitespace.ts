/**
 * Correction (c): old_string's lines differ from the file's only by trailing
 * spaces/tabs (and line endings). The matched whole lines of the file are
 * replaced by new_string (from the first line's content on when old_string
 * starts without indentation, see ParsedLines.anchored).
 */
import { EOF_NOTE, findLineWindows, fitEof, parseLines } from './line-window.ts';
import type { CorrectionResult } from './types.ts';

export function fixTrailingWhitespace(text: string, oldString: string, newString: string): CorrectionResult | null {
  const old = parseLines(oldString);
  if (old.first === -1) return null; // only blank lines: would match everywhere
  const windows = findLineWindows(text, old, (fileLines) => {
    for (let i = 0; i < fileLines.length; i++) {
      const f = fileLines[i]!;
      const o = old.lines[i]!;
      // Contents are already equal; blank lines may differ in whitespace.
      if (o.content !== '' && f.indent !== o.indent && !(i === 0 && old.anchored)) return null;
    }
    return true;
  });
  if (windows.length === 0) return null;
  const eof = windows.length === 1 && windows[0]!.eofNewline;
  return {
    correction: 'trailing-whitespace',
    note: `Matched line by line ignoring trailing whitespace; lines you did not change kept theirs.${eof ? EOF_NOTE : ''}`,
    how: 'ignoring trailing whitespace',
    regions: windows.map((w) => ({
      start: w.start,
      end: w.end,
      replacement: keepUntouched(text.slice(w.start, w.end), oldString, fitEof(newString, w.eofNewline)),
    })),
    lossless: false,
  };
}

/**
 * `replacement` with the file's own text on the lines new_string leaves as old_string had them
 * (the same leading and trailing lines of both): their trailing whitespace stays as it is, and
 * only the lines the model changed are written as it wrote them.
 */
function keepUntouched(matched: string, oldString: string, replacement: string): string {
  const lines = (s: string) => s.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const file = lines(matched);
  const old = lines(oldString);
  const next = lines(replacement);
  if (file.length !== old.length) return replacement;
  let head = 0;
  while (head < old.length && head < next.length && old[head] === next[head]) (next[head] = file[head]!), head++;
  for (let tail = 1; tail <= old.length - head && tail <= next.length - head && old[old.length - tail] === next[next.length - tail]; tail++) {
    next[next.length - tail] = file[file.length - tail]!;
  }
  return next.join('\n');
}
