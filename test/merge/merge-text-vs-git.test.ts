// mergeText against real `git merge-file` on generated cases: a base of numbered lines, two
// sides that each change, insert or delete lines in a few places. Whenever git merges cleanly,
// mergeText must merge cleanly to the same text, and the reverse. Conflict edges may differ
// (they follow each tool's line diff), so of a conflicted text only what precedes the first
// marker is compared.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeText } from '../../src/merge/merge-text.ts';

const dir = mkdtempSync(join(tmpdir(), 'agentvfs-merge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function gitMerge(base: string, ours: string, theirs: string): { clean: boolean; text: string } {
  const [o, b, t] = ['ours', 'base', 'theirs'].map((name) => join(dir, name));
  writeFileSync(o!, ours);
  writeFileSync(b!, base);
  writeFileSync(t!, theirs);
  let clean = true;
  try {
    execFileSync('git', ['merge-file', '-L', 'ours', '-L', 'base', '-L', 'theirs', o!, b!, t!], { stdio: 'pipe' });
  } catch (error) {
    if ((error as { status?: number }).status === undefined || (error as { status: number }).status < 0) throw error;
    clean = false; // exit status = number of conflicts
  }
  return { clean, text: readFileSync(o!, 'utf8') };
}

type Change = { at: number; del: number; add: string[] };

function apply(base: string[], changes: Change[]): string[] {
  const out = [...base];
  // From the end, so earlier positions stay valid.
  for (const c of [...changes].sort((x, y) => y.at - x.at)) out.splice(Math.min(c.at, out.length), c.del, ...c.add);
  return out;
}

const change = (side: string) =>
  fc.record({
    at: fc.integer({ min: 0, max: 24 }),
    del: fc.integer({ min: 0, max: 3 }),
    // Added lines never equal a base line: where both sides add a copy of a base line beside it,
    // git's line search may break a tie another way and merge where mergeText conflicts (about 1
    // in 1,400 such merges, docs/workspaces.md). 'shared' still makes both sides add equal lines.
    add: fc.array(fc.constantFrom(`${side} x`, `${side} y`, 'shared'), { maxLength: 3 }),
  });
const changes = (side: string) => fc.uniqueArray(change(side), { maxLength: 3, selector: (c) => c.at });

describe('mergeText compared with git merge-file', () => {
  it('agrees with git on clean merges and on the text of conflicts', () => {
    let clean = 0;
    let conflicted = 0;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 24 }), changes('ours'), changes('theirs'), fc.boolean(), (n, ours, theirs, finalNewline) => {
        const baseLines = Array.from({ length: n }, (_, i) => `line ${i + 1}`);
        const join = (ls: string[]) => ls.join('\n') + (finalNewline && ls.length > 0 ? '\n' : '');
        const base = join(baseLines);
        const a = join(apply(baseLines, ours));
        const b = join(apply(baseLines, theirs));
        const git = gitMerge(base, a, b);
        const ours3 = mergeText(base, a, b);
        expect(ours3.hunks.length === 0, `git clean: ${git.clean}\n${git.text}\n--- ours:\n${ours3.text}`).toBe(git.clean);
        if (git.clean) {
          clean++;
          expect(ours3.text).toBe(git.text);
        } else {
          conflicted++;
          // Where exactly a conflict's edges fall depends on each tool's line diff: not compared.
          // Both keep every line outside the conflicts in order, so the marked text starts alike.
          expect(ours3.text.slice(0, ours3.text.indexOf('<<<<<<<'))).toBe(git.text.slice(0, ours3.text.indexOf('<<<<<<<')));
        }
      }),
      { numRuns: 300 },
    );
    // The generator must produce both kinds, or the comparison says little.
    expect(clean).toBeGreaterThan(30);
    expect(conflicted).toBeGreaterThan(30);
    // 300 runs of git merge-file: seconds alone, minutes on a loaded machine. Not a hang guard.
  }, 300_000);

  it('agrees with git on which merges are clean, in code whose lines repeat, with blocks moved', () => {
    // Code-like files: half their lines are ones code repeats (braces, blank lines, returns), so a
    // line diff has many equally short scripts to choose from, and which one it picks decides
    // whether two sides' changes touch. A seeded generator: the same cases every run.
    const common = ['}', '', '{', '  }', 'return x;', '} else {', 'break;', '});'];
    let unique = 0;
    const lineOf = fc.oneof(fc.constantFrom(...common), fc.constant(null)).map((l) => l ?? `line ${unique++}`);
    const edit = fc.record({ at: fc.nat(), del: fc.integer({ min: 0, max: 3 }), add: fc.array(lineOf, { maxLength: 3 }), move: fc.boolean() });
    const applyEdits = (base: string[], edits: { at: number; del: number; add: string[]; move: boolean }[]) => {
      const out = [...base];
      for (const e of edits) {
        const at = e.at % (out.length + 1);
        const removed = out.splice(at, e.move ? e.del + 1 : e.del, ...(e.move ? [] : e.add));
        if (e.move) out.splice((e.at * 7) % (out.length + 1), 0, ...removed);
      }
      return out;
    };
    const counts = { cases: 0, gitClean: 0, cleanWhereGitConflicts: 0, conflictWhereGitClean: 0 };
    fc.assert(
      fc.property(
        fc.array(lineOf, { minLength: 20, maxLength: 300 }),
        fc.array(edit, { minLength: 1, maxLength: 6 }),
        fc.array(edit, { minLength: 1, maxLength: 6 }),
        (baseLines, ours, theirs) => {
          const [base, a, b] = [baseLines, applyEdits(baseLines, ours), applyEdits(baseLines, theirs)].map((ls) => ls.map((l) => `${l}\n`).join('')) as [
            string,
            string,
            string,
          ];
          const git = gitMerge(base, a, b);
          const merged = mergeText(base, a, b);
          counts.cases++;
          if (git.clean) counts.gitClean++;
          if (merged.hunks.length === 0 && !git.clean) counts.cleanWhereGitConflicts++;
          if (merged.hunks.length > 0 && git.clean) counts.conflictWhereGitClean++;
          if (merged.hunks.length === 0 && git.clean) expect(merged.text).toBe(git.text);
        },
      ),
      { numRuns: 300, seed: 20261127 },
    );
    // A clean merge where git conflicts may have taken in a change twice or lost one; a conflict
    // where git merges asks a person to look for nothing. node-diff3 (before 2026-11-27): 2 and 2 of these 300.
    expect(counts.cleanWhereGitConflicts).toBe(0);
    expect(counts.conflictWhereGitClean).toBe(0);
    expect(counts.gitClean).toBeGreaterThan(50);
    expect(counts.cases - counts.gitClean).toBeGreaterThan(50);
  }, 300_000);

  it.each([
    // One side moves X above a block the other deletes: the block must not come back.
    ['a move against a removal', ['b0', 'b1', 'b2', 'b3', 'X'], ['X', 'b0', 'b1', 'b2', 'b3'], ['X']],
    ['a swap against a removal', ['alpha', 'beta'], ['alpha'], ['beta', 'alpha']],
    // Both move e, to different places: it must not appear twice.
    ['two moves of one line', ['a', 'b', 'c', 'd', 'e'], ['a', 'e', 'b', 'c', 'd'], ['a', 'b', 'c', 'e', 'd']],
  ])('in a large file, %s conflicts as git does: no lines come back, none twice', (_label, core, ours, theirs) => {
    // 2,000 lines of context around the change, as a merge that splits large files would see.
    const pad = (lines: string[]) => [...Array.from({ length: 1000 }, (_, i) => `pre ${i}`), ...lines, ...Array.from({ length: 1000 }, (_, i) => `post ${i}`)];
    const [base, a, b] = [core, ours, theirs].map((lines) => `${pad(lines).join('\n')}\n`) as [string, string, string];
    expect(gitMerge(base, a, b).clean).toBe(false);
    expect(mergeText(base, a, b).hunks.length).toBeGreaterThan(0);
  });

  it.each([
    ['a line changed on both sides', 'a\r\nb\r\nc\r\n', 'a\r\nO\r\nc\r\n', 'a\r\nT\r\nc\r\n'],
    ['the first line', 'a\r\nb\r\n', 'O\r\nb\r\n', 'T\r\nb\r\n'],
    ['LF lines', 'a\nb\nc\n', 'a\nO\nc\n', 'a\nT\nc\n'],
    // Where ours or theirs cannot tell (no lines, one line without an ending), git looks further.
    ['ours emptied a CRLF file', 'one\r\ntwo\r\n', '', 'one\r\nTWO\r\n'],
    ['ours dropped the only line ending', 'x = 1\r\n', 'x = 1', 'x = 2\r\n'],
    ['both added to an empty base', '', 'a\r\n', 'b\r\n'],
  ])('writes markers with the line endings git writes: %s', (_label, base, ours, theirs) => {
    const merged = mergeText(base, ours, theirs);
    expect(merged.hunks).toHaveLength(1);
    expect(merged.text).toBe(gitMerge(base, ours, theirs).text);
  });

  it('writes markers with the line endings git writes, in files of a few lines with any endings', () => {
    const line = fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.constantFrom('\n', '\r\n'));
    const file = fc
      .tuple(fc.array(line, { maxLength: 3 }), fc.boolean())
      .map(([ls, last]) => ls.map(([t, e], i) => (i === ls.length - 1 && !last ? t : t + e)).join(''));
    let compared = 0;
    fc.assert(
      fc.property(file, file, file, (base, ours, theirs) => {
        const merged = mergeText(base, ours, theirs);
        const git = gitMerge(base, ours, theirs);
        // Where both mark the same conflicts (edges follow each tool's line diff and may differ), the markers end as git's do.
        const lf = (text: string) => text.replace(/^(<{7} ours|={7}|>{7} theirs)\r?\n/gm, '$1\n');
        if (merged.hunks.length === 0 || lf(merged.text) !== lf(git.text)) return;
        compared++;
        expect(merged.text, JSON.stringify([base, ours, theirs])).toBe(git.text);
      }),
      { numRuns: 300 },
    );
    expect(compared).toBeGreaterThan(30);
  }, 300_000);
});
