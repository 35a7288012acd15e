import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../../backend/state-backend.ts';
import { createTools } from '../create-tools.ts';
import { inWordsOf } from './next-actions.ts';

describe('next actions in each dialect’s words', () => {
  it('apply_patch of a missing file does not send the model to ls or glob, which it does not have', async () => {
    const tools = createTools(createStateBackend({ files: { '/src/a.txt': 'a\n' } }), { dialect: 'openai' });
    const out = await tools.call('apply_patch', { input: '*** Begin Patch\n*** Delete File: b.txt\n*** End Patch' });
    expect(out).toMatch(/^Error: ENOENT: .*Check the path in the patch\. No file was changed\.$/);
    expect(out).not.toMatch(/\b(ls|glob|read_file)\b/);
  });

  it('every dialect rewrites the sentences that name agentvfs tools it lacks', () => {
    const sentences = 'Use ls or glob to see what exists. Use ls to see what it contains. Use read_file to read it.';
    expect(inWordsOf('openai', sentences)).not.toMatch(/\b(ls|glob|read_file)\b/);
    expect(inWordsOf('anthropic', sentences)).not.toMatch(/\b(ls|glob|read_file)\b/);
    expect(inWordsOf('mcp-filesystem', sentences)).not.toMatch(/\b(ls|glob|read_file)\b/);
    expect(inWordsOf('gemini', sentences)).not.toMatch(/\bls\b/); // Gemini CLI has glob and read_file
  });
});
