// The native view is read off the parser's tree: these pin what it refuses and how it spells what it keeps.
import { describe, expect, it } from 'vitest';
import { toJsSource } from './emit.ts';
import { compileLineMatcher } from './matcher.ts';
import { parseRe2 } from './syntax.ts';

const js = (pattern: string): string | null => {
  const view = parseRe2(pattern);
  return view === null ? null : toJsSource(view.root);
};

describe('native view', () => {
  it.each([
    ['(?:ab)+c', '(?:ab)+c'],
    ['(?P<n>a)(b)', 'ab'],
    ['[.]x', '\\.x'],
    ['[a-a]', 'a'],
    ['[^\\W_]', '[^\\W_]'],
    ['\\s\\S', '[\\t\\n\\f\\r ][^\\t\\n\\f\\r ]'],
    ['[\\s\\d]', '[\\t\\n\\f\\r \\d]'],
    ['\\Aa.\\z', '^a[^\\n]$'],
    ['(?s).', '[^\\n]'],
    ['(a|b)c', '(?:a|b)c'],
    ['a()b', 'ab'],
  ])('spells /%s/ as /%s/', (pattern, source) => {
    expect(js(pattern)).toBe(source);
  });

  it.each(['(?U)a+', 'a(?i)b', '(?i:a)', '(?)a', '(?-i)a', '(?i)(?s)a', '\\pL', '[\\S]', '[[:alpha:]]', '[[:]', '^*', '(\\b)+', 'a(', '\\8'])(
    'has none for /%s/',
    (pattern) => {
      expect(parseRe2(pattern)).toBeNull();
    },
  );

  it('takes a leading (?i) as case folding, and (?m) or (?s) as no flag at all', () => {
    expect(parseRe2('(?i)a')?.ignoreCase).toBe(true);
    expect(parseRe2('(?ms)a')?.ignoreCase).toBe(false);
    expect(parseRe2('(?smi)a')?.ignoreCase).toBe(true);
  });

  it('reads a zero-padded count literally, as RE2 does, in every engine', () => {
    expect(js('a{01}')).toBe('a\\{01\\}');
    expect(compileLineMatcher('a{01}').find('a')).toBeNull();
    expect(compileLineMatcher('a{01}').find('xa{01}')).toEqual({ index: 1, length: 5 });
    expect(compileLineMatcher('\\w{001,2}').find('ab')).toBeNull();
  });
});
