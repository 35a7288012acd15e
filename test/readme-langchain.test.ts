// The README's LangChain and deepagents example, exactly as printed: it must typecheck against
// the shipped types, deepagents and @langchain/core, and, run with Node, leave the edit in agentvfs.
import { afterAll, expect, it } from 'vitest';
import { runSnippet, scratchDir, snippetUnder, typecheck } from './readme-snippets.ts';

const scratch = scratchDir('langchain');
const example = snippetUnder('With LangChain and deepagents');
afterAll(() => scratch.remove());

it('typechecks with strict TypeScript against the shipped types, deepagents and @langchain/core', () => {
  // @langchain/core's own declarations use Symbol.asyncDispose (docs/langchain.md tells users).
  typecheck(scratch.dir, { langchain: example }, ['esnext.disposable']);
});

it('runs a deep agent whose edit lands in agentvfs', async () => {
  expect(await runSnippet(scratch.dir, 'langchain', example)).toBe('export const greeting = "hi";\n\n');
});
