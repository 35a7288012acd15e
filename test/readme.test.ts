// The README's quickstart must compile (strict TypeScript against the shipped types) and run
// (against the built package, imported by its own name).
import { afterAll, describe, expect, it } from 'vitest';
import { runSnippet, scratchDir, snippetUnder, typecheck } from './readme-snippets.ts';

const scratch = scratchDir('quickstart');
const quickstart = snippetUnder('Quickstart');
afterAll(() => scratch.remove());

describe('README quickstart', () => {
  it('compiles with strict TypeScript against the shipped types', () => {
    typecheck(scratch.dir, { quickstart });
  });

  it('runs and prints what the comments say', async () => {
    const out = await runSnippet(scratch.dir, 'quickstart', quickstart);
    expect(out).toContain('     1\texport const greeting = "hello";');
    expect(out).toContain('Edited /src/app.ts: 1 replacement.');
    expect(out).toContain('     1\texport const greeting = "hi";');
  });
});
