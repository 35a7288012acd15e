// The unified diffs agentvfs gives (a merge's patch, diff() against a checkpoint, the diff an
// approval question shows) applied by real `git apply` to the files before must give the files
// after, final newlines, CRLF, BOMs, empty files and names git quotes included.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { writeDiff } from '../../src/guard/write-diff.ts';
import { createStateBackend } from '../../src/index.ts';
import { encodeText } from '../../src/text.ts';

const dir = mkdtempSync(join(tmpdir(), 'agentvfs-patch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `before` with `patch` applied by git apply (outside any repository), as a map of path → text (null: absent). */
function gitApply(before: Record<string, string | null>, patch: string, paths: string[]): Record<string, string | null> {
  const work = mkdtempSync(join(dir, 'w-'));
  for (const [path, text] of Object.entries(before)) if (text !== null) writeFileSync(join(work, path), text);
  writeFileSync(join(work, '..', `${work.split('/').pop()}.patch`), patch); // as given: git apply needs its final line break
  execFileSync('git', ['apply', '--whitespace=nowarn', join(work, '..', `${work.split('/').pop()}.patch`)], { cwd: work, stdio: 'pipe' });
  const out: Record<string, string | null> = {};
  for (const path of paths) {
    try {
      out[path] = readFileSync(join(work, path), 'utf8');
    } catch {
      out[path] = null;
    }
  }
  return out;
}

// Lines with LF or CRLF, a final newline or none, a UTF-8 BOM or none.
const text = fc
  .tuple(fc.array(fc.constantFrom('a', 'b', 'c', 'd', '', 'e\r'), { maxLength: 8 }), fc.boolean(), fc.boolean())
  .map(([lines, finalNewline, bom]) => (bom ? '\uFEFF' : '') + lines.join('\n') + (finalNewline && lines.length > 0 ? '\n' : ''));

describe('patches compared with git apply', () => {
  it("a merge's patch and diff() turn the files before into the files after, final newlines included", async () => {
    mkdirSync(dir, { recursive: true });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(text, text), { minLength: 1, maxLength: 3 }), async (pairs) => {
        const names = pairs.map((_, i) => `f${i}.txt`);
        const before = Object.fromEntries(pairs.map(([a], i) => [names[i]!, a]));
        const main = createStateBackend({ files: Object.fromEntries(names.map((n) => [`/${n}`, before[n]!])) });
        const fork = await main.fork();
        for (const [i, [, b]] of pairs.entries()) await fork.writeFile(`/${names[i]}`, b);
        const checkpoint = await main.checkpoint();
        const { merged, patch } = await main.merge(fork);
        expect((await main.diff(checkpoint)).patch).toBe(patch);
        expect(merged).toEqual(names.filter((_, i) => pairs[i]![0] !== pairs[i]![1]).map((n) => `/${n}`));
        if (merged.length === 0) return;
        const after = gitApply(before, patch, names);
        for (const [i, [a, b]] of pairs.entries()) expect(after[names[i]!], `${JSON.stringify(a)} → ${JSON.stringify(b)}`).toBe(b);
      }),
      { numRuns: 150 },
    );
  }, 300_000); // a git process per run: seconds alone, longer on a loaded machine

  it('a patch of a file changed in thousands of places is a diff git applies, not a line saying the files differ', async () => {
    // 6,000 lines, every other one changed: 6,000 changed lines, three times the bound the
    // differ once had (past it, the patch only said the files differ).
    const before = Array.from({ length: 6000 }, (_, i) => `line ${i}\n`).join('');
    const after = Array.from({ length: 6000 }, (_, i) => (i % 2 === 0 ? `line ${i}\n` : `changed ${i}\n`)).join('');
    const main = createStateBackend({ files: { '/big.txt': before } });
    const fork = await main.fork();
    await fork.writeFile('/big.txt', after);
    const { patch } = await main.merge(fork);
    expect(patch.split('\n').filter((l) => l.startsWith('-line ')).length).toBe(3000);
    expect(patch.split('\n').filter((l) => l.startsWith('+changed ')).length).toBe(3000);
    expect(gitApply({ 'big.txt': before }, patch, ['big.txt'])['big.txt']).toBe(after);
  });
});

// Names git quotes in a diff (a tab, a quote) or not (a space, a non-ASCII letter). (A backslash
// separates directories in a backend path: writeDiff alone gets one.)
const NAMES = ['f.txt', 'tab\there', 'say "hi"', 'sp ace é'];
// A file's content or its absence; lines may end in U+FDD0 (a noncharacter, but text).
// ...or binary (a NUL): the patch names it on a line of its own, which git apply passes over.
const maybeText = fc.option(fc.oneof(text, fc.constantFrom('', 'ok\uFDD0\n', 'ok\uFDD0', 'a\uFDD0\nb\n', '\0bin\n', '\0other\n')), { nil: null });
const binary = (t: string | null) => t?.includes('\0') === true;
const trees = fc.array(fc.tuple(maybeText, maybeText), { minLength: NAMES.length, maxLength: NAMES.length });

describe('patches compared with git apply: files created and removed, empty ones too, and names git quotes', () => {
  it("a merge's patch", async () => {
    await fc.assert(
      fc.asyncProperty(trees, async (pairs) => {
        const before = Object.fromEntries(NAMES.map((n, i) => [n, pairs[i]![0]]));
        const main = createStateBackend({ files: Object.fromEntries(NAMES.filter((n) => before[n] !== null).map((n) => [`/${n}`, before[n]!])) });
        const fork = await main.fork();
        for (const [i, [a, b]] of pairs.entries()) {
          if (b !== null) await fork.writeFile(`/${NAMES[i]}`, b);
          else if (a !== null) await fork.remove(`/${NAMES[i]}`);
        }
        const { merged, patch } = await main.merge(fork);
        expect(merged).toEqual(
          NAMES.filter((_, i) => pairs[i]![0] !== pairs[i]![1])
            .map((n) => `/${n}`)
            .sort(),
        );
        if (merged.length === 0) return;
        // (Binary files alone: nothing for git apply, which refuses a patch with no diff.)
        const after = patch.includes('diff --git ') ? gitApply(before, patch, NAMES) : before;
        for (const [i, [a, b]] of pairs.entries()) {
          expect(after[NAMES[i]!], `${JSON.stringify(a)} → ${JSON.stringify(b)}`).toBe(binary(a) || binary(b) ? a : b);
        }
      }),
      { numRuns: 200 },
    );
  }, 300_000); // a git process per run: seconds alone, longer on a loaded machine

  it('the diff an approval question shows', () => {
    fc.assert(
      fc.property(fc.constantFrom(...NAMES, 'back\\slash'), maybeText, maybeText, (name, a, b) => {
        fc.pre(a !== b && !binary(a) && !binary(b)); // (a question names binary content in words)
        const diff = writeDiff(`/${name}`, a === null ? null : encodeText(a), b);
        expect(gitApply({ [name]: a }, `${diff}\n`, [name])[name], `${JSON.stringify(a)} → ${JSON.stringify(b)}`).toBe(b);
      }),
      { numRuns: 150 },
    );
  }, 300_000); // a git process per run: seconds alone, longer on a loaded machine

  it("the diff a patch's move asks about: git's rename, changed or not, after the removal of a file it replaces", () => {
    fc.assert(
      fc.property(fc.constantFrom(...NAMES), text, fc.option(text, { nil: null }), text, (name, a, replaced, b) => {
        fc.pre(!binary(a) && !binary(b) && (replaced === null || !binary(replaced)));
        const to = `moved-${name}`;
        const rename = writeDiff(`/${to}`, encodeText(a), b, `/${name}`);
        const diff = replaced === null ? rename : `${writeDiff(`/${to}`, encodeText(replaced), null)}\n${rename}`;
        const after = gitApply({ [name]: a, [to]: replaced }, `${diff}\n`, [name, to]);
        expect(after, `${JSON.stringify(a)} → ${JSON.stringify(b)} over ${JSON.stringify(replaced)}`).toEqual({ [name]: null, [to]: b });
      }),
      { numRuns: 100 },
    );
  }, 300_000);
});
