// A patch updating one file in several sections gives what the same sections give as patches of
// their own, one after another: the file kept as lines between sections reads as its text would.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../backend/state-backend.ts';
import { createTools } from '../tools/create-tools.ts';

const section = (from: string, to: string) => `*** Update File: f.txt\n@@\n-${from}\n+${to}\n`;

describe('apply_patch sections of one file', () => {
  it.each([
    ['a line ending in a lone CR', 'a\nb\r'],
    ['CRLF lines', 'a\r\nb\r\n'],
    ['no final line ending', 'a\nb'],
  ])('as one patch or as several: %s', async (_label, text) => {
    const sections = [section('a', 'A'), section('b', 'c')];
    const one = createStateBackend({ files: { '/f.txt': text } });
    expect((await createTools(one, { dialect: 'openai' }).run('apply_patch', { input: `*** Begin Patch\n${sections.join('')}*** End Patch` })).isError).toBe(
      false,
    );
    const several = createStateBackend({ files: { '/f.txt': text } });
    const tools = createTools(several, { dialect: 'openai' });
    for (const s of sections) expect((await tools.run('apply_patch', { input: `*** Begin Patch\n${s}*** End Patch` })).isError).toBe(false);
    expect(await one.readText('/f.txt')).toBe(await several.readText('/f.txt'));
  });

  it('a section does not find lines an earlier section replaced (found leniently, then changed in place)', async () => {
    const backend = createStateBackend({ files: { '/f.txt': 'x \ny\n' } });
    const tools = createTools(backend, { dialect: 'openai' });
    const result = await tools.run('apply_patch', { input: `*** Begin Patch\n${section('x', 'p\n+q')}${section('x', 'z')}*** End Patch` });
    expect(result.isError).toBe(true);
    expect(result.text).toContain('Failed to find expected lines in /f.txt');
    expect(await backend.readText('/f.txt')).toBe('x \ny\n');
  });

  it('any sections, matched exactly or leniently, as one patch or as several', async () => {
    const line = fc.constantFrom('a', 'b', 'c', 'a ', ' b', 'c\t', '');
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.array(line, { maxLength: 3 })), { minLength: 1, maxLength: 6 }),
        async (lines, lastEol, edits) => {
          const text = lines.join('\n') + (lastEol ? '\n' : '');
          const sections = edits.map(([from, to]) => `*** Update File: f.txt\n@@\n-${from}\n${to.map((l) => `+${l}\n`).join('')}`);
          const one = createStateBackend({ files: { '/f.txt': text } });
          const whole = await createTools(one, { dialect: 'openai' }).run('apply_patch', { input: `*** Begin Patch\n${sections.join('')}*** End Patch` });
          const several = createStateBackend({ files: { '/f.txt': text } });
          const tools = createTools(several, { dialect: 'openai' });
          let failed = false;
          for (const s of sections) {
            if ((await tools.run('apply_patch', { input: `*** Begin Patch\n${s}*** End Patch` })).isError) {
              failed = true;
              break;
            }
          }
          expect(whole.isError).toBe(failed);
          if (!failed) expect(await one.readText('/f.txt')).toBe(await several.readText('/f.txt'));
          else expect(await one.readText('/f.txt')).toBe(text);
        },
      ),
      { numRuns: 300 },
    );
  });
});
