import { describe, expect, it } from 'vitest';
import { TextCache, roundTrips } from './text-cache.ts';
import type { Meta } from './tree.ts';

const meta = (): Meta => ({ kind: 'file', size: 0, mtimeMs: 0, version: 1 });
const ascii = (n: number) => 'x'.repeat(n);
const utf8 = (text: string) => new TextEncoder().encode(text);
const BIG = 1e12; // stored bytes: the cap, not the share of them, sets the budget

describe('TextCache', () => {
  it('returns text only for the metadata it was kept with', () => {
    const cache = new TextCache(10_000);
    const m = meta();
    cache.set('/a', m, 'hello', false, 5, BIG);
    expect(cache.get('/a', m)?.text).toBe('hello');
    expect(cache.get('/a', meta())).toBeUndefined(); // rewritten: new metadata
    expect(cache.get('/a', m)).toBeUndefined(); // and the stale entry is gone
    expect(cache.used).toBe(0);
  });

  it('evicts the least recently used text once over budget', () => {
    const cache = new TextCache(3 * (96 + 1000));
    const metas = { a: meta(), b: meta(), c: meta(), d: meta() };
    for (const k of ['a', 'b', 'c'] as const) cache.set(`/${k}`, metas[k], ascii(1000), false, 1000, BIG);
    expect(cache.size).toBe(3);
    cache.get('/a', metas.a); // a is now the most recently used: b goes first
    cache.set('/d', metas.d, ascii(1000), false, 1000, BIG);
    expect(cache.get('/b', metas.b)).toBeUndefined();
    expect(['/a', '/c', '/d'].map((p, i) => cache.get(p, [metas.a, metas.c, metas.d][i]!)?.text.length)).toEqual([1000, 1000, 1000]);
    expect(cache.used).toBe(3 * (96 + 1000));
  });

  it('charges non-ASCII text two bytes a character, and keeps nothing over half the budget', () => {
    const cache = new TextCache(2 * (96 + 2 * 500));
    cache.set('/e', meta(), 'é'.repeat(500), false, 1000, BIG);
    expect(cache.used).toBe(96 + 2 * 500);
    cache.set('/big', meta(), ascii(96 + 2 * 500 + 1), false, 96 + 2 * 500 + 1, BIG);
    expect(cache.size).toBe(1);
    const off = new TextCache(0);
    off.set('/a', meta(), 'a', false, 1, BIG);
    expect(off.size).toBe(0);
  });

  it('holds at most a quarter of the bytes stored, or 1 MiB', () => {
    const cache = new TextCache(1e9);
    const m = meta();
    const mib = 1024 * 1024;
    cache.set('/a', m, ascii(mib / 2), false, mib / 2, 10); // half of the 1 MiB floor: too big
    expect(cache.size).toBe(0);
    const piece = mib - 96; // each costs 1 MiB; storing 8 MiB allows 2 MiB
    cache.set('/a', m, ascii(piece), false, piece, 8 * mib);
    cache.set('/b', meta(), ascii(piece), false, piece, 8 * mib);
    expect(cache.size).toBe(2);
    cache.set('/c', meta(), ascii(piece), false, piece, 8 * mib); // the oldest goes
    expect([cache.size, cache.get('/a', m)]).toEqual([2, undefined]);
  });

  it('replacing a path releases what its old text held', () => {
    const cache = new TextCache(10_000);
    cache.set('/a', meta(), ascii(100), false, 100, BIG);
    cache.set('/a', meta(), ascii(10), false, 10, BIG);
    expect([cache.size, cache.used]).toEqual([1, 96 + 10]);
    cache.clear();
    expect([cache.size, cache.used]).toEqual([0, 0]);
  });
});

describe('roundTrips', () => {
  it('accepts text that decodes back unchanged, U+FFFD and surrogate pairs included', () => {
    for (const text of ['', 'plain', 'é\u{1F600}\n', 'a\uFFFDb', '\u00ff'.repeat(3)]) expect(roundTrips(text, utf8(text)), text).toBe(true);
  });

  it('refuses a lone surrogate, a leading U+FEFF and a NUL where the binary check looks', () => {
    for (const text of ['a\uD800', '\uDC00', 'x\uFFFD\uD83D', '\uFEFFa', 'a\0b']) expect(roundTrips(text, utf8(text)), JSON.stringify(text)).toBe(false);
    const lateNul = `${ascii(9000)}\0`; // past the first 8 KiB: still a text file
    expect(roundTrips(lateNul, utf8(lateNul))).toBe(true);
  });
});
