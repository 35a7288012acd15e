/**
 * "Closest lines" for an ENOMATCH message: the file lines most similar to
 * old_string's first non-blank line.
 *
 * Linear and capped: each distinctive token of that line is located with
 * `indexOf` (at most MAX_HITS_PER_TOKEN hits each), lines are scored by the
 * tokens they contain, and only the best MAX_RERANK lines get an edit-distance
 * comparison on their first MAX_COMPARE characters. When no line holds a whole
 * token (a typo in a short line), pieces of the line find them instead.
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

/** Line start offset -> { end, weight of the distinct `tokens` found on it }: one indexOf walk per token, capped. */
function linesWith(text: string, tokens: readonly string[]): Map<number, { end: number; weight: number; seen: Set<string> }> {
  const scored = new Map<number, { end: number; weight: number; seen: Set<string> }>();
  for (const token of tokens) {
    let hits = 0;
    let at = text.indexOf(token);
    while (at !== -1 && hits < MAX_HITS_PER_TOKEN) {
      hits++;
      const start = text.lastIndexOf('\n', at - 1) + 1;
      let entry = scored.get(start);
      if (entry === undefined) {
        let end = text.indexOf('\n', at);
        if (end === -1) end = text.length;
        entry = { end, weight: 0, seen: new Set() };
        scored.set(start, entry);
      }
      if (!entry.seen.has(token)) {
        entry.seen.add(token);
        entry.weight += token.length;
      }
      at = text.indexOf(token, entry.end + 1); // one hit per line is enough
    }
  }
  return scored;
}

/** Up to MAX_TOKENS distinct pieces of `key` (3 characters, or 2 in a key under 6), spread along it. */
function piecesOf(key: string): string[] {
  const size = key.length >= 6 ? 3 : 2;
  const starts = Math.max(1, key.length - size + 1);
  const step = Math.max(1, Math.floor(starts / MAX_TOKENS));
  const pieces = new Set<string>();
  for (let at = 0; at < starts && pieces.size < MAX_TOKENS; at += step) {
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
  let tokens = [...new Set(key.match(TOKEN_RE) ?? [])].sort((a, b) => b.length - a.length).slice(0, MAX_TOKENS);
  if (tokens.length === 0) tokens = [key.slice(0, 50)];
  let scored = linesWith(text, tokens);
  // No line holds a whole token (a typo in a short line: `bax` for `baz`): find lines by its pieces,
  // then judge them by similarity alone (a common piece says little).
  const byPieces = scored.size === 0;
  if (byPieces) {
    tokens = piecesOf(key);
    scored = linesWith(text, tokens);
  }
  const totalWeight = tokens.reduce((sum, t) => sum + t.length, 0);

  const ranked = [...scored.entries()]
    .sort((a, b) => b[1].weight - a[1].weight || a[0] - b[0])
    .slice(0, MAX_RERANK)
    .map(([start, { end, weight }]) => {
      const raw = text.slice(start, end).replace(/\r$/, '');
      const trimmed = raw.trim();
      const score = byPieces ? similarity(trimmed, key) : Math.max(similarity(trimmed, key), weight / totalWeight);
      return { start, raw, exact: trimmed === key, score };
    })
    .filter((c) => c.score >= MIN_SIMILARITY)
    .sort((a, b) => Number(b.exact) - Number(a.exact) || b.score - a.score || a.start - b.start)
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
