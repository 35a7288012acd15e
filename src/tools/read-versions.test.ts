import { describe, expect, it } from 'vitest';
import type { Backend } from '../backend/types.ts';
import { ReadVersions } from './read-versions.ts';

/** A backend whose only method is stat, at `version`. */
const at = (version: number) => ({ stat: async () => ({ version }) }) as unknown as Backend;

describe('ReadVersions.forCall: what a call counts as read', () => {
  it('counts what calls answered before it learned and what it learns itself, not what a call still unanswered read', async () => {
    const reads = new ReadVersions();
    reads.forCall({ n: 1, unanswered: [] }).add('/a', 1);
    reads.forCall({ n: 2, unanswered: [] }).add('/a', 2); // a read_file in flight when call 3 was made
    const third = reads.forCall({ n: 3, unanswered: [2] });
    expect(await third.expected(at(2), '/a')).toBe(1); // so the write finds 2, not 1: ESTALE
    expect(await reads.forCall({ n: 4, unanswered: [] }).expected(at(2), '/a')).toBe(2);
    // A call made before call 2 did not see it either, answered or not.
    expect(await reads.forCall({ n: 1, unanswered: [] }).expected(at(2), '/a')).toBe(1);
    // Its own read counts.
    third.add('/a', 2);
    expect(await third.expected(at(2), '/a')).toBe(2);
    // No call context: everything counts (as before numbering).
    expect(await reads.forCall(undefined).expected(at(2), '/a')).toBe(2);
  });

  it('a file only an unanswered call read is unread for the call', async () => {
    const reads = new ReadVersions();
    reads.forCall({ n: 1, unanswered: [] }).add('/b', 5);
    expect(await reads.forCall({ n: 2, unanswered: [1] }).expected(at(5), '/b')).toBeUndefined();
  });

  it("counts the session's own writes, whichever call made them", async () => {
    const reads = new ReadVersions();
    reads.forCall({ n: 1, unanswered: [] }).add('/a', 1);
    reads.forCall({ n: 2, unanswered: [] }).add('/a', 7);
    const sibling = reads.forCall({ n: 3, unanswered: [2] });
    expect(await sibling.expected(at(7), '/a')).toBe(1);
    reads.recordWrites([{ path: '/a', version: 7 }], reads.forCall({ n: 2, unanswered: [] })); // call 2 was an edit: it wrote 7
    expect(await sibling.expected(at(7), '/a')).toBe(7);
  });

  it("does not count as the session's own write a version whose content the writing call did not know", async () => {
    const reads = new ReadVersions();
    reads.forCall({ n: 1, unanswered: [] }).add('/a', 1);
    // Call 2 wrote, but a person put other content (version 7) in place of its own: forgotten.
    const writer = reads.forCall({ n: 2, unanswered: [] });
    writer.add('/a', 7);
    reads.forget('/a');
    reads.forCall({ n: 3, unanswered: [] }).add('/a', 7); // a read beside call 4
    reads.recordWrites([{ path: '/a', version: 7 }], writer);
    expect(await reads.forCall({ n: 4, unanswered: [3] }).expected(at(7), '/a')).toBeUndefined();
    // A version the call never learned (a moved file that was stale, recorded at its old version): not its write either.
    reads.recordWrites([{ path: '/b', version: 9 }], reads.forCall({ n: 5, unanswered: [] }));
    reads.forCall({ n: 6, unanswered: [] }).add('/b', 9);
    expect(await reads.forCall({ n: 7, unanswered: [6] }).expected(at(9), '/b')).toBeUndefined();
  });

  it('keeps counting a version first read long ago, however often it was read since (a rollback brings it back)', async () => {
    const reads = new ReadVersions();
    reads.forCall({ n: 1, unanswered: [] }).add('/a', 1);
    for (let n = 2; n < 400; n++) reads.forCall({ n, unanswered: [] }).add('/a', 2);
    expect(await reads.forCall({ n: 400, unanswered: [] }).expected(at(1), '/a')).toBe(1);
    expect(await reads.forCall({ n: 401, unanswered: [399] }).expected(at(2), '/a')).toBe(2);
  });

  it('a file a person rewrote stays unseen for a call made beside the read that saw it', () => {
    const reads = new ReadVersions();
    reads.forget('/c');
    expect(reads.unseen('/c')).toBe(true);
    reads.forCall({ n: 1, unanswered: [] }).add('/c', 3);
    expect(reads.unseen('/c')).toBe(false);
    const beside = reads.forCall({ n: 2, unanswered: [1] });
    expect(beside.unseen('/c')).toBe(true);
    expect(() => beside.refuseUnseen('/c')).toThrow(/which you have not read/);
    expect(reads.forCall({ n: 3, unanswered: [] }).unseen('/c')).toBe(false);
    // Moved by the session: the mark goes with the file.
    reads.moved('/c', '/d');
    expect(beside.unseen('/d')).toBe(true);
    expect(beside.unseen('/c')).toBe(false);
  });
});
