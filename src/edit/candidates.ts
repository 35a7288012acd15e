/**
 * "Closest lines" for an ENOMATCH message: the file lines most similar to
 * old_string's first non-blank line.
 *
 * Linear and capped: each distinctive token of that line is located with
 * `indexOf` (at most MAX_HITS_PER_TOKEN hits each), lines are ranked by the
 * tokens they contain, rare tokens weighing most, and only the best MAX_RERANK
 * lines get an edit-distance comparison on their first MAX_COMPARE characters.
 * A token no line holds (a typo) is looked for by its pieces instead.
 */
import { countNewlines } from '../text.ts';

export interface CandidateLine {
  line: number; // 1-based
  text: string; // the line without its line ending
  /** Trimmed, the line equals old_string's first non-blank line. */
  exact: boolean;
}

const MAX_TOKENS = 8;
const MAX_HITS_PER_TOKEN = 2000;
const MAX_RERANK = 24;
const MAX_COMPARE = 200;
const MIN_SIMILARITY = 0.3;
const TOKEN_RE = /[\p{L}\p{N}_$]{2,}/gu;

/** Levenshtein distance with a single rolling row. */
function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j]!;
      row[j] = Math.min(up + 1, row[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return row[b.length]!;
}

function similarity(a: string, b: string): number {
  const x = a.slice(0, MAX_COMPARE);
  const y = b.slice(0, MAX_COMPARE);
  const len = Math.max(x.length, y.length);
  return len === 0 ? 1 : 1 - editDistance(x, y) / len;
}

/** Start offsets of the lines holding `token` (one per line, at most MAX_HITS_PER_TOKEN): one indexOf walk. */
function lineStartsWith(text: string, token: string): number[] {
  const starts: number[] = [];
  let at = text.indexOf(token);
  while (at !== -1 && starts.length < MAX_HITS_PER_TOKEN) {
    const start = text.lastIndexOf('\n', at - 1) + 1;
    starts.push(start);
    const end = text.indexOf('\n', at);
    if (end === -1) break;
    at = text.indexOf(token, end + 1); // one hit per line is enough
  }
  return starts;
}

/**
 * Adds to `ranks` (line start offset -> rank) the sum of the weights of the `tokens` on the line. A token weighs its
 * length times its rarity, so one rare token (`value_2499`) outranks common ones (`const`, `compute`)
 * that every line holds, also on lines past the hit cap of the common ones.
 */
function rankLines(text: string, tokens: readonly string[], ranks: Map<number, number>): string[] {
  const missing: string[] = [];
  for (const token of tokens) {
    const starts = lineStartsWith(text, token);
    if (starts.length === 0) missing.push(token);
    const weight = token.length * Math.log2(1 + MAX_HITS_PER_TOKEN / Math.max(1, starts.length));
    for (const start of starts) ranks.set(start, (ranks.get(start) ?? 0) + weight);
  }
  return missing; // the tokens no line holds
}

/** Up to `max` distinct pieces of `key`, `size` characters each, spread along it. */
function piecesOf(key: string, size: number, max = MAX_TOKENS): string[] {
  const starts = Math.max(1, key.length - size + 1);
  const step = Math.max(1, Math.floor(starts / max));
  const pieces = new Set<string>();
  for (let at = 0; at < starts && pieces.size < max; at += step) {
    const piece = key.slice(at, at + size);
    if (piece.trim().length === size) pieces.add(piece); // (a piece with a space matches everywhere)
  }
  return [...pieces];
}

/** Up to `max` candidate lines, most similar first. */
export function closestLines(text: string, oldString: string, max = 3): CandidateLine[] {
  const key = oldString
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  if (key === undefined || text === '') return [];
  // Words of two characters or more; a line with none (`x = 2`, `} else {`) is found by its words as spaces part them.
  let tokens = [...new Set(key.match(TOKEN_RE) ?? key.split(/\s+/))].sort((a, b) => b.length - a.length).slice(0, MAX_TOKENS);
  if (tokens.length === 0) tokens = [key.slice(0, 50)];
  const ranks = new Map<number, number>();
  const missing = rankLines(text, tokens, ranks);
  // A token no line holds is a typo (`rendrWidgt`, `99999`): its pieces find the lines it was meant
  // for. When no line holds any token (`bax` for `baz`), pieces of the whole line find them, and
  // lines are judged by similarity alone (a common piece says little).
  const byPieces = missing.length === tokens.length;
  const pieces = byPieces
    ? piecesOf(key, key.length >= 6 ? 3 : 2)
    : missing.flatMap((t) => piecesOf(t, t.length >= 4 ? 3 : 2, Math.ceil(MAX_TOKENS / missing.length)));
  rankLines(text, pieces.slice(0, MAX_TOKENS), ranks);
  const totalWeight = tokens.reduce((sum, t) => sum + t.length, 0);

  const ranked = [...ranks.entries()]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, MAX_RERANK)
    .map(([start]) => {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      const raw = text.slice(start, end).replace(/\r$/, '');
      const trimmed = raw.trim();
      // The share of old_string's tokens on the line: a long line that holds them all is close even
      // when its other text makes the edit distance large; among equally similar lines, it ranks first.
      const cover = tokens.reduce((sum, t) => sum + (raw.includes(t) ? t.length : 0), 0) / totalWeight;
      const score = byPieces ? similarity(trimmed, key) : Math.max(similarity(trimmed, key), cover);
      return { start, raw, exact: trimmed === key, score, cover };
    })
    .filter((c) => c.score >= MIN_SIMILARITY)
    .sort((a, b) => Number(b.exact) - Number(a.exact) || b.score - a.score || b.cover - a.cover || a.start - b.start)
    .slice(0, max);

  // Line numbers in one forward pass, then back to best-first order.
  const lines = new Map<number, number>();
  let line = 1;
  let from = 0;
  for (const start of ranked.map((c) => c.start).sort((a, b) => a - b)) {
    line += countNewlines(text, from, start);
    from = start;
    lines.set(start, line);
  }
  return ranked.map((c) => ({ line: lines.get(c.start)!, text: c.raw, exact: c.exact }));
}

/** Where a multi-line search text departs from the file at a line that matches its first non-blank line. */
export interface Departure {
  /** The first line of the search text that is not the file's. */
  wanted: string;
  /** The file's line there (1-based), or 0 when the search text runs past the file's end (or, `beforeStart`, its start). */
  line: number;
  /** That line of the file, without its ending ('' when past the end). */
  found: string;
  /** The file line its first non-blank line was laid on. */
  start: number;
  /** The search text's leading blank lines come before the file's first line. */
  beforeStart?: true;
}

/** Lines compared in all by `departure` (each start costs at most the search text's length). */
const MAX_DEPARTURE_COMPARISONS = 2_000_000;

/**
 * Where `oldString` departs from `text` when its first non-blank line is laid on each file line
 * that equals it (trimmed): the place that matches longest (the first such place on a tie).
 * Lines are compared trimmed first (a correction would have absorbed indentation alone), and a
 * place whose lines all match so is preferred: its first line that differs as it is is reported.
 * Leading blank lines of `oldString` are compared too, after the lines below the first.
 * Null when no line departs. Linear in the file, and at most MAX_DEPARTURE_COMPARISONS lines compared.
 */
export function departure(text: string, oldString: string): Departure | null {
  const wanted = oldString.split('\n').map((l) => l.replace(/\r$/, ''));
  if (wanted.length > 1 && wanted[wanted.length - 1] === '') wanted.pop();
  const first = wanted.findIndex((l) => l.trim() !== '');
  if (first === -1 || wanted.length === 1) return null;
  const key = wanted[first]!.trim();
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop(); // (the empty string after a final line ending is no line)
  const starts: number[] = [];
  for (const [i, line] of lines.entries()) if (line.trim() === key) starts.push(i + 1);
  if (starts.length === 0) return null;
  // The search text's lines below its first non-blank one, then the blank ones above it.
  const order = [...Array.from({ length: wanted.length - first - 1 }, (_, k) => first + 1 + k), ...Array.from({ length: first }, (_, k) => k)];
  const at = (line: number) => (line >= 1 ? lines[line - 1]?.replace(/\r$/, '') : undefined);
  /** How many of `order` match at `start` before one does not, and that one (null: all match). */
  const walk = (start: number, same: (s: string) => string): { matched: number; gone: Departure | null } => {
    for (const [n, i] of order.entries()) {
      const line = start + i - first;
      const found = at(line);
      if (found !== undefined && same(found) === same(wanted[i]!)) continue;
      const gone: Departure = { wanted: wanted[i]!, line: found === undefined ? 0 : line, found: found ?? '', start };
      if (found === undefined && line < 1) gone.beforeStart = true;
      return { matched: n, gone };
    }
    return { matched: order.length, gone: null };
  };
  let budget = Math.max(MAX_DEPARTURE_COMPARISONS, order.length);
  let best: { matched: number; gone: Departure | null } | null = null;
  const full: number[] = []; // places whose lines all match trimmed
  for (const start of starts) {
    if (budget < order.length) break;
    const result = walk(start, (s) => s.trim());
    budget -= result.matched + 1;
    if (result.gone === null) full.push(start);
    else if (best === null || result.matched > best.matched) best = result;
  }
  if (full.length === 0) return best?.gone ?? null;
  // Indentation alone differs somewhere: the first line that differs as it is, at the place that matches longest.
  let closest: { matched: number; gone: Departure | null } | null = null;
  for (const start of full) {
    const result = walk(start, (s) => s.trimEnd());
    if (result.gone === null) return null;
    if (closest === null || result.matched > closest.matched) closest = result;
  }
  return closest!.gone;
}
