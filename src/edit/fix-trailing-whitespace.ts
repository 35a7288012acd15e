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
    note: `Matched line by line ignoring trailing whitespace; the file's matched lines were replaced.${eof ? EOF_NOTE : ''}`,
    how: 'ignoring trailing whitespace',
    regions: windows.map((w) => ({ start: w.start, end: w.end, replacement: fitEof(newString, w.eofNewline) })),
    lossless: false,
  };
}
