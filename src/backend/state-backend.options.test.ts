// createStateBackend's own options: a bad one is a TypeError that names it, at construction,
// before any file exists (not files named "0", "1", "2", nor mtimes that serialize as null).
import { describe, expect, it } from 'vitest';
import { createStateBackend } from './state-backend.ts';

describe('createStateBackend options', () => {
  it('files must be an object of path → content', () => {
    for (const files of ['abc', ['a'], 42, new Map([['/q', 'x']])]) {
      expect(() => createStateBackend({ files: files as unknown as Record<string, string> })).toThrow(/options\.files must be an object of path → content/);
    }
    expect(() => createStateBackend({ files: { '/a': 1 as unknown as string } })).toThrow(/Content for \/a must be a string or a Uint8Array/);
  });

  it('now must return a finite number of ms, at every call: a write it fails changes nothing', async () => {
    expect(() => createStateBackend({ now: () => Number.NaN })).toThrow(/options\.now must return ms since epoch \(a finite number\), got NaN/);
    let broken = false;
    const b = createStateBackend({ files: { '/a': 'a' }, now: () => (broken ? Number.NaN : 1_000) });
    const before = await b.snapshot();
    broken = true;
    for (const call of [() => b.writeFile('/b', 'b'), () => b.mkdir('/d'), () => b.rename('/a', '/c/a'), () => b.edit('/a', 'a', 'z')]) {
      await expect(call()).rejects.toMatchObject({ code: 'EINVAL', message: expect.stringMatching(/got NaN\. Nothing was changed/) });
    }
    broken = false;
    expect(await b.snapshot()).toEqual(before);
    expect(() => createStateBackend({ now: 5 as unknown as () => number })).toThrow(/options\.now must be a function/);
    expect(createStateBackend({ now: () => 1_000 })).toBeDefined();
  });

  it('a limit set to undefined keeps its default, as one left out does; a bad one is still named', async () => {
    const b = createStateBackend({
      limits: { maxFiles: undefined, maxTotalBytes: undefined, maxDirectories: undefined, maxPathLength: undefined, maxFileBytes: 4 },
    });
    await b.writeFile('/a', 'abcd');
    await expect(b.writeFile('/b', 'abcde')).rejects.toMatchObject({ code: 'ETOOBIG' });
    expect(() => createStateBackend({ limits: { maxFiles: -1 } })).toThrow(/limits\.maxFiles must be a non-negative number \(or Infinity\), got -1/);
    expect(() => createStateBackend({ limits: { maxFiles: null as unknown as number } })).toThrow(/limits\.maxFiles must be .*got null/);
  });

  it('a misspelt option or limit is a TypeError naming the one meant, not a default taken without a word', () => {
    expect(() => createStateBackend({ limit: { maxFiles: 2 } } as never)).toThrow(
      'agentvfs: createStateBackend has no option "limit" (did you mean "limits"?); its options are files, cwd, limits, now, textCacheBytes.',
    );
    expect(() => createStateBackend({ limits: { maxFile: 2 } } as never)).toThrow(/^agentvfs: limits has no option "maxFile" \(did you mean "maxFiles"\?\)/);
    expect(() => createStateBackend({ limits: { max_file_bytes: 2 } } as never)).toThrow(/"max_file_bytes" \(did you mean "maxFileBytes"\?\)/);
    expect(() => createStateBackend({ colour: 'red' } as never)).toThrow(/has no option "colour"; its options are/);
    // Typing slips: two letters swapped, one dropped; none suggested for a name too far from every option.
    expect(() => createStateBackend({ limtis: {} } as never)).toThrow(/"limtis" \(did you mean "limits"\?\)/);
    expect(() => createStateBackend({ textCacheByte: 0 } as never)).toThrow(/"textCacheByte" \(did you mean "textCacheBytes"\?\)/);
    expect(() => createStateBackend({ clock: () => 0 } as never)).toThrow(/has no option "clock"; its options are/);
    expect(() => createStateBackend('x' as never)).toThrow(/createStateBackend takes an options object/);
    expect(() => createStateBackend({ limits: 5 } as never)).toThrow(/limits must be an object/);
  });
});
