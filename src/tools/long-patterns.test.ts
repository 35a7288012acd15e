// A model's pattern of many thousand characters: a clear, short answer, never the pattern echoed
// whole (results are read by the model, which sent it) nor a crash of the regex compiler.
import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../backend/state-backend.ts';
import { createTools } from './create-tools.ts';

const long = 'z'.repeat(20_000);

describe('long patterns', () => {
  it('grep and glob that find nothing quote the pattern clipped', async () => {
    const tools = createTools(createStateBackend({ files: { '/a.txt': 'a\n' } }));
    for (const [tool, args] of [
      ['grep', { pattern: long }],
      ['grep', { pattern: 'a', glob: long }],
      ['glob', { pattern: long }],
      ['glob', { pattern: `[${long}` }],
    ] as const) {
      const result = await tools.run(tool, args);
      expect(result.text.length, `${tool} ${Object.keys(args)}`).toBeLessThan(1_000);
      expect(result.text).toContain('zzz…');
    }
  });

  it('a literal too long to match ignoring case is EINVAL saying so, in grep and in a case-blind glob', async () => {
    const tools = createTools(createStateBackend({ files: { '/a.txt': 'a\n' } }));
    const grep = await tools.run('grep', { pattern: `(?i)${long}` });
    expect(grep).toMatchObject({ isError: true, code: 'EINVAL' });
    expect(grep.text).toContain('too long to match ignoring case');
    const gemini = createTools(createStateBackend({ files: { '/a.txt': 'a\n' } }), { dialect: 'gemini' });
    const glob = await gemini.run('glob', { pattern: long });
    expect(glob).toMatchObject({ isError: true, code: 'EINVAL' });
    expect(glob.text.length).toBeLessThan(1_000);
  });

  it('a literal of ~11,000 characters, searched ignoring case in text beyond Latin-1, is EINVAL too (the compiler fails on two-byte text only)', async () => {
    const tools = createTools(createStateBackend({ files: { '/a.txt': 'a — dash 日本\n' } }));
    const grep = await tools.run('grep', { pattern: 'z'.repeat(11_000), ignore_case: true });
    expect(grep.code).toBe('EINVAL');
    expect(grep.text.length).toBeLessThan(1_000);
  });

  it("the Gemini tools' answers quote patterns and filters clipped", async () => {
    const gemini = createTools(createStateBackend({ files: { '/a.txt': 'a\n' } }), { dialect: 'gemini' });
    for (const [tool, args] of [
      ['glob', { pattern: long, case_sensitive: true }],
      ['grep_search', { pattern: 'a', include_pattern: 'y'.repeat(20_000) }],
      ['grep_search', { pattern: `a${'(?:)'.repeat(5_000)}` }],
    ] as const) {
      const result = await gemini.run(tool, args);
      expect(result.text.length, tool).toBeLessThan(1_000);
    }
  });
});
