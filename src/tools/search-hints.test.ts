import { describe, expect, it } from 'vitest';
import { anyDepthGlob, belowAnyDirectory, hasRegexSyntax, literalLookingSyntax, withoutBasePrefix, listAsBraces, outsideBase } from './search-hints.ts';

describe('anyDepthGlob', () => {
  it('puts **/ before the last segment', () => {
    expect(anyDepthGlob('*.py')).toBe('**/*.py');
    expect(anyDepthGlob('src/*.ts')).toBe('src/**/*.ts');
    expect(anyDepthGlob('/src/*.{ts,js}')).toBe('/src/**/*.{ts,js}');
    expect(anyDepthGlob('{src,lib}/*.ts')).toBe('{src,lib}/**/*.ts');
  });

  it('none when the pattern already crosses directories there, or the last / is inside braces', () => {
    expect(anyDepthGlob('**/*.py')).toBeNull();
    expect(anyDepthGlob('src/**')).toBeNull();
    expect(anyDepthGlob('src/')).toBeNull();
    expect(anyDepthGlob('{a,b/c}.ts')).toBeNull();
  });
});

describe('literalLookingSyntax', () => {
  it.each([
    ['foo(', ['(']],
    ['print(x)', ['(']],
    ['a + b', ['+']],
    ['x * y', ['*']],
    ['a.b', ['.']],
    ['console.log(', ['.', '(']],
    ['arr[0]', ['[']],
    ['$var', ['$']],
    ['${name}', ['$', '{']],
    ['a || b', ['|']],
    ['x ? y : z', ['?']],
    ['a^b', ['^']],
  ])('%s → %j', (pattern, chars) => {
    expect(literalLookingSyntax(pattern)).toEqual(chars);
  });

  it.each(['(a+)+$', 'foo.*bar', '^import', 'TODO|FIXME', 'foo(bar|baz)', 'a{2,3}', '[^a-z]+', '\\w+Sync\\(', 'a.b\\.c', 'plain'])('%s → none', (pattern) => {
    expect(literalLookingSyntax(pattern)).toEqual([]);
  });

  it('hasRegexSyntax: any operator or escape', () => {
    expect(hasRegexSyntax('plain words')).toBe(false);
    for (const p of ['a.b', 'a+', 'x?', '(', ')', '[', ']', '{', '}', 'a|b', '^a', 'a$', '\\d']) expect(hasRegexSyntax(p), p).toBe(true);
  });
});

describe('withoutBasePrefix', () => {
  it('drops the searched directory’s own path (or its last segments) from the front of a relative glob', () => {
    expect(withoutBasePrefix('src/**/*.ts', '/src')).toBe('**/*.ts');
    expect(withoutBasePrefix('proj/src/*.ts', '/proj/src')).toBe('*.ts');
    expect(withoutBasePrefix('src/*.ts', '/proj/src')).toBe('*.ts');
    expect(withoutBasePrefix('lib/*.ts', '/proj/src')).toBeNull();
    expect(withoutBasePrefix('src/', '/src')).toBeNull();
    expect(withoutBasePrefix('/src/*.ts', '/src')).toBeNull();
    expect(withoutBasePrefix('src/*.ts', '/')).toBeNull();
  });
});

describe('belowAnyDirectory', () => {
  it('puts a pattern with a directory at any depth', () => {
    expect(belowAnyDirectory('src/*.ts')).toBe('**/src/*.ts');
    expect(belowAnyDirectory('{src,lib}/*.ts')).toBe('**/{src,lib}/*.ts');
  });
  it('leaves alone a pattern without a directory, one from the root, one at any depth already, and a slash inside braces', () => {
    for (const pattern of ['*.ts', '/src/*.ts', '**/src/*.ts', '{a,b/c}.ts']) expect(belowAnyDirectory(pattern)).toBeNull();
  });
});

describe('listAsBraces', () => {
  it('a list of extensions becomes *.{…}; other lists become {…}; a single pattern or braces already are no list', () => {
    expect(listAsBraces('*.ts,*.js')).toBe('*.{ts,js}');
    expect(listAsBraces('*.ts, *.tsx *.js')).toBe('*.{ts,tsx,js}');
    expect(listAsBraces('src/**/*.ts,*.md')).toBe('{src/**/*.ts,*.md}');
    expect(listAsBraces('*.{ts,js}')).toBeNull();
    expect(listAsBraces('[a,b]*.ts')).toBeNull();
    expect(listAsBraces('*.ts')).toBeNull();
    expect(listAsBraces('*.ts,')).toBeNull();
  });
});

describe('outsideBase', () => {
  it('the directory a pattern names outside the base, and the pattern within it', () => {
    expect(outsideBase('/other/*.ts', '/proj')).toEqual({ path: '/other', pattern: '*.ts' });
    expect(outsideBase('../lib/**/*.ts', '/proj/src')).toEqual({ path: '/proj/lib', pattern: '**/*.ts' });
    expect(outsideBase('./../x/*.md', '/a/b')).toEqual({ path: '/a/x', pattern: '*.md' });
    // Inside the base, at the root, relative, with no directory, or above the root: not this slip.
    expect(outsideBase('/proj/src/*.ts', '/proj')).toBeNull();
    expect(outsideBase('/other/*.ts', '/')).toBeNull();
    expect(outsideBase('src/*.ts', '/proj')).toBeNull();
    expect(outsideBase('/*.ts', '/proj')).toBeNull();
    expect(outsideBase('../../../x/*.ts', '/proj')).toBeNull();
  });
});
