import { describe, expect, it } from 'vitest';
import { createTools } from '../../src/index.ts';
import { manualClock, type BackendFactory } from './harness.ts';

const WHY = 'ignored by .gitignore or the default .git/ and node_modules/ ignores';

// A project as agents meet it: build output, logs, dependencies and git's own files beside the sources.
const PROJECT = {
  '/.gitignore': '# build output\ndist/\n*.log\n!keep.log\n/cache\n',
  '/src/app.ts': 'export const hello = 1;\n',
  '/src/debug.log': 'hello from a log\n',
  '/src/keep.log': 'hello kept\n',
  '/src/.gitignore': 'generated/\n',
  '/src/generated/api.ts': 'hello generated\n',
  '/src/cache/c.ts': 'hello, not the root cache\n',
  '/cache/c.ts': 'hello cached\n',
  '/dist/app.js': 'hello built\n',
  '/node_modules/lib/index.js': 'hello dependency\n',
  '/.git/HEAD': 'ref: refs/heads/main\n',
};

export function ignoreToolSuite(make: BackendFactory) {
  describe('.gitignore rules in glob, grep and ls', () => {
    it('glob leaves out what the rules ignore (nested files, negation, anchoring, directory-only, defaults) and says how many', async () => {
      const tools = createTools(await make({ files: PROJECT }));
      const out = (await tools.call('glob', { pattern: '**/*' })).split('\n');
      expect(out.slice(0, -1).sort()).toEqual(['/.gitignore', '/src/.gitignore', '/src/app.ts', '/src/cache/c.ts', '/src/keep.log']);
      expect(out.at(-1)).toBe(`... [6 more matching files are ${WHY}; respect_git_ignore: false includes them]`);
      // Only what the pattern matched counts.
      expect(await tools.call('glob', { pattern: '**/*.ts' })).toMatch(/\n\.\.\. \[2 more matching files are ignored by/);
      expect(await tools.call('glob', { pattern: 'src/*.ts' })).toBe('/src/app.ts');
      const all = (await tools.call('glob', { pattern: '**/*', respect_git_ignore: false })).split('\n');
      expect(all.sort()).toEqual(Object.keys(PROJECT).sort());
    });

    it('glob that finds only ignored files says so, and how to include them', async () => {
      const tools = createTools(await make({ files: PROJECT }));
      expect(await tools.call('glob', { pattern: '**/*.js' })).toBe(
        `No files found matching "**/*.js" in /. 2 matching files are ${WHY}; respect_git_ignore: false includes them.`,
      );
    });

    it('grep does not search ignored files, and says how many it left out', async () => {
      const tools = createTools(await make({ files: PROJECT }));
      expect(await tools.call('grep', { pattern: 'hello' })).toBe(
        `/src/app.ts\n/src/cache/c.ts\n/src/keep.log\n... [6 files ${WHY} were not searched; respect_git_ignore: false searches them]`,
      );
      // The glob argument narrows what counts as left out.
      expect(await tools.call('grep', { pattern: 'hello', glob: '*.js', output_mode: 'count' })).toBe(
        `No matches found for "hello" in / (files matching "*.js"). 2 files in scope are ${WHY}; respect_git_ignore: false searches them.`,
      );
      expect(await tools.call('grep', { pattern: 'hello', glob: '*.ts', respect_git_ignore: false })).toBe(
        '/cache/c.ts\n/src/app.ts\n/src/cache/c.ts\n/src/generated/api.ts',
      );
      expect(await tools.call('grep', { pattern: 'hello', output_mode: 'content', path: '/src' })).toBe(
        `/src/app.ts:1:export const hello = 1;\n/src/cache/c.ts:1:hello, not the root cache\n/src/keep.log:1:hello kept\n... [2 files ${WHY} were not searched; respect_git_ignore: false searches them]`,
      );
    });

    it('a path naming an ignored directory is searched as asked, the rules applying beneath it', async () => {
      const tools = createTools(
        await make({ files: { ...PROJECT, '/node_modules/lib/node_modules/dep/x.js': 'hello', '/node_modules/lib/out.log': 'hello' } }),
      );
      expect(await tools.call('glob', { pattern: '**/*.js', path: '/node_modules' })).toBe(
        `/node_modules/lib/index.js\n... [1 more matching file is ${WHY}; respect_git_ignore: false includes them]`,
      );
      expect(await tools.call('grep', { pattern: 'hello', path: '/node_modules/lib' })).toBe(
        `/node_modules/lib/index.js\n... [2 files ${WHY} were not searched; respect_git_ignore: false searches them]`,
      );
      expect(await tools.call('grep', { pattern: 'hello', path: '/dist/app.js' })).toBe('/dist/app.js'); // a file named is searched
      expect(JSON.parse(await tools.call('ls', { path: '/dist' }))).toEqual([{ name: 'app.js', path: '/dist/app.js', is_dir: false, size: 12 }]);
    });

    it('ls leaves out ignored entries of that directory and says how many', async () => {
      const tools = createTools(await make({ files: PROJECT }));
      const [json, note] = (await tools.call('ls', {})).split('\n');
      expect(JSON.parse(json!).map((e: { name: string }) => e.name)).toEqual(['src', '.gitignore']);
      expect(note).toBe(`... [4 entries ${WHY} not shown; respect_git_ignore: false lists them]`);
      const all = JSON.parse(await tools.call('ls', { respect_git_ignore: false }));
      expect(all.map((e: { name: string }) => e.name)).toEqual(['.git', 'cache', 'dist', 'node_modules', 'src', '.gitignore']);
      const src = (await tools.call('ls', { path: '/src' })).split('\n');
      expect(JSON.parse(src[0]!).map((e: { name: string }) => e.name)).toEqual(['cache', '.gitignore', 'app.ts', 'keep.log']);
      expect(src[1]).toBe(`... [2 entries ${WHY} not shown; respect_git_ignore: false lists them]`);
    });

    it('read_file of an ignored path works', async () => {
      const tools = createTools(await make({ files: PROJECT }));
      expect(await tools.call('read_file', { path: '/dist/app.js' })).toBe('     1\thello built');
    });

    it('a changed, added or removed .gitignore applies to the next search', async () => {
      const backend = await make({ files: PROJECT });
      const tools = createTools(backend);
      await tools.call('read_file', { path: '/.gitignore' });
      await tools.call('edit_file', { path: '/.gitignore', old_string: 'dist/\n', new_string: '' });
      expect(await tools.call('glob', { pattern: 'dist/*' })).toBe('/dist/app.js');
      await backend.writeFile('/dist/.gitignore', '*\n');
      expect(await tools.call('glob', { pattern: 'dist/*' })).toMatch(/^No files found matching "dist\/\*" in \/\. 2 matching files are ignored/);
      await backend.remove('/dist/.gitignore');
      expect(await tools.call('glob', { pattern: 'dist/*' })).toBe('/dist/app.js');
      await backend.remove('/src/.gitignore');
      expect(await tools.call('glob', { pattern: 'src/generated/*' })).toBe('/src/generated/api.ts');
    });

    it('a .gitignore may re-include what the defaults ignore', async () => {
      // One clock tick for all: glob lists newest first, so equal times give path order.
      const tools = createTools(
        await make({ files: { '/.gitignore': '!node_modules/\n', '/node_modules/a.js': '', '/.git/HEAD': '' }, now: manualClock().now }),
      );
      expect(await tools.call('glob', { pattern: '**/*' })).toBe(
        `/.gitignore\n/node_modules/a.js\n... [1 more matching file is ${WHY}; respect_git_ignore: false includes them]`,
      );
    });

    it('backend methods: respectGitIgnore is off unless asked; countIgnored reports what was left out', async () => {
      const b = await make({ files: PROJECT });
      expect((await b.glob('**/*')).length).toBe(Object.keys(PROJECT).length);
      expect((await b.glob('**/*', { respectGitIgnore: true })).length).toBe(5);
      const report = await b.glob('**/*.ts', { respectGitIgnore: true, countIgnored: true });
      expect({ paths: [...report.paths].sort(), ignored: report.ignored }).toEqual({ paths: ['/src/app.ts', '/src/cache/c.ts'], ignored: 2 });
      const grep = await b.grep('hello', { respectGitIgnore: true, countIgnored: true });
      expect({ files: grep.matches.map((m) => m.path), ignored: grep.ignored }).toEqual({
        files: ['/src/app.ts', '/src/cache/c.ts', '/src/keep.log'],
        ignored: 6,
      });
      expect((await b.grep('hello')).length).toBe(8);
      const ls = await b.ls('/', { respectGitIgnore: true, countIgnored: true });
      expect({ names: ls.entries.map((e) => e.name), ignored: ls.ignored }).toEqual({ names: ['src', '.gitignore'], ignored: 4 });
      expect((await b.ls('/')).length).toBe(6);
    });

    it('nothing to ignore: results carry no note', async () => {
      const tools = createTools(await make({ files: { '/a.ts': 'x', '/b/c.ts': 'x' } }));
      expect(await tools.call('glob', { pattern: '**/*.ts' })).toMatch(/^\/(a|b\/c)\.ts\n\/(a|b\/c)\.ts$/);
      expect(await tools.call('grep', { pattern: 'x' })).toBe('/a.ts\n/b/c.ts');
      expect(await tools.call('ls', {})).not.toContain('\n');
    });
  });
}
