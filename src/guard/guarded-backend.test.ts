// The guarded backend's methods that no agentvfs tool calls today but a dialect may (remove, rename, mkdir, uploadFiles, downloadFiles, restore).
import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../backend/state-backend.ts';
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
    expect(requests[0]!.diff).toBe('--- a/d/a\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-a\n--- a/d/b\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-b');
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

  it('rename asks once for its destination', async () => {
    const { inner, requests, backend } = guarded({ '/a': 'a' }, {});
    await backend.rename('/a', '/b');
    expect(requests.map((r) => [r.path, r.diff])).toEqual([['/b', 'rename from /a\nrename to /b']]);
    expect(await inner.readText('/b')).toBe('a');
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
    const out = await backend.downloadFiles(['/a', '/s']);
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
