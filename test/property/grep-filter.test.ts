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

function bruteForce(files: Record<string, string>, pattern: string, ignoreCase: boolean, fixedStrings: boolean, detail = false) {
  const matcher = compileLineMatcher(pattern, { ignoreCase, fixedStrings });
  const hits: string[] = [];
  for (const path of Object.keys(files).sort()) {
    const lines = files[path]!.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    lines.forEach((raw, i) => {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      const hit = matcher.find(line);
      if (hit) hits.push(detail ? `${path}:${i + 1}:${hit.index}:${hit.length}:${line}` : `${path}:${i + 1}`);
    });
  }
  return hits;
}

// Raw byte pieces: text, a BOM, U+FEFF and U+FFFD as text, and broken UTF-8 (a lone lead byte,
// a truncated sequence, a stray continuation) next to ASCII and to valid multi-byte characters.
const piece = fc.constantFrom(
  ...['a', 'b', 's', 'S', 'é', 'É', '\u212a', '€', '\ufffd', '\ufeff', ' ', '\n', '\r\n', '('].map((t) => [...new TextEncoder().encode(t)]),
  [0xef, 0xbb, 0xbf],
  [0xe2],
  [0xe2, 0x82],
  [0x82],
  [0xc3],
  [0xff],
);
const byteFile = fc.array(piece, { maxLength: 40 }).map((parts) => new Uint8Array(parts.flat()));
// (No line break: a pattern that needs one is refused, as it could never match a line.)
const byteLiteral = fc.string({ unit: fc.constantFrom('a', 'b', 's', 'S', 'é', '€', '\ufffd', '\ufeff', '('), minLength: 1, maxLength: 4 });

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

  it('searching bytes finds the same lines, columns and text as decoding, even around broken UTF-8', async () => {
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    await fc.assert(
      fc.asyncProperty(
        fc.array(byteFile, { minLength: 1, maxLength: 5 }),
        byteLiteral,
        fc.boolean(),
        fc.boolean(),
        async (contents, lit, ignoreCase, asRegex) => {
          const files = Object.fromEntries(contents.map((bytes, i) => [`/f${i}`, bytes]));
          // decodeText drops one leading BOM and turns broken bytes into U+FFFD.
          const texts = Object.fromEntries(
            contents.map((bytes, i) => [`/f${i}`, decoder.decode(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes)]),
          );
          const pattern = asRegex ? `${lit.replaceAll('(', '\\(')}\\w*` : lit;
          const backend = createStateBackend({ files });
          const got = (await backend.grep(pattern, { ignoreCase, fixedStrings: !asRegex })).map((m) => `${m.path}:${m.line}:${m.column}:${m.length}:${m.text}`);
          expect(got).toEqual(bruteForce(texts, pattern, ignoreCase, !asRegex, true));
        },
      ),
      { numRuns: 3000, seed: 12 },
    );
  });

  // Lines of 256 bytes and more that hold a regex's literals are tested on their bytes and only
  // decoded when they match: the same lines as decoding every one, broken UTF-8 and BOM included.
  it('tests long lines on their bytes with the same result as decoding them', async () => {
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    const longPiece = fc.oneof(
      piece,
      piece,
      fc.constantFrom('x'.repeat(300), 'ab '.repeat(90), 'é'.repeat(140), 'Sync '.repeat(60)).map((t) => [...new TextEncoder().encode(t)]),
    );
    const longFile = fc.array(longPiece, { maxLength: 12 }).map((parts) => new Uint8Array(parts.flat()));
    // Regexes with a literal inside (tested around its occurrences), some reading the whole
    // line from each one (`x.*Sync.*é`: the work bound hands the line to the whole-line test).
    const pattern = fc.constantFrom(
      'a\\w*Sync',
      'S\\w*c\\b',
      '\\bab\\s+b',
      'é+Sync',
      'b.*S',
      '^\\W*a',
      '^ab',
      'Sync $',
      'Sync\\s*$',
      '(?i)sync\\b',
      '\\w+Sync\\b',
      'x\\s*Sync',
      '[ab] Sync',
      'Sync \\w',
      '\\bSync\\B',
      'x.*Sync.*é',
      '^.*Sync .*b$',
      'b[^b]*Sync',
    );
    await fc.assert(
      fc.asyncProperty(fc.array(longFile, { minLength: 1, maxLength: 4 }), pattern, fc.boolean(), async (contents, pat, ignoreCase) => {
        const files = Object.fromEntries(contents.map((bytes, i) => [`/f${i}`, bytes]));
        const texts = Object.fromEntries(
          contents.map((bytes, i) => [`/f${i}`, decoder.decode(bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes)]),
        );
        const got = (await createStateBackend({ files }).grep(pat, { ignoreCase })).map((m) => `${m.path}:${m.line}:${m.column}:${m.length}:${m.text}`);
        expect(got).toEqual(bruteForce(texts, pat, ignoreCase, false, true));
      }),
      { numRuns: 1500, seed: 15 },
    );
    // The same line as decodeText sees: no leading BOM, no CR before the newline.
    const long = `ab ${'x'.repeat(300)} Sync `;
    const files = { '/bom.txt': new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(`${long}\r\n`)]) };
    const backend = createStateBackend({ files });
    for (const pat of ['^ab', 'Sync $', '^ab.*Sync $'])
      expect(
        (await backend.grep(pat)).map((m) => [m.line, m.text]),
        pat,
      ).toEqual([[1, long]]);
    // Each Sync reads back to the line's start before the one after the b: past the work bound.
    const many = `${'Sync '.repeat(60)}b Sync`;
    const reread = createStateBackend({ files: { '/many.txt': `${many}\n${many.replace('b', 'c')}\n` } });
    expect((await reread.grep('b[^b]*Sync')).map((m) => [m.line, m.column])).toEqual([[1, 300]]);
    // Without that bound, 200,000 occurrences each reading back ~500 KB would take hours.
    const huge = createStateBackend({ files: { '/huge.txt': `${'Sync '.repeat(200_000)}b\n` } });
    const started = performance.now();
    expect(await huge.grep('b[^b]*Sync')).toEqual([]);
    expect(performance.now() - started).toBeLessThan(2000); // a safety bound, not a speed target
  });

  // Large files are filtered per 4 KiB block: matches inside one block, across a boundary,
  // at the ends of the file, on lines spanning many blocks, and line numbers after skipped blocks.
  it('finds exactly what a full scan finds in files of many blocks', async () => {
    const filler = fc
      .tuple(fc.constantFrom('x', 'ab ', 'q\n', 'zz\r\n', 'é'), fc.integer({ min: 0, max: 3000 }))
      .map(([unit, n]) => unit.repeat(Math.ceil(n / unit.length)));
    const bit = fc.constantFrom('Syn', 'c', 'ync', 'S', 'func', 'tion', 'fun', 'ction', '\n', ' ', 'K', '\u212a', 'é', 'SYNC', 'sync');
    const big = fc.array(fc.oneof(filler, bit, bit), { minLength: 1, maxLength: 30 }).map((parts) => parts.join(''));
    const pattern = fc.oneof(
      fc.constantFrom('Sync', 'sync', 'Sync(', 'function', 'ync', 'nct', 'KSync', 'éS').map((p) => [p, true] as const),
      fc.constantFrom('func\\w*Sync', 'fun.*ync\\b', 'Syn\\w?c', 'tion\\s*S', 'ync$', '^ction').map((p) => [p, false] as const),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(big, { minLength: 1, maxLength: 3 }), pattern, fc.boolean(), async (texts, [pat, fixed], ignoreCase) => {
        const files = Object.fromEntries(texts.map((t, i) => [`/f${i}`, t]));
        const backend = createStateBackend({ files });
        const got = (await backend.grep(pat, { ignoreCase, fixedStrings: fixed })).map((m) => `${m.path}:${m.line}:${m.column}:${m.length}:${m.text}`);
        expect(got).toEqual(bruteForce(files, pat, ignoreCase, fixed, true));
      }),
      { numRuns: 400, seed: 13 },
    );
  });

  // With two literals, a hit of one counts only in blocks whose lines can reach the other.
  it('finds lines holding two literals in any blocks, whatever the lines span', async () => {
    const block = fc.record({ newlines: fc.constantFrom(0, 1, 64, 1000), size: fc.constantFrom(4096, 4096, 3000, 5000) });
    const layout = fc.record({
      blocks: fc.array(block, { minLength: 2, maxLength: 6 }),
      inserts: fc.array(fc.record({ at: fc.nat(), text: fc.constantFrom('function', 'Sync', 'functionSync', 'Sync function') }), {
        minLength: 1,
        maxLength: 4,
      }),
    });
    const pattern = fc.constantFrom('function.*Sync', 'Sync.*function', 'function\\w*Sync', 'Sync\\b.*\\bfunction');
    await fc.assert(
      fc.asyncProperty(layout, pattern, async ({ blocks, inserts }, pat) => {
        const chars: string[] = blocks.flatMap(({ newlines, size }) =>
          Array.from({ length: size }, (_, i) => ((newlines === 1 ? i === size >> 1 : newlines > 1 && i % newlines === newlines - 1) ? '\n' : 'x')),
        );
        for (const { at, text } of inserts) chars.splice(at % chars.length, text.length, ...text);
        const files = { '/big.js': chars.join('') };
        const got = (await createStateBackend({ files }).grep(pat)).map((m) => `${m.path}:${m.line}:${m.column}:${m.length}:${m.text}`);
        expect(got).toEqual(bruteForce(files, pat, false, false, true));
      }),
      { numRuns: 400, seed: 14 },
    );
  });

  it('finds a literal at every offset around a block boundary, with the right line number', async () => {
    for (const needle of ['Syn', 'Sync', 'needleSync']) {
      for (let at = 4096 - needle.length - 2; at <= 4096 + 2; at++) {
        for (const lineBreaks of [false, true]) {
          // Lines of 100 bytes (or one long line), the needle written over the filler at `at`.
          const unit = lineBreaks ? `${'-'.repeat(99)}\n` : '-'.repeat(100);
          const filler = unit.repeat(130);
          const text = filler.slice(0, at) + needle + filler.slice(at + needle.length);
          const backend = createStateBackend({ files: { '/big.txt': text } });
          for (const ignoreCase of [false, true]) {
            const got = await backend.grep(ignoreCase ? needle.toLowerCase() : needle, { ignoreCase, fixedStrings: true });
            const line = lineBreaks ? text.slice(0, at).split('\n').length : 1;
            expect(
              got.map((m) => [m.line, m.column]),
              `${needle} at ${at}`,
            ).toEqual([[line, text.split('\n')[line - 1]!.indexOf(needle)]]);
          }
        }
      }
    }
  });

  // A search indexes at most an eighth of what it searches (at least 4 MB) and scans the
  // other files without their filters: same results, and the index grows search by search.
  it('a search indexes part of a large tree (the first of a new state none), scans the rest, and finds the same', async () => {
    // Every fourth file is ASCII: searched as bytes even by an ignore-case literal with an s.
    const chunk = (i: number) =>
      i % 4 === 0
        ? `${'filler text, nothing here; '.repeat(9000)}\nline ${i}: readSync() KSync sync Sync\ntail ${i} KSYNC\n`
        : `${'filler text, nothing here; '.repeat(9000)}\nline ${i}: readSync() KSync ſync é Sync\n${i % 3 ? 'é' : ''}tail ${i} \u212aSYNC\n`;
    const files = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`/d/f${String(i).padStart(2, '0')}.txt`, chunk(i)]));
    const total = Object.values(files).reduce((n, t) => n + new TextEncoder().encode(t).length, 0);
    expect(total).toBeGreaterThan(8 * 1024 * 1024); // over twice the minimum budget
    const indexed = createStateBackend({ files, limits: { maxTotalBytes: 1 << 30 } });
    expect(await indexed.prepareSearch()).toEqual({ done: true, indexedFiles: 40 });
    const queries: Array<[string, { ignoreCase?: boolean; fixedStrings?: boolean }]> = [
      ['Sync', { fixedStrings: true }],
      ['sync', { ignoreCase: true, fixedStrings: true }], // s: may match ſ, which only text search sees
      ['ksync', { ignoreCase: true }],
      ['read\\w*\\(', {}],
      ['tail \\d+ \\W', {}],
      ['nothing', { fixedStrings: true }],
    ];
    for (const [pattern, options] of queries) {
      const fresh = createStateBackend({ files, limits: { maxTotalBytes: 1 << 30 } });
      const expected = await indexed.grep(pattern, options);
      // The first search scans every file (a fresh state: it builds no index); the second builds part of it.
      expect(await fresh.grep(pattern, options), pattern).toEqual(expected);
      expect(await fresh.grep(pattern, options), pattern).toEqual(expected);
      // The second indexed whole files, in path order, until 4 MB (here more than an eighth of the tree), and no more.
      let budget = 4 * 1024 * 1024;
      let built = 0;
      for (const path of Object.keys(files).sort()) {
        if (budget <= 0) break;
        budget -= new TextEncoder().encode(files[path]).length;
        built++;
      }
      expect(built).toBeLessThan(30);
      expect((await fresh.prepareSearch()).indexedFiles, pattern).toBe(40 - built);
    }
    // ~4 s idle; a loaded 2-core machine (other test files running) took up to 22 s of the default 30.
  }, 120_000);

  it('after a rollback or a restore, finds what the restored files hold (filters outlive trees only by version)', async () => {
    const before = { '/a.ts': 'const oldNeedle = 1;\n', '/b.ts': 'nothing\n' };
    const backend = createStateBackend({ files: before });
    const id = await backend.checkpoint();
    const snap = await backend.snapshot();
    expect((await backend.grep('oldNeedle')).map((m) => m.path)).toEqual(['/a.ts']);
    await backend.writeFile('/a.ts', 'const newNeedle = 2;\n');
    await backend.writeFile('/b.ts', 'oldNeedle moved here\n');
    expect((await backend.grep('Needle')).map((m) => m.text)).toEqual(['const newNeedle = 2;', 'oldNeedle moved here']);
    await backend.rollback(id);
    expect(await backend.grep('newNeedle')).toEqual([]);
    expect((await backend.grep('oldNeedle')).map((m) => m.path)).toEqual(['/a.ts']);
    await backend.writeFile('/a.ts', 'const newNeedle = 3;\n');
    await backend.restore(snap);
    expect(await backend.grep('newNeedle')).toEqual([]);
    expect((await backend.grep('oldNeedle')).map((m) => m.path)).toEqual(['/a.ts']);
  });

  it('sees writes made after a search (filters follow file versions)', async () => {
    const backend = createStateBackend({ files: { '/a.ts': 'nothing here\n' } });
    expect(await backend.grep('needleSync')).toEqual([]);
    await backend.writeFile('/a.ts', 'const x = needleSync();\n');
    expect((await backend.grep('needleSync')).map((m) => m.path)).toEqual(['/a.ts']);
    await backend.rename('/a.ts', '/b.ts');
    expect((await backend.grep('needle\\w+', { ignoreCase: true })).map((m) => m.path)).toEqual(['/b.ts']);
  });

  it('sees rewrites in a large tree, whether a search patches its file order or rebuilds it', async () => {
    // 200 files: a few rewrites between searches are patched into the cached order, more
    // than 200/64 make the next search rebuild it. Either way no search may use old filters.
    const names = Array.from({ length: 200 }, (_, i) => `/src/m${String(i).padStart(3, '0')}.ts`);
    const rewrite = fc.record({ file: fc.nat({ max: 199 }), needle: fc.boolean(), viaEdit: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(rewrite, { maxLength: 6 }), { minLength: 1, maxLength: 8 }), async (batches) => {
        const model = new Map(names.map((n) => [n, 'nothing here\n']));
        const backend = createStateBackend({ files: Object.fromEntries(model) });
        expect(await backend.grep('needleSync')).toEqual([]); // builds the order and every filter
        let stamp = 0; // every rewrite changes the text (an edit to the same text is refused)
        for (const batch of batches) {
          for (const { file, needle, viaEdit } of batch) {
            const path = names[file]!;
            stamp++;
            const next = needle ? `const x${stamp} = needleSync();\n` : `nothing ${stamp}\n`;
            if (viaEdit) await backend.edit(path, model.get(path)!, next);
            else await backend.writeFile(path, next);
            model.set(path, next);
          }
          const want = names.filter((n) => model.get(n)!.includes('needleSync'));
          expect((await backend.grep('needleSync')).map((m) => m.path)).toEqual(want);
        }
      }),
      { numRuns: 60, seed: 16 },
    );
  });

  it('prepareSearch indexes files ahead of the next search, a slice at a time, and again after writes', async () => {
    const files = { '/a.ts': 'const aSync = 1;\n', '/b.ts': 'bSync()\n', '/c.ts': 'nothing\n' };
    const backend = createStateBackend({ files });
    const before = await createStateBackend({ files }).grep('Sync');
    expect(await backend.prepareSearch({ maxBytes: 0 })).toEqual({ done: false, indexedFiles: 1 });
    expect(await backend.prepareSearch({ maxBytes: 1 })).toEqual({ done: false, indexedFiles: 1 });
    expect(await backend.prepareSearch({ maxBytes: 0 })).toEqual({ done: true, indexedFiles: 1 });
    expect(await backend.prepareSearch()).toEqual({ done: true, indexedFiles: 0 });
    expect(await backend.grep('Sync')).toEqual(before);
    await backend.writeFile('/b.ts', 'nothing now\n');
    await backend.writeFile('/d.ts', 'dSync\n');
    expect(await backend.prepareSearch()).toEqual({ done: true, indexedFiles: 2 });
    expect((await backend.grep('Sync')).map((m) => m.path)).toEqual(['/a.ts', '/d.ts']);
    await expect(backend.prepareSearch({ maxBytes: -1 })).rejects.toMatchObject({ code: 'EINVAL' });
    // A search builds what prepareSearch has not: nothing is left afterwards.
    await backend.writeFile('/e.ts', 'x');
    await backend.grep('Sync');
    expect(await backend.prepareSearch()).toEqual({ done: true, indexedFiles: 0 });
  });
});
