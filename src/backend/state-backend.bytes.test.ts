// What counts as file bytes for writeFile/uploadFiles (any realm's Uint8Array or Buffer, nothing
// else), and that stored bytes never alias the caller's (writes, uploads, restores copy them)
// unless the caller hands them over with `copy: false` (restores too).
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createStateBackend } from './state-backend.ts';

/** A Uint8Array subclass that calls itself something else (Object.prototype.toString says "Tagged"). */
class Tagged extends Uint8Array {}
Object.defineProperty(Tagged.prototype, Symbol.toStringTag, { get: () => 'Tagged' });

describe('file bytes', () => {
  it('accepts Uint8Arrays from any realm, Buffers and subclasses; refuses other views and look-alikes', async () => {
    const b = createStateBackend();
    const accepted: unknown[] = [new Uint8Array([1]), Buffer.from([1]), runInNewContext('new Uint8Array([1])'), new (class extends Uint8Array {})([1])];
    const refused: unknown[] = [
      new Uint8ClampedArray([1]),
      new Int8Array([1]),
      new DataView(new ArrayBuffer(1)),
      new ArrayBuffer(1),
      { [Symbol.toStringTag]: 'Uint8Array', length: 1 },
      new Tagged([1]),
      [1],
      null,
    ];
    const up = await b.uploadFiles([...accepted, ...refused].map((data, i) => [`/f${i}`, data as Uint8Array]));
    expect(up.slice(0, accepted.length).every((r) => r.error === undefined)).toBe(true);
    for (const r of up.slice(accepted.length)) expect(r.error).toMatch(/^EINVAL: Content for \/f\d+ must be a Uint8Array/);
    await expect(b.writeFile('/w', new Tagged([1]) as Uint8Array)).rejects.toMatchObject({ code: 'EINVAL' });
    expect([...(await b.readFile('/f2'))]).toEqual([1]);
  });

  it('stored bytes are copies: changing the input afterwards changes nothing', async () => {
    const b = createStateBackend();
    const input = new Uint8Array([1, 2, 3]);
    await b.uploadFiles([['/u', input]]);
    await b.writeFile('/w', input);
    const snap = await b.snapshot();
    const other = createStateBackend();
    await other.restore(snap);
    input.fill(9);
    snap.fill(0);
    for (const [backend, path] of [
      [b, '/u'],
      [b, '/w'],
      [other, '/u'],
      [other, '/w'],
    ] as const) {
      expect([...(await backend.readFile(path))]).toEqual([1, 2, 3]);
    }
  });

  it("copy: false keeps the caller's arrays (the one way to tell: a later change shows), still checked first", async () => {
    const b = createStateBackend({ limits: { maxFileBytes: 4 } });
    const bytes = new Uint8Array([1, 2, 3]);
    const view = new Uint8Array([0, 7, 8, 9, 0]).subarray(1, 4);
    expect(
      await b.uploadFiles(
        [
          ['/kept', bytes],
          ['/view', view],
          ['/big', new Uint8Array(5)],
        ],
        { copy: false },
      ),
    ).toEqual([{ path: '/kept' }, { path: '/view' }, { path: '/big', error: expect.stringMatching(/^ETOOBIG/) }]);
    await b.writeFile('/w', bytes, { copy: false });
    expect([...(await b.readFile('/view'))]).toEqual([7, 8, 9]);
    bytes[0] = 5;
    expect([...(await b.readFile('/kept'))]).toEqual([5, 2, 3]);
    expect([...(await b.readFile('/w'))]).toEqual([5, 2, 3]);
    expect(await b.exists('/big')).toBe(false);
    // A later write replaces the kept array; it never writes into it.
    await b.writeFile('/kept', 'new');
    expect([...bytes]).toEqual([5, 2, 3]);
  });

  it("restore(bytes, { copy: false }) keeps the snapshot's bytes (a later change shows); a failed one never writes into them", async () => {
    const a = createStateBackend({ files: { '/a': 'abc', '/d/b': 'xyz' } });
    const snap = await a.snapshot();
    const b = createStateBackend({ files: { '/keep': 'keep' } });
    const damaged = snap.slice();
    damaged[damaged.length - 1]! ^= 1;
    const before = damaged.slice();
    await expect(b.restore(damaged, { copy: false })).rejects.toMatchObject({ code: 'ESNAPSHOT' });
    expect(damaged).toEqual(before);
    expect(await b.readText('/keep')).toBe('keep');
    await b.restore(snap, { copy: false });
    const at = snap.lastIndexOf(0x78); // the "x" of /d/b's content, near the end
    snap[at] = 0x58;
    expect(await b.readText('/d/b')).toBe('Xyz');
    expect(await b.readText('/a')).toBe('abc');
    await b.writeFile('/d/b', 'new');
    expect(snap[at]).toBe(0x58);
  });

  it('restore(bytes, null) restores as with no options (it threw a raw TypeError)', async () => {
    const snap = await createStateBackend({ files: { '/a': 'abc' } }).snapshot();
    const b = createStateBackend();
    await b.restore(snap, null as never);
    expect(await b.readText('/a')).toBe('abc');
  });

  it('copy: false still copies shared memory, which another thread may change', async () => {
    const b = createStateBackend();
    const shared = new Uint8Array(new SharedArrayBuffer(3));
    shared.set([1, 2, 3]);
    await b.uploadFiles([['/u', shared]], { copy: false });
    await b.writeFile('/w', shared, { copy: false });
    const snap = await createStateBackend({ files: { '/s': new Uint8Array([1, 2, 3]) } }).snapshot();
    const sharedSnap = new Uint8Array(new SharedArrayBuffer(snap.length));
    sharedSnap.set(snap);
    const r = createStateBackend();
    await r.restore(sharedSnap, { copy: false });
    shared.fill(0);
    sharedSnap.fill(0);
    expect([...(await b.readFile('/u'))]).toEqual([1, 2, 3]);
    expect([...(await b.readFile('/w'))]).toEqual([1, 2, 3]);
    expect([...(await r.readFile('/s'))]).toEqual([1, 2, 3]);
  });
});
