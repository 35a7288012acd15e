/**
 * Correction (d): old_string's lines match the file's after a uniform
 * indentation change: every non-blank line shifted by the same number of
 * columns, and/or tabs where old_string had spaces (or the reverse). Columns are
 * measured with a tab width of 4, then 2 (2 first when the strings' indentation steps by 2 spaces).
 * new_string is re-indented by the same shift and written in the file's indentation style.
 */
import { EOF_NOTE, findLineWindows, fitEof, parseLines, type LineWindow, type SplitLine } from './line-window.ts';
import type { CorrectionResult } from './types.ts';

type Style = 'tab' | 'space';

interface Shift {
  delta: number; // file columns minus old_string columns
  style: Style | null; // the file's style in the matched lines; null when they are not indented
  tabWidth: number;
  /** The indentation of one shifted line, in old_string and in the file: shown in the note. */
  sample: { old: string; file: string } | null;
}

const TAB_WIDTHS = [4, 2] as const;

/**
 * The tab widths to try, first the one that fits how old_string and new_string were indented:
 * typed with 2-space steps (the indentations of their lines differ by multiples of 2 columns, not
 * all of 4), one level is one tab when the file has tabs (with 4 it would be a tab and two
 * spaces). Typed with tabs, or with steps of 4 or of neither, 4 comes first. The steps count, not
 * the indentation itself: "  " then "      " is one 4-space step from a 2-space start. An
 * anchored first line starts mid-line: its leading whitespace is not indentation.
 */
function tabWidthsFor(oldString: string, newString: string, anchored: boolean): readonly number[] {
  const widths: number[] = [];
  for (const s of [oldString, newString]) {
    for (const [i, line] of s.split('\n').entries()) {
      if (i === 0 && anchored) continue;
      const indent = /^[ \t]*(?=\S)/.exec(line)?.[0];
      if (indent === undefined) continue; // blank: no indentation
      if (indent.includes('\t')) return TAB_WIDTHS;
      widths.push(indent.length);
    }
  }
  let least = Number.POSITIVE_INFINITY;
  for (const w of widths) if (w < least) least = w; // (not Math.min(...widths): an edit may have more lines than a call takes arguments)
  let step = 0;
  for (const w of widths) step = gcd(step, w - least);
  // (All at one indentation, either width gives the same text; 2 makes "  " one tab in the note.)
  return step === 2 || (step === 0 && least % 4 === 2) ? [2, 4] : TAB_WIDTHS;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Column width of an indentation string, tabs advancing to the next tab stop. */
function indentWidth(indent: string, tabWidth: number): number {
  let w = 0;
  for (const c of indent) w = c === '\t' ? w + tabWidth - (w % tabWidth) : w + 1;
  return w;
}

function styleOf(indents: readonly string[]): Style | null {
  if (indents.some((i) => i.includes('\t'))) return 'tab';
  return indents.some((i) => i !== '') ? 'space' : null;
}

function render(width: number, style: Style, tabWidth: number): string {
  if (style === 'space') return ' '.repeat(width);
  return '\t'.repeat(Math.floor(width / tabWidth)) + ' '.repeat(width % tabWidth);
}

/** Shifts every non-blank line of `s` by `shift.delta` columns and renders its indentation in the file's style. */
function reindent(s: string, shift: Shift, keepFirst: boolean): string {
  return s
    .split('\n')
    .map((line, i) => {
      if (i === 0 && keepFirst) return line; // placed after the file's own indentation
      let m = 0;
      while (m < line.length && (line[m] === ' ' || line[m] === '\t')) m++;
      if (m === line.length || line.slice(m) === '\r') return line; // blank line: as typed
      const indent = line.slice(0, m);
      const width = Math.max(0, indentWidth(indent, shift.tabWidth) + shift.delta);
      const style = shift.style ?? (indent.includes('\t') ? 'tab' : 'space');
      return render(width, style, shift.tabWidth) + line.slice(m);
    })
    .join('\n');
}

function verifier(old: readonly SplitLine[], anchored: boolean, tabWidth: number) {
  return (fileLines: readonly SplitLine[]): Shift | null => {
    let delta: number | null = null;
    let sample: Shift['sample'] = null;
    const indents: string[] = [];
    for (let i = 0; i < fileLines.length; i++) {
      const f = fileLines[i]!;
      const o = old[i]!;
      // Contents are already equal; blank lines carry no indentation information.
      if (o.content === '') continue;
      if (i === 0 && anchored) continue; // its indentation is the file's and stays
      const d = indentWidth(f.indent, tabWidth) - indentWidth(o.indent, tabWidth);
      if (delta === null) {
        delta = d;
        sample = { old: o.indent, file: f.indent };
      } else if (d !== delta) return null;
      indents.push(f.indent);
    }
    return { delta: delta ?? 0, style: styleOf(indents), tabWidth, sample };
  };
}

/**
 * What reindent() did to new_string, with one line's two indentations as the evidence: the
 * shift in columns and the file's indentation style when old_string used the other one.
 */
function describe(shift: Shift, oldStyle: Style | null, anchored: boolean): string {
  const { sample } = shift;
  const where = sample === null ? '' : sample.old === '' ? 'a line old_string does not indent' : `a line old_string indents with ${JSON.stringify(sample.old)}`;
  const seen = sample === null ? '' : ` (${where} is indented with ${JSON.stringify(sample.file)} in the file)`;
  const restyled = shift.style !== null && oldStyle !== null && shift.style !== oldStyle;
  const lines = anchored ? "new_string's lines after the first" : "new_string's lines";
  const n = Math.abs(shift.delta);
  // In a tab-indented file, a shift of whole tabs reads as tabs.
  const inTabs = shift.style === 'tab' && n % shift.tabWidth === 0;
  const amount = inTabs ? `${n / shift.tabWidth} tab${n === shift.tabWidth ? '' : 's'}` : `${n} column${n === 1 ? '' : 's'}`;
  const moved = shift.delta === 0 ? '' : `shifted ${amount} ${shift.delta > 0 ? 'right' : 'left'}`;
  const style = restyled ? `indented with ${shift.style === 'tab' ? 'tabs' : 'spaces'} as the file is` : '';
  const tabs = (restyled || (moved !== '' && !inTabs)) && (shift.style === 'tab' || oldStyle === 'tab') ? ` (tab width ${shift.tabWidth})` : '';
  const done = [moved, style].filter((p) => p !== '').join(' and ') + (moved === '' && style === '' ? '' : tabs);
  const first = anchored ? "; its first line goes after the file line's own indentation" : '';
  if (done === '') return `Matched ignoring indentation${seen}; new_string's indentation was kept as typed${first}.`;
  return `Matched ignoring indentation${seen}; ${lines} were ${done}${first}.`;
}

export function fixIndentation(text: string, oldString: string, newString: string): CorrectionResult | null {
  const old = parseLines(oldString);
  if (old.first === -1) return null;
  // Same start under both tab widths is one match; the first tab width wins.
  const byStart = new Map<number, LineWindow<Shift>>();
  for (const tabWidth of tabWidthsFor(oldString, newString, old.anchored)) {
    for (const w of findLineWindows(text, old, verifier(old.lines, old.anchored, tabWidth))) {
      if (!byStart.has(w.start)) byStart.set(w.start, w);
    }
  }
  if (byStart.size === 0) return null;
  const windows = [...byStart.values()].sort((a, b) => a.start - b.start);
  const first = windows[0]!;
  const oldStyle = styleOf(old.lines.filter((l, i) => l.content !== '' && !(i === 0 && old.anchored)).map((l) => l.indent));
  return {
    correction: 'indentation',
    note: `${describe(first.info, oldStyle, old.anchored)}${windows.length === 1 && first.eofNewline ? EOF_NOTE : ''}`,
    how: 'ignoring indentation',
    regions: windows.map((w) => ({ start: w.start, end: w.end, replacement: fitEof(reindent(newString, w.info, old.anchored), w.eofNewline) })),
    lossless: false,
  };
}
