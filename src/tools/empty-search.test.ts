// The hints of a search that found nothing come from searches run after it: a write that lands in
// between (a parallel tool call's) must not turn them into a wrong statement about the call.
import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../backend/state-backend.ts';
import type { Backend } from '../backend/types.ts';
import { globNothingFound, grepNothingFound, type GrepCall } from './empty-search.ts';

/** `backend`, where `land` runs once, right before the first search that `when` picks. */
function landingBefore(backend: Backend, method: 'grep' | 'glob', when: (options: Record<string, unknown>) => boolean, land: () => Promise<unknown>): Backend {
  let landed = false;
  return new Proxy(backend, {
    get(target, key, receiver) {
      if (key !== method) return Reflect.get(target, key, receiver);
      return async (pattern: string, options: Record<string, unknown>) => {
        if (!landed && when(options)) {
          landed = true;
          await land();
        }
        return (target[method] as (p: string, o: unknown) => Promise<unknown>)(pattern, options);
      };
    },
  });
}

const call = (pattern: string, change: Partial<GrepCall> = {}): GrepCall => ({
  pattern,
  base: '/',
  glob: undefined,
  ignoreCase: false,
  fixedStrings: false,
  respectGitIgnore: true,
  outputMode: 'files_with_matches',
  context: 0,
  ...change,
});

describe('hints after a search that found nothing', () => {
  it('grep: the ignore_case hint, given while nothing matches, and left out once the pattern matches as typed', async () => {
    const backend = createStateBackend({ files: { '/a.txt': 'Hello\n' } });
    expect(await grepNothingFound(backend, call('hello'), [], 0)).toBe(
      'No matches found for "hello" in /. Ignoring case (ignore_case: true), it matches 1 file, e.g. /a.txt.',
    );
    const raced = landingBefore(
      backend,
      'grep',
      (o) => o.ignoreCase === true,
      () => backend.writeFile('/a.txt', 'hello\n'),
    );
    expect(await grepNothingFound(raced, call('hello'), [], 0)).toBe('No matches found for "hello" in /.');
  });

  it('grep: the fixed_strings hint, the same way', async () => {
    const backend = createStateBackend({ files: { '/a.txt': 'f(x)\n' } });
    expect(await grepNothingFound(backend, call('f(x)'), [], 0)).toMatch(/Taken literally \(fixed_strings: true\), the pattern matches 1 file/);
    const raced = landingBefore(
      backend,
      'grep',
      (o) => o.fixedStrings === true,
      () => backend.writeFile('/b.txt', 'fx\n'),
    );
    expect(await grepNothingFound(raced, call('f(x)'), [], 0)).toBe('No matches found for "f(x)" in /.');
  });

  it('glob: the any-depth hint, the same way', async () => {
    const backend = createStateBackend({ files: { '/src/a.ts': '' } });
    expect(await globNothingFound(backend, '*.ts', '/', true, 0)).toMatch(/"\*\*\/\*\.ts" matches at any depth: 1 file, e\.g\. \/src\/a\.ts/);
    const raced = landingBefore(
      backend,
      'glob',
      () => true,
      () => backend.writeFile('/b.ts', ''),
    );
    expect(await globNothingFound(raced, '*.ts', '/', true, 0)).toBe('No files found matching "*.ts" in /.');
  });

  it('a glob with a directory: the files below it at any depth, or the directory itself deeper than the base (glob and grep)', async () => {
    const backend = createStateBackend({ files: { '/proj/src/a.ts': 'let a;\n', '/proj/src/deep/b.ts': 'let b;\n' } });
    expect(await globNothingFound(backend, 'src/*.ts', '/', true, 0)).toBe(
      'No files found matching "src/*.ts" in /. The pattern is matched relative to /, so its directories must start there; "**/src/*.ts" finds them at any depth: 1 file, e.g. /proj/src/a.ts. Retry with pattern "**/src/*.ts".',
    );
    expect(await globNothingFound(backend, 'proj/*.ts', '/', true, 0)).toMatch(
      /"proj\/\*\*\/\*\.ts" matches at any depth: 2 files, e\.g\. \/proj\/src\/a\.ts\. Retry with pattern "proj\/\*\*\/\*\.ts"\.$/,
    );
    expect(await grepNothingFound(backend, call('let', { glob: 'src/*.ts' }), [], 0)).toBe(
      'No matches found for "let" in / (files matching "src/*.ts"). The glob is matched relative to /, so its directories must start there; "**/src/*.ts" finds them at any depth: 1 file, e.g. /proj/src/a.ts. Retry with glob "**/src/*.ts".',
    );
    expect(await grepNothingFound(backend, call('let', { glob: 'proj/*.ts' }), [], 0)).toMatch(
      /The glob matches at one directory depth only .*Retry with glob "proj\/\*\*\/\*\.ts"\.$/,
    );
    // Nothing there at any depth: no hint.
    expect(await globNothingFound(backend, 'lib/*.ts', '/', true, 0)).toBe('No files found matching "lib/*.ts" in /.');
  });
});

describe("hints for a model's slips", () => {
  const backend = createStateBackend({ files: { '/src/index.ts': 'export const add = 1;\n', '/src/lib/util.ts': 'add\n', '/README.md': 'x\n' } });

  it('grep: a flag typed into the pattern, with what the argument for it is', async () => {
    expect(await grepNothingFound(backend, call('-n add'), [], 0)).toBe(
      'No matches found for "-n add" in /. "-n" looks like a command-line flag, but the whole text is the pattern; "add" alone matches 2 files, e.g. /src/index.ts. Retry with pattern "add" (for -n, pass output_mode: "content").',
    );
    expect(await grepNothingFound(backend, call('-w -i ADD'), [], 0)).toBe('No matches found for "-w -i ADD" in /.');
    expect(await grepNothingFound(backend, call('--fixed-strings add'), [], 0)).toContain(
      'Retry with pattern "add" (for --fixed-strings, pass fixed_strings: true).',
    );
    // A flag whose meaning no argument gives (-v inverts): no hint that would find the opposite.
    expect(await grepNothingFound(backend, call('-v add'), [], 0)).toBe('No matches found for "-v add" in /.');
    // An argument already in effect is not asked for again; a flag grep needs no argument for names none.
    expect(await grepNothingFound(backend, call('-n add', { outputMode: 'content' }), [], 0)).toMatch(/Retry with pattern "add"\.$/);
    expect(await grepNothingFound(backend, call('-rn add'), [], 0)).toMatch(/Retry with pattern "add" \(for -r -n, pass output_mode: "content"\)\.$/);
    expect(await grepNothingFound(backend, call('-r -n add'), [], 0)).toMatch(/Retry with pattern "add" \(for -r -n, pass output_mode: "content"\)\.$/);
  });

  it('grep: flags that ask for one output mode name it once, as grep decides (-l over -c over -n); -i and -F search the rest as they say', async () => {
    const retry = async (pattern: string, change: Partial<GrepCall> = {}) =>
      /Retry with (.*)\.$/.exec(await grepNothingFound(backend, call(pattern, change), [], 0))?.[1];
    expect(await retry('-n -c add')).toBe('pattern "add" (for -n -c, pass output_mode: "count")');
    expect(await retry('-nc add')).toBe('pattern "add" (for -n -c, pass output_mode: "count")');
    expect(await retry('-n -l add')).toBe('pattern "add"'); // files_with_matches is in effect
    expect(await retry('-n -l add', { outputMode: 'content' })).toBe('pattern "add" (for -n -l, pass output_mode: "files_with_matches")');
    expect(await retry('-l -c add', { outputMode: 'files_with_matches' })).toBe('pattern "add"');
    // -i: the rest matches only ignoring case.
    expect(await retry('-i ADD')).toBe('pattern "ADD" (for -i, pass ignore_case: true)');
    expect(await retry('-i ADD', { ignoreCase: true })).toBe('pattern "ADD"');
    // -F: the rest matches only as text.
    expect(await retry('-F add = 1')).toBe('pattern "add = 1" (for -F, pass fixed_strings: true)');
    expect(await retry('-F a.d')).toBeUndefined();
    // Context: the number after -A, -B or -C (or in it), the largest; context is shown in content mode.
    expect(await retry('-C 2 add')).toBe('pattern "add" (for -C, pass output_mode: "content", context: 2)');
    expect(await retry('-A3 -B 1 add')).toBe('pattern "add" (for -A -B, pass output_mode: "content", context: 3)');
    expect(await retry('--context=2 add', { outputMode: 'content', context: 2 })).toBe('pattern "add"');
    expect(await retry('-rnC2 add')).toBe('pattern "add" (for -r -n -C, pass output_mode: "content", context: 2)');
    // Under -l or -c, context shows nothing: not asked for. A flag typed twice is named once.
    expect(await retry('-l -C 3 add', { outputMode: 'content' })).toBe('pattern "add" (for -l -C, pass output_mode: "files_with_matches")');
    expect(await retry('-c -A 2 add')).toBe('pattern "add" (for -c -A, pass output_mode: "count")');
    expect(await retry('-nn add')).toBe('pattern "add" (for -n, pass output_mode: "content")');
    // Letters by the thousand are no command line: no hint repeating them.
    expect(await retry(`-${'n'.repeat(10_000)} add`)).toBeUndefined();
    // Not flags, or no number where one belongs: the pattern is searched as it is, no hint.
    for (const pattern of ['-C add', '-Cx add', '-2 add', '-n', '-n ', '--count=2 add', '-w add', '-Cn2 add'])
      expect(await retry(pattern), pattern).toBeUndefined();
  });

  it("glob: a directory's path lists the files in it; a pattern in the wrong case names the files it would find", async () => {
    expect(await globNothingFound(backend, 'src/', '/', true, 0)).toBe(
      'No files found matching "src/" in /. glob matches files, not directories; "src/**" matches the 2 files in it, e.g. /src/index.ts. Retry with pattern "src/**".',
    );
    expect(await globNothingFound(backend, '**/*.TS', '/', true, 0)).toBe(
      'No files found matching "**/*.TS" in /. glob matches letters in their case; in either case the pattern matches 2 files, e.g. /src/index.ts. Retry with the case those names have.',
    );
    expect(await globNothingFound(backend, '**/*.py', '/', true, 0)).toBe('No files found matching "**/*.py" in /.');
  });

  it('glob: a name typed in another Unicode form (NFC é where the file has e + U+0301, as macOS writes names) names the pattern that finds it, with its code points', async () => {
    const named = createStateBackend({ files: { '/docs/cafe\u0301.txt': 'x', '/docs/na\u00efve.txt': 'y' } });
    expect(await globNothingFound(named, '**/caf\u00e9.txt', '/', true, 0)).toBe(
      'No files found matching "**/caf\u00e9.txt" in /. glob compares names code point by code point, and the names here write accented letters in another Unicode form (NFD): in that form the pattern matches 1 file, e.g. /docs/cafe\u0301.txt. Retry with pattern "**/cafe\\u0301.txt", written with these JSON escapes.',
    );
    expect(await globNothingFound(named, 'docs/nai\u0308ve.txt', '/', true, 0)).toContain(
      '(NFC): in that form the pattern matches 1 file, e.g. /docs/na\u00efve.txt. Retry with pattern "docs/na\\u00efve.txt", written',
    );
    // Nothing to find in either form: no hint.
    expect(await globNothingFound(named, '**/th\u00e9.txt', '/', true, 0)).toBe('No files found matching "**/th\u00e9.txt" in /.');
  });

  it('glob: the pattern in the other Unicode form is not offered clipped (its "\u2026" would find nothing)', async () => {
    const dir = `/${'d'.repeat(120)}`;
    const named = createStateBackend({ files: { [`${dir}/cafe\u0301.txt`]: 'x' } });
    const hint = await globNothingFound(named, `${dir.slice(1)}/caf\u00e9.txt`, '/', true, 0);
    expect(hint).toContain('in that form the pattern matches 1 file');
    expect(hint).not.toContain('\\u2026');
    expect(hint).toMatch(/Retry with the pattern written in NFD\.$/);
  });
});
