// The store makes memfs Nodes and Links without memfs's constructors (see memfs-store.ts). That
// relies on the fields of the pinned memfs (@jsonjoy.com/fs-core 4.80.1): these tests fail if an
// upgrade changes them, so the store can be brought in step before anything misbehaves.
import { Link } from '@jsonjoy.com/fs-core/lib/Link';
import { Node } from '@jsonjoy.com/fs-core/lib/Node';
import { describe, expect, it } from 'vitest';
import { BulkCopy, LINK_FIELDS, MemfsStore, NODE_FIELDS } from './memfs-store.ts';

const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
const CHANGED = 'memfs internals changed: update StoreNode/StoreLink in src/storage/memfs-store.ts to match';
const utf8 = (s: string) => new TextEncoder().encode(s);

function sample(): MemfsStore {
  const store = new MemfsStore();
  store.mkdir('/a');
  store.mkdir('/a/b');
  store.write('/a/b/c.txt', utf8('hello'));
  store.write('/top.txt', utf8(''));
  return store;
}

describe('storage: memfs internals the store depends on', () => {
  it('memfs Node has exactly the fields StoreNode sets, in the same order', () => {
    expect(Object.keys(new Node(7, S_IFREG | 0o666, 0, 0)), CHANGED).toEqual([...NODE_FIELDS]);
  });

  it('memfs Link has exactly the fields StoreLink sets (plus the steps StoreLink derives)', () => {
    const link = new Link(undefined as never, undefined, '');
    link.setNode(new Node(1, S_IFDIR | 0o777, 0, 0));
    const fields: string[] = [...LINK_FIELDS];
    fields.splice(2, 0, '_steps');
    expect(Object.keys(link), CHANGED).toEqual(fields);
    const steps = Object.getOwnPropertyDescriptor(Link.prototype, 'steps');
    expect(typeof steps?.get === 'function' && typeof steps.set === 'function', CHANGED).toBe(true);
    expect(link.steps).toEqual(['']);
  });

  it("store entries are memfs objects with memfs's own field layout", () => {
    const store = sample();
    for (const path of ['/', '/a', '/a/b', '/a/b/c.txt', '/top.txt']) {
      const { link, node } = store.memfsEntry(path);
      expect(link).toBeInstanceOf(Link);
      expect(node).toBeInstanceOf(Node);
      expect(Object.keys(node)).toEqual([...NODE_FIELDS]);
      expect(Object.keys(link)).toEqual([...LINK_FIELDS, 'path']);
    }
  });

  it("memfs's own methods read store entries correctly", () => {
    const store = sample();
    const root = store.memfsEntry('/');
    const a = store.memfsEntry('/a');
    const b = store.memfsEntry('/a/b');
    const { link, node } = store.memfsEntry('/a/b/c.txt');
    expect(link.getNode()).toBe(node);
    expect(link.getPath()).toBe('/a/b/c.txt');
    expect(link.getParentPath()).toBe('/a/b');
    expect(link.getName()).toBe('c.txt');
    expect(link.toJSON().steps).toEqual(['', 'a', 'b', 'c.txt']);
    expect(root.link.steps).toEqual(['']);
    expect(b.link.getChild('c.txt')).toBe(link);
    expect(link.parent).toBe(b.link);
    expect(node.isFile() && !node.isDirectory()).toBe(true);
    expect(b.node.isDirectory()).toBe(true);
    expect(node.getSize()).toBe(5);
    expect(new TextDecoder().decode(node.getBuffer())).toBe('hello');
    // Directory bookkeeping as memfs's createChild/setChild keep it.
    expect(a.link.children.get('.')).toBe(a.link);
    expect(a.link.children.get('..')).toBe(root.link);
    expect(a.link.length).toBe(1);
    expect(a.node.nlink).toBe(3); // its entry, its ".", b's ".."
    expect(root.link.length).toBe(2);
    expect(node.mode & S_IFREG).toBe(S_IFREG);
    expect(typeof node.ino).toBe('number');
  });

  it('a rename keeps the paths and steps of everything moved', () => {
    const store = sample();
    store.rename('/a', '/z');
    const { link } = store.memfsEntry('/z/b/c.txt');
    expect(link.getPath()).toBe('/z/b/c.txt');
    expect(store.list('/').sort()).toEqual(['top.txt', 'z']);
    expect(new TextDecoder().decode(store.read('/z/b/c.txt'))).toBe('hello');
    expect(() => store.memfsEntry('/a/b/c.txt')).toThrow();
    store.remove('/z/b');
    expect(store.memfsEntry('/z').link.length).toBe(0);
    expect(store.memfsEntry('/z').node.nlink).toBe(2);
  });

  it('a file entry refuses children', () => {
    const { link } = sample().memfsEntry('/top.txt');
    expect(() => link.children.set('x', link)).toThrow(/cannot have children/);
  });
});

describe('storage: bulk copies', () => {
  // (Compared as Buffers: vitest's deep equality walks megabytes slowly.)
  const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);

  it('a bulk write of 128 MiB or more copies small files into a few shared buffers (an eighth of it each), a big one into its own; each file reads back exactly', () => {
    const store = new MemfsStore();
    const inputs = Array.from({ length: 40 }, (_, i) => new Uint8Array(100_000).fill(i));
    const big = new Uint8Array(40_000_000).fill(255); // over a quarter of a shared buffer
    // 1,000 files of 100 kB and the big one: 140 MB, so shared buffers of 17.5 MB. Only the first 40 are written here.
    const bulk = new BulkCopy([...Array.from({ length: 1000 }, () => 100_000), big.length]);
    for (let i = 0; i < inputs.length; i++) store.write(`/f${i}`, inputs[i]!, bulk);
    store.write('/big', big, bulk);
    for (const input of inputs) input.fill(7); // the caller's arrays are not kept
    const buffers = new Set(inputs.map((_, i) => store.view(`/f${i}`).buffer));
    expect(buffers.size).toBe(1); // 4 MB of them fit in the first shared buffer
    expect([...buffers][0]!.byteLength).toBe(17_500_000);
    expect(store.view('/big').buffer.byteLength).toBe(big.length);
    for (let i = 0; i < inputs.length; i++) expect(same(store.read(`/f${i}`), new Uint8Array(100_000).fill(i))).toBe(true);
    expect(same(store.read('/big'), big)).toBe(true);
    // Rewriting a file gives it a buffer of its own; its neighbours in the shared one are untouched.
    store.write('/f1', utf8('new'));
    expect(new TextDecoder().decode(store.read('/f1'))).toBe('new');
    expect(same(store.read('/f0'), new Uint8Array(100_000).fill(0))).toBe(true);
    expect(same(store.read('/f2'), new Uint8Array(100_000).fill(2))).toBe(true);
  });

  it('a smaller bulk write copies each file into a buffer of its own', () => {
    const store = new MemfsStore();
    const bulk = new BulkCopy([100_000, 100_000]);
    store.write('/a', new Uint8Array(100_000).fill(1), bulk);
    store.write('/b', new Uint8Array(100_000).fill(2), bulk);
    expect(store.view('/a').buffer).not.toBe(store.view('/b').buffer);
    expect(same(store.read('/a'), new Uint8Array(100_000).fill(1))).toBe(true);
    expect(same(store.read('/b'), new Uint8Array(100_000).fill(2))).toBe(true);
  });
});
