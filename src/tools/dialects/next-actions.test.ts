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

  it("the edit engine's sentences name each dialect's own arguments and tools", async () => {
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]); // "café" in Latin-1
    const backend = createStateBackend({ files: { '/x.txt': 'same\n', '/c.txt': 'a\r\nb\r\na\r\nb\r\n', '/memories/m.txt': 'same\n' } });
    await backend.writeFile('/lat.txt', latin1);
    const editor = createTools(backend, { dialect: 'anthropic' });
    const patch = createTools(backend, { dialect: 'openai' });
    const gemini = createTools(backend, { dialect: 'gemini' });
    const binaryEdit = await editor.call('str_replace_based_edit_tool', { command: 'str_replace', path: '/lat.txt', old_str: 'caf', new_str: 'CAF' });
    expect(binaryEdit).toMatch(/^Error: EBINARY: .*so it is refused and the file is unchanged\. These tools cannot edit it\.$/);
    const binaryPatch = await patch.call('apply_patch', { input: '*** Begin Patch\n*** Update File: lat.txt\n@@\n-café\n+CAFE\n*** End Patch' });
    expect(binaryPatch).toMatch(/Replace the whole file with an '\*\*\* Add File:' section if that is meant\.$/);
    for (const [tool, args] of [
      ['str_replace_based_edit_tool', { command: 'str_replace', path: '/x.txt', old_str: 'same', new_str: 'same' }],
      ['memory', { command: 'str_replace', path: '/memories/m.txt', old_str: 'same', new_str: 'same' }],
    ] as const) {
      expect(await editor.call(tool, args)).toMatch(/^Error: ENOCHANGE: .*old_str and new_str are identical; nothing to change/);
    }
    const ambiguous = await gemini.call('replace', { file_path: '/c.txt', instruction: 'x', old_string: 'a\nb', new_string: 'A\nB' });
    expect(ambiguous).toMatch(/^Error: EAMBIGUOUS: .*or set allow_multiple to true to replace all 2\.$/);
    for (const out of [binaryEdit, binaryPatch]) expect(out).not.toMatch(/\b(write_file|replace_all|old_string)\b/);
    expect(ambiguous).not.toMatch(/replace_all/); // (Gemini's own argument is old_string)
  });

  it('a quota error says what the model can do: write less (or fewer new files) or ask; apply_patch can also delete files', async () => {
    const files = { '/a.txt': 'x'.repeat(100) };
    const limits = { maxTotalBytes: 150 };
    const tools = createTools(createStateBackend({ files, limits }));
    expect(await tools.call('write_file', { path: '/b.txt', content: 'y'.repeat(100) })).toMatch(
      /^Error: EQUOTA: .*Nothing was written; write less, or ask the user to free space or raise the limit\.$/,
    );
    const patch = createTools(createStateBackend({ files, limits }), { dialect: 'openai' });
    expect(await patch.call('apply_patch', { input: `*** Begin Patch\n*** Add File: b.txt\n+${'y'.repeat(100)}\n*** End Patch` })).toMatch(
      /^Error: EQUOTA: This change would bring .*Nothing was written; write less, delete files with '\*\*\* Delete File:' sections, or ask the user to free space or raise the limit\.$/,
    );
    const memory = createTools(createStateBackend({ files: { '/memories/a.md': 'x'.repeat(100) }, limits }), { dialect: 'anthropic' });
    expect(await memory.call('memory', { command: 'create', path: '/memories/b.md', file_text: 'y'.repeat(100) })).toMatch(
      /Nothing was written; write less, delete memory files no longer needed \(memory delete\), or ask the user to free space or raise the limit\.$/,
    );
    // Over the file or directory count, writing less would not help: new names are the cost.
    const full = createTools(createStateBackend({ files, limits: { maxFiles: 1 } }));
    expect(await full.call('write_file', { path: '/b.txt', content: 'y' })).toMatch(
      /^Error: EQUOTA: Creating \/b\.txt would exceed the limit of 1 files\. Nothing was written; put the content in existing files rather than new ones, or ask/,
    );
    const deep = createTools(createStateBackend({ files, limits: { maxDirectories: 1 } }), { dialect: 'openai' });
    expect(await deep.call('apply_patch', { input: '*** Begin Patch\n*** Add File: d/e/b.txt\n+y\n*** End Patch' })).toMatch(
      /Nothing was written; put new files in existing directories rather than new ones, delete files with '\*\*\* Delete File:' sections, or ask/,
    );
    // The backend's own error, for code that can remove files, still says so.
    await expect(createStateBackend({ files, limits }).writeFile('/b.txt', 'y'.repeat(100))).rejects.toThrow(
      /Nothing was written; remove files to make room\.$/,
    );
  });

  it("a file's own text quoted in an error is never reworded, only agentvfs's sentences around it", async () => {
    const backend = createStateBackend({ files: { '/notes.txt': 'intro\n' } });
    const patch = createTools(backend, { dialect: 'openai' });
    const wrap = (body: string) => `*** Begin Patch\n${body}\n*** End Patch`;
    expect((await patch.run('apply_patch', { input: wrap('*** Update File: notes.txt\n@@\n-intro\n+intro!') })).isError).toBe(false);
    await backend.writeFile('/notes.txt', 'Use ls or glob to see what exists.\nUse read_file to read it.\n');
    const stale = await patch.run('apply_patch', { input: wrap('*** Update File: notes.txt\n@@\n-intro!\n+intro?') });
    expect(stale.text).toContain('It now reads:\nUse ls or glob to see what exists.\nUse read_file to read it.\n(end of /notes.txt)');
    // The patch written against what it was shown applies.
    expect((await patch.run('apply_patch', { input: wrap('*** Update File: notes.txt\n@@\n-Use read_file to read it.\n+Use view.') })).isError).toBe(false);
    const missing = await patch.run('apply_patch', { input: wrap('*** Update File: notes.txt\n@@\n-Use ls or glob\n+x') });
    expect(missing.text).toMatch(/Closest lines in \/notes\.txt:\n +1\tUse ls or glob to see what exists\.\n/);
    expect(missing.text).not.toMatch(/read it to check/);
  });

  it('text the model sent, quoted back on an error’s first or last line, is not reworded either', async () => {
    const backend = createStateBackend({ files: { '/help.md': 'intro\n' } });
    const patch = createTools(backend, { dialect: 'openai' });
    const parse = await patch.call('apply_patch', {
      input: '*** Begin Patch\n*** Update File: help.md\n@@\nUse ls or glob to see what exists.\n+x\n*** End Patch',
    });
    expect(parse).toMatch(/^Error: EINVAL: .*'Use ls or glob to see what exists\.'/);
    const editor = createTools(backend, { dialect: 'anthropic' });
    const quoted = await editor.call('str_replace_based_edit_tool', {
      command: 'str_replace',
      path: '/help.md',
      old_str: 'If a path is wrong:\nUse ls or glob to see what exists.',
      new_str: 'x',
    });
    expect(quoted).toContain('If a path is wrong:\nUse ls or glob to see what exists.`');
    // Our own sentence, where it ends a line, is still reworded.
    expect(await editor.call('str_replace_based_edit_tool', { command: 'view', path: '/nope.md' })).not.toMatch(/\bls or glob\b/);
  });

  it('every dialect rewrites the sentences that name agentvfs tools it lacks', () => {
    const sentences = 'Use ls or glob to see what exists. Use ls to see what it contains. Use read_file to read it.';
    expect(inWordsOf('openai', sentences)).not.toMatch(/\b(ls|glob|read_file)\b/);
    expect(inWordsOf('anthropic', sentences)).not.toMatch(/\b(ls|glob|read_file)\b/);
    expect(inWordsOf('mcp-filesystem', sentences)).not.toMatch(/\b(ls|glob|read_file)\b/);
    expect(inWordsOf('gemini', sentences)).not.toMatch(/\bls\b/); // Gemini CLI has glob and read_file
  });
});
