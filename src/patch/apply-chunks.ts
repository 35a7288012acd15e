/**
 * One file's new text from its update chunks, as Codex computes it (lib.rs compute_replacements):
 * each chunk's anchors, then its old lines, are sought at or after the end of the previous
 * chunk; a chunk with no old lines adds its lines at the end of the file. Each run of changes
 * between a chunk's context lines is one replacement, so context lines stay the file's own (as
 * Codex 0.169 keeps them, also after a lenient match); line endings
 * are kept line by line (added lines take the file's usual one), and the result ends with a line
 * ending, as Codex's does.
 */
import type { UpdateChunk } from './parse.ts';
import { forgetCompared, seekAtEnd, seekSequence } from './seek.ts';

/** `pattern` in `lines` at or after `start` (the end not tried first). */
const seekFrom = (lines: readonly string[], pattern: readonly string[], start: number) => seekSequence(lines, pattern, start, false);

/** A chunk that could not be placed: which one, and what was not found. */
export class ChunkNotFound extends Error {
  constructor(
    readonly chunk: UpdateChunk,
    readonly index: number,
    /** The anchor that was not found, or null when the chunk's lines were not. */
    readonly anchor: string | null,
    /** Where the search started (0-based line). */
    readonly from: number,
  ) {
    super(anchor === null ? 'expected lines not found' : `context '${anchor}' not found`);
    this.name = 'ChunkNotFound';
  }
}

/** A file as lines without their endings, and each line's ending ('' for a last line without one). */
export interface Lines {
  texts: string[];
  eols: string[];
}

interface Replacement {
  start: number;
  oldLength: number;
  chunk: UpdateChunk;
  /** The chunk's new lines that go in, `firstNew` to `endNew`: lines it adds (its context lines stay the file's own, unreplaced). */
  firstNew: number;
  endNew: number;
}

/** Applies `chunks` to `text`; `patchEol` is the line ending for a file that has none yet. */
export function applyChunks(text: string, chunks: readonly UpdateChunk[], patchEol: '\n' | '\r\n'): string {
  const lines = splitKeepingEols(text);
  applyChunksToLines(lines, chunks, patchEol);
  return joinLines(lines);
}

/**
 * applyChunks on a file held as lines, which it changes in place (a patch may update one large
 * file in many sections: each costs what it changes, not a copy of the file); every line then
 * has its ending, as the text applyChunks gives does. When a chunk is not found it throws
 * ChunkNotFound and `lines` is unchanged.
 */
export function applyChunksToLines(lines: Lines, chunks: readonly UpdateChunk[], patchEol: '\n' | '\r\n'): void {
  const eol = usualEol(lines.eols) ?? patchEol;
  const replacements = computeReplacements(lines.texts, chunks);
  replacements.sort((a, b) => a.start - b.start);
  forgetCompared(lines.texts);
  // (A context line is in no replacement: it stays the file's own line, which may have matched only leniently, ending included.)
  const linesOf = ({ chunk, firstNew, endNew }: Replacement): Lines => {
    const texts = chunk.newLines.slice(firstNew, endNew);
    return { texts, eols: texts.map(() => eol) };
  };
  if (replacements.length <= FEW && replacements.every((r) => r.endNew - r.firstNew <= FEW_LINES)) {
    // A few small replacements: spliced in natively, from the last to the first so earlier positions stay valid.
    const added = replacements.map(linesOf);
    for (let k = replacements.length - 1; k >= 0; k--) {
      const { start, oldLength } = replacements[k]!;
      lines.texts.splice(start, oldLength, ...added[k]!.texts);
      lines.eols.splice(start, oldLength, ...added[k]!.eols);
    }
    // Only the lines put in, and a last line without an ending (at the end, or just before lines put in), need settling.
    let shift = 0;
    for (const r of replacements) {
      settleEndings(lines, r.start + shift - 1, r.start + shift + r.endNew - r.firstNew, eol);
      shift += r.endNew - r.firstNew - r.oldLength;
    }
    settleEndings(lines, lines.texts.length - 1, lines.texts.length, eol);
  } else {
    // Many: the file rebuilt in one pass, each replacement's lines between its own.
    const out: Lines = { texts: [], eols: [] };
    const take = (from: Lines, start: number, end: number) => {
      for (let i = start; i < end; i++) out.texts.push(from.texts[i]!), out.eols.push(from.eols[i]!);
    };
    let at = 0;
    for (const r of replacements) {
      take(lines, at, r.start);
      const added = linesOf(r);
      take(added, 0, added.texts.length);
      at = r.start + r.oldLength;
    }
    take(lines, at, lines.texts.length);
    lines.texts = out.texts;
    lines.eols = out.eols;
    settleEndings(lines, 0, lines.texts.length, eol);
  }
}

/**
 * Lines [from, to) with endings as the text, split again, would give them: a last line without
 * one gets the file's (it may have become a middle one; the text ends with one, as Codex's does),
 * and a line ending in a lone CR then ends in CRLF. (Lines split from a text already are.)
 */
function settleEndings(lines: Lines, from: number, to: number, eol: string): void {
  const { texts, eols } = lines;
  for (let i = Math.max(0, from); i < to; i++) {
    if (eols[i] === '') eols[i] = eol;
    if (eols[i] === '\n' && texts[i]!.endsWith('\r')) [texts[i], eols[i]] = [texts[i]!.slice(0, -1), '\r\n'];
  }
}

/** Replacements spliced into a copy of the file's lines (native); more are rebuilt in one pass, linear however many. */
const FEW = 16;
const FEW_LINES = 10_000;

/** The text of `lines`, each followed by its ending. */
export function joinLines({ texts, eols }: Lines): string {
  let out = '';
  for (let i = 0; i < texts.length; i++) out += texts[i]! + eols[i]!;
  return out;
}

function computeReplacements(lines: readonly string[], chunks: readonly UpdateChunk[]): Replacement[] {
  const out: Replacement[] = [];
  let lineIndex = 0;
  for (const [index, chunk] of chunks.entries()) {
    for (const [i, anchor] of chunk.anchors.entries()) {
      const found = seekSequence(lines, [anchor], lineIndex, false);
      if (found !== -1) {
        lineIndex = found + 1;
        continue;
      }
      // A stack of anchors may name again the parent a previous chunk already entered (V4A helper).
      if (i === 0 && chunk.anchors.length > 1 && seekSequence(lines.slice(0, lineIndex), [anchor], 0, false) !== -1) continue;
      throw new ChunkNotFound(chunk, index, anchor, lineIndex);
    }
    if (chunk.oldLines.length === 0) {
      // Pure addition: Codex (0.169) adds it at the very end, after a final empty line too (never
      // among a chunk's lines); here after its anchor if it has one.
      out.push({ start: chunk.anchors.length > 0 ? lineIndex : lines.length, oldLength: 0, chunk, firstNew: 0, endNew: chunk.newLines.length });
      continue;
    }
    // A last empty old line may stand for the file's final line ending: then the chunk is tried without it too.
    const whole = chunk.oldLines;
    const trimmed = whole[whole.length - 1] === '' ? whole.slice(0, -1) : undefined;
    // An End of File chunk is first looked for at the end, both ways (as Codex looks for it), only then from lineIndex.
    const seek = chunk.isEndOfFile ? [seekAtEnd, seekFrom] : [seekFrom];
    let pattern = whole;
    let found = -1;
    for (const inPlace of seek) {
      found = inPlace(lines, whole, lineIndex);
      if (found === -1 && trimmed !== undefined) {
        found = inPlace(lines, trimmed, lineIndex);
        if (found !== -1) pattern = trimmed;
      }
      if (found !== -1) break;
    }
    if (found === -1) throw new ChunkNotFound(chunk, index, null, lineIndex);
    const endNew = pattern === trimmed && chunk.newLines[chunk.newLines.length - 1] === '' ? chunk.newLines.length - 1 : chunk.newLines.length;
    // Each run of changes between the chunk's context lines is its own replacement (as Codex 0.169
    // counts them): lines another chunk adds at the same place then go in the chunks' order.
    let fromOld = 0; // the first old line of the run
    let fromNew = 0; // the first new line of the run
    for (let i = 0; i <= endNew; i++) {
      const k = i < endNew ? chunk.keeps[i]! : pattern.length;
      // (A kept line whose old line was the dropped last empty one is added.)
      if (i < endNew && (k < 0 || k >= pattern.length)) continue;
      if (k > fromOld || i > fromNew) out.push({ start: found + fromOld, oldLength: k - fromOld, chunk, firstNew: fromNew, endNew: i });
      fromOld = k + 1;
      fromNew = i + 1;
    }
    lineIndex = found + pattern.length;
  }
  return out;
}

/** `text` as Lines. */
export function splitKeepingEols(text: string): Lines {
  const texts: string[] = [];
  const eols: string[] = [];
  let from = 0;
  while (from < text.length) {
    const nl = text.indexOf('\n', from);
    if (nl === -1) {
      texts.push(text.slice(from));
      eols.push('');
      break;
    }
    const cr = nl > from && text.charCodeAt(nl - 1) === 13;
    texts.push(text.slice(from, cr ? nl - 1 : nl));
    eols.push(cr ? '\r\n' : '\n');
    from = nl + 1;
  }
  return { texts, eols };
}

/** The file's usual line ending (CRLF when at least as common as LF), or undefined when it has none. */
function usualEol(eols: readonly string[]): '\n' | '\r\n' | undefined {
  let lf = 0;
  let crlf = 0;
  for (const eol of eols) {
    if (eol === '\r\n') crlf++;
    else if (eol === '\n') lf++;
  }
  if (lf === 0 && crlf === 0) return undefined;
  return crlf >= lf ? '\r\n' : '\n';
}
