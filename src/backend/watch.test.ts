import { describe, expect, it } from 'vitest';
import type { WatchEvent } from './types.ts';
import { onePerPath } from './watch.ts';

const file = (e: Omit<WatchEvent, 'isDir'>): WatchEvent => ({ ...e, isDir: false });

describe('onePerPath: a call that touches a path twice is reported as its net change', () => {
  it.each([
    [
      'rename then modify',
      [file({ type: 'rename', oldPath: '/a', path: '/b', version: 5 }), file({ type: 'modify', path: '/b', version: 6 })],
      [file({ type: 'rename', oldPath: '/a', path: '/b', version: 6 })],
    ],
    [
      'create then modify',
      [file({ type: 'create', path: '/a', version: 1 }), file({ type: 'modify', path: '/a', version: 2 })],
      [file({ type: 'create', path: '/a', version: 2 })],
    ],
    [
      'modify then modify',
      [file({ type: 'modify', path: '/a', version: 1 }), file({ type: 'modify', path: '/a', version: 2 })],
      [file({ type: 'modify', path: '/a', version: 2 })],
    ],
    ['create then remove', [file({ type: 'create', path: '/a', version: 1 }), file({ type: 'remove', path: '/a' })], []],
    ['modify then remove', [file({ type: 'modify', path: '/a', version: 1 }), file({ type: 'remove', path: '/a' })], [file({ type: 'remove', path: '/a' })]],
    [
      'rename then remove: the old path goes',
      [file({ type: 'rename', oldPath: '/a', path: '/b', version: 1 }), file({ type: 'remove', path: '/b' })],
      [file({ type: 'remove', path: '/a' })],
    ],
    [
      'remove then create',
      [file({ type: 'remove', path: '/a' }), file({ type: 'create', path: '/a', version: 3 })],
      [file({ type: 'modify', path: '/a', version: 3 })],
    ],
    [
      'create then rename',
      [file({ type: 'create', path: '/a', version: 1 }), file({ type: 'rename', oldPath: '/a', path: '/b', version: 1 })],
      [file({ type: 'create', path: '/b', version: 1 })],
    ],
    [
      'rename then rename',
      [file({ type: 'rename', oldPath: '/a', path: '/b', version: 1 }), file({ type: 'rename', oldPath: '/b', path: '/c', version: 1 })],
      [file({ type: 'rename', oldPath: '/a', path: '/c', version: 1 })],
    ],
    [
      'renamed and back',
      [file({ type: 'rename', oldPath: '/a', path: '/b', version: 1 }), file({ type: 'rename', oldPath: '/b', path: '/a', version: 2 })],
      [file({ type: 'modify', path: '/a', version: 2 })],
    ],
  ])('%s', (_, events, expected) => {
    expect(onePerPath(events)).toEqual(expected);
  });

  it('keeps commit order (the first event of a path holds its place) and leaves other paths alone', () => {
    const events = [
      file({ type: 'rename', oldPath: '/a', path: '/b', version: 1 }),
      file({ type: 'create', path: '/c', version: 2 }),
      file({ type: 'modify', path: '/b', version: 3 }),
    ];
    expect(onePerPath(events)).toEqual([file({ type: 'rename', oldPath: '/a', path: '/b', version: 3 }), file({ type: 'create', path: '/c', version: 2 })]);
  });

  it('a file replaced by a directory of the same name stays two events', () => {
    const events: WatchEvent[] = [file({ type: 'remove', path: '/a' }), { type: 'create', path: '/a', version: 4, isDir: true }];
    expect(onePerPath(events)).toEqual(events);
  });
});
