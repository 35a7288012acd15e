// A patch updating one file in several sections gives what the same sections give as patches of
// their own, one after another: the file kept as lines between sections reads as its text would.
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
});
