import { describe, expect, it } from 'vitest';
import { compilePermissions } from './permissions.ts';

const reaches = (read: string[], dir: string) => compilePermissions({ read }).mayHoldReadable(dir);

describe('mayHoldReadable: could a read glob match something inside this directory?', () => {
  it.each([
    [['/src/*.ts'], '/', true],
    [['/src/*.ts'], '/src', true],
    [['/src/*.ts'], '/src/private', false],
    [['/src/*.ts'], '/other', false],
    [['/src/**'], '/src/a/b/c', true],
    [['/src/**/test/*.ts'], '/src/deep/er', true],
    [['/*/lib/*.ts'], '/pkg/lib', true],
    [['/*/lib/*.ts'], '/pkg/src', false],
    [['/.config/*'], '/.config', true], // dotfiles match, as in the glob tool
    [['/{src,test}/*.ts'], '/test', true],
    [['/{src,test}/*.ts'], '/docs', false],
    // Braces holding a "/" cannot be cut into segments: anything under the literal start may hold one.
    [['/a/{b/c,d}/*.ts'], '/a/x', true],
    [['/a/{b/c,d}/*.ts'], '/z', false],
    [['/{a,(b)/c}/*.ts'], '/a', true], // nested groups: the "/" is still inside the braces
    // Empty segments match no name, and are no error.
    [['/src/'], '/src', true],
    [['/src//*.ts'], '/src', true],
    [['/src/**/'], '/src/x', true],
  ])('%j reaches into %s: %s', (read, dir, expected) => {
    expect(reaches(read, dir)).toBe(expected);
  });
});
