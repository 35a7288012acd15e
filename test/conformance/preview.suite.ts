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

    it('a call the backend itself would refuse (a limit, a file in the way, a binary file, a move into itself) answers that error, not a change', async () => {
      const bin = new Uint8Array([0, 1, 2]);
      const cases: Array<[string, DialectName, string, Record<string, unknown>, Parameters<BackendFactory>[0], Array<[string, Record<string, unknown>]>?]> = [
        ['ETOOBIG', 'agentvfs', 'write_file', { path: '/big.txt', content: 'x'.repeat(100) }, { limits: { maxFileBytes: 10 } }],
        ['EQUOTA', 'agentvfs', 'write_file', { path: '/b.txt', content: 'b' }, { files: { '/a.txt': 'a' }, limits: { maxFiles: 1 } }],
        [
          'EBINARY',
          'agentvfs',
          'edit_file',
          { path: '/bin.dat', old_string: 'a', new_string: 'b' },
          { files: { '/bin.dat': bin } },
          [['read_file', { path: '/bin.dat' }]],
        ],
        ['EEXIST', 'mcp-filesystem', 'create_directory', { path: '/a' }, { files: { '/a': 'one\n' } }],
        ['ENOTDIR', 'mcp-filesystem', 'create_directory', { path: '/a/b' }, { files: { '/a': 'one\n' } }],
        ['EINVAL', 'mcp-filesystem', 'move_file', { source: '/d', destination: '/d/e/f' }, { files: { '/d/e/x.txt': 'x' } }],
      ];
      for (const [code, dialect, name, args, options, before] of cases) {
        const made = async () => {
          const tools = createTools(await make(options), { dialect });
          for (const [n, a] of before ?? []) await tools.run(n, a);
          return tools;
        };
        const run = await (await made()).run(name, args);
        expect(run.code, run.text).toBe(code);
        expect(await (await made()).preview(name, args), `${dialect} ${name}`).toEqual({ changes: [], error: { text: run.text, code } });
      }
    });

    it('a file removed after it was read: the edit previews as the ENOENT it would answer', async () => {
      const backend = await make({ files });
      const tools = createTools(backend);
      await tools.run('read_file', { path: '/a.txt' });
      await backend.remove('/a.txt');
      const preview = await tools.preview('edit_file', { path: '/a.txt', old_string: 'one', new_string: '1' });
      expect(preview.error?.code).toBe('ENOENT');
      expect(preview.error?.text).toBe((await tools.run('edit_file', { path: '/a.txt', old_string: 'one', new_string: '1' })).text);
    });

    it("after: calls that run before it (the same response's) are applied first, on the fork; a failing one changes nothing, as when it runs", async () => {
      const backend = await make({ files });
      const tools = createTools(backend);
      await tools.run('read_file', { path: '/a.txt' });
      const first = { name: 'edit_file', args: { path: '/a.txt', old_string: 'one', new_string: 'ONE' } };
      const second = { path: '/a.txt', old_string: 'ONE', new_string: '1' };
      expect((await tools.preview('edit_file', second)).error?.code).toBe('ENOMATCH');
      const preview = await tools.preview('edit_file', second, { after: [first] });
      expect(preview.error).toBeUndefined();
      expect(preview.changes.map((c) => c.content)).toEqual(['1\ntwo\nthree\n']);
      expect(preview.changes[0]!.diff).toContain('-ONE\n+1');
      // An earlier call that fails (or is no call) writes nothing: the preview is of the files as they are.
      const failing = { name: 'edit_file', args: { path: '/a.txt', old_string: 'zzz', new_string: 'y' } };
      expect((await tools.preview('edit_file', second, { after: [failing, { name: 'nope' }] })).error?.code).toBe('ENOMATCH');
      // One whose arguments are no JSON (a function) is no call either, wherever the tools run.
      const unsendable = { name: 'edit_file', args: { path: '/a.txt', old_string: 'one', new_string: (() => 'x') as never } };
      expect((await tools.preview('edit_file', second, { after: [unsendable, first] })).changes.map((c) => c.content)).toEqual(['1\ntwo\nthree\n']);
      // Other dialects' names (and a model's older ones) as the tool set takes them.
      const mcp = createTools(backend, { dialect: 'mcp-filesystem' });
      const made = await mcp.preview('write_file', { path: '/new/b.txt', content: 'b' }, { after: [{ name: 'create_directory', args: { path: '/new' } }] });
      expect(made.changes.map((c) => [c.path, c.created])).toEqual([['/new/b.txt', true]]);
      expect(await backend.readText('/a.txt')).toBe(files['/a.txt']);
      expect(await backend.exists('/new')).toBe(false);
      // The real calls, in that order, write what the preview showed.
      await tools.run(first.name, first.args);
      await tools.run('edit_file', second);
      expect(await backend.readText('/a.txt')).toBe(preview.changes[0]!.content);
    });

    it("options that are none are a TypeError, as run's are", async () => {
      const tools = createTools(await make({ files }));
      await expect(tools.preview('write_file', { path: '/x', content: 'x' }, 'after' as never)).rejects.toThrow(TypeError);
      await expect(tools.preview('write_file', { path: '/x', content: 'x' }, { after: [{ args: {} }] } as never)).rejects.toThrow(
        "a preview's options.after must be an array of the calls that run before it, each { name, args }.",
      );
      expect(await tools.preview('write_file', { path: '/x', content: 'x' }, { after: undefined })).toMatchObject({ changes: [{ path: '/x' }] });
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
