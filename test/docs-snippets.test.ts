// Every ```ts block of docs/*.md compiles as a user's own ES module: strict TypeScript against
// the built package (imported by its own name, `agentvfs`) and the real SDKs, as the README's
// examples are checked. A block that continues its page (a `backend` made above, the reader's
// chat model) may take as given only what PRELUDE declares. tsc's report names the page and line
// (docs/tools.md:301:9). workspaces.md's WatchEvent must be the exported one. The blocks that need
// no model, network, server or browser also run.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { docsBlocks, root, runSnippet, scratchDir, typecheck, writeSnippet } from './readme-snippets.ts';

/**
 * What a block may use without making it: a few names the docs use for what the reader already
 * has, typed as the package and the SDKs type them. Blocks that read well on their own import and
 * make what they use instead.
 */
const PRELUDE = `
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { StateBackend, Tools } from 'agentvfs';

declare global {
  /** The reader's chat model (docs/langchain.md: "any tool-calling chat model"). */
  const model: BaseChatModel;
  /** A backend and a tool set made earlier on the page (persistence.md, ignore-rules.md, tools.md). */
  const backend: StateBackend;
  const tools: Tools;
  /** workspaces.md: the workspace and a fork of it, from the page's first example. */
  const main: StateBackend;
  const fork: StateBackend;
  /** The app's own: a person's yes or no on a diff (approval.md), an agent loop over a tool set (workspaces.md). */
  function askThePerson(question: string, diff: string): Promise<boolean>;
  function runAgent(tools: Tools, task: string): Promise<void>;
}
`;

// A block that imports Node's modules, or a package whose own declarations name Node's types (ai,
// the MCP SDK's stdio transport), is checked with @types/node, as its project has them; the
// others without (lib dom, as the README's checks), so that a page's code cannot lean on Node's.
const NEEDS_NODE = /from '(node:[\w/]+|ai|@modelcontextprotocol\/sdk\/server\/stdio\.js)'/;
// langchain's own types make humanInTheLoopMiddleware's options `never` under
// exactOptionalPropertyTypes (docs/langchain.md says so; the last test below keeps that true):
// such blocks are checked without it.
const NEEDS_INEXACT = /humanInTheLoopMiddleware\(/;

const blocks = docsBlocks();
const block = (page: string, n: number) => {
  const found = blocks.find((b) => b.page === page && b.n === n);
  if (!found) throw new Error(`docs/${page} has no ${n}th \`\`\`ts block`);
  return found.code;
};

// workspaces.md spells out WatchEvent; it must be the type the package exports, both ways.
const WATCH_EVENT_IS_EXPORTED = `import type { WatchEvent as Exported } from 'agentvfs';
${block('workspaces.md', 2)}
const same: [Exported, WatchEvent] extends [WatchEvent, Exported] ? true : false = true;
`;

const scratch = {
  browser: scratchDir('docs-browser'),
  node: scratchDir('docs-node'),
  inexact: scratchDir('docs-inexact'),
  langchainTypes: scratchDir('docs-langchain-types'),
  run: scratchDir('docs-run'),
};
afterAll(() => {
  for (const s of Object.values(scratch)) s.remove();
});

it('finds every ```ts block of docs/*.md, and no TypeScript fenced under another name', () => {
  expect(blocks.length).toBeGreaterThanOrEqual(25);
  for (const page of readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')))
    expect(readFileSync(join(root, 'docs', page), 'utf8'), page).not.toMatch(/^\s*```(typescript|tsx|mts|cts)\b/m);
});

const groupOf = (code: string) => (NEEDS_INEXACT.test(code) ? 'inexact' : NEEDS_NODE.test(code) ? 'node' : 'browser');

describe.each(['browser', 'node', 'inexact'] as const)('docs/*.md ```ts blocks (%s)', (group) => {
  it('typecheck with strict TypeScript against the shipped types and the SDKs', () => {
    const mine = blocks.filter((b) => groupOf(b.code) === group);
    expect(mine.length).toBeGreaterThan(0);
    // Each block is a file of its own whose code sits on its line in the page, so that tsc's
    // line numbers are the page's.
    const header = group === 'node' ? '/// <reference types="node" />' : '';
    const files = Object.fromEntries(mine.map((b) => [`${b.page}-${b.n}`, header + '\n'.repeat(b.line - 1) + b.code]));
    if (group === 'browser') files.watchEventIsExported = WATCH_EVENT_IS_EXPORTED;
    try {
      // @langchain/core's declarations use Symbol.asyncDispose (docs/langchain.md tells users).
      typecheck(scratch[group].dir, { prelude: PRELUDE, ...files }, ['esnext.disposable'], { exact: group !== 'inexact' });
    } catch (error) {
      throw new Error((error as Error).message.replace(/\S*?([\w-]+\.md)-\d+\.mts\((\d+),(\d+)\)/g, 'docs/$1:$2:$3'));
    }
  });
});

describe('the blocks that need no model, network, server or browser run with Node', () => {
  it.each([
    ['backend.md', 1],
    ['tools.md', 1],
    ['dialects.md', 1],
    ['mcp.md', 2],
  ] as const)('%s block %i runs', async (page, n) => {
    expect(await runSnippet(scratch.run.dir, `${page}-${n}`, block(page, n))).toBe('');
  });

  it('dialects.md: both forms of apply_patch write their files', async () => {
    const print = `\nconsole.log(JSON.stringify([await backend.readText('/src/app.ts'), await backend.readText('/notes.md')]));\n`;
    expect(JSON.parse(await runSnippet(scratch.run.dir, 'apply-patch', block('dialects.md', 2) + print))).toEqual(['new\n', 'hello\n']);
  });

  it('persistence.md: the file store keeps /notes.md for a later openPersistent', async () => {
    const reopen = `\nconst again = await openPersistent(createStateBackend(), createFileStore('./workspace.avfs'));\nconsole.log(await again.backend.readText('/notes.md'));\nawait again.backend.close();\n`;
    expect(await runSnippet(scratch.run.dir, 'file-store', block('persistence.md', 3) + reopen)).toBe('kept\n\n');
  });

  it('worker.md: main.mjs greps through its backend-thread.mjs', async () => {
    await writeSnippet(scratch.run.dir, 'backend-thread', block('worker.md', 2));
    expect(await runSnippet(scratch.run.dir, 'main', block('worker.md', 3))).toBe('/README.md\n');
  });
});

it("docs/langchain.md's note holds: langchain's own types refuse humanInTheLoopMiddleware's options under exactOptionalPropertyTypes", () => {
  const minimal = `import { humanInTheLoopMiddleware } from 'langchain';\nexport const m = humanInTheLoopMiddleware({ interruptOn: { write_file: true } });`;
  expect(() => typecheck(scratch.langchainTypes.dir, { minimal }, ['esnext.disposable'])).toThrow(/not assignable to parameter of type 'never'/);
  expect(() => typecheck(scratch.langchainTypes.dir, { minimal }, ['esnext.disposable'], { exact: false })).not.toThrow();
});
