// The guarded backend's methods that no agentvfs tool calls today but a dialect may (remove, rename, mkdir, uploadFiles, downloadFiles, restore).
import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../backend/state-backend.ts';
import type { Backend } from '../backend/types.ts';
import { VfsError } from '../errors.ts';
import type { ApprovalDecision, ApprovalRequest } from './types.ts';
import { guardCall } from './guarded-backend.ts';
import type { GuardSession } from './session.ts';
import { compilePermissions } from './permissions.ts';

function guarded(files: Record<string, string>, permissions: { read?: string[]; write?: string[] }, answers: ApprovalDecision[] = []) {
  const inner = createStateBackend({ files });
  const requests: ApprovalRequest[] = [];
  const session: GuardSession = {
    rules: compilePermissions(permissions),
    approve: (r) => (requests.push(r), answers.shift() ?? { allow: true }),
    always: false,
  };
  const call = guardCall(inner, session, 'some_tool', { x: 1 });
  return { inner, requests, call, backend: call.backend };
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: { code: string }) => e.code,
  );

describe('guarded backend', () => {
  it('remove asks once with every removed line, and a denial keeps every file', async () => {
    const { inner, requests, backend, call } = guarded({ '/d/a': 'a\n', '/d/b': 'b\n' }, {}, [{ allow: false }]);
    expect(await codeOf(backend.remove('/d', { recursive: true }))).toBe('EDENIED');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ action: 'remove', path: '/d', created: false });
    expect(requests[0]!.diff).toBe(
      'diff --git a/d/a b/d/a\ndeleted file mode 100644\n--- a/d/a\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-a\ndiff --git a/d/b b/d/b\ndeleted file mode 100644\n--- a/d/b\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-b',
    );
    expect(await inner.exists('/d/b')).toBe(true);
    expect(call.decision()).toBe('deny');
    await backend.remove('/d', { recursive: true });
    expect(await inner.exists('/d')).toBe(false);
  });

  it('remove and rename need every file they touch to be writable', async () => {
    const { inner, requests, backend } = guarded({ '/d/a': 'a', '/d/keep/b': 'b', '/x': 'x' }, { write: ['/d/*', '/y'] });
    expect(await codeOf(backend.remove('/d', { recursive: true }))).toBe('EACCES');
    expect(await codeOf(backend.rename('/d', '/e'))).toBe('EACCES');
    expect(await codeOf(backend.rename('/x', '/y'))).toBe('EACCES');
    expect(await codeOf(backend.mkdir('/z'))).toBe('EACCES');
    expect(requests).toEqual([]);
    expect(await inner.exists('/d/keep/b')).toBe(true);
  });

  it('a move needs to read what it moves: an unreadable file never reaches a readable path', async () => {
    const files = { '/secret/key.txt': 'k', '/secret/dir/b.txt': 'b', '/pub/r.md': 'r' };
    const { inner, requests, backend } = guarded(files, { read: ['/pub/**'], write: ['/**'] });
    expect(await codeOf(backend.rename('/secret/key.txt', '/pub/key.txt'))).toBe('EACCES');
    expect(await codeOf(backend.rename('/secret/dir', '/pub/dir'))).toBe('EACCES');
    expect(requests).toEqual([]);
    expect((await inner.glob('**/*')).sort()).toEqual(['/pub/r.md', '/secret/dir/b.txt', '/secret/key.txt']);
    await backend.rename('/pub/r.md', '/pub/s.md'); // readable: moved
    expect(await inner.readText('/pub/s.md')).toBe('r');
  });

  it('a directory removal or move is ESTALE when a file appeared in it while the question was open', async () => {
    for (const how of ['remove', 'rename'] as const) {
      const inner = createStateBackend({ files: { '/d/a.md': 'a' } });
      const session: GuardSession = {
        rules: compilePermissions({ write: ['/d/**', '/e/**', '/d', '/e'] }),
        approve: async () => {
          await inner.writeFile('/d/new.md', 'written meanwhile'); // not in the diff the person saw
          return { allow: true };
        },
        always: false,
      };
      const { backend } = guardCall(inner, session, 'some_tool', {});
      const done = how === 'remove' ? backend.remove('/d', { recursive: true }) : backend.rename('/d', '/e');
      await expect(done).rejects.toMatchObject({
        code: 'ESTALE',
        message: expect.stringMatching(/^\/d\/new\.md changed while the (removal|rename) was waiting/),
      });
      expect((await inner.glob('**/*')).sort()).toEqual(['/d/a.md', '/d/new.md']);
    }
  });

  it('a directory move needs every new path writable; a rename over a file edited while asking is ESTALE', async () => {
    const { inner, requests, backend } = guarded({ '/src/d/x.ts': 'x', '/src/d/y.ts': 'y' }, { write: ['/src/**', '/out'] });
    await expect(backend.rename('/src/d', '/out')).rejects.toMatchObject({
      code: 'EACCES',
      // The directory is named, never a path inside it (the session may not be allowed to see it).
      message: expect.stringMatching(
        /^\/out holds paths outside those this tool set may write \(permissions\.write: "\/src\/\*\*", "\/out"\)\. Nothing was moved\./,
      ),
    });
    expect(requests).toEqual([]);
    expect((await inner.glob('**/*')).sort()).toEqual(['/src/d/x.ts', '/src/d/y.ts']);

    const other = createStateBackend({ files: { '/a.md': 'a', '/b.md': 'b' } });
    const session: GuardSession = {
      rules: compilePermissions({}),
      approve: async (request) => {
        expect(request.diff).toBe('rename from /a.md\nrename to /b.md (replacing /b.md)');
        await other.writeFile('/b.md', 'edited while asking');
        return { allow: true };
      },
      always: false,
    };
    const renaming = guardCall(other, session, 'some_tool', {}).backend.rename('/a.md', '/b.md', { overwrite: true });
    await expect(renaming).rejects.toMatchObject({ code: 'ESTALE', message: expect.stringMatching(/^\/b\.md changed while the rename was waiting/) });
    expect(await other.readText('/b.md')).toBe('edited while asking');
    expect(await other.readText('/a.md')).toBe('a');
  });

  it('a directory move needs the new place of its empty directories writable; a source removed while asking is ESTALE', async () => {
    const { inner, backend } = guarded({ '/src/d/x.ts': 'x' }, { write: ['/src/**', '/out', '/out/x.ts'] });
    await inner.mkdir('/src/d/empty');
    await expect(backend.rename('/src/d', '/out')).rejects.toMatchObject({ code: 'EACCES', message: expect.stringMatching(/^\/out holds paths outside/) });
    expect(await inner.exists('/src/d/empty')).toBe(true);

    const other = createStateBackend({ files: { '/a.md': 'a' } });
    const session: GuardSession = {
      rules: compilePermissions({}),
      approve: async () => {
        await other.remove('/a.md');
        return { allow: true };
      },
      always: false,
    };
    await expect(guardCall(other, session, 'some_tool', {}).backend.rename('/a.md', '/b.md')).rejects.toMatchObject({
      code: 'ESTALE',
      message: expect.stringMatching(/^\/a\.md changed while the rename was waiting/),
    });
  });

  it('rename asks once for its destination, naming where it moves from', async () => {
    const { inner, requests, backend } = guarded({ '/a': 'a' }, {});
    await backend.rename('/a', '/b');
    expect(requests.map((r) => [r.path, r.from, r.diff])).toEqual([['/b', '/a', 'rename from /a\nrename to /b']]);
    expect(await inner.readText('/b')).toBe('a');
  });

  it("a refused or cancelled move says it was a move, of a directory too, and that nothing was moved (not 'the write … the file')", async () => {
    const denied = guarded({ '/d/x.txt': 'x' }, {}, [{ allow: false }, { allow: false, reason: 'keep it' }]);
    await expect(denied.backend.rename('/d', '/d2')).rejects.toMatchObject({
      code: 'EDENIED',
      message: 'The user denied the move of /d to /d2. Nothing was moved. Do not retry the same change; ask the user what they want instead.',
    });
    await expect(denied.backend.rename('/d/x.txt', '/y.txt')).rejects.toMatchObject({
      message: 'The user denied the move of /d/x.txt to /y.txt: "keep it". Nothing was moved. Take the reason into account before trying again.',
    });
    const inner = createStateBackend({ files: { '/d/x.txt': 'x' } });
    const controller = new AbortController();
    const session: GuardSession = { rules: compilePermissions({}), approve: () => new Promise<ApprovalDecision>(() => {}), always: false };
    const moving = guardCall(inner, session, 'move_file', {}, { signal: controller.signal }).backend.rename('/d', '/d2');
    await new Promise((resolve) => setTimeout(resolve, 0));
    controller.abort();
    await expect(moving).rejects.toMatchObject({
      code: 'ECANCELED',
      message: 'The call was cancelled while the move of /d to /d2 waited for approval. Nothing was moved.',
    });
    expect(await inner.exists('/d/x.txt')).toBe(true);
  });

  it('uploadFiles asks per file and reports each file', async () => {
    const { inner, backend } = guarded({}, { write: ['/up/**'] }, [{ allow: true }, { allow: false, reason: 'no' }]);
    const bytes = (s: string) => new TextEncoder().encode(s);
    const results = await backend.uploadFiles([
      ['/up/1', bytes('1')],
      ['/up/2', bytes('2')],
      ['/out', bytes('3')],
    ]);
    expect(results.map((r) => [r.path, r.error?.slice(0, 7)])).toEqual([
      ['/up/1', undefined],
      ['/up/2', 'EDENIED'],
      ['/out', 'EACCES:'],
    ]);
    expect(await inner.exists('/up/2')).toBe(false);
  });

  it('downloadFiles gives nothing of an unreadable path; restore and rollback are refused', async () => {
    const { inner, backend } = guarded({ '/a': 'a', '/s': 's' }, { read: ['/a'] });
    const out = await backend.downloadFiles(['/a', './s//']);
    expect(out.map((r) => [r.path, r.content && new TextDecoder().decode(r.content), r.error?.slice(0, 7)])).toEqual([
      ['/a', 'a', undefined],
      ['/s', null, 'EACCES:'],
    ]);
    const snapshot = await inner.snapshot();
    expect(await codeOf(backend.restore(snapshot))).toBe('EACCES');
    expect(await codeOf(backend.snapshot())).toBe('EACCES');
    expect(await codeOf(backend.rollback(await inner.checkpoint()))).toBe('EACCES');
  });
});

describe('guarded applyBatch (a backend with one, as the apply_patch dialect brings)', () => {
  type Change = { path: string; content: string | null; expectedVersion?: number };
  /** A StateBackend plus an applyBatch that checks every version first, then writes (all or nothing). */
  function batchBackend(files: Record<string, string>) {
    const inner = createStateBackend({ files });
    const calls: Change[][] = [];
    const applyBatch = async (changes: Change[]) => {
      calls.push(changes);
      for (const c of changes) {
        const version = (await inner.exists(c.path)) ? (await inner.stat(c.path)).version : -1;
        if (c.expectedVersion !== undefined && c.expectedVersion !== version) throw new VfsError('ESTALE', `${c.path} changed`, { path: c.path });
      }
      const out = [];
      for (const c of changes) {
        if (c.content === null) await inner.remove(c.path);
        const w = c.content === null ? null : await inner.writeFile(c.path, c.content);
        out.push({ path: c.path, version: w?.version ?? null, created: w?.created ?? false });
      }
      return out;
    };
    // A proxy, so the backend's own methods keep their instance as `this`.
    const backend = new Proxy(inner, {
      get: (target, key) => {
        if (key === 'applyBatch') return applyBatch;
        const value = Reflect.get(target, key) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    return { inner, calls, backend: backend as Backend & { applyBatch: typeof applyBatch } };
  }

  function guardOver(backend: Backend, answers: ApprovalDecision[], onAsk: (r: ApprovalRequest) => void = () => {}) {
    const requests: ApprovalRequest[] = [];
    const session: GuardSession = {
      rules: compilePermissions({ write: ['/src/**'] }),
      approve: (r) => (requests.push(r), onAsk(r), answers.shift() ?? { allow: true }),
      always: false,
    };
    const call = guardCall(backend, session, 'apply_patch', {});
    return { requests, call, batch: (call.backend as unknown as { applyBatch(c: Change[]): Promise<unknown> }).applyBatch };
  }

  it('asks once per file before anything is written; a denial of one refuses the whole batch', async () => {
    const { inner, calls, backend } = batchBackend({ '/src/a': 'a\n', '/src/b': 'b\n' });
    const { requests, batch, call } = guardOver(backend, [{ allow: true }, { allow: false, reason: 'keep b' }]);
    const change = [
      { path: '/src/a', content: 'A\n' },
      { path: 'src/b', content: null },
    ];
    expect(await codeOf(batch(change))).toBe('EDENIED');
    expect(requests.map((r) => [r.path, r.action, r.diff])).toEqual([
      ['/src/a', 'write', 'diff --git a/src/a b/src/a\n--- a/src/a\n+++ b/src/a\n@@ -1,1 +1,1 @@\n-a\n+A'],
      ['/src/b', 'remove', 'diff --git a/src/b b/src/b\ndeleted file mode 100644\n--- a/src/b\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-b'],
    ]);
    expect(calls).toEqual([]);
    expect([await inner.readText('/src/a'), await inner.readText('/src/b')]).toEqual(['a\n', 'b\n']);
    expect(call.decision()).toBe('deny');
  });

  it('writes a person’s content instead, at the versions seen when asking; a file changed meanwhile is ESTALE', async () => {
    const { inner, calls, backend } = batchBackend({ '/src/a': 'a\n' });
    const seen = (await inner.stat('/src/a')).version;
    const edited = guardOver(backend, [{ allow: true, content: 'mine\n' }, { allow: true }]);
    await edited.batch([
      { path: '/src/a', content: 'A\n' },
      { path: '/src/new', content: 'n\n' },
    ]);
    expect(calls[0]!.map((c) => [c.path, c.content, c.expectedVersion])).toEqual([
      ['/src/a', 'mine\n', seen],
      ['/src/new', 'n\n', -1],
    ]);
    expect(await inner.readText('/src/a')).toBe('mine\n');
    expect(edited.call.unread).toEqual(['/src/a']);
    const racing = guardOver(backend, [], (r) => void (r.path === '/src/a' && inner.writeFile('/src/a', 'theirs\n')));
    expect(await codeOf(racing.batch([{ path: '/src/a', content: 'x\n' }]))).toBe('ESTALE');
    expect(await inner.readText('/src/a')).toBe('theirs\n');
    expect(await codeOf(racing.batch([{ path: '/out', content: 'x\n' }]))).toBe('EACCES');
  });
});

describe('a refused move or removal of a directory', () => {
  it('names the directory, never the unreadable or unwritable paths inside it', async () => {
    const { inner, backend } = guarded(
      { '/proj/a.ts': 'a', '/proj/.ssh/id_ed25519': 'key', '/memories/hidden/diary.md': 'd' },
      { read: ['/proj/*.ts', '/dst/**'], write: ['/proj/*.ts', '/proj', '/dst/**', '/memories/*'] },
    );
    for (const refused of [backend.rename('/proj', '/dst/proj'), backend.remove('/memories/hidden', { recursive: true })]) {
      const error = await refused.then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(error?.message).toMatch(/^\/(proj|memories\/hidden) holds paths outside those this tool set may (read|write)/);
      expect(error?.message).not.toMatch(/ssh|diary/);
    }
    expect((await inner.glob('**')).sort()).toEqual(['/memories/hidden/diary.md', '/proj/.ssh/id_ed25519', '/proj/a.ts']);
  });
});

describe('a directory changed while its removal is asked', () => {
  it('is named, not a file in it the session may not read', async () => {
    const inner = createStateBackend({ files: { '/memories/d/a.md': 'a' } });
    const session: GuardSession = {
      rules: compilePermissions({ read: ['/memories/**/*.md', '/memories', '/memories/d'] }),
      approve: async () => {
        await inner.writeFile('/memories/d/.credentials.json', '{}');
        return { allow: true };
      },
      always: false,
    };
    const { backend } = guardCall(inner, session, 'memory', {});
    await expect(backend.remove('/memories/d', { recursive: true })).rejects.toMatchObject({
      code: 'ESTALE',
      message: expect.stringMatching(/^\/memories\/d changed while the removal was waiting for approval\./),
    });
    expect(await inner.exists('/memories/d/a.md')).toBe(true);
  });
});

describe('a write of what the file holds (not asked about)', () => {
  it('racing another change is the backend’s own ESTALE, which says nothing of an approval no one was asked', async () => {
    const inner = createStateBackend({ files: { '/a.txt': 'same\n' } });
    let raced = false;
    // The file changes right after the guard reads it, before the write lands.
    const read = async (path: string) => {
      const result = await inner.read(path);
      if (!raced) {
        raced = true;
        await inner.writeFile('/a.txt', 'other\n');
      }
      return result;
    };
    const racing = new Proxy(inner, {
      get: (target, key) => (key === 'read' ? read : ((v) => (typeof v === 'function' ? v.bind(target) : v))(Reflect.get(target, key))),
    }) as Backend;
    const requests: ApprovalRequest[] = [];
    const session: GuardSession = { rules: compilePermissions(undefined), approve: (r) => (requests.push(r), { allow: true }), always: false };
    const { backend } = guardCall(racing, session, 'write_file', {});
    const error = await backend.writeFile('/a.txt', 'same\n', { expectedVersion: (await inner.stat('/a.txt')).version }).catch((e: VfsError) => e);
    expect(requests).toEqual([]);
    expect((error as VfsError).code).toBe('ESTALE');
    expect((error as VfsError).message).not.toContain('approval');
    expect(await inner.readText('/a.txt')).toBe('other\n');
  });
});
