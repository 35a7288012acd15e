import { describe, expect, it } from 'vitest';
import { createSession, createTools, type ApprovalRequest, type DialectName, type ToolEvent, type ToolsOptions } from '../../src/index.ts';
import type { BackendFactory } from './harness.ts';

const files = {
  '/a.txt': 'one\ntwo\nthree\n',
  '/src/b.ts': 'export const b = 2;\n',
  '/old.txt': 'old\n',
  '/memories/notes.md': 'remember\n',
  '/secret/key.txt': 'hunter2\n',
};

/** A call, with the reads the session makes first (so a write is not refused as unread). */
interface Case {
  dialect: DialectName;
  name: string;
  args: Record<string, unknown>;
  before?: Array<[string, Record<string, unknown>]>;
}

const CASES: Record<string, Case> = {
  'write_file, a new file': { dialect: 'agentvfs', name: 'write_file', args: { path: '/new/c.txt', content: 'c\n' } },
  'write_file over a file read': {
    dialect: 'agentvfs',
    name: 'write_file',
    args: { path: '/a.txt', content: 'one\n2\n' },
    before: [['read_file', { path: '/a.txt' }]],
  },
  'edit_file (a correction applied: the diff is the edit as made)': {
    dialect: 'agentvfs',
    name: 'edit_file',
    args: { path: '/a.txt', old_string: '  two', new_string: 'TWO' },
    before: [['read_file', { path: '/a.txt' }]],
  },
  'apply_patch: an add, an update and a delete': {
    dialect: 'openai',
    name: 'apply_patch',
    args: { input: '*** Begin Patch\n*** Add File: /x.txt\n+x\n*** Update File: /a.txt\n@@\n one\n-two\n+2\n*** Delete File: /old.txt\n*** End Patch' },
  },
  'the text editor str_replace': {
    dialect: 'anthropic',
    name: 'str_replace_based_edit_tool',
    args: { command: 'str_replace', path: '/src/b.ts', old_str: '= 2', new_str: '= 3' },
  },
  'the text editor insert': {
    dialect: 'anthropic',
    name: 'str_replace_based_edit_tool',
    args: { command: 'insert', path: '/a.txt', insert_line: 1, new_str: 'between' },
  },
  'memory rename': { dialect: 'anthropic', name: 'memory', args: { command: 'rename', old_path: '/memories/notes.md', new_path: '/memories/kept.md' } },
  'memory delete': { dialect: 'anthropic', name: 'memory', args: { command: 'delete', path: '/memories/notes.md' } },
  'gemini replace': { dialect: 'gemini', name: 'replace', args: { file_path: '/a.txt', old_string: 'three', new_string: '3', instruction: 'number' } },
  'gemini write_file': { dialect: 'gemini', name: 'write_file', args: { file_path: '/g.txt', content: 'g' } },
  'mcp-filesystem edit_file with two edits': {
    dialect: 'mcp-filesystem',
    name: 'edit_file',
    args: {
      path: '/a.txt',
      edits: [
        { oldText: 'one', newText: '1' },
        { oldText: 'three', newText: '3' },
      ],
    },
  },
  'mcp-filesystem create_directory': { dialect: 'mcp-filesystem', name: 'create_directory', args: { path: '/made/deep' } },
  'mcp-filesystem move_file': { dialect: 'mcp-filesystem', name: 'move_file', args: { source: '/old.txt', destination: '/src/old.txt' } },
};

/** Each question approve() gets when the call runs for real (all allowed), as a preview gives it. */
async function askedForReal(make: BackendFactory, c: Case, options: ToolsOptions = {}): Promise<Omit<ApprovalRequest, 'signal'>[]> {
  const asked: Omit<ApprovalRequest, 'signal'>[] = [];
  const tools = createTools(await make({ files }), {
    ...options,
    dialect: c.dialect,
    approve: ({ signal: _, ...request }) => (asked.push(request), { allow: true }),
  });
  for (const [name, args] of c.before ?? []) await tools.run(name, args);
  const result = await tools.run(c.name, c.args);
  expect(result.isError, result.text).toBe(false);
  expect(result.changed.length + asked.filter((a) => a.directory).length, 'the call wrote something').toBeGreaterThan(0);
  return asked;
}

export function previewSuite(make: BackendFactory) {
  describe('tools.preview (what a call would write, without writing)', () => {
    for (const [label, c] of Object.entries(CASES)) {
      it(`${label}: the changes are exactly the questions approve() gets when the call runs; nothing changes`, async () => {
        const backend = await make({ files });
        const tools = createTools(backend, { dialect: c.dialect });
        for (const [name, args] of c.before ?? []) await tools.run(name, args);
        const before = await backend.snapshot();
        const preview = await tools.preview(c.name, c.args);
        expect(preview.error).toBeUndefined();
        expect(preview.changes.length).toBeGreaterThan(0);
        expect(preview.changes).toEqual(await askedForReal(make, c));
        expect(await backend.snapshot()).toEqual(before);
        // The same call runs as previewed afterwards: the preview left the session as it was.
        const result = await tools.run(c.name, c.args);
        expect(result.isError, result.text).toBe(false);
        for (const change of preview.changes) {
          if (change.action === 'remove') expect(await backend.exists(change.path), change.path).toBe(false);
          else if (change.directory) expect((await backend.stat(change.path)).isDir).toBe(true);
          else if (change.content !== undefined) expect(await backend.readText(change.path)).toBe(change.content);
        }
      });
    }

    it('a call that would fail answers its error, as run would now, and writes nothing', async () => {
      const cases: Array<[DialectName, string, Record<string, unknown>, string, ToolsOptions?]> = [
        ['agentvfs', 'edit_file', { path: '/a.txt', old_string: 'two', new_string: '2' }, 'ENOTREAD'],
        ['agentvfs', 'write_file', { path: '/secret/x.txt', content: 'x' }, 'EACCES', { permissions: { write: ['/src/**'] } }],
        ['agentvfs', 'write_file', { path: 'C:\\src\\x.ts', content: 'x' }, 'EINVAL'],
        ['agentvfs', 'write_file', { path: '/x.txt' }, 'EINVAL'],
        ['agentvfs', 'nope', {}, 'EINVAL'],
        ['anthropic', 'str_replace_based_edit_tool', { command: 'str_replace', path: '/a.txt', old_str: 'zzz', new_str: 'y' }, 'ENOMATCH'],
        ['openai', 'apply_patch', { input: '*** Begin Patch\n*** Delete File: /gone.txt\n*** End Patch' }, 'ENOENT'],
        ['gemini', 'replace', { file_path: '/a.txt', old_string: 'zzz', new_string: 'y', instruction: 'x' }, 'ENOMATCH'],
        ['mcp-filesystem', 'move_file', { source: '/old.txt', destination: '/a.txt' }, 'EEXIST'],
      ];
      for (const [dialect, name, args, code, options] of cases) {
        const backend = await make({ files });
        const before = await backend.snapshot();
        const preview = await createTools(backend, { ...options, dialect }).preview(name, args);
        const run = await createTools(await make({ files }), { ...options, dialect }).run(name, args);
        expect(run.code, run.text).toBe(code);
        expect(preview, `${dialect} ${name}`).toEqual({ changes: [], error: { text: run.text, code } });
        expect(await backend.snapshot()).toEqual(before);
      }
    });

    it('a call that only reads (or previews itself) changes nothing and is not run', async () => {
      const backend = await make({ files });
      const tools = createTools(backend, { dialect: 'mcp-filesystem' });
      expect(await tools.preview('read_text_file', { path: '/a.txt' })).toEqual({ changes: [] });
      expect(await tools.preview('edit_file', { path: '/a.txt', edits: [{ oldText: 'one', newText: '1' }], dryRun: true })).toEqual({ changes: [] });
      const editor = createTools(backend, { dialect: 'anthropic' });
      expect(await editor.preview('str_replace_based_edit_tool', { command: 'view', path: '/missing.txt' })).toEqual({ changes: [] });
    });

    it('asks no one, reports no event, and leaves the session as it was: what the previewed call read does not count', async () => {
      const backend = await make({ files });
      const asked: string[] = [];
      const events: ToolEvent[] = [];
      const session = createSession();
      const options = { session, approve: (r: ApprovalRequest) => (asked.push(r.path), { allow: true as const }), onEvent: (e: ToolEvent) => events.push(e) };
      const editor = createTools(backend, { ...options, dialect: 'anthropic' });
      const tools = createTools(backend, options);
      // The text editor reads the file itself as it runs; a preview of it must not count as a read.
      const preview = await editor.preview('str_replace_based_edit_tool', { command: 'str_replace', path: '/a.txt', old_str: 'two', new_str: '2' });
      expect(preview.changes.map((c) => c.path)).toEqual(['/a.txt']);
      expect(asked).toEqual([]);
      expect(events).toEqual([]);
      expect((await tools.run('edit_file', { path: '/a.txt', old_string: 'one', new_string: '1' })).code).toBe('ENOTREAD');
      // The real call counts as the session's read and write, so the next edit goes through.
      expect((await editor.run('str_replace_based_edit_tool', { command: 'str_replace', path: '/a.txt', old_str: 'two', new_str: '2' })).isError).toBe(false);
      expect((await tools.run('edit_file', { path: '/a.txt', old_string: 'one', new_string: '1' })).isError).toBe(false);
      expect(asked).toEqual(['/a.txt', '/a.txt']);
      expect(events.map((e) => e.tool)).toEqual(['edit_file', 'str_replace_based_edit_tool', 'edit_file']);
    });

    it('keeps asking after the person said "always", and the preview does not answer for them', async () => {
      const backend = await make({ files });
      const asked: string[] = [];
      const tools = createTools(backend, { approve: (r) => (asked.push(r.path), { allow: true, always: true }) });
      await tools.run('write_file', { path: '/n1.txt', content: '1' });
      const preview = await tools.preview('write_file', { path: '/n2.txt', content: '2' });
      expect(preview.changes.map((c) => [c.path, c.created])).toEqual([['/n2.txt', true]]);
      expect(await backend.exists('/n2.txt')).toBe(false);
      await tools.run('write_file', { path: '/n3.txt', content: '3' });
      expect(asked).toEqual(['/n1.txt']);
    });

    it("a tool's older name a model still sends previews as the tool it became", async () => {
      const tools = createTools(await make({ files }), { dialect: 'mcp-filesystem' });
      expect(await tools.preview('read_file', { path: '/a.txt' })).toEqual({ changes: [] });
      expect((await tools.preview('read_fiel', { path: '/a.txt' })).error?.code).toBe('EINVAL');
    });
  });
}
