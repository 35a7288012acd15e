/**
 * "Closest lines" for an ENOMATCH message: the file lines most similar to
 * old_string's first non-blank line.
 *
 * Linear and capped: each distinctive token of that line is located with
 * `indexOf` (at most MAX_HITS_PER_TOKEN hits each), lines are scored by the
 * tokens they contain, and only the best MAX_RERANK lines get an edit-distance
 * comparison on their first MAX_COMPARE characters.
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

/** Up to `max` candidate lines, most similar first. */
export function closestLines(text: string, oldString: string, max = 3): CandidateLine[] {
  const key = oldString
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  if (key === undefined || text === '') return [];
  let tokens = [...new Set(key.match(TOKEN_RE) ?? [])].sort((a, b) => b.length - a.length).slice(0, MAX_TOKENS);
  if (tokens.length === 0) tokens = [key.slice(0, 50)];
  const totalWeight = tokens.reduce((sum, t) => sum + t.length, 0);

  // line start offset -> { end, weight of distinct tokens found on it }
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

  const ranked = [...scored.entries()]
    .sort((a, b) => b[1].weight - a[1].weight || a[0] - b[0])
    .slice(0, MAX_RERANK)
    .map(([start, { end, weight }]) => {
      const raw = text.slice(start, end).replace(/\r$/, '');
      const trimmed = raw.trim();
      const score = Math.max(similarity(trimmed, key), weight / totalWeight);
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
