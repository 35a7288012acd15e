import { describe, expect, it } from 'vitest';
import { createSession, createTools, DIALECT_NAMES } from '../../src/index.ts';
import type { BackendFactory } from './harness.ts';

// Guard options of its own, so the permissive harness adds no approve(): a call a person was asked
// about is not run again (guard.suite.ts, 'each is asked once').
const OWN_GUARD = { read: ['/**'], write: ['/**'] };

export function sessionSuite(make: BackendFactory) {
  describe('dialect and session options', () => {
    it('a tool set made with the same session as another sees its reads; one without does not', async () => {
      const backend = await make({ files: { '/a.txt': 'alpha\n' } });
      const session = createSession();
      const reader = createTools(backend, { session });
      const editor = createTools(backend, { session });
      const stranger = createTools(backend);
      expect((await reader.run('read_file', { path: '/a.txt' })).isError).toBe(false);
      const refused = await stranger.run('edit_file', { path: '/a.txt', old_string: 'alpha', new_string: 'beta' });
      expect(refused.code).toBe('ENOTREAD');
      const edited = await editor.run('edit_file', { path: '/a.txt', old_string: 'alpha', new_string: 'beta' });
      expect(edited.isError, edited.text).toBe(false);
      expect(await backend.readText('/a.txt')).toBe('beta\n');
      // The edit refreshed the shared version: the reader may edit again without a re-read.
      const again = await reader.run('edit_file', { path: '/a.txt', old_string: 'beta', new_string: 'gamma' });
      expect(again.isError, again.text).toBe(false);
    });

    it('a change from outside a shared session makes every tool set of it stale', async () => {
      const backend = await make({ files: { '/a.txt': 'one\n' } });
      const session = createSession();
      const first = createTools(backend, { session });
      const second = createTools(backend, { session });
      await first.run('read_file', { path: '/a.txt' });
      await backend.writeFile('/a.txt', 'changed\n');
      const stale = await second.run('write_file', { path: '/a.txt', content: 'mine\n' });
      expect(stale.code).toBe('ESTALE');
      expect(await backend.readText('/a.txt')).toBe('changed\n');
    });

    it('a model’s parallel calls in one session (two edits of one file in one turn) all land; other writers still get ESTALE', async () => {
      const backend = await make({ files: { '/a.txt': 'one\ntwo\nthree\n' } });
      const session = createSession();
      // Guard options of its own, so the permissive harness adds no approve(): a call a person was
      // asked about is not retried (guard.suite.ts, 'each is asked once').
      const permissions = { read: ['/**'], write: ['/**'] };
      const tools = createTools(backend, { session, permissions });
      const patch = createTools(backend, { dialect: 'openai', session, permissions });
      await tools.run('read_file', { path: '/a.txt' });
      const results = await Promise.all([
        tools.run('edit_file', { path: '/a.txt', old_string: 'one', new_string: 'ONE' }),
        tools.run('edit_file', { path: '/a.txt', old_string: 'three', new_string: 'THREE' }),
        tools.run('read_file', { path: '/a.txt' }),
        patch.run('apply_patch', { input: '*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+TWO\n*** End Patch' }),
      ]);
      for (const r of results) expect(r.isError, r.text).toBe(false);
      expect(await backend.readText('/a.txt')).toBe('ONE\nTWO\nTHREE\n');
      // Another session that read the same version loses the race, as before.
      const other = createTools(backend);
      await other.run('read_file', { path: '/a.txt' });
      const [mine, theirs] = await Promise.all([
        tools.run('edit_file', { path: '/a.txt', old_string: 'ONE', new_string: '1' }),
        other.run('edit_file', { path: '/a.txt', old_string: 'TWO', new_string: '2' }),
      ]);
      expect([mine, theirs].filter((r) => r.code === 'ESTALE')).toHaveLength(1);
      // A change from outside stays refused while the session writes elsewhere, for an edit and
      // for apply_patch, whose refusal shows the file (and so counts as read): never overwritten unseen.
      await backend.writeFile('/a.txt', 'outside\n');
      const [stale, replaced, elsewhere] = await Promise.all([
        tools.run('edit_file', { path: '/a.txt', old_string: 'outside', new_string: 'x' }),
        patch.run('apply_patch', { input: '*** Begin Patch\n*** Add File: a.txt\n+replaced\n*** End Patch' }),
        patch.run('apply_patch', { input: '*** Begin Patch\n*** Add File: b.txt\n+b\n*** End Patch' }),
      ]);
      expect(stale.code).toBe('ESTALE');
      expect(replaced.code).toBe('ESTALE');
      expect(elsewhere.isError).toBe(false);
      expect(await backend.readText('/a.txt')).toBe('outside\n');
    });

    it('a read answered in the same turn as a write does not count for it: the write was made before its result was seen', async () => {
      const backend = await make({ files: { '/a.txt': 'one\n', '/b.txt': 'bee\n' } });
      const tools = createTools(backend);
      await tools.run('read_file', { path: '/a.txt' });
      await backend.writeFile('/a.txt', 'outside\n');
      const [read, write] = await Promise.all([tools.run('read_file', { path: '/a.txt' }), tools.run('write_file', { path: '/a.txt', content: 'mine\n' })]);
      expect(read.text).toContain('outside');
      expect(write.code, write.text).toBe('ESTALE');
      expect(write.text).toContain('before that one answered: what it saw does not count for this call');
      expect(await backend.readText('/a.txt')).toBe('outside\n');
      // Made once that read had answered: it lands.
      const after = await tools.run('write_file', { path: '/a.txt', content: 'mine\n' });
      expect(after.isError, after.text).toBe(false);
      // A file never read before: the same turn's read does not count either.
      const [, blind] = await Promise.all([tools.run('read_file', { path: '/b.txt' }), tools.run('write_file', { path: '/b.txt', content: 'blind\n' })]);
      expect(blind.code, blind.text).toBe('ENOTREAD');
      expect(blind.text).toContain('before that one answered: what it saw does not count for this call');
      expect(await backend.readText('/b.txt')).toBe('bee\n');
      // Two tool sets of one session are one model's calls: the same holds across them.
      const session = createSession();
      const reader = createTools(backend, { session });
      const writer = createTools(backend, { session, dialect: 'gemini' });
      await reader.run('read_file', { path: '/b.txt' });
      await backend.writeFile('/b.txt', 'outside b\n');
      const [, across] = await Promise.all([reader.run('read_file', { path: '/b.txt' }), writer.run('write_file', { file_path: '/b.txt', content: 'mine\n' })]);
      expect(across.code, across.text).toBe('ESTALE');
      expect(await backend.readText('/b.txt')).toBe('outside b\n');
    });

    it('after a rollback, a version read long ago still counts, however often the file was read since', async () => {
      const backend = await make({ files: { '/a.txt': 'one\n' } });
      const tools = createTools(backend);
      await tools.run('read_file', { path: '/a.txt' });
      const checkpoint = await backend.checkpoint();
      await backend.writeFile('/a.txt', 'two\n');
      for (let i = 0; i < 300; i++) await tools.run('read_file', { path: '/a.txt' });
      await backend.rollback(checkpoint);
      const edited = await tools.run('edit_file', { path: '/a.txt', old_string: 'one', new_string: 'uno' });
      expect(edited.isError, edited.text).toBe(false);
    });

    it('in every dialect, a write made beside a read of the file is refused when the file changed since the session last saw it', async () => {
      type Call = readonly [name: string, args: Record<string, unknown>];
      const calls: Record<'anthropic' | 'gemini' | 'mcp-filesystem', { read: Call; write: Call }> = {
        anthropic: {
          read: ['str_replace_based_edit_tool', { command: 'view', path: '/a.txt' }],
          write: ['str_replace_based_edit_tool', { command: 'str_replace', path: '/a.txt', old_str: 'one', new_str: 'mine' }],
        },
        gemini: { read: ['read_file', { file_path: '/a.txt' }], write: ['write_file', { file_path: '/a.txt', content: 'mine\n' }] },
        'mcp-filesystem': { read: ['read_text_file', { path: '/a.txt' }], write: ['write_file', { path: '/a.txt', content: 'mine\n' }] },
      };
      for (const [dialect, { read, write }] of Object.entries(calls)) {
        const backend = await make({ files: { '/a.txt': 'one\n' } });
        const tools = createTools(backend, { dialect: dialect as keyof typeof calls });
        expect((await tools.run(...read)).isError, dialect).toBe(false);
        await backend.writeFile('/a.txt', 'one\noutside\n');
        const [, refused] = await Promise.all([tools.run(...read), tools.run(...write)]);
        expect(refused.code, `${dialect}: ${refused.text}`).toBe('ESTALE');
        expect(await backend.readText('/a.txt'), dialect).toBe('one\noutside\n');
        const again = await tools.run(...write);
        expect(again.isError, `${dialect}: ${again.text}`).toBe(false);
      }
    });

    it('a patch refused as stale (which shows the file) is not run again after a sibling patch wrote it on the strength of that', async () => {
      const P = (body: string) => ({ input: `*** Begin Patch\n${body}\n*** End Patch` });
      const later = (s: string) => P(`*** Update File: /b.txt\n@@\n-b\n+B\n${s}`);
      for (const first of ['*** Add File: /a.txt\n+model rewrite', '*** Update File: /a.txt\n@@\n-line1\n+LINE1', '*** Delete File: /a.txt']) {
        const backend = await make({ files: { '/a.txt': 'line1\nline2\nline3\n', '/b.txt': 'b\n' } });
        const tools = createTools(backend, { dialect: 'openai', permissions: { read: ['/**'], write: ['/**'] } });
        await tools.run('apply_patch', P('*** Update File: /a.txt\n@@\n-line2\n+line2 (mine)\n*** Update File: /b.txt\n@@\n-b\n+b'));
        await backend.writeFile('/a.txt', 'line1\nline2 (mine)\nOUTSIDER WORK\nline3\n');
        const results = await Promise.all([tools.run('apply_patch', P(first)), tools.run('apply_patch', later('*** Update File: /a.txt\n@@\n-line3\n+LINE3'))]);
        // Whichever lands, the outside line is kept, and some result showed it to the model.
        expect(await backend.readText('/a.txt'), first).toContain('OUTSIDER WORK');
        expect(
          results.some((r) => r.code === 'ESTALE' && r.text.includes('OUTSIDER WORK')),
          first,
        ).toBe(true);
      }
    });

    it('parallel calls apply in the order the model made them: a write_file is never run again over an edit made after it', async () => {
      for (let round = 0; round < 5; round++) {
        const backend = await make({ files: { '/f': 'a\nb\nc\n' } });
        const tools = createTools(backend, { permissions: OWN_GUARD });
        await tools.run('read_file', { path: '/f' });
        const [write, edit] = await Promise.all([
          tools.run('write_file', { path: '/f', content: 'a\nb\nc\nnew line\n' }),
          tools.run('edit_file', { path: '/f', old_string: 'b', new_string: 'B' }),
        ]);
        expect(edit.isError, edit.text).toBe(false);
        const final = await backend.readText('/f');
        // Every change acknowledged is in the file: both, in order (as through a worker), or the
        // write refused as made beside the edit, which landed first.
        expect(final, `${write.text}\n${edit.text}`).toBe(write.isError ? 'a\nB\nc\n' : 'a\nB\nc\nnew line\n');
        if (write.isError) {
          expect(write.code).toBe('ESTALE');
          expect(write.text).toContain('made beside another that read or wrote this file');
        }
      }
    });

    it('tools that need no read, called in parallel on a file the session never read, all land (none is told it read the file)', async () => {
      const lines = ['one', 'two', 'three', 'four', 'five'];
      const calls = {
        anthropic: (l: string) => ['str_replace_based_edit_tool', { command: 'str_replace', path: '/f', old_str: l, new_str: l.toUpperCase() }],
        'mcp-filesystem': (l: string) => ['edit_file', { path: '/f', edits: [{ oldText: l, newText: l.toUpperCase() }] }],
        openai: (l: string) => ['apply_patch', { operation: { type: 'update_file', path: '/f', diff: `@@\n-${l}\n+${l.toUpperCase()}` } }],
      } as const;
      for (const [dialect, call] of Object.entries(calls)) {
        const backend = await make({ files: { '/f': `${lines.join('\n')}\n` } });
        const tools = createTools(backend, { dialect: dialect as keyof typeof calls, permissions: OWN_GUARD });
        const results = await Promise.all(lines.map((l) => tools.run(...(call(l) as [string, Record<string, unknown>]))));
        for (const r of results) expect(r.isError, `${dialect}: ${r.text}`).toBe(false);
        expect(await backend.readText('/f'), dialect).toBe(`${lines.map((l) => l.toUpperCase()).join('\n')}\n`);
      }
    });

    it('tools that need no read, of two sessions that never read the file, both land when called at once', async () => {
      const calls = {
        anthropic: (l: string) => ['str_replace_based_edit_tool', { command: 'str_replace', path: '/f', old_str: l, new_str: l.toUpperCase() }],
        'mcp-filesystem': (l: string) => ['edit_file', { path: '/f', edits: [{ oldText: l, newText: l.toUpperCase() }] }],
        openai: (l: string) => ['apply_patch', { operation: { type: 'update_file', path: '/f', diff: `@@\n-${l}\n+${l.toUpperCase()}` } }],
        gemini: (l: string) => ['replace', { file_path: '/f', old_string: l, new_string: l.toUpperCase() }],
      } as const;
      for (const [dialect, call] of Object.entries(calls)) {
        const backend = await make({ files: { '/f': 'one\ntwo\n' } });
        const made = () => createTools(backend, { dialect: dialect as keyof typeof calls, permissions: OWN_GUARD });
        const [first, second] = [made(), made()];
        const results = await Promise.all([
          first.run(...(call('one') as [string, Record<string, unknown>])),
          second.run(...(call('two') as [string, Record<string, unknown>])),
        ]);
        for (const r of results) expect(r.isError, `${dialect}: ${r.text}`).toBe(false);
        expect(await backend.readText('/f'), dialect).toBe('ONE\nTWO\n');
      }
    });

    it('two sessions creating one file at once: the second hears that it exists now, not that it changed since it was read', async () => {
      const calls = {
        agentvfs: [['write_file', { path: '/n', content: 'mine\n' }], 'ENOTREAD'],
        anthropic: [['str_replace_based_edit_tool', { command: 'create', path: '/n', file_text: 'mine\n' }], 'EEXIST'],
      } as const;
      for (const [dialect, [[name, args], code]] of Object.entries(calls)) {
        const backend = await make();
        const made = () => createTools(backend, { dialect: dialect as 'agentvfs', permissions: OWN_GUARD });
        const [first, second] = [made(), made()];
        const results = await Promise.all([first.run(name, args), second.run(name, args)]);
        const failed = results.filter((r) => r.isError);
        expect(failed.length, dialect).toBe(1);
        for (const r of failed) {
          expect(r.code, `${dialect}: ${r.text}`).toBe(code);
          expect(r.text).not.toContain('since it was read');
        }
        expect(await backend.readText('/n')).toBe('mine\n');
      }
    });

    it("dialect 'agentvfs' is the default", async () => {
      const backend = await make();
      expect(createTools(backend, { dialect: 'agentvfs' }).definitions).toEqual(createTools(backend).definitions);
    });

    it('an unknown dialect or a session not made by createSession is a TypeError that says what to pass', async () => {
      const backend = await make();
      const listed = DIALECT_NAMES.map((d) => `'${d}'`).join(', ');
      expect(() => createTools(backend, { dialect: 'claude' as 'agentvfs' })).toThrow(
        new TypeError(`agentvfs: unknown dialect "claude"; the dialects are ${listed}.`),
      );
      expect(() => createTools(backend, { dialect: 7 as unknown as 'agentvfs' })).toThrow(/unknown dialect a number; the dialects are/);
      expect(() => createTools(backend, { session: { id: 'x' } })).toThrow(/options\.session must be an object made by createSession\(\)/);
    });

    it('descriptions naming no tool of the dialect, or not strings, are a TypeError (a typo would replace nothing)', async () => {
      const backend = await make();
      expect(() => createTools(backend, { descriptions: { readFile: 'Read.' } as never })).toThrow(
        new TypeError('agentvfs: descriptions names unknown tools ("readFile"); the tools are ls, read_file, write_file, edit_file, glob, grep.'),
      );
      expect(() => createTools(backend, { dialect: 'gemini', descriptions: { edit_file: 'Edit.' } as never })).toThrow(
        /unknown tools \("edit_file"\); the tools are read_file, write_file, replace,/,
      );
      expect(() => createTools(backend, { descriptions: { grep: 5 } as never })).toThrow(
        new TypeError('agentvfs: the description of grep must be a string; got number.'),
      );
      expect(() => createTools(backend, { descriptions: 'x' as never })).toThrow(/descriptions must be an object/);
      expect(createTools(backend, { dialect: 'gemini', descriptions: { replace: 'Edit.' } }).definitions.find((d) => d.name === 'replace')!.description).toBe(
        'Edit.',
      );
    });
  });
}
