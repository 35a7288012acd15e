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
    reads.recordWrites([{ path: '/a', version: 7 }]); // call 2 was an edit, and it has answered
    expect(await sibling.expected(at(7), '/a')).toBe(7);
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
