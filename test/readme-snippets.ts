// Helpers for the README's and docs/' tests: take a code block out of README.md or docs/*.md,
// typecheck it with strict TypeScript against the shipped types (and the SDKs), and run it with
// Node as a user would.
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { transform } from 'esbuild';

export const root = join(import.meta.dirname, '..');
export const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The first ```ts block under the README heading `## title` (and before the next `## `). */
export function snippetUnder(title: string): string {
  const section = readme.split(`\n## ${title}\n`)[1]?.split('\n## ')[0];
  const code = section?.match(/```ts\n([\s\S]*?)```/)?.[1];
  if (!code) throw new Error(`README.md has no \`\`\`ts block under "## ${title}"`);
  return code;
}

/** One ```ts block of docs/*.md: its page, its number on the page (from 1), the line its code starts on. */
export interface DocsBlock {
  page: string;
  n: number;
  line: number;
  code: string;
}

/** Every ```ts block of every docs/*.md page, in page order. */
export function docsBlocks(): DocsBlock[] {
  const pages = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort();
  return pages.flatMap((page) => {
    const markdown = readFileSync(join(root, 'docs', page), 'utf8');
    return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((m, i) => ({
      page,
      n: i + 1,
      line: markdown.slice(0, m.index).split('\n').length + 1,
      code: m[1]!,
    }));
  });
}

/**
 * A scratch directory inside the repository (git-ignored), so that `agentvfs` resolves to the
 * built package by its own name and the SDKs to node_modules, as in a user's project.
 */
export function scratchDir(name: string): { dir: string; remove: () => void } {
  const dir = join(root, '.readme-check', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Typechecks each snippet as its own ES module with strict settings and exactOptionalPropertyTypes
 * (`lib`: more than es2022 and dom; `exact: false` leaves the latter off); throws tsc's report.
 */
export function typecheck(dir: string, snippets: Record<string, string>, lib: string[] = [], { exact = true } = {}): void {
  const files = Object.entries(snippets).map(([name, code]) => {
    writeFileSync(join(dir, `${name}.mts`), `${code}\nexport {};\n`);
    return `${name}.mts`;
  });
  const compilerOptions = {
    strict: true,
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    noEmit: true,
    lib: ['es2022', 'dom', ...lib],
    types: [],
    // The strictest settings a user's project may have; the frameworks' own declarations do not
    // all pass them (test/package/packed.test.ts checks agentvfs's without skipLibCheck).
    exactOptionalPropertyTypes: exact,
    skipLibCheck: true,
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }));
  try {
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8' });
  } catch (error) {
    throw new Error(`tsc rejected the snippet:\n${(error as { stdout?: string }).stdout ?? error}`);
  }
}

/** Strips the types (nothing else changes) and writes the snippet as `dir/name.mjs`; resolves with that path. */
export async function writeSnippet(dir: string, name: string, code: string): Promise<string> {
  const { code: js } = await transform(code, { loader: 'ts', format: 'esm', target: 'es2022' });
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, js);
  return file;
}

/** Writes the snippet (writeSnippet) and runs it with Node in `dir`; resolves with its output. */
export async function runSnippet(dir: string, name: string, code: string, env: Record<string, string> = {}): Promise<string> {
  const file = await writeSnippet(dir, name, code);
  try {
    // Asynchronous: the test's own replay server must keep answering while the snippet runs.
    const options = { encoding: 'utf8', cwd: dir, env: { ...process.env, ...env } } as const;
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [file], options);
    // A README that a reader copies must not use what its SDK already calls deprecated (a model id, an option).
    if (/deprecated/i.test(stderr)) throw Object.assign(new Error('deprecated'), { stdout, stderr });
    return stdout;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    throw new Error(`the snippet "${name}" failed:\n${e.stderr ?? ''}${e.stdout ?? ''}`);
  }
}
