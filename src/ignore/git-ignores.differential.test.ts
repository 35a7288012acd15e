// The ignore rules against git itself: random trees with random .gitignore files (nested,
// negated, anchored, directory-only, escaped, **), written to a real directory and asked of
// `git check-ignore`; glob (and ls, for each directory git does not ignore) must leave out
// exactly what git says it ignores.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStateBackend } from '../backend/state-backend.ts';

// No .git or node_modules: git treats .git as its own, and both are the defaults tested elsewhere.
// Directory names that are patterns themselves (a route folder "[slug]", "#n", "!i") hold .gitignore files too.
const DIRS = ['a', 'b', 'c', 'd.x', 'e f', 'Ab', '[s]', '#n', '!i'];
const FILES = ['f.txt', 'g.log', 'h.md', '#h', '!bang', 'x y', 'k', 'A.TXT', 'z[1]'];

const atom = fc.constantFrom(
  'a',
  'b',
  'c',
  'd.x',
  'e\\ f',
  'e f',
  'Ab',
  'f.txt',
  'g.log',
  '*.log',
  '*.txt',
  '*',
  '?.txt',
  'd.*',
  '[ab]',
  '[!a]',
  '[a-c]*',
  '\\#h',
  '\\!bang',
  'x\\ y',
  'x y',
  'k',
  'h.*',
  '**',
  'z\\[1\\]',
  'A.TXT',
  '*.TXT',
  '\\[s\\]',
  '\\#n',
  '\\!i',
  'g.log ',
  'k\\ ',
);
const prefix = fc.constantFrom('', '', '', '/', '**/', 'a/', '/a/', 'a/**/', '*/', 'b/*/', '**/a/');
const suffix = fc.constantFrom('', '', '', '/', '/**', '/*', '/**/*.txt');
const rule = fc.oneof(
  { weight: 8, arbitrary: fc.tuple(fc.boolean(), prefix, atom, suffix).map(([neg, p, a, s]) => `${neg ? '!' : ''}${p}${a}${s}`) },
  { weight: 1, arbitrary: fc.constantFrom('# a comment', '', '   ', '!', '/') },
);
const gitignoreText = fc.array(rule, { minLength: 1, maxLength: 8 }).map((lines) => `${lines.join('\n')}\n`);
const dirPath = fc.array(fc.constantFrom(...DIRS), { minLength: 0, maxLength: 3 });
const filePath = fc.tuple(dirPath, fc.constantFrom(...FILES)).map(([dirs, name]) => [...dirs, name].join('/'));
const tree = fc.record({
  files: fc.uniqueArray(filePath, { minLength: 1, maxLength: 40 }),
  ignores: fc.array(fc.tuple(dirPath, gitignoreText), { minLength: 1, maxLength: 5 }),
});

/** Files (relative paths) and their content, with each .gitignore put where its directory exists. */
function layout(t: { files: string[]; ignores: [string[], string][] }): Map<string, string> {
  const out = new Map<string, string>(t.files.map((f) => [f, 'x\n']));
  const dirs = new Set(['']);
  for (const f of t.files) for (let i = f.indexOf('/'); i !== -1; i = f.indexOf('/', i + 1)) dirs.add(f.slice(0, i));
  for (const [segments, text] of t.ignores) {
    const dir = segments.join('/');
    if (dirs.has(dir)) out.set(dir === '' ? '.gitignore' : `${dir}/.gitignore`, text);
  }
  return out;
}

/** The paths (relative) that git check-ignore says are ignored. */
function gitIgnored(files: Map<string, string>, asked: readonly string[]): Set<string> {
  const root = mkdtempSync(join(tmpdir(), 'agentvfs-ignore-'));
  try {
    for (const [path, content] of files) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), content);
    }
    const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
    execFileSync('git', ['init', '-q'], { cwd: root, env });
    let out = '';
    try {
      out = execFileSync('git', ['-c', 'core.excludesFile=/dev/null', '-c', 'core.ignoreCase=false', 'check-ignore', '--no-index', '--stdin', '-z'], {
        cwd: root,
        env,
        input: `${asked.join('\0')}\0`,
        encoding: 'utf8',
      });
    } catch (error) {
      if ((error as { status?: number }).status !== 1) throw error; // 1: nothing is ignored
    }
    return new Set(out.split('\0').filter((p) => p !== ''));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('.gitignore rules against git check-ignore', () => {
  it('glob leaves out exactly the files git ignores, and ls exactly the entries', async () => {
    await fc.assert(
      fc.asyncProperty(tree, async (t) => {
        const files = layout(t);
        const paths = [...files.keys()];
        const dirs = new Set<string>();
        for (const f of paths) for (let i = f.indexOf('/'); i !== -1; i = f.indexOf('/', i + 1)) dirs.add(f.slice(0, i));
        const ignored = gitIgnored(files, [...paths, ...dirs]);
        const backend = createStateBackend({ files: Object.fromEntries(paths.map((p) => [`/${p}`, files.get(p)!])) });

        const kept = await backend.glob('**/*', { respectGitIgnore: true, countIgnored: true });
        expect(new Set(kept.paths)).toEqual(new Set(paths.filter((p) => !ignored.has(p)).map((p) => `/${p}`)));
        expect(kept.ignored).toBe(paths.filter((p) => ignored.has(p)).length);

        // Each directory git descends into lists what git does not ignore in it. Directories are
        // asked without a trailing "/": check-ignore then tests them as its walk does (asked as
        // "dir/", a rule like "dir/*" or an empty one matches the empty name after the slash).
        for (const dir of ['', ...dirs]) {
          if (dir !== '' && [...dirs].some((d) => `${dir}/`.startsWith(`${d}/`) && ignored.has(d))) continue;
          const listed = await backend.ls(`/${dir}`, { respectGitIgnore: true });
          const all = await backend.ls(`/${dir}`);
          const expected = all.filter((e) => !ignored.has(e.path.slice(1))).map((e) => e.path);
          expect(listed.map((e) => e.path)).toEqual(expected);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('a .gitignore in a directory whose name is a pattern itself ("[slug]", "#notes", "!important") applies there, as in git', async () => {
    const cases: Record<string, string>[] = [
      { '#notes/.gitignore': '*.log\n', '#notes/a.log': 'x', '#notes/b.txt': 'x' },
      { '!important/.gitignore': '*.log\n', '!important/a.log': 'x', '!important/b.txt': 'x' },
      { 'app/[slug]/.gitignore': '*.bak\n', 'app/[slug]/a.bak': 'x', 'app/s/b.bak': 'x', 'app/[slug]/page.tsx': 'x' },
      { 'x[1]/.gitignore': '/out\n', 'x[1]/out': 'x', 'x1/out': 'x' },
      { '.gitignore': '*.log\n', '[draft]/.gitignore': '!keep.log\n', '[draft]/keep.log': 'x', '[draft]/other.log': 'x' },
      { 'a*/.gitignore': 'secret\n', 'abc/secret': 'x', 'a*/secret': 'x' },
    ];
    for (const files of cases) {
      const paths = Object.keys(files);
      const ignored = gitIgnored(new Map(Object.entries(files)), paths);
      const backend = createStateBackend({ files: Object.fromEntries(paths.map((p) => [`/${p}`, files[p]!])) });
      const kept = await backend.glob('**/*', { respectGitIgnore: true, countIgnored: true });
      expect(new Set(kept.paths), JSON.stringify(files)).toEqual(new Set(paths.filter((p) => !ignored.has(p)).map((p) => `/${p}`)));
    }
  });
});
