// directory_tree over the result cap: valid JSON as deep as fits, and what was left out.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type TreeEntry, treeText } from './tree-output.ts';

const file = (name: string): TreeEntry => ({ name, type: 'file' });
const dir = (name: string, children: TreeEntry[]): TreeEntry => ({ name, type: 'directory', children });
const inB = Array.from({ length: 30 }, (_, i) => file(`x${i}.txt`));
const tree = [dir('a', [dir('b', inB), file('c.txt')]), file('top.txt')];

describe('treeText', () => {
  it('is the JSON whole when it fits', () => {
    expect(JSON.parse(treeText(tree))).toEqual(tree);
  });

  it("is the server's JSON text exactly (JSON.stringify with a 2-space indent), empty directories and odd names too", () => {
    const entries: fc.Memo<TreeEntry[]> = fc.memo((n) =>
      fc.array(
        fc.oneof(fc.string().map(file), n > 1 ? fc.tuple(fc.string(), entries(n - 1)).map(([name, children]) => dir(name, children)) : fc.string().map(file)),
        { maxLength: 4 },
      ),
    );
    fc.assert(
      fc.property(entries(4), (t) => {
        expect(treeText(t)).toBe(JSON.stringify(t, null, 2));
      }),
      { numRuns: 500 },
    );
  });

  it('a tree thousands of levels deep, or with a huge top level, is cut without overflowing the stack', () => {
    let deep: TreeEntry[] = [file('end.txt')];
    for (let i = 0; i < 5_000; i++) deep = [dir(`d${i}`, deep)];
    const [json, note] = splitNote(treeText(deep));
    expect(note).toMatch(/^\[5,?001 entries are more than fit in 80,000 characters: the tree is shown \d+ levels deep/);
    expect(JSON.parse(json!)[0].name).toBe('d4999');
    const wide = Array.from({ length: 200_000 }, (_, i) => file(`f${i}`));
    expect(splitNote(treeText(wide))[1]).toMatch(/shown are the first \d+ of the 200000 at the top/);
  });

  it('over the cap: the tree as deep as fits, still JSON, then what was left out', () => {
    const max = 800; // two levels and the note fit, the whole does not
    expect(JSON.stringify(tree, null, 2).length).toBeGreaterThan(max);
    const [cut, said] = splitNote(treeText(tree, max));
    expect(JSON.parse(cut!)).toEqual([dir('a', [{ name: 'b', type: 'directory' }, file('c.txt')]), file('top.txt')]);
    expect(said).toBe(
      '[34 entries are more than fit in 800 characters: the tree is shown 2 levels deep, and its directories without "children" are not expanded (30 entries left out). Call directory_tree on one of them, or leave some out with excludePatterns.]',
    );
    expect(treeText(tree, max).length).toBeLessThanOrEqual(max);
  });

  it('a flat directory too long for one level: its first entries, then how many there are', () => {
    const flat = Array.from({ length: 1000 }, (_, i) => file(`f${i}.txt`));
    const text = treeText(flat, 2_000);
    expect(text.length).toBeLessThanOrEqual(2_000);
    const [json, note] = splitNote(text);
    const shown = JSON.parse(json!) as TreeEntry[];
    expect(shown.length).toBeGreaterThan(10);
    expect(shown).toEqual(flat.slice(0, shown.length));
    expect(note).toBe(
      `[1000 entries are more than fit in 2,000 characters: shown are the first ${shown.length} of the 1000 at the top, directories not expanded. Call directory_tree on a subdirectory, or leave some out with excludePatterns.]`,
    );
  });
});

/** The JSON and the note line after it, if any. */
function splitNote(text: string): [string | undefined, string | undefined] {
  const at = text.lastIndexOf('\n[');
  return at === -1 || !text.endsWith(']') || text.slice(at + 1).startsWith('[\n') ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
