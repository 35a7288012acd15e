// examples/cloudflare inside workerd: the HTTP/JSON API, Workers RPC to the Durable Object,
// persistence of every acknowledged mutation across a restart of the object (one transaction
// of only the changed files each), chunking, corrupted stored records, and bad requests.
import { abortAllDurableObjects, runInDurableObject } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createStateBackend } from 'agentvfs';
import type { ApiError, SessionInfo, Storage } from './example-api.ts';

const BASE = 'http://example.test';
const CHUNK_LIMIT = 128 * 1024; // the KV-style storage API's value limit

async function request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers };
  if (body !== undefined) init.body = typeof body === 'string' || body instanceof Uint8Array ? (body as BodyInit) : JSON.stringify(body);
  const res = await exports.default.fetch(`${BASE}${path}`, init);
  const type = res.headers.get('content-type') ?? '';
  const json = type.includes('json') ? ((await res.json()) as Record<string, unknown>) : undefined;
  return { status: res.status, json, res };
}

async function tool(id: string, name: string, args: Record<string, unknown>) {
  const { status, json } = await request('POST', `/sessions/${id}/tools/${name}`, args);
  expect(status, JSON.stringify(json)).toBe(200);
  return json as { result: string; is_error: boolean; generation: number };
}

const errorOf = (json: Record<string, unknown> | undefined) => (json as { error: ApiError }).error;
const stubFor = (id: string) => env.SESSIONS.get(env.SESSIONS.idFromName(id));
const inObject = <R>(id: string, fn: (storage: Storage) => Promise<R>) => runInDurableObject(stubFor(id), (_i, state) => fn(state.storage));
const info = async (id: string) => (await request('GET', `/sessions/${id}`)).json as unknown as SessionInfo;

/** Simulates eviction or a restart: every object instance is dropped; storage stays. */
async function restart(id: string): Promise<void> {
  const before = (await info(id)).instance;
  await abortAllDurableObjects();
  const after = ((await stubFor(id).info()) as SessionInfo).instance;
  expect(after, 'a new object instance after the restart').not.toBe(before);
}

async function newSession(files?: Record<string, string>): Promise<string> {
  const { status, json } = await request('POST', '/sessions', files ? { files } : undefined);
  expect(status, JSON.stringify(json)).toBe(201);
  return (json as { id: string }).id;
}

describe('HTTP/JSON API', () => {
  it('lists the six tool definitions', async () => {
    const { status, json } = await request('GET', '/tools');
    expect(status).toBe(200);
    const tools = (json as { tools: Array<{ name: string; parameters: { type: string } }> }).tools;
    expect(tools.map((t) => t.name)).toEqual(['ls', 'read_file', 'write_file', 'edit_file', 'glob', 'grep']);
    expect(tools.every((t) => t.parameters.type === 'object')).toBe(true);
  });

  it('runs an agent session: write, read, edit, grep, glob, ls', async () => {
    const id = await newSession({ '/README.md': '# demo\n' });
    expect(await info(id)).toMatchObject({ exists: true, generation: 1, corrupt: null });
    expect((await tool(id, 'write_file', { path: '/src/app.ts', content: 'export const greeting = "hello";\n' })).result).toMatch(/^Created \/src\/app\.ts/);
    expect((await tool(id, 'read_file', { path: '/src/app.ts' })).result).toBe('     1\texport const greeting = "hello";');
    const edit = await tool(id, 'edit_file', { path: '/src/app.ts', old_string: '"hello"', new_string: '"hi"' });
    expect(edit.result).toMatch(/^Edited \/src\/app\.ts: 1 replacement/);
    expect(edit.generation).toBe(3); // created (1), write (2), edit (3)
    expect((await tool(id, 'grep', { pattern: 'gr.eting', output_mode: 'content' })).result).toBe('/src/app.ts:1:export const greeting = "hi";');
    expect((await tool(id, 'glob', { pattern: '**/*.ts' })).result).toBe('/src/app.ts');
    const ls = JSON.parse((await tool(id, 'ls', { path: '/' })).result) as Array<{ path: string }>;
    expect(ls.map((e) => e.path)).toEqual(['/src', '/README.md']);
  });

  it('returns tool-level failures as results for the model (is_error), and does not save them', async () => {
    const id = await newSession({ '/a.txt': 'one\n' });
    const out = await tool(id, 'edit_file', { path: '/a.txt', old_string: 'one', new_string: 'two' });
    expect(out.is_error).toBe(true);
    expect(out.result).toMatch(/^Error: ENOTREAD/);
    expect(out.generation).toBe(1);
    const bad = await tool(id, 'read_file', { path: 5 });
    expect(bad).toMatchObject({ is_error: true, generation: 1 });
    expect(bad.result).toMatch(/"path"/);
  });

  it('keeps sessions apart', async () => {
    const a = await newSession();
    const b = await newSession();
    await tool(a, 'write_file', { path: '/only-in-a', content: 'x' });
    expect((await tool(b, 'glob', { pattern: '**' })).result).toMatch(/^No files found/);
  });

  it('creates a session under a chosen id once', async () => {
    expect((await request('POST', '/sessions', { id: 'my-session_1' })).status).toBe(201);
    const again = await request('POST', '/sessions', { id: 'my-session_1' });
    expect(again.status).toBe(409);
    expect(errorOf(again.json).code).toBe('SESSION_EXISTS');
  });

  it('deletes a session and everything it stored', async () => {
    const id = await newSession({ '/a': 'x' });
    expect((await request('DELETE', `/sessions/${id}`)).status).toBe(200);
    expect((await request('GET', `/sessions/${id}`)).status).toBe(404);
    expect([...(await inObject(id, (s) => s.list())).keys()]).toEqual([]);
  });
});

describe('Workers RPC to the Durable Object', () => {
  it('runs the tools directly on a stub', async () => {
    const stub = stubFor('rpc-session');
    expect(await stub.create({ '/a.txt': 'alpha\n' })).toMatchObject({ ok: true, generation: 1 });
    expect(await stub.call('read_file', { path: '/a.txt' })).toMatchObject({ ok: true, result: '     1\talpha' });
    expect(await stub.call('write_file', { path: '/a.txt', content: 'beta\n' })).toMatchObject({ ok: true, is_error: false, generation: 2 });
    expect(await stub.call('nope', {})).toMatchObject({ ok: false, status: 404, error: { code: 'UNKNOWN_TOOL' } });
    expect((await stub.definitions()).map((d) => d.name)).toContain('edit_file');
    expect(await stubFor('rpc-never-created').call('ls', {})).toMatchObject({ ok: false, status: 404, error: { code: 'UNKNOWN_SESSION' } });
  });
});

/** Makes the object's storage transactions fail until the returned function is called. */
async function failSaves(id: string): Promise<() => Promise<void>> {
  const swap = (fail: boolean) =>
    runInDurableObject(stubFor(id), (_i, state) => {
      const storage = state.storage as Storage & { realTransaction?: Storage['transaction'] };
      storage.realTransaction ??= storage.transaction.bind(storage);
      storage.transaction = fail ? ((async () => Promise.reject(new Error('injected storage failure'))) as never) : storage.realTransaction;
    });
  await swap(true);
  return () => swap(false);
}

describe('persistence', () => {
  it('a failed save answers 503 PERSIST_FAILED, undoes the change, and says only that; a tool error quoting such words is the model’s', async () => {
    const id = await newSession({ '/err.ts': 'throw new Error("file could not be saved");\n' });
    await tool(id, 'read_file', { path: '/err.ts' });
    // A failure whose text quotes the file is an ordinary tool error, and read tracking stays.
    const quoting = await tool(id, 'edit_file', { path: '/err.ts', old_string: 'could not be saved!', new_string: 'x' });
    expect(quoting.is_error).toBe(true);
    expect(quoting.result).toMatch(/^Error: ENOMATCH: /);
    expect((await tool(id, 'edit_file', { path: '/err.ts', old_string: 'could not be saved', new_string: 'was not saved' })).is_error).toBe(false);
    const restore = await failSaves(id);
    const failed = await request('POST', `/sessions/${id}/tools/write_file`, { path: '/new.txt', content: 'x' });
    expect(failed.status).toBe(503);
    expect(errorOf(failed.json)).toEqual({
      code: 'PERSIST_FAILED',
      message: 'The change could not be saved, so it was undone: the files are as they were before this call. Retry the call.',
      reason: expect.stringMatching(/injected storage failure$/),
    });
    await restore();
    expect((await tool(id, 'ls', { path: '/' })).result).not.toContain('new.txt');
    // Creating a session whose first save fails: 503, and nothing exists until a retry succeeds.
    const restoreNew = await failSaves('never-saved');
    const created = await request('POST', '/sessions', { id: 'never-saved' });
    expect(created.status).toBe(503);
    expect(errorOf(created.json)).toMatchObject({ code: 'PERSIST_FAILED', message: 'The session could not be saved, so it was not created. Retry the call.' });
    expect((await request('GET', '/sessions/never-saved')).status).toBe(404);
    await restoreNew();
    expect((await request('POST', '/sessions', { id: 'never-saved' })).status).toBe(201);
  });

  it('a change whose save failed never comes back, even when reading storage again failed too', async () => {
    const id = await newSession({ '/a.txt': 'a\n' });
    const swap = (fail: boolean) =>
      runInDurableObject(stubFor(id), (_i, state) => {
        const storage = state.storage as Storage & { real?: Pick<Storage, 'transaction' | 'get'> };
        storage.real ??= { transaction: storage.transaction.bind(storage), get: storage.get.bind(storage) };
        const failing = (async () => Promise.reject(new Error('injected storage failure'))) as never;
        storage.transaction = fail ? failing : storage.real.transaction;
        storage.get = fail ? failing : storage.real.get;
      });
    await swap(true);
    expect((await request('POST', `/sessions/${id}/tools/write_file`, { path: '/ghost.txt', content: 'x' })).status).toBe(503);
    // Storage still failing: the next call says so, and shows nothing of the change.
    const meanwhile = await request('POST', `/sessions/${id}/tools/glob`, { pattern: '**' });
    expect(meanwhile.status).toBe(503);
    expect(errorOf(meanwhile.json)).toMatchObject({ code: 'PERSIST_FAILED', message: 'The stored filesystem could not be read. Retry the call.' });
    expect((await request('GET', `/sessions/${id}`)).status).toBe(503);
    await swap(false);
    expect((await tool(id, 'glob', { pattern: '**' })).result).toBe('/a.txt');
    await tool(id, 'write_file', { path: '/b.txt', content: 'b\n' });
    expect(await inObject(id, (s) => s.get('agentvfs:v:f:/ghost.txt'))).toBeUndefined();
  });

  it('saves before acknowledging, so a restarted object has every acknowledged change', async () => {
    const id = await newSession({ '/keep.txt': 'v1\n' });
    await tool(id, 'read_file', { path: '/keep.txt' });
    await tool(id, 'edit_file', { path: '/keep.txt', old_string: 'v1', new_string: 'v2' });
    await tool(id, 'write_file', { path: '/dir/new.bin.txt', content: 'é\u0000bytes' });
    const before = await info(id);
    expect(before.generation).toBe(3);

    await restart(id);

    const after = await info(id);
    expect(after).toMatchObject({ exists: true, generation: 3, corrupt: null });
    expect(after.instance).not.toBe(before.instance);
    expect((await tool(id, 'read_file', { path: '/keep.txt' })).result).toBe('     1\tv2');
    const ls = JSON.parse((await tool(id, 'ls', { path: '/dir' })).result) as Array<{ path: string; size: number }>;
    expect(ls).toEqual([{ name: 'new.bin.txt', path: '/dir/new.bin.txt', is_dir: false, size: 8 }]);
  });

  it('forgets reads on restart: the agent must read again before editing (documented)', async () => {
    const id = await newSession({ '/f.txt': 'a\n' });
    await tool(id, 'read_file', { path: '/f.txt' });
    await restart(id);
    const refused = await tool(id, 'edit_file', { path: '/f.txt', old_string: 'a', new_string: 'b' });
    expect(refused.result).toMatch(/^Error: ENOTREAD/);
    await tool(id, 'read_file', { path: '/f.txt' });
    expect((await tool(id, 'edit_file', { path: '/f.txt', old_string: 'a', new_string: 'b' })).is_error).toBe(false);
  });

  it('chunks a large file under the storage value limit and restores it byte for byte', async () => {
    const id = await newSession();
    // ~700 KB of text.
    let seed = 1;
    const line = () => Array.from({ length: 60 }, () => String.fromCharCode(33 + ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % 90))).join('');
    const content = `${Array.from({ length: 11_000 }, line).join('\n')}\n`;
    expect(new TextEncoder().encode(content).byteLength).toBeGreaterThan(600_000);
    await tool(id, 'write_file', { path: '/big.txt', content });

    const chunks = await inObject(id, (s) => s.list<Uint8Array>({ prefix: 'agentvfs:c:f:/big.txt:' }));
    const sizes = [...chunks.values()].map((c) => c.byteLength);
    expect(sizes.length).toBeGreaterThanOrEqual(5);
    expect(Math.max(...sizes)).toBeLessThan(CHUNK_LIMIT);

    await restart(id);
    const page = (await tool(id, 'read_file', { path: '/big.txt', offset: 10_998, limit: 2 })).result;
    const lines = content.split('\n');
    expect(page).toBe(` 10999\t${lines[10_998]}\n 11000\t${lines[10_999]}`);
    const down = await request('GET', `/sessions/${id}/snapshot`);
    expect(new TextDecoder().decode(await down.res.arrayBuffer())).toContain(lines[10_999]);
  });

  it('commits only what a call changed: an edit beside a large file rewrites one record and the generation', async () => {
    const id = await newSession({ '/small.txt': 'one\n' });
    await tool(id, 'write_file', { path: '/big.txt', content: 'x'.repeat(500_000) });
    const snapshotOf = () => inObject(id, async (s) => new Map([...(await s.list())].map(([k, v]) => [k, JSON.stringify(v)])));
    const before = await snapshotOf();
    await tool(id, 'read_file', { path: '/small.txt' });
    await tool(id, 'edit_file', { path: '/small.txt', old_string: 'one', new_string: 'two' });
    const after = await snapshotOf();
    const changed = [...after.keys()].filter((k) => after.get(k) !== before.get(k));
    expect(changed.sort()).toEqual(['agentvfs:v:f:/small.txt', 'generation']);
  });

  it('a cold request (the object restarted: open the stored workspace, then answer a tool call)', async () => {
    // 2,000 files, ~8 MB, created over RPC (no HTTP body limit): what waking a session's object costs before its first answer.
    const id = 'cold-request';
    const files: Record<string, string> = {};
    for (let m = 0; m < 20; m++) for (let i = 0; i < 100; i++) files[`/src/m${m}/f${i}.ts`] = `export const v${i} = ${m};\n`.padEnd(4_000, '/');
    expect(await stubFor(id).create(files)).toMatchObject({ ok: true, generation: 1 });
    const before = (await info(id)).instance;
    await abortAllDurableObjects();
    // Timed from the restart: this request wakes the object, which opens the stored workspace
    // before it answers (nothing touches the object in between).
    const started = Date.now();
    const out = await tool(id, 'grep', { pattern: 'export const v99', output_mode: 'count' });
    const coldMs = Date.now() - started;
    expect(out.result.split('\n')).toHaveLength(20);
    const next = Date.now();
    expect((await tool(id, 'grep', { pattern: 'export const v42', output_mode: 'count' })).result.split('\n')).toHaveLength(20);
    const nextMs = Date.now() - next;
    expect((await info(id)).instance, 'a new object instance answered').not.toBe(before);
    console.log(`cold request (restart, open 2,000 files / ~8 MB, one grep): ${coldMs} ms; the next grep: ${nextMs} ms`);
  });
});

describe('a corrupted stored workspace', () => {
  async function corruptedSession(damage: (s: Storage) => Promise<void>): Promise<string> {
    const id = await newSession({ '/precious.txt': 'do not lose me\n' });
    await tool(id, 'write_file', { path: '/second.txt', content: 'also\n' });
    await inObject(id, damage);
    await restart(id);
    return id;
  }

  /** Flips one byte inside a file's record, so its checksum must catch it. */
  const flipAByte = async (s: Storage) => {
    const key = 'agentvfs:v:f:/second.txt';
    const record = new Uint8Array((await s.get<Uint8Array>(key))!);
    record[record.byteLength - 2]! ^= 0xff;
    await s.put(key, record);
  };

  it('is reported (409 with the reason), kept aside, never replaced by an empty filesystem unasked', async () => {
    const id = await corruptedSession(flipAByte);
    const call = await request('POST', `/sessions/${id}/tools/ls`, {});
    expect(call.status).toBe(409);
    const error = errorOf(call.json);
    expect(error.code).toBe('SNAPSHOT_CORRUPT');
    expect(error.reason).toMatch(/record "f:\/second.txt" fails its checksum/);
    expect(error.message).toMatch(/kept aside, nothing was deleted/);
    // Writes are refused too.
    expect((await request('POST', `/sessions/${id}/tools/write_file`, { path: '/x', content: 'y' })).status).toBe(409);
    const status = await info(id);
    expect(status.corrupt?.reason).toBe(error.reason);
    expect(status.quarantined).toHaveLength(1);
    // What was kept aside is downloadable, every record in it.
    const stored = await request('GET', `/sessions/${id}/snapshot`);
    expect(stored.status).toBe(200);
    expect(new TextDecoder().decode(await stored.res.arrayBuffer())).toContain('do not lose me');
  });

  it('stays reported after the object restarts before anyone recovers it (the mark is in storage)', async () => {
    const id = await corruptedSession(flipAByte);
    expect((await request('POST', `/sessions/${id}/tools/ls`, {})).status).toBe(409);
    await restart(id); // evicted: the store opens the empty workspace left beside what it kept aside
    const call = await request('POST', `/sessions/${id}/tools/glob`, { pattern: '**' });
    expect(call.status).toBe(409);
    expect(errorOf(call.json)).toMatchObject({ code: 'SNAPSHOT_CORRUPT', reason: expect.stringMatching(/record "f:\/second.txt" fails its checksum/) });
    expect((await request('POST', `/sessions/${id}/tools/write_file`, { path: '/x', content: 'y' })).status).toBe(409);
    expect((await info(id)).corrupt?.reason).toMatch(/fails its checksum/);
  });

  it('is marked in the same transaction that keeps it aside, and recover() takes the mark away for good', async () => {
    const id = await corruptedSession(flipAByte);
    expect((await request('POST', `/sessions/${id}/tools/ls`, {})).status).toBe(409);
    expect(await inObject(id, (s) => s.get('corrupt'))).toMatchObject({
      aside: expect.stringMatching(/^aside:/),
      reason: expect.stringMatching(/fails its checksum/),
    });
    // A mark without its reason (the object stopped before writing it) still reports the session, with the reason kept aside.
    await inObject(id, async (s) => s.put('corrupt', { aside: ((await s.get('corrupt')) as { aside: string }).aside }));
    await restart(id);
    expect(errorOf((await request('POST', `/sessions/${id}/tools/ls`, {})).json).reason).toMatch(/record "f:\/second.txt" fails its checksum/);
    expect((await request('POST', `/sessions/${id}/recover`)).status).toBe(200);
    expect(await inObject(id, (s) => s.get('corrupt'))).toBeUndefined();
    await restart(id);
    expect((await tool(id, 'glob', { pattern: '**' })).result).toMatch(/^No files found/);
  });

  it('downloads what still reads of it as a snapshot to restore, saying how many records were left out', async () => {
    const id = await corruptedSession(flipAByte);
    const stored = await request('GET', `/sessions/${id}/snapshot`);
    expect(stored.status).toBe(200);
    expect(stored.res.headers.get('x-agentvfs-left-out')).toBe('1');
    const salvaged = createStateBackend();
    await salvaged.restore(new Uint8Array(await stored.res.arrayBuffer()));
    expect(await salvaged.readText('/precious.txt')).toBe('do not lose me\n');
    expect(await salvaged.exists('/second.txt')).toBe(false);
  });

  it('is reported when the records are not an agentvfs workspace (no meta record)', async () => {
    const id = await corruptedSession((s) => s.delete('agentvfs:v:meta').then(() => undefined));
    expect(errorOf((await request('POST', `/sessions/${id}/tools/ls`, {})).json)).toMatchObject({
      code: 'SNAPSHOT_CORRUPT',
      reason: expect.stringMatching(/no "meta" record/),
    });
  });

  it('recover starts an empty filesystem; what was kept aside stays', async () => {
    const id = await corruptedSession(flipAByte);
    const recovered = await request('POST', `/sessions/${id}/recover`);
    expect(recovered.status).toBe(200);
    expect((await tool(id, 'glob', { pattern: '**' })).result).toMatch(/^No files found/);
    const status = await info(id);
    expect(status).toMatchObject({ exists: true, corrupt: null });
    expect(status.quarantined).toHaveLength(1);
    const kept = await inObject(id, (s) => s.get<Uint8Array>(`agentvfs:v:${status.quarantined[0]}`));
    expect(new TextDecoder().decode(kept)).toContain('do not lose me');
    // The new filesystem persists as usual.
    await tool(id, 'write_file', { path: '/fresh.txt', content: 'new\n' });
    await restart(id);
    expect((await tool(id, 'read_file', { path: '/fresh.txt' })).result).toBe('     1\tnew');
    // recover on a healthy session is refused.
    expect(errorOf((await request('POST', `/sessions/${id}/recover`)).json).code).toBe('NOT_CORRUPT');
  });
});

describe('bad requests get clear 4xx JSON errors', () => {
  it('unknown tool: 404 UNKNOWN_TOOL listing the tools', async () => {
    const id = await newSession();
    const { status, json } = await request('POST', `/sessions/${id}/tools/execute`, { command: 'ls' });
    expect(status).toBe(404);
    expect(errorOf(json)).toMatchObject({ code: 'UNKNOWN_TOOL', tools: ['ls', 'read_file', 'write_file', 'edit_file', 'glob', 'grep'] });
    expect(errorOf(json).message).toMatch(/Unknown tool "execute"/);
  });

  it('invalid JSON, an empty body or a non-object: 400', async () => {
    const id = await newSession();
    const bad = await request('POST', `/sessions/${id}/tools/ls`, '{"path": ');
    expect(bad.status).toBe(400);
    expect(errorOf(bad.json).code).toBe('INVALID_JSON');
    expect(errorOf(bad.json).message).toMatch(/not valid JSON/);
    const empty = await request('POST', `/sessions/${id}/tools/ls`, '');
    expect([empty.status, errorOf(empty.json).code]).toEqual([400, 'INVALID_JSON']);
    const array = await request('POST', `/sessions/${id}/tools/ls`, '["/"]');
    expect([array.status, errorOf(array.json).code]).toEqual([400, 'INVALID_ARGUMENTS']);
    expect(errorOf(array.json).message).toMatch(/not an array/);
    const notUtf8 = await request('POST', `/sessions/${id}/tools/ls`, new Uint8Array([0x7b, 0xff, 0x7d]));
    expect([notUtf8.status, errorOf(notUtf8.json).code]).toEqual([400, 'INVALID_JSON']);
  });

  it('oversized bodies: 413, by Content-Length and by actual size, and nothing is written', async () => {
    const id = await newSession();
    const huge = JSON.stringify({ path: '/huge.txt', content: 'x'.repeat(1024 * 1024) });
    const declared = await request('POST', `/sessions/${id}/tools/write_file`, huge);
    expect(declared.status).toBe(413);
    expect(errorOf(declared.json)).toMatchObject({ code: 'BODY_TOO_LARGE', limit: 1024 * 1024 });
    // A streamed body with no Content-Length is counted as it arrives.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        const piece = new TextEncoder().encode('x'.repeat(64 * 1024));
        controller.enqueue(new TextEncoder().encode('{"path":"/huge.txt","content":"'));
        for (let i = 0; i < 20; i++) controller.enqueue(piece);
        controller.enqueue(new TextEncoder().encode('"}'));
        controller.close();
      },
    });
    const res = await exports.default.fetch(`${BASE}/sessions/${id}/tools/write_file`, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect(errorOf((await res.json()) as Record<string, unknown>).code).toBe('BODY_TOO_LARGE');
    expect((await tool(id, 'glob', { pattern: '**' })).result).toMatch(/^No files found/);
    expect((await info(id)).generation).toBe(1);
  });

  it('unknown session: 404 UNKNOWN_SESSION, and nothing is created', async () => {
    for (const [method, path, body] of [
      ['POST', '/sessions/never-made/tools/ls', {}],
      ['GET', '/sessions/never-made', undefined],
      ['GET', '/sessions/never-made/snapshot', undefined],
      ['DELETE', '/sessions/never-made', undefined],
    ] as const) {
      const { status, json } = await request(method, path, body);
      expect([method, path, status, errorOf(json).code]).toEqual([method, path, 404, 'UNKNOWN_SESSION']);
      expect(errorOf(json).message).toMatch(/POST \/sessions/);
    }
    expect([...(await inObject('never-made', (s) => s.list())).keys()]).toEqual([]);
  });

  it('bad session id, unknown route, wrong method', async () => {
    const badId = await request('POST', `/sessions/${'x'.repeat(65)}/tools/ls`, {});
    expect([badId.status, errorOf(badId.json).code]).toEqual([400, 'INVALID_SESSION_ID']);
    const badChars = await request('GET', '/sessions/a%20b');
    expect([badChars.status, errorOf(badChars.json).code]).toEqual([400, 'INVALID_SESSION_ID']);
    const route = await request('GET', '/nope');
    expect([route.status, errorOf(route.json).code]).toEqual([404, 'NOT_FOUND']);
    const method = await request('GET', '/sessions/abc/tools/ls');
    expect([method.status, errorOf(method.json).code, method.res.headers.get('allow')]).toEqual([405, 'METHOD_NOT_ALLOWED', 'POST']);
    const files = await request('POST', '/sessions', { files: { '/a': 1 } });
    expect([files.status, errorOf(files.json).code]).toEqual([400, 'INVALID_BODY']);
  });
});
