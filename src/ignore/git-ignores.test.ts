// GitIgnores' bookkeeping: what it reads of the tree and when, the fast path, and rules beneath
// a directory searched as asked. Its verdicts against git itself: git-ignores.differential.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Tree } from '../backend/tree.ts';
import { DEFAULT_LIMITS } from '../limits.ts';
import { GitIgnores, type IgnoredTree } from './git-ignores.ts';
import { compileGeminiIgnore } from './gitignore-rules.ts';

function treeOf(files: Record<string, string>): { tree: Tree; reads: string[]; files: IgnoredTree } {
  const tree = new Tree(DEFAULT_LIMITS, () => 0, { next: 1 });
  for (const [path, text] of Object.entries(files)) tree.writeFile(path, new TextEncoder().encode(text));
  const reads: string[] = [];
  const files_: IgnoredTree = {
    fileListUnder: (path) => tree.fileListUnder(path),
    get: (path) => tree.get(path),
    view: (path) => {
      reads.push(path);
      return tree.view(path);
    },
  };
  return { tree, reads, files: files_ };
}

/** The ignored files under `base`, by path. */
function ignoredUnder(ignores: GitIgnores, files: IgnoredTree, base = '/'): string[] {
  const list = files.fileListUnder(base);
  const flags = ignores.flagsFor(files, list, base);
  return flags === null ? [] : list.paths.filter((_, i) => flags[i] === 1);
}

describe('GitIgnores', () => {
  it('skips a rule too long for a RegExp (over 8192 characters) and keeps the others; ls of the tree still works', () => {
    const huge = `${'x'.repeat(40_000)}\n${'{'.repeat(20_000)}a${'}'.repeat(20_000)}\n`;
    const { files } = treeOf({ '/.gitignore': `*.log\n${huge}`, '/a/.gitignore': huge, '/a/b.log': '', '/b.log': '', '/c.ts': '' });
    const ignores = new GitIgnores();
    expect(ignoredUnder(ignores, files)).toEqual(['/a/b.log', '/b.log']);
    const entries = [
      { path: '/b.log', isDir: false },
      { path: '/c.ts', isDir: false },
      { path: `/${'x'.repeat(200)}`, isDir: false },
    ];
    expect(ignores.entriesIgnored(files, '/', entries)).toEqual([true, false, false]);
    expect(compileGeminiIgnore(`*.log\n${huge}`)!.ignores('x'.repeat(200))).toBe(false);
  });

  it('reads each .gitignore once per content: not again per search, nor when other files come and go', () => {
    const { tree, reads, files } = treeOf({ '/.gitignore': '*.log\n', '/a/.gitignore': 'x\n', '/a/x': '', '/b.log': '', '/c.ts': '' });
    const ignores = new GitIgnores();
    expect(ignoredUnder(ignores, files)).toEqual(['/a/x', '/b.log']);
    expect(reads.sort()).toEqual(['/.gitignore', '/a/.gitignore']);
    reads.length = 0;
    ignoredUnder(ignores, files);
    tree.writeFile('/d.log', new Uint8Array());
    expect(ignoredUnder(ignores, files)).toEqual(['/a/x', '/b.log', '/d.log']);
    tree.remove('/c.ts', false);
    ignoredUnder(ignores, files);
    expect(reads).toEqual([]);
    // A changed .gitignore is read again, and only that one.
    tree.writeFile('/a/.gitignore', new TextEncoder().encode('y\n'));
    expect(ignoredUnder(ignores, files)).toEqual(['/b.log', '/d.log']);
    expect(reads).toEqual(['/a/.gitignore']);
  });

  it('a tree with no .gitignore and nothing under .git/ or node_modules/ gives no flags at all', () => {
    const { files } = treeOf({ '/src/a.ts': '', '/README.md': '' });
    const ignores = new GitIgnores();
    expect(ignores.flagsFor(files, files.fileListUnder('/'), '/')).toBeNull();
    expect(ignores.flagsFor(files, files.fileListUnder('/src'), '/src')).toBeNull();
  });

  it('flags a run of the whole list by its own positions', () => {
    const { files } = treeOf({ '/a/keep.ts': '', '/b/node_modules/x.js': '', '/b/y.ts': '', '/c/z.ts': '' });
    const ignores = new GitIgnores();
    const list = files.fileListUnder('/b');
    expect(Array.from(ignores.flagsFor(files, list, '/b')!)).toEqual([1, 0]);
  });

  it('beneath a directory searched as asked, defaults and nested .gitignore files still apply', () => {
    const { files } = treeOf({
      '/node_modules/p/index.js': '',
      '/node_modules/p/.gitignore': 'gen/\n',
      '/node_modules/p/gen/g.js': '',
      '/node_modules/p/node_modules/q/i.js': '',
      '/node_modules/p/x.log': '',
      '/.gitignore': '*.log\n',
    });
    const ignores = new GitIgnores();
    expect(ignoredUnder(ignores, files, '/node_modules/p')).toEqual([
      '/node_modules/p/gen/g.js',
      '/node_modules/p/node_modules/q/i.js',
      '/node_modules/p/x.log',
    ]);
    expect(ignoredUnder(ignores, files, '/node_modules/p/gen')).toEqual([]); // asked for: searched
    expect(ignoredUnder(ignores, files, '/')).toHaveLength(5);
  });

  it('ls entries: a directory-only rule hides directories, not files of the same name', () => {
    const { files } = treeOf({ '/.gitignore': 'out/\n', '/out/a': '', '/sub/out': '', '/node_modules/m': '' });
    const ignores = new GitIgnores();
    const entries = (dir: string, names: [string, boolean][]) =>
      ignores.entriesIgnored(
        files,
        dir,
        names.map(([n, isDir]) => ({ path: dir === '/' ? `/${n}` : `${dir}/${n}`, isDir })),
      );
    expect(
      entries('/', [
        ['out', true],
        ['sub', true],
        ['node_modules', true],
        ['.gitignore', false],
      ]),
    ).toEqual([true, false, true, false]);
    expect(entries('/sub', [['out', false]])).toEqual([false]);
  });

  it('after any sequence of .gitignore edits, creations and removals, the kept verdicts equal fresh ones', () => {
    const dirs = ['', '/a', '/a/b', '/c'];
    const rules = fc.constantFrom('*.log', '!keep.log', 'b/', '/x', 'x', '*', '!*.ts', 'a/**/y', '**/b', '');
    const edit = fc.oneof(
      fc.record({ kind: fc.constant('ignore' as const), dir: fc.constantFrom(...dirs), text: fc.option(fc.array(rules, { maxLength: 3 })) }),
      fc.record({ kind: fc.constant('file' as const), dir: fc.constantFrom(...dirs), name: fc.constantFrom('x', 'y', 'keep.log', 'n.log', 'm.ts') }),
    );
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 12 }), (edits) => {
        const { tree, files } = treeOf({ '/a/b/y': '', '/a/x': '', '/c/keep.log': '', '/c/d.log': '', '/x': '', '/a/b/m.ts': '' });
        const kept = new GitIgnores();
        for (const e of edits) {
          const path = e.kind === 'ignore' ? `${e.dir}/.gitignore` : `${e.dir}/${e.name}`;
          if (e.kind === 'ignore' && e.text === null) {
            if (tree.get(path)) tree.remove(path, false);
          } else tree.writeFile(path, new TextEncoder().encode(e.kind === 'ignore' ? (e.text ?? []).join('\n') : ''));
          expect(ignoredUnder(kept, files)).toEqual(ignoredUnder(new GitIgnores(), files));
        }
      }),
      { numRuns: 200 },
    );
  });
});
