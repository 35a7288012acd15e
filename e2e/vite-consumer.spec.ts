/// <reference lib="dom" />
// A separate consumer project installs the packed tarball, builds with Vite and no
// configuration at all, and runs the worker backend in Chromium.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { expect, test } from '@playwright/test';

const root = join(import.meta.dirname, '..');
const ORIGIN = 'http://consumer.test';
let site = '';
let work = '';

test.beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'agentvfs-vite-'));
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: root, encoding: 'utf8' })) as Array<{
    filename: string;
  }>;
  const app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', join(work, packed[0]!.filename)], { cwd: app, stdio: 'ignore' });
  writeFileSync(join(app, 'index.html'), '<!doctype html><title>app</title><script type="module" src="/main.js"></script>');
  writeFileSync(
    join(app, 'main.js'),
    `import { createTools } from 'agentvfs';
import { createTools as createPageTools, createWorkerBackend } from 'agentvfs/client';
const backend = createWorkerBackend({ files: { '/notes/todo.md': '- ship it\\n' } });
const tools = createTools(backend);
const pageTools = createPageTools(backend, { dialect: 'anthropic' });
window.results = [
  await tools.call('grep', { pattern: 'ship', output_mode: 'content' }),
  await tools.call('read_file', { path: '/notes/todo.md' }),
  await pageTools.call('str_replace_based_edit_tool', { command: 'str_replace', path: '/notes/todo.md', old_str: 'ship', new_str: 'test' }),
  await backend.readText('/notes/todo.md'),
];
document.title = 'done';`,
  );
  // (Bundlers that lower class private fields, as esbuild for Vite 7's default target does: test/package/lowered-client.test.ts.)
  execFileSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error'], { cwd: app, stdio: 'inherit' });
  site = join(app, 'dist');
});
test.afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

test('a Vite app using the packed package runs the worker backend with no configuration', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.route(`${ORIGIN}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname;
    const file = path === '/' ? 'index.html' : path.slice(1);
    try {
      const body = readFileSync(join(site, file));
      return await route.fulfill({ body, contentType: extname(file) === '.html' ? 'text/html' : 'text/javascript' });
    } catch {
      return route.fulfill({ status: 404 });
    }
  });
  await page.goto(`${ORIGIN}/`);
  await expect(page).toHaveTitle('done', { timeout: 15_000 });
  const results = await page.evaluate(() => (window as unknown as { results: string[] }).results);
  expect(results.slice(0, 2)).toEqual(['/notes/todo.md:1:- ship it', '     1\t- ship it']);
  // agentvfs/client's createTools (no in-process tool code in the page): the edit ran in the worker.
  expect(results[2]).toMatch(/^The file \/notes\/todo\.md has been edited\. .*\n {5}1\t- test it\n/);
  expect(results[3]).toBe('- test it\n'); // a backend method, as persistence and the playground call them
  expect(errors).toEqual([]);
});
