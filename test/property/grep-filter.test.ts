// The trigram prefilter must never hide a match: grep through the backend (filters on)
// equals a brute-force scan of every line with the same matcher, on random texts full of
// case variants and characters that Unicode case folding maps onto ASCII (K, ſ).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileLineMatcher } from '../../src/grep/matcher.ts';
import { createStateBackend } from '../../src/index.ts';

const unit = fc.constantFrom('a', 'b', 's', 'k', 'A', 'B', 'S', 'K', '\u212a', '\u017f', 'é', 'É', ' ', '\n', '\n', '\r', '(');
const text = fc.string({ unit, maxLength: 60 });
const literal = fc.string({ unit: fc.constantFrom('a', 'b', 's', 'k', 'A', 'S', 'K', '\u212a', 'é', '('), minLength: 3, maxLength: 6 });

function bruteForce(files: Record<string, string>, pattern: string, ignoreCase: boolean, fixedStrings: boolean) {
  const matcher = compileLineMatcher(pattern, { ignoreCase, fixedStrings });
  const hits: string[] = [];
  for (const path of Object.keys(files).sort()) {
    const lines = files[path]!.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    lines.forEach((line, i) => matcher.test(line.endsWith('\r') ? line.slice(0, -1) : line) && hits.push(`${path}:${i + 1}`));
  }
  return hits;
}

describe('grep trigram prefilter', () => {
  it('finds exactly what a full scan finds', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 6 }), literal, fc.boolean(), fc.boolean(), async (texts, lit, ignoreCase, asRegex) => {
        const files = Object.fromEntries(texts.map((t, i) => [`/f${i}`, t]));
        const pattern = asRegex ? `${lit.replaceAll('(', '\\(')}\\w*` : lit;
        const backend = createStateBackend({ files });
        const got = (await backend.grep(pattern, { ignoreCase, fixedStrings: !asRegex })).map((m) => `${m.path}:${m.line}`);
        expect(got).toEqual(bruteForce(files, pattern, ignoreCase, !asRegex));
      }),
      { numRuns: 1500, seed: 11 },
    );
  });

  it('sees writes made after a search (filters follow file versions)', async () => {
    const backend = createStateBackend({ files: { '/a.ts': 'nothing here\n' } });
    expect(await backend.grep('needleSync')).toEqual([]);
    await backend.writeFile('/a.ts', 'const x = needleSync();\n');
    expect((await backend.grep('needleSync')).map((m) => m.path)).toEqual(['/a.ts']);
    await backend.rename('/a.ts', '/b.ts');
    expect((await backend.grep('needle\\w+', { ignoreCase: true })).map((m) => m.path)).toEqual(['/b.ts']);
  });
});
